"""Load and check the zones of an area map: ``[[zone_type]]``, ``[[zone]]``, ``[[boundary]]``.

Checks (each ``file:line:col``): duplicate names; unknown zone types; an outline with fewer
than three corners, a corner off the board, no area, or edges that cross (VASSAL and the
renderer fill it with the even-odd rule, so a crossed outline would leave a hole); two zones
whose outlines overlap (a piece dropped there could only report one of them); a label point
outside its zone; an unknown zone named in ``adjacent`` (the nearest name is suggested); an
adjacency listed on one side only (adjacency is undirected: both zones list each other); and
boundaries between zones that are not adjacent. On a map with a hex grid a zone may be a
group of hexes (``hexes = [...]``) instead of an outline: each hex in at most one zone, the
group connected and without holes, and its outline traced along the hexsides.
"""

from __future__ import annotations

from typing import Any

from referee.source.diagnostics import did_you_mean
from referee.source.load_mapkinds import (
    Blocks,
    MapCtx,
    kinds,
    load_types,
    location_name,
    properties,
    type_of,
)
from referee.source.mapkinds import (
    Boundary,
    Point,
    Zone,
    ZoneLayer,
    point_in_polygon,
    polygon_area,
    polygons_overlap,
    self_intersection,
)
from referee.source.model import Origin

ZONE_KEYS = ("name", "type", "outline", "hexes", "adjacent", "label", "properties")
BOUNDARY_KEYS = ("zones", "blocks", "name", "rule")
MIN_AREA_SQIN = 1e-4


def load_zones(mc: MapCtx, data: dict[str, Any]) -> ZoneLayer | None:
    """The zone layer, or ``None`` when the map declares no zones (errors are reported)."""
    if "zone" not in data and "zone_type" not in data and "boundary" not in data:
        return None
    types = load_types(mc, data, "zone_type")
    blocks = Blocks(mc.tt, "zone")
    raw = mc.tables(data, "zone", ZONE_KEYS)
    zones: dict[str, Zone] = {}
    index: dict[str, int] = {}
    owner: dict[str, str] = {}  # hex -> zone
    declared = {
        t.get("name") for t in raw if isinstance(t.get("name"), str)
    }  # a broken zone is reported once, not per mention
    for i, t in enumerate(raw):
        ln = blocks.start(i)
        name = location_name(mc, t.get("name"), blocks.key(i, "name"), "[[zone]]")
        if name is None:
            continue
        if name in zones:
            lnum, col = blocks.value(i, name, "name")
            mc.error(
                lnum,
                f"zone {name!r} is declared twice",
                col=col,
                hint=f"the first is at line {zones[name].origin.line}",
            )
            continue
        what = f"zone {name!r}"
        lnum, col = blocks.value(i, str(t.get("type")), "type")
        ztype = type_of(mc, t.get("type"), types, lnum, col, what, "zone_type")
        outline, hexes = _shape(mc, blocks, i, t, what, owner, name)
        adjacent = _names(mc, blocks, i, t.get("adjacent", []), what, "adjacent")
        label = None
        if "label" in t:
            label = mc.point(t["label"], blocks.key(i, "label"), f"{what}: label")
            if label is not None and outline and not point_in_polygon(label, outline):
                mc.error(blocks.key(i, "label"), f"{what}: the label point is outside the zone")
                label = None
        props = properties(mc, t.get("properties"), blocks.key(i, "properties"), what)
        if ztype is None or not outline:
            continue
        zones[name] = Zone(name, ztype, outline, adjacent, props, hexes, label, Origin(mc.file, ln))
        index[name] = i
    _check_overlaps(mc, zones, blocks, index)
    _check_adjacency(mc, zones, blocks, index, declared)
    boundaries = _boundaries(mc, data, zones)
    return ZoneLayer(types, zones, tuple(boundaries))


def _names(mc: MapCtx, blocks: Blocks, i: int, raw: object, what: str, key: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        mc.error(blocks.key(i, key), f"{what}: {key} must be a list of names")
        return ()
    seen: list[str] = []
    for x in raw:
        if x in seen:
            lnum, col = blocks.value(i, x, key)
            mc.error(lnum, f"{what}: {x!r} is listed twice in {key}", col=col)
            continue
        seen.append(x)
    return tuple(seen)


def _shape(
    mc: MapCtx,
    blocks: Blocks,
    i: int,
    t: dict[str, Any],
    what: str,
    owner: dict[str, str],
    name: str,
) -> tuple[tuple[Point, ...], tuple[str, ...]]:
    """The outline (inches) and, for a zone of hexes, its hexes."""
    has_outline, has_hexes = "outline" in t, "hexes" in t
    if has_outline == has_hexes:
        mc.error(
            blocks.start(i),
            f"{what} needs exactly one of outline = [[x, y], ...] or hexes = [...]",
            hint="hexes only on a map with a [grid]",
        )
        return (), ()
    if has_hexes:
        return _hex_shape(mc, blocks, i, t["hexes"], what, owner, name)
    ln = blocks.key(i, "outline")
    raw = t["outline"]
    if not isinstance(raw, list) or len(raw) < 3:
        mc.error(ln, f"{what}: outline needs at least three corners [[x, y], [x, y], [x, y]]")
        return (), ()
    pts: list[Point] = []
    for n, corner in enumerate(raw):
        p = mc.point(corner, ln, f"{what}: outline corner {n + 1}")
        if p is None:
            return (), ()
        pts.append(p)
    if len(pts) > 3 and pts[0] == pts[-1]:
        pts.pop()  # a closed ring: the first corner repeated at the end
    crossing = self_intersection(pts)
    if crossing is not None:
        a, b = crossing
        mc.error(
            ln,
            f"{what}: outline edges {a + 1}-{a + 2} and {b + 1}-{(b + 1) % len(pts) + 1} cross",
            hint="list the corners in order round the zone, without a figure of eight",
        )
        return (), ()
    if abs(polygon_area(pts)) < MIN_AREA_SQIN:
        mc.error(
            ln,
            f"{what}: the outline encloses no area (its corners are on one line or repeated)",
            hint="list the corners in order round the zone",
        )
        return (), ()
    return tuple(pts), ()


def _hex_shape(
    mc: MapCtx,
    blocks: Blocks,
    i: int,
    raw: object,
    what: str,
    owner: dict[str, str],
    name: str,
) -> tuple[tuple[Point, ...], tuple[str, ...]]:
    from referee.source.hexzones import HexOutlineError, trace_hex_outline

    grid = mc.grid
    ln = blocks.key(i, "hexes")
    if grid is None:
        mc.error(ln, f"{what}: hexes = [...] needs a [grid] in this map file")
        return (), ()
    if not isinstance(raw, list) or not raw or not all(isinstance(x, str) for x in raw):
        mc.error(ln, f"{what}: hexes must be a non-empty list of hex ids")
        return (), ()
    ok: list[str] = []
    for h in raw:
        lnum, col = blocks.value(i, h, "hexes")
        if not grid.is_valid_id(h):
            mc.error(lnum, f"{what}: hex {h!r} is not on the map", col=col)
        elif h in owner:
            mc.error(lnum, f"{what}: hex {h} is already in zone {owner[h]!r}", col=col)
        elif h in ok:
            mc.error(lnum, f"{what}: hex {h} is listed twice", col=col)
        else:
            ok.append(h)
    if len(ok) != len(raw):
        return (), ()
    for h in ok:
        owner[h] = name
    try:
        outline = trace_hex_outline(grid, ok)
    except HexOutlineError as exc:
        mc.error(ln, f"{what}: {exc}", hint="a zone's hexes must touch and leave no hole")
        return (), ()
    return outline, tuple(sorted(ok))


def _check_overlaps(
    mc: MapCtx, zones: dict[str, Zone], blocks: Blocks, index: dict[str, int]
) -> None:
    """Two outlines that share interior (bounding boxes first: a map has dozens of zones).
    Zones of hexes cannot share a hex, but an outline drawn over them could."""
    items = [(z, _bbox(z.outline)) for z in zones.values()]
    items.sort(key=lambda zb: zb[1][0])
    for n, (a, ba) in enumerate(items):
        for b, bb in items[n + 1 :]:
            if bb[0] >= ba[2]:
                break
            if bb[1] >= ba[3] or ba[1] >= bb[3]:
                continue
            if polygons_overlap(a.outline, b.outline):
                first, second = sorted((a, b), key=lambda z: index[z.name])
                key = "hexes" if second.hexes else "outline"
                mc.error(
                    blocks.key(index[second.name], key),
                    f"zone {second.name!r} overlaps zone {first.name!r} (line {first.origin.line})",
                    hint="neighbouring zones share a border: use the same corners on both",
                )


def _bbox(poly: tuple[Point, ...]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def _check_adjacency(
    mc: MapCtx, zones: dict[str, Zone], blocks: Blocks, index: dict[str, int], declared: set
) -> None:
    for z in zones.values():
        i = index[z.name]
        for other in z.adjacent:
            lnum, col = blocks.value(i, other, "adjacent")
            if other == z.name:
                mc.error(lnum, f"zone {z.name!r} lists itself as adjacent", col=col)
            elif other not in zones:
                if other in declared:
                    continue  # declared, but with an error of its own
                mc.error(
                    lnum,
                    f"zone {z.name!r}: unknown zone {other!r} in adjacent",
                    col=col,
                    hint=did_you_mean(other, list(zones)) or "no zone has that name",
                )
            elif z.name not in zones[other].adjacent:
                mc.error(
                    lnum,
                    f"zone {z.name!r} lists {other!r} as adjacent, but {other!r} "
                    f"(line {zones[other].origin.line}) does not list {z.name!r}",
                    col=col,
                    hint=f'adjacency goes both ways: add "{z.name}" to the adjacent list '
                    f"of {other!r}",
                )


def _boundaries(mc: MapCtx, data: dict[str, Any], zones: dict[str, Zone]) -> list[Boundary]:
    blocks = Blocks(mc.tt, "boundary")
    out: list[Boundary] = []
    seen: dict[tuple[str, str], int | None] = {}
    for i, t in enumerate(mc.tables(data, "boundary", BOUNDARY_KEYS)):
        ln = blocks.start(i)
        pair = t.get("zones")
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(x, str) for x in pair)
        ):
            mc.error(blocks.key(i, "zones"), '[[boundary]] zones must be ["Zone A", "Zone B"]')
            continue
        bad = False
        for zname in pair:
            if zname not in zones:
                lnum, col = blocks.value(i, zname, "zones")
                mc.error(
                    lnum,
                    f"[[boundary]]: unknown zone {zname!r}",
                    col=col,
                    hint=did_you_mean(zname, list(zones)) or "no zone has that name",
                )
                bad = True
        if bad:
            continue
        a, b = pair
        if b not in zones[a].adjacent:
            mc.error(
                blocks.key(i, "zones"),
                f"[[boundary]]: zones {a!r} and {b!r} are not adjacent",
                hint="a boundary lies between two adjacent zones; list them in adjacent first",
            )
            continue
        key = (min(a, b), max(a, b))
        if key in seen:
            mc.error(
                blocks.key(i, "zones"),
                f"[[boundary]] between {a!r} and {b!r} is declared twice",
                hint=f"the first is at line {seen[key]}",
            )
            continue
        seen[key] = ln
        blocked = kinds(mc, t.get("blocks"), blocks.key(i, "blocks"), "[[boundary]] blocks")
        if not blocked:
            mc.error(blocks.key(i, "blocks"), "[[boundary]] must block at least one kind")
            continue
        name = t.get("name", "")
        rule = t.get("rule", "")
        if not isinstance(name, str) or not isinstance(rule, str):
            mc.error(ln, "[[boundary]] name and rule must be strings")
            continue
        out.append(Boundary((a, b), blocked, name, rule, Origin(mc.file, ln)))
    return out
