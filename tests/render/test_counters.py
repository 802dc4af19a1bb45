"""Counter faces: exact size, deterministic bytes, text that fits, refused images."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
from PIL import Image

from referee.errors import UserError
from referee.render.counters import (
    MIN_TEXT_PT,
    counter_faces,
    counter_png,
    fit_report,
    render_blank,
    render_counter,
    render_counter_bleed,
)
from referee.render.symbols import SYMBOLS, symbol_mask
from referee.source.loader import load_module
from referee.source.model import LayoutBox, Module


def test_faces_cover_fronts_and_named_backs(mini: Module) -> None:
    faces = counter_faces(mini)
    assert [(u.id, b) for u, b in faces if not b] == [(u.id, False) for u in mini.units]
    assert sorted(u.id for u, b in faces if b) == sorted(u.id for u in mini.units if u.back)


@pytest.mark.parametrize("dpi", [None, 150, 75, 301])
def test_counter_size_is_exact(mini: Module, dpi: int | None) -> None:
    d = dpi or mini.counter.dpi
    for unit, back in counter_faces(mini):
        img = render_counter(mini, unit, back=back, dpi=dpi)
        assert img.mode == "RGB"
        assert img.size == (round(mini.counter.size_in * d),) * 2


def test_png_is_deterministic_and_has_no_metadata(mini: Module) -> None:
    unit = mini.units[0]
    a = counter_png(mini, unit)
    b = counter_png(mini, unit)
    assert a == b
    assert b"tIME" not in a and b"tEXt" not in a
    assert Image.open(io.BytesIO(a)).size == (150, 150)


def test_every_text_box_fits_and_is_legible_mini(mini: Module) -> None:
    report = fit_report(mini)
    assert report, "the mini layouts have text boxes"
    for f in report:
        assert f.fits, f
        assert f.legible, f
    values = [f for f in report if "-" in f.text and f.template.startswith("{AA}")]
    assert values and all(f.size_pt >= MIN_TEXT_PT for f in values)


def test_every_text_box_fits_sixth_fleet(sixth_fleet: Module) -> None:
    for f in fit_report(sixth_fleet):
        assert f.fits and f.legible, f


def test_same_box_same_type_size_across_the_mix(mini: Module) -> None:
    sizes: dict[tuple[str, int], set[float]] = {}
    for f in fit_report(mini):
        sizes.setdefault((f.layout, f.index), set()).add(f.size_px)
    assert all(len(s) == 1 for s in sizes.values())


def test_daylight_band_only_on_daylight_units(mini: Module) -> None:
    badger = mini.unit("SO-T16")
    phantom = mini.unit("US-F4")
    assert badger.has("daylight") and not phantom.has("daylight")
    top = render_counter(mini, badger).getpixel((75, 5))
    assert top == (0xFF, 0xD7, 0x00)
    assert render_counter(mini, phantom).getpixel((75, 5)) != (0xFF, 0xD7, 0x00)


def test_text_that_cannot_fit_names_unit_and_box(mini: Module) -> None:
    naval = mini.counter.layouts["naval"]
    tiny = dataclasses.replace(naval.boxes[3], w=0.2)
    layouts = dict(mini.counter.layouts)
    layouts["naval"] = dataclasses.replace(naval, boxes=(*naval.boxes[:3], tiny))
    broken = dataclasses.replace(mini, counter=dataclasses.replace(mini.counter, layouts=layouts))
    with pytest.raises(UserError) as exc:
        render_counter(broken, broken.units[0])
    msg = str(exc.value)
    assert "box 3" in msg and "'naval'" in msg
    assert any(f"unit {u.id}:" in msg for u in broken.units if u.category != "air")


def test_bleed_keeps_the_counter_pixels(mini: Module) -> None:
    unit = mini.units[2]
    plain = render_counter(mini, unit)
    bled = render_counter_bleed(mini, unit, bleed_px=19)
    assert bled.size == (150 + 38, 150 + 38)
    assert bled.crop((19, 19, 169, 169)).tobytes() == plain.tobytes()
    assert render_blank(mini, unit).size == (150, 150)


@pytest.mark.parametrize("key", sorted(SYMBOLS))
def test_every_symbol_draws_something(key: str) -> None:
    mask = symbol_mask(key, 100, 40)
    assert mask.getbbox() is not None


def _with_image(src: Path, name: str) -> Module:
    units = src / "units.csv"
    lines = units.read_text().splitlines()
    lines[0] += ",image"
    lines[1:] = [ln + ("," + name if i == 0 else ",") for i, ln in enumerate(lines[1:])]
    units.write_text("\n".join(lines) + "\n")
    module, diags = load_module(src)
    assert module is not None, [str(d) for d in diags.items]
    return module


def test_roster_image_is_drawn(mini_copy: Path) -> None:
    Image.new("RGB", (40, 20), (0, 200, 0)).save(mini_copy / "pic.png")
    module = _with_image(mini_copy, "pic.png")
    img = render_counter(module, module.units[0])
    assert img.getpixel((75, 65)) == (0, 200, 0)


def test_non_image_is_refused(mini_copy: Path) -> None:
    (mini_copy / "pic.png").write_text("not a picture")
    module = _with_image(mini_copy, "pic.png")
    with pytest.raises(UserError, match="not a readable PNG or JPEG"):
        render_counter(module, module.units[0])


def test_huge_image_is_refused(mini_copy: Path) -> None:
    Image.new("L", (4097, 2), 0).save(mini_copy / "big.png")
    module = _with_image(mini_copy, "big.png")
    with pytest.raises(UserError, match="4096"):
        render_counter(module, module.units[0])


def test_gif_is_refused(mini_copy: Path) -> None:
    Image.new("P", (10, 10), 0).save(mini_copy / "pic.gif")
    module = _with_image(mini_copy, "pic.gif")
    with pytest.raises(UserError, match="only PNG and JPEG"):
        render_counter(module, module.units[0])


def test_unknown_back_layout_is_a_user_error(mini: Module) -> None:
    unit = dataclasses.replace(mini.units[2], back="nope")
    with pytest.raises(UserError, match="unknown counter layout"):
        render_counter(mini, unit, back=True)


def test_layout_box_kinds_drawn(mini: Module) -> None:
    assert {b.kind for lay in mini.counter.layouts.values() for b in lay.boxes} >= {
        "text",
        "symbol",
        "band",
        "mark",
    }
    assert isinstance(mini.counter.layouts["air"].boxes[0], LayoutBox)


# ---- Sixth Fleet counters as a wargamer reads them (issue 12 §4) ------------------------------
VALUE_MIN_PT = 5.5  # published half-inch counters print values at about 6 pt


def test_sixth_fleet_values_print_at_least_5_5_pt(sixth_fleet: Module) -> None:
    keys = {v.key for v in sixth_fleet.values}
    values = [f for f in fit_report(sixth_fleet) if any("{" + k + "}" in f.template for k in keys)]
    assert values, "the layouts print the values"
    assert sixth_fleet.counter.size_in == 0.5
    small = sorted(
        {(f.layout, f.template, round(f.size_pt, 2)) for f in values if f.size_pt < VALUE_MIN_PT}
    )
    assert small == []
    # every value of every front is printed (two lines: AA-AS-ASW over MA-DEF-ECM)
    for unit, back in counter_faces(sixth_fleet):
        if back:
            continue
        printed = "-".join(f.text for f in values if f.unit == unit.id and not f.back)
        want = "-".join(str(unit.values[v.key]) for v in sixth_fleet.values)
        assert printed == want, unit.id


def test_every_sixth_fleet_counter_shows_its_nationality(sixth_fleet: Module) -> None:
    shown: dict[str, set[str]] = {}
    for f in fit_report(sixth_fleet):
        if not f.back:
            shown.setdefault(f.unit, set()).add(f.text)
    missing = [u.id for u in sixth_fleet.units if u.nationality not in shown.get(u.id, set())]
    assert missing == []


def test_nationality_colours_stay_apart_for_colour_blind_players(sixth_fleet: Module) -> None:
    from itertools import combinations

    from referee.render.colors import worst_cvd_difference

    close = []
    for a, b in combinations(sorted(sixth_fleet.nationalities.values(), key=lambda n: n.code), 2):
        d, who = worst_cvd_difference(a.color, b.color)
        if d < 20:
            close.append((a.code, b.code, round(d, 1), who))
    assert close == []


def test_cvd_simulation_merges_red_and_green_for_deuteranopes() -> None:
    from referee.render.colors import delta_e, simulate_cvd, worst_cvd_difference

    red, green = "#D62728", "#2CA02C"
    assert delta_e(red, green) > 50  # plainly different to most viewers
    d, who = worst_cvd_difference(red, green)
    assert d < delta_e(red, green) / 2 and who in ("protanopia", "deuteranopia")
    assert simulate_cvd("#123456", "normal") == (0x12, 0x34, 0x56)
