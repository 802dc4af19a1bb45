"""The game viewer: one offline HTML file per side to step through a game on the map.

``referee viewer GAME_DIR --side SIDE -o FILE.html`` writes it from the game's views,
whenever a player wants the current one (``docs/pbem.md``); steps do not carry it, so the
archive grows by one step's data a step. Archives from earlier referee versions hold a
``viewer-SIDE.html`` in every step, which ``verify`` still makes again and compares.
The file holds everything it shows: the printed board
(:func:`referee.render.board.render_board`, drawn on the player's machine from the module, as
a PNG in a ``data:`` URI reduced to a 64-colour palette), the play aids (the module's
charts), the data of :mod:`referee.viewer.data` as JSON, and a small hand-written script
and style sheet from ``templates/viewer/``. It loads nothing from the network: no external
script, font or picture.

Only the side's published documents go in (its ``view-SIDE.json`` of each step), so the file
never holds what the ruleset hides from that side. It is deterministic: the same documents
give the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import jinja2

from referee.resources import templates_dir
from referee.source.model import Module
from referee.viewer.data import VIEWER_FORMAT, StepDoc, viewer_model

VIEWER_DPI = 100
"""Board resolution in the viewer: hex numbers about 11 px high at zoom 1."""
CHART_DPI = 100
PALETTE = 64
"""Colours of the board and chart pictures: the board's flat colours survive; the file
shrinks about threefold (a 21-turn game's viewer stays far under 5 MB)."""
PLAY_AIDS = ("sequence", "crt", "tec", "victory")
"""The charts a player looks up during a game, in this order; then the game's scenario's
turn track, then any other table the module declares (not the set-up charts)."""


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "viewer")),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2")),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


@lru_cache(maxsize=1)
def viewer_templates_sha256() -> str:
    """The hash of the viewer's templates, script and style sheet: recorded in a turn's
    manifest, so ``verify`` compares a viewer file only when it has the same ones."""
    h = hashlib.sha256()
    for p in sorted((templates_dir() / "viewer").iterdir()):
        if p.is_file():
            h.update(p.name.encode() + b"\x00" + p.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return h.hexdigest()


def _palette_png(img: Any) -> bytes:
    """A deterministic palette PNG (fast octree, no dithering, no metadata)."""
    q = img.convert("RGB").quantize(colors=PALETTE, method=2, dither=0)
    buf = io.BytesIO()
    q.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


_CACHE: dict[str, Any] = {}


def _cached(module: Module, key: str, make: Any) -> Any:
    """One computation per module content and key: the board and charts are drawn once per
    process, however many steps, sides and module loads (the demo, ``verify``) ask for them.
    The key is a digest of every field of the module (what the board and the charts read)."""
    import dataclasses

    from referee.cache import digest
    from referee.render.artcache import read_fields

    names = tuple(f.name for f in dataclasses.fields(module) if not f.metadata.get("derived"))
    k = f"{digest('viewer', VIEWER_DPI, CHART_DPI, read_fields(module, names))}:{key}"
    if k not in _CACHE:
        if len(_CACHE) > 16:
            _CACHE.clear()
        _CACHE[k] = _stored(k, make)
    return _CACHE[k]


def _stored(k: str, make: Any) -> Any:
    """``make()`` kept in the picture cache between processes, as JSON (the board and charts
    are JSON already; key order kept), keyed by the code as well: without it each
    whole-process ``adjudicate`` redrew the board and every chart, most of its time
    (docs/performance.md). A run with the cache off computes it; with it on the value is the
    JSON read back, so a hit and a miss give the same bytes."""
    from referee.cache import active, code_fingerprint, digest

    cache = active()
    if not cache.enabled:
        return make()
    key = digest("viewer-part", code_fingerprint(), k)
    data = cache.get("viewer", key)  # checked against its SHA-256 by the cache
    if data is not None:
        try:
            return json.loads(data)
        except ValueError:
            pass
    data = json.dumps(make(), separators=(",", ":")).encode("utf-8")
    cache.put("viewer", key, data)
    return json.loads(data)


def board(module: Module) -> dict[str, Any]:
    """The board picture and its geometry: every place's anchor in image pixels, zone
    outlines (area maps) and the hex width (hex maps), for the pointer's place and the marks.

    Hex centres are listed in :meth:`referee.hexgrid.HexGrid.all_ids` order and the script
    spells the ids (``RRCC`` or ``CCRR``), so the file holds no hex id but those its steps
    name: searching a side's file for a hex id finds only what that side was shown."""

    def make() -> dict[str, Any]:
        from referee.render.board import board_layout, render_board
        from referee.render.board_layers import anchor

        lay = board_layout(module, VIEWER_DPI)
        m = module.map
        places: dict[str, list[float]] = {}
        kinds: dict[str, str] = {}
        grid: dict[str, Any] | None = None
        if m.grid is not None:  # centres in id order; the script spells the ids
            g = m.grid
            grid = {
                "id_format": g.id_format,
                "first_column": g.first_column,
                "first_row": g.first_row,
                "columns": g.columns,
                "rows": g.rows,
                "centres": [round(v, 1) for h in g.all_ids() for v in lay.pixel_centre(h)],
            }
        zones: dict[str, list[list[float]]] = {}
        if m.zones is not None:
            for name in sorted(m.zones.zones):
                x, y = anchor(module, lay, name)
                places[name] = [round(x, 1), round(y, 1)]
                kinds[name] = "zone"
                zones[name] = [
                    [round(a, 1), round(b, 1)]
                    for a, b in (lay.px(p) for p in m.zones.zones[name].outline)
                ]
        if m.spaces is not None:
            for name in sorted(m.spaces.spaces):
                x, y = anchor(module, lay, name)
                places[name] = [round(x, 1), round(y, 1)]
                kinds[name] = "space"
        return {
            "image": _data_uri(_palette_png(render_board(module, VIEWER_DPI))),
            "width": lay.width,
            "height": lay.height,
            "hex_width": lay.hex_width,
            "grid": grid,
            "places": places,
            "kinds": kinds,
            "zones": zones,
        }

    return _cached(module, "board", make)


def play_aids(module: Module, scenario: str) -> list[dict[str, str]]:
    """The charts one click away: sequence of play, CRT, TEC, victory, the scenario's turn
    track, then the module's other named tables (never a side's set-up chart); a module
    imported from VASSAL has its own charts instead (:func:`imported_aids`)."""
    if module.game is not None and module.game.imported is not None:
        from referee.source.cached import source_key

        # its charts are files of the source (tools.toml and the pictures it names), not
        # fields of the module: the key holds every file's bytes, so an edited picture is
        # drawn again; a source too large to hash is drawn every time
        files = source_key(module.root)
        if files is None:
            return imported_aids(module)
        return _cached(module, f"aids:imported:{files}", lambda: imported_aids(module))

    def make() -> list[dict[str, str]]:
        from referee.render.charts import build_charts, to_image

        charts = {c.name: c for c in build_charts(module)}
        names = [n for n in PLAY_AIDS if n in charts]
        if f"turns-{scenario}" in charts:
            names.append(f"turns-{scenario}")
        names += sorted(
            n for n in charts if n not in names and not n.startswith(("turns-", "setup-"))
        )
        return [
            {
                "name": n,
                "title": charts[n].title,
                "image": _data_uri(_palette_png(to_image(charts[n].drawing, CHART_DPI))),
            }
            for n in names
        ]

    return _cached(module, f"aids:{scenario}", make)


AID_PIXELS = 1600
"""The longest side of an imported chart's picture in the viewer (a scan may be far larger)."""


def imported_aids(module: Module) -> list[dict[str, str]]:
    """The charts of an imported module's chart windows (``tools.toml``), under the module's
    own names and with its own pictures, each fitted within :data:`AID_PIXELS`; none when the
    module has none, or when its ``tools.toml`` is not as ``import-vmod`` writes it."""
    import tomllib

    from PIL import Image

    from referee.safeio import UnsafeInput, resolve_inside
    from referee.source.diagnostics import Diagnostics
    from referee.source.vassal_tools import chart_pictures, check_tools

    path = module.root / "tools.toml"
    if not path.is_file():
        return []
    diags = Diagnostics()
    try:
        tools = check_tools(
            tomllib.loads(path.read_text("utf-8")), "tools.toml", module.root, diags
        )
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return []
    if diags.errors:
        return []
    aids: list[dict[str, str]] = []
    for n, (name, image) in enumerate(chart_pictures(tools), start=1):
        try:
            with Image.open(resolve_inside(module.root, image, what="image")) as img:
                img.thumbnail((AID_PIXELS, AID_PIXELS))
                picture = _data_uri(_palette_png(img))
        except (OSError, UnsafeInput, Image.DecompressionBombError):
            continue  # a picture the source lacks or that is no image: VASSAL says so too
        aids.append({"name": f"chart-{n}", "title": name, "image": picture})
    return aids


def script_json(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&``
    (nothing in the data can close the element), no line separators."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, esc)
    return text


def render_viewer(
    module: Module,
    steps: Sequence[StepDoc],
    *,
    side: str | None,
    referee: str,
    game_dir_hint: str = "GAME_DIR",
    signatures: Sequence[str] | None = None,
    draft: Mapping[str, Any] | None = None,
) -> str:
    """The viewer HTML for ``side`` (``None``: the referee's full record) over ``steps``.

    ``signatures`` gives each step's signature status when the caller checked it (``referee
    viewer`` does); the file beside a step says instead that ``referee verify`` checks it.
    ``draft``: the latest step's ``options-SIDE.json`` of ``side`` (the side is awaited),
    which turns on the orders mode: the player points at the legal orders the referee
    computed for his side and the page drafts ``orders.txt``; it holds no key and signs
    nothing."""
    model = viewer_model(module, steps, side=side, referee=referee)
    for n, st in enumerate(model["steps"]):
        st["signature"] = (
            signatures[n]
            if signatures is not None
            else "signed by the referee (report.json.sig); this file does not check it"
        )
    scenario = str(model["scenario"])
    geo = board(module)
    data = {
        **model,
        "board": {k: v for k, v in geo.items() if k != "image"},
        "aids": [{"name": a["name"], "title": a["title"]} for a in play_aids(module, scenario)],
        "game_dir": game_dir_hint,
        "draft": None if draft is None else dict(draft),
    }
    side_name = "referee (full record)" if side is None else side
    return (
        _env()
        .get_template("viewer.html.j2")
        .render(
            title=f"{module.name}, game {model['game_id']}: viewer for {side_name}",
            format=VIEWER_FORMAT,
            board_image=geo["image"],
            board_width=geo["width"],
            board_height=geo["height"],
            aids=play_aids(module, scenario),
            data_json=script_json(data),
            steps=model["steps"],
            units=model["units"],
            side_name=side_name,
            drafting=draft is not None,
        )
    )


def viewer_files(
    module: Module,
    history: Mapping[str, Sequence[Mapping[str, Any]]],
    views: Mapping[str, Mapping[str, Any]],
    referee: str,
) -> dict[str, bytes]:
    """``viewer-SIDE.html`` for each side in ``views`` (this step's ``view-SIDE.json``
    documents), over ``history[side]`` (the same documents of every step before) and this
    step: what a turn folder publishes beside its reports."""
    from referee.pbem.archive import slug
    from referee.viewer.data import step_from_view

    out: dict[str, bytes] = {}
    for side, view in sorted(views.items()):
        docs = [step_from_view(v) for v in history.get(side, ())] + [step_from_view(view)]
        html = render_viewer(module, docs, side=side, referee=referee)
        out[f"viewer-{slug(side)}.html"] = html.encode()
    return out


def step_viewers(
    module: Module,
    ruleset: Any,
    rendered: Mapping[str, bytes],
    history: Mapping[str, Sequence[Mapping[str, Any]]],
    referee: str,
) -> dict[str, bytes]:
    """The viewer files of a turn folder from its just-rendered ``view-SIDE.json`` files
    (``rendered``) and the same files of every step before (``history``): one per player
    side (a side the ruleset plays itself has no player to read it)."""
    from referee.engine.ruleset import referee_sides
    from referee.pbem.archive import slug

    automatic = referee_sides(ruleset)
    views = {
        s.id: json.loads(rendered[f"view-{slug(s.id)}.json"])
        for s in module.sides
        if s.id not in automatic and f"view-{slug(s.id)}.json" in rendered
    }
    return viewer_files(module, history, views, referee)
