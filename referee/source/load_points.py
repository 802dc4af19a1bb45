"""Load and check the spaces of a point-to-point map: ``[[space_type]]``, ``[[space]]``,
``[[line]]`` and ``[[link]]``.

A line is an ordered route through spaces (a Carrier Battlegroup navigation line); it links
each space to the next (one way when ``directed = true``) and every space on it belongs to it.
``[[link]]`` adds a link that is on no line, or a directed one. Checks (each ``file:line:col``):
duplicate names (a space may not share a zone's name either: a location name means one place);
unknown space types; a space off the board; on a hex map, a space in a hex that is not on the
map; an unknown space on a line or link (the nearest name is suggested); a line of fewer than
two spaces or visiting a space twice in a row; a link from a space to itself; a link declared
twice (by two links, or by a link and a line); two spaces drawn on the same point.
"""

from __future__ import annotations

import itertools
from typing import Any

from referee.source.diagnostics import did_you_mean
from referee.source.load_mapkinds import (
    COLOR_RE,
    Blocks,
    MapCtx,
    kinds,
    load_types,
    location_name,
    properties,
    type_of,
)
from referee.source.mapkinds import Line, Link, Point, Space, SpaceLayer
from referee.source.model import Origin

SPACE_KEYS = ("name", "type", "at", "hex", "zone", "properties")
LINE_KEYS = ("name", "spaces", "color", "directed")
LINK_KEYS = ("from", "to", "directed", "blocks")
MIN_SPACING_IN = 0.05


def load_spaces(
    mc: MapCtx, data: dict[str, Any], zone_names: tuple[str, ...] = ()
) -> SpaceLayer | None:
    """The space layer, or ``None`` when the map declares no spaces (errors are reported)."""
    if not any(k in data for k in ("space", "space_type", "line", "link")):
        return None
    types = load_types(mc, data, "space_type")
    blocks = Blocks(mc.tt, "space")
    spaces: dict[str, Space] = {}
    points: dict[tuple[int, int], str] = {}
    for i, t in enumerate(mc.tables(data, "space", SPACE_KEYS)):
        ln = blocks.start(i)
        name = location_name(mc, t.get("name"), blocks.key(i, "name"), "[[space]]")
        if name is None:
            continue
        if name in spaces or name in zone_names:
            lnum, col = blocks.value(i, name, "name")
            first = f"line {spaces[name].origin.line}" if name in spaces else "a zone"
            mc.error(lnum, f"space {name!r} is declared twice (also {first})", col=col)
            continue
        what = f"space {name!r}"
        lnum, col = blocks.value(i, str(t.get("type")), "type")
        stype = type_of(mc, t.get("type"), types, lnum, col, what, "space_type")
        at, hex_id = _position(mc, blocks, i, t, what)
        zone = t.get("zone")
        if zone is not None and (not isinstance(zone, str) or zone not in zone_names):
            lnum, col = blocks.value(i, str(zone), "zone")
            mc.error(
                lnum,
                f"{what}: unknown zone {zone!r}",
                col=col,
                hint=did_you_mean(str(zone), list(zone_names)) or "no zone has that name",
            )
            zone = None
        props = properties(mc, t.get("properties"), blocks.key(i, "properties"), what)
        if stype is None or at is None:
            continue
        spot = (round(at[0] / MIN_SPACING_IN), round(at[1] / MIN_SPACING_IN))
        if spot in points:
            mc.error(
                blocks.key(i, "at" if "at" in t else "hex"),
                f"{what} is drawn on the same point as space {points[spot]!r}",
                hint="spaces need their own points so a piece dropped there finds one",
            )
            continue
        points[spot] = name
        spaces[name] = Space(name, stype, at, (), props, hex_id, zone, Origin(mc.file, ln))
    lines = _lines(mc, data, spaces)
    links = _links(mc, data, spaces, lines)
    member: dict[str, list[str]] = {}
    for line in lines.values():
        for s in line.spaces:
            if line.name not in member.setdefault(s, []):
                member[s].append(line.name)
    spaces = {
        n: Space(s.name, s.type, s.at, tuple(member.get(n, ())), s.properties, s.hex, s.zone,
                 s.origin)
        for n, s in spaces.items()
    }  # fmt: skip
    return SpaceLayer(types, spaces, tuple(links), lines)


def _position(
    mc: MapCtx, blocks: Blocks, i: int, t: dict[str, Any], what: str
) -> tuple[Point | None, str | None]:
    if ("at" in t) == ("hex" in t):
        mc.error(
            blocks.start(i),
            f'{what} needs exactly one of at = [x, y] or hex = "0101"',
            hint="hex only on a map with a [grid]",
        )
        return None, None
    if "at" in t:
        return mc.point(t["at"], blocks.key(i, "at"), f"{what}: at"), None
    h = t["hex"]
    lnum, col = blocks.value(i, str(h), "hex")
    if mc.grid is None:
        mc.error(lnum, f"{what}: hex = ... needs a [grid] in this map file", col=col)
        return None, None
    if not isinstance(h, str) or not mc.grid.is_valid_id(h):
        mc.error(lnum, f"{what}: hex {h!r} is not on the map", col=col)
        return None, None
    return mc.grid.centre(h), h


def _known(
    mc: MapCtx,
    blocks: Blocks,
    i: int,
    name: object,
    spaces: dict[str, Space],
    key: str,
    what: str,
) -> str | None:
    if isinstance(name, str) and name in spaces:
        return name
    lnum, col = blocks.value(i, str(name), key)
    mc.error(
        lnum,
        f"{what}: unknown space {name!r}",
        col=col,
        hint=did_you_mean(str(name), list(spaces)) or "no space has that name",
    )
    return None


def _lines(mc: MapCtx, data: dict[str, Any], spaces: dict[str, Space]) -> dict[str, Line]:
    blocks = Blocks(mc.tt, "line")
    out: dict[str, Line] = {}
    for i, t in enumerate(mc.tables(data, "line", LINE_KEYS)):
        ln = blocks.start(i)
        name = location_name(mc, t.get("name"), blocks.key(i, "name"), "[[line]]")
        if name is None:
            continue
        if name in out:
            mc.error(blocks.key(i, "name"), f"line {name!r} is declared twice")
            continue
        raw = t.get("spaces")
        if not isinstance(raw, list) or len(raw) < 2:
            mc.error(blocks.key(i, "spaces"), f"line {name!r} needs spaces = [...] (two or more)")
            continue
        got = [_known(mc, blocks, i, s, spaces, "spaces", f"line {name!r}") for s in raw]
        if None in got:
            continue
        seq = tuple(s for s in got if s is not None)
        if any(a == b for a, b in itertools.pairwise(seq)):
            mc.error(blocks.key(i, "spaces"), f"line {name!r} lists a space twice in a row")
            continue
        color = t.get("color", "#1E2328")
        if not isinstance(color, str) or not COLOR_RE.match(color):
            mc.error(blocks.key(i, "color"), f'line {name!r}: color must be like "#1E2328"')
            continue
        directed = t.get("directed", False)
        if not isinstance(directed, bool):
            mc.error(blocks.key(i, "directed"), f"line {name!r}: directed must be true or false")
            continue
        out[name] = Line(name, seq, color.upper(), directed, Origin(mc.file, ln))
    return out


def _links(
    mc: MapCtx, data: dict[str, Any], spaces: dict[str, Space], lines: dict[str, Line]
) -> list[Link]:
    out: list[Link] = []
    seen: dict[tuple[str, str], str] = {}  # (a, b) as walkable -> where declared

    def add(link: Link, line_no: int | None, where: str) -> None:
        steps = [(link.a, link.b)] if link.directed else [(link.a, link.b), (link.b, link.a)]
        for step in steps:
            if step in seen:
                mc.error(
                    line_no,
                    f"the link {step[0]!r} -> {step[1]!r} is declared twice ({where}, "
                    f"and {seen[step]})",
                )
                return
        for step in steps:
            seen[step] = where
        out.append(link)

    for line in lines.values():
        for a, b in zip(line.spaces, line.spaces[1:], strict=False):
            link = Link(a, b, line.directed, frozenset(), line.name, line.origin)
            add(link, line.origin.line, f"line {line.name!r} at line {line.origin.line}")
    blocks = Blocks(mc.tt, "link")
    for i, t in enumerate(mc.tables(data, "link", LINK_KEYS)):
        ln = blocks.start(i)
        a = _known(mc, blocks, i, t.get("from"), spaces, "from", "[[link]]")
        b = _known(mc, blocks, i, t.get("to"), spaces, "to", "[[link]]")
        if a is None or b is None:
            continue
        if a == b:
            mc.error(ln, f"[[link]] from {a!r} to itself")
            continue
        directed = t.get("directed", False)
        if not isinstance(directed, bool):
            mc.error(blocks.key(i, "directed"), "[[link]] directed must be true or false")
            continue
        blocked = kinds(mc, t.get("blocks", []), blocks.key(i, "blocks"), "[[link]] blocks")
        add(Link(a, b, directed, blocked, None, Origin(mc.file, ln)), ln, f"[[link]] at line {ln}")
    return out
