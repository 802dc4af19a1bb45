"""Pictures the art tests make themselves (no third-party art): a map picture drawn from a
module's own hexes, turned and scaled, with the true place of every hex centre known."""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from referee.source.loader import load_module

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "modules" / "mini"


@dataclass(frozen=True)
class Placement:
    """picture pixel = scale * R(angle) * (page at hex width 1) + (tx, ty)."""

    scale: float
    angle_deg: float
    tx: float
    ty: float

    def picture_of(self, u: float, v: float) -> tuple[float, float]:
        c, s = math.cos(math.radians(self.angle_deg)), math.sin(math.radians(self.angle_deg))
        return self.scale * (c * u - s * v) + self.tx, self.scale * (s * u + c * v) + self.ty


def draw_map_picture(src: Path, place: Placement, size: tuple[int, int]) -> Image.Image:
    """The hexes of the module at ``src`` filled with their terrain colour, outlined, on a
    paper margin, placed on the picture by ``place``."""
    module, diags = load_module(src)
    assert module is not None, diags.errors
    grid = module.map.grid.scaled(1.0)
    img = Image.new("RGB", size, "#F3EFE2")
    draw = ImageDraw.Draw(img)
    for hid, h in sorted(module.map.hexes.items()):
        pts = [place.picture_of(*p) for p in grid.corners(hid)]
        draw.polygon(pts, fill=module.map.terrain[h.terrain].color, outline="#333333")
    return img


def map_svg(src: Path, place: Placement, size: tuple[int, int]) -> str:
    """The same map picture as :func:`draw_map_picture`, drawn as SVG polygons."""
    module, diags = load_module(src)
    assert module is not None, diags.errors
    grid = module.map.grid.scaled(1.0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size[0]}" height="{size[1]}" '
        f'viewBox="0 0 {size[0]} {size[1]}">',
        f'<rect width="{size[0]}" height="{size[1]}" fill="#F3EFE2"/>',
    ]
    for hid, h in sorted(module.map.hexes.items()):
        pts = " ".join(
            f"{x:.2f},{y:.2f}" for x, y in (place.picture_of(*p) for p in grid.corners(hid))
        )
        fill = module.map.terrain[h.terrain].color
        out.append(f'<polygon points="{pts}" fill="{fill}" stroke="#333333" stroke-width="1"/>')
    return "\n".join([*out, "</svg>"]) + "\n"


def art_source(
    tmp: Path,
    place: Placement = Placement(160.0, 4.0, 260.0, 120.0),
    size: tuple[int, int] = (1700, 1200),
    anchors: tuple[str, ...] = ("0101", "0108", "0601", "0608"),
    extra_board: str = "",
    svg: bool = False,
) -> tuple[Path, Placement]:
    """A copy of the mini module whose map has a picture (``map.png``, or ``map.svg``) and
    four anchors read (to the whole pixel, as a designer reads them) at the true hex centres."""
    src = tmp / "artmini"
    shutil.copytree(MINI, src)
    if svg:
        (src / "map.svg").write_text(map_svg(MINI, place, size))
    else:
        draw_map_picture(MINI, place, size).save(src / "map.png")
    module, _ = load_module(MINI)
    grid = module.map.grid.scaled(1.0)
    text = (src / "map.toml").read_text()
    name = "map.svg" if svg else "map.png"
    lines = ["[board]", f'image = "{name}"', extra_board, ""]
    for h in anchors:
        x, y = place.picture_of(*grid.centre(h)) if grid.is_valid_id(h) else (5.0, 5.0)
        lines += ["[[grid.anchor]]", f'hex = "{h}"', f"x = {round(x)}", f"y = {round(y)}", ""]
    (src / "map.toml").write_text(text + "\n" + "\n".join(lines))
    return src, place


# ---- counter sheets ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetSpec:
    columns: int = 4
    rows: int = 2
    counter: int = 150  # the mini's 0.5 in counters at its 300 dpi
    first: tuple[int, int] = (40, 56)
    gutter: tuple[int, int] = (12, 14)
    background: str = "#FFFFFF"

    def cell(self, r: int, c: int) -> tuple[int, int]:
        return (
            self.first[0] + c * (self.counter + self.gutter[0]),
            self.first[1] + r * (self.counter + self.gutter[1]),
        )

    @property
    def size(self) -> tuple[int, int]:
        w = self.first[0] * 2 + self.columns * self.counter + (self.columns - 1) * self.gutter[0]
        h = self.first[1] * 2 + self.rows * self.counter + (self.rows - 1) * self.gutter[1]
        return w, h


def sheet_source(
    tmp: Path, spec: SheetSpec = SheetSpec(), extra: str = ""
) -> tuple[Path, dict[str, tuple[Image.Image, Image.Image | None]]]:
    """A copy of the mini module whose counters are cut from a sheet (front and back) made by
    rendering the mini's own roster: returns the source and each unit's original faces."""
    src = tmp / "sheetmini"
    shutil.copytree(MINI, src)
    return src, add_sheet(src, spec, extra)


def add_sheet(
    src: Path, spec: SheetSpec = SheetSpec(), extra: str = ""
) -> dict[str, tuple[Image.Image, Image.Image | None]]:
    """Cut the counters of the source at ``src`` (a copy of the mini) from a sheet made by
    rendering its roster; returns each unit's original faces."""
    from referee.render.counters import render_blank, render_counter

    module, diags = load_module(src)
    assert module is not None, diags.errors
    front = Image.new("RGB", spec.size, spec.background)
    back = Image.new("RGB", spec.size, spec.background)
    faces: dict[str, tuple[Image.Image, Image.Image | None]] = {}
    rows: list[list[str]] = [[""] * spec.columns for _ in range(spec.rows)]
    for n, unit in enumerate(module.units):
        r, c = divmod(n, spec.columns)
        f = render_counter(module, unit)
        b = render_counter(module, unit, back=True) if unit.back else render_blank(module, unit)
        front.paste(f, spec.cell(r, c))
        x, y = spec.cell(r, c)
        back.paste(b, (spec.size[0] - x - spec.counter, y))  # duplex: mirrored left to right
        faces[unit.id] = (f, b)
        rows[r][c] = unit.id
    (src / "art").mkdir()
    front.save(src / "art" / "front.png")
    back.save(src / "art" / "back.png")
    (src / "art" / "ids.csv").write_text("\n".join(",".join(r) for r in rows) + "\n")
    sheet = [
        "[[counter.sheet]]",
        'front = "art/front.png"',
        'back = "art/back.png"',
        'ids = "art/ids.csv"',
        f"columns = {spec.columns}",
        f"rows = {spec.rows}",
        f"counter = {spec.counter}",
        f"first = [{spec.first[0]}, {spec.first[1]}]",
        f"gutter = [{spec.gutter[0]}, {spec.gutter[1]}]",
        extra,
    ]
    text = (src / "module.toml").read_text()
    (src / "module.toml").write_text(text + "\n" + "\n".join(sheet) + "\n")
    return faces


def solid_sheet_svg(spec: SheetSpec, ids: list[list[str]]) -> tuple[str, str, dict]:
    """A front and a back sheet as SVG, every counter a solid colour of its own (the back
    mirrored as a duplex sheet prints): ``(front svg, back svg, id -> (front, back) rgb)``."""
    w, h = spec.size
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="#FFFFFF"/>'
    )
    front, back, colours = [head], [head], {}
    for r, row in enumerate(ids):
        for c, uid in enumerate(row):
            if not uid:
                continue
            n = r * spec.columns + c
            f, b = (220, 30 + 30 * n, 40), (40, 30 + 30 * n, 220)
            x, y = spec.cell(r, c)
            s = spec.counter
            front.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="rgb{f}"/>')
            back.append(f'<rect x="{w - x - s}" y="{y}" width="{s}" height="{s}" fill="rgb{b}"/>')
            colours[uid] = (f, b)
    return "".join([*front, "</svg>"]), "".join([*back, "</svg>"]), colours
