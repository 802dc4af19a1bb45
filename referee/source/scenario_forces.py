"""A scenario's forces that are not simply placed: set-up pools and reinforcements.

Also the pieces every scenario reader shares: :class:`ScenarioFile` (one file's data and text,
for positions), the ``side`` of a block and the check that a unit may stand in a hex.
:mod:`referee.source.scenario` imports this module; it imports nothing back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.source.base import Ctx
from referee.source.diagnostics import did_you_mean
from referee.source.mapkinds import PropValue
from referee.source.model import (
    MapDef,
    Nationality,
    Origin,
    Reinforcement,
    SetupPool,
    UnitDef,
)
from referee.source.tomlpos import TomlText


class ScenarioFile:
    """One scenario file's data with its text, for positions."""

    def __init__(self, file: str, data: dict[str, Any], tt: TomlText) -> None:
        self.file = file
        self.data = data
        self.tt = tt

    def blocks(self, key: str) -> list[tuple[dict[str, Any], int | None]]:
        value = self.data.get(key, [])
        starts = self.tt.block_starts(key)
        if not isinstance(value, list):
            return []
        return [
            (v, starts[i] if i < len(starts) else None)
            for i, v in enumerate(value)
            if isinstance(v, dict)
        ]


def side_of(
    ctx: Ctx, r: ScenarioFile, ln: int | None, t: dict[str, Any], sides: set[str], what: str
) -> str | None:
    """The block's ``side``, or ``None`` after reporting an unknown one."""
    side = str(t.get("side", ""))
    if side not in sides:
        ctx.diags.error(
            r.file,
            r.tt.key_line("side", start=ln),
            f"{what}: unknown side {side!r}",
            hint=did_you_mean(side, sides),
        )
        return None
    return side


def check_entry(
    ctx: Ctx, r: ScenarioFile, ln: int | None, map_def: MapDef, unit: UnitDef, hid: str, what: str
) -> None:
    h = map_def.hexes.get(hid)
    if h is None:
        return
    t = map_def.terrain.get(h.terrain)
    if t is not None and unit.category in t.costs and t.costs[unit.category] is None:
        lnum, col = r.tt.value_pos(hid, start=ln)
        ctx.diags.error(
            r.file,
            lnum,
            f"{what}: {unit.id} ({unit.category}) cannot be placed in hex {hid} ({t.name})",
            col=col,
        )


def load_pool(
    ctx: Ctx,
    r: ScenarioFile,
    ln: int | None,
    t: dict[str, Any],
    expand: Any,
    hex_ok: Any,
    map_def: MapDef,
    pieces: dict[str, UnitDef],
    nats: dict[str, Nationality],
    sides: set[str],
) -> SetupPool | None:
    """One ``[[pool]]``: units a side sets up among the places it allows (a set-up code's
    hexes, a nationality's airbases, a carrier, listed hexes, zones or spaces); ``None``
    when it cannot be used."""
    side = side_of(ctx, r, ln, t, sides, "[[pool]]")
    if side is None:
        return None
    units = expand(r, ln, t.get("units", []), "[[pool]]")
    at = _At(ctx, r, ln, t)
    where = _pool_where(at)
    if where is None:
        return None
    per_hex = _per_hex(at)
    if per_hex is None:
        return None
    pmin, pmax = per_hex
    for pid in units:
        if pieces[pid].side != side:
            lnum, col = r.tt.value_pos(pid, start=ln)
            ctx.diags.error(
                r.file, lnum, f"[[pool]]: {pid} belongs to {pieces[pid].side}, not {side}", col=col
            )
    hexes = _pool_places(at, where, units, hex_ok, map_def, pieces, nats)
    if hexes is None:
        return None
    fill_all = bool(t.get("fill_all", False))
    if where in _PLACES and not _pool_fits(at, where, len(units), len(hexes), pmin, pmax, fill_all):
        return None
    code, nat, carrier = t.get("code"), t.get("nationality"), t.get("carrier")
    return SetupPool(
        side=side,
        units=units,
        where=where,
        rule=str(t.get("rule", "")),
        code=code if isinstance(code, str) else None,
        nationality=nat if isinstance(nat, str) else None,
        countries=tuple(str(c) for c in t.get("countries", [])),
        carrier=carrier if isinstance(carrier, str) else None,
        hexes=hexes,
        per_hex_min=pmin,
        per_hex_max=pmax,
        fill_all=fill_all,
        text=str(t.get("text", "")),
        origin=Origin(r.file, ln),
        types=_strings(t.get("types")),
        lines=_strings(t.get("lines")),
        properties=_props(t.get("properties")),
    )


@dataclass(frozen=True)
class _At:
    """Where a block is read: the loading context, its file, its line, its table."""

    ctx: Ctx
    r: ScenarioFile
    ln: int | None
    t: dict[str, Any]

    def error(self, line: int | None, message: str, **kw: Any) -> None:
        self.ctx.diags.error(self.r.file, line, message, **kw)

    def key_line(self, key: str) -> int | None:
        return self.r.tt.key_line(key, start=self.ln)


def _pool_where(at: _At) -> str | None:
    """The pool's kind of place (``where``): one the ruleset's schema knows."""
    where = str(at.t.get("where", ""))
    kinds = at.ctx.schema.setup_kinds if at.ctx.schema else SETUP_KINDS
    if where not in kinds:
        at.error(
            at.key_line("where"),
            f"[[pool]]: unknown where {where!r}",
            hint="one of " + ", ".join(kinds),
        )
        return None
    return where


def _per_hex(at: _At) -> tuple[int, int | None] | None:
    """``per_hex_min`` and ``per_hex_max``: whole numbers, the maximum not below the minimum."""
    pmin = at.t.get("per_hex_min", 0)
    pmax = at.t.get("per_hex_max")
    if not isinstance(pmin, int) or (pmax is not None and not isinstance(pmax, int)):
        at.error(at.ln, "[[pool]]: per_hex_min/per_hex_max must be whole numbers")
        return None
    if pmax is not None and pmax < pmin:
        at.error(
            at.key_line("per_hex_max"), f"[[pool]]: per_hex_max {pmax} is below per_hex_min {pmin}"
        )
        return None
    return pmin, pmax


def _pool_places(
    at: _At,
    where: str,
    units: tuple[str, ...],
    hex_ok: Any,
    map_def: MapDef,
    pieces: dict[str, UnitDef],
    nats: dict[str, Nationality],
) -> tuple[str, ...] | None:
    """The places a pool of kind ``where`` allows (none for a carrier); ``None`` when the
    pool names a code, nationality or carrier the module lacks."""
    if where == "setup_code":
        return _setup_code_places(at, units, map_def, pieces)
    if where == "airbase":
        return _airbase_places(at, map_def, nats)
    if where == "carrier":
        return () if _carrier_ok(at, units, pieces) else None
    if where == "hexes":
        return tuple(
            h for h in (hex_ok(at.r, at.ln, x, "[[pool]]") for x in at.t.get("hexes", [])) if h
        )
    if where in ("zones", "spaces"):
        return places_by_kind(at.ctx, at.r, at.ln, at.t, map_def, where)
    return ()


def _setup_code_places(
    at: _At, units: tuple[str, ...], map_def: MapDef, pieces: dict[str, UnitDef]
) -> tuple[str, ...] | None:
    """The hexes of a naval set-up code; air units never use one."""
    code = at.t.get("code")
    if not isinstance(code, str) or code not in map_def.setup_codes:
        at.error(
            at.key_line("code"),
            f"[[pool]]: unknown set-up code {code!r}",
            hint=did_you_mean(str(code), list(map_def.setup_codes)),
        )
        return None
    for pid in units:
        if pieces[pid].category == "air":
            lnum, col = at.r.tt.value_pos(pid, start=at.ln)
            at.error(lnum, f"[[pool]]: air unit {pid} cannot use naval set-up code {code}", col=col)
    return tuple(sorted(h.id for h in map_def.hexes.values() if h.setup_code == code))


def _airbase_places(
    at: _At, map_def: MapDef, nats: dict[str, Nationality]
) -> tuple[str, ...] | None:
    """A nationality's airbases, in the listed countries if any."""
    nat = at.t.get("nationality")
    countries = tuple(str(c) for c in at.t.get("countries", []))
    if not isinstance(nat, str) or nat not in nats:
        at.error(
            at.key_line("nationality"),
            f"[[pool]]: unknown nationality {nat!r}",
            hint=did_you_mean(str(nat), list(nats)),
        )
        return None
    for c in countries:
        if c not in map_def.countries:
            at.error(
                at.key_line("countries"),
                f"[[pool]]: unknown country {c!r}",
                hint=did_you_mean(c, list(map_def.countries)),
            )
    return tuple(
        sorted(
            a.hex
            for a in map_def.airbases()
            if a.nationality == nat and (not countries or map_def.hexes[a.hex].country in countries)
        )
    )


def _carrier_ok(at: _At, units: tuple[str, ...], pieces: dict[str, UnitDef]) -> bool:
    """A CV of the roster, and only carrier air of its nationality aboard [9.61]."""
    carrier = at.t.get("carrier")
    if carrier not in pieces or pieces[carrier].type != "CV":
        at.error(
            at.key_line("carrier"),
            f"[[pool]]: carrier {carrier!r} is not a CV of the roster",
            hint=did_you_mean(str(carrier), [p for p, u in pieces.items() if u.type == "CV"]),
        )
        return False
    for pid in units:
        u = pieces[pid]
        lnum, col = at.r.tt.value_pos(pid, start=at.ln)
        if u.category != "air" or not u.has("carrier"):
            at.error(lnum, f"[[pool]]: {pid} is not a carrier-based air unit", col=col)
        elif u.nationality != pieces[carrier].nationality:
            at.error(
                lnum,
                f"[[pool]]: {pid} ({u.nationality}) cannot use "
                f"{carrier} ({pieces[carrier].nationality}): carrier air uses carriers "
                "of its own nationality [9.61]",
                col=col,
            )
    return True


def _pool_fits(
    at: _At, where: str, units: int, n: int, pmin: int, pmax: int | None, fill_all: bool
) -> bool:
    """Some place qualifies, and the pool's units can meet its per-place minimum and maximum
    (``False`` only when no place qualifies; an impossible count is reported, not fatal)."""
    plural = {"zones": "zones", "spaces": "spaces"}.get(where, "hexes")
    if n == 0:
        at.error(
            at.ln,
            f"[[pool]] ({where}): no {_NOUN.get(where, 'hex')} on the map qualifies",
            hint=_HINT.get(where, "check the set-up code, nationality or countries"),
        )
        return False
    cap = None if pmax is None else pmax * n
    need = pmin * n if fill_all else 0
    if fill_all and pmin < 1:
        need = n
    if units < need:
        at.error(
            at.ln,
            f"[[pool]] can never be satisfied: {n} {plural} must each get at "
            f"least {max(pmin, 1)} unit(s) but the pool has only {units}",
            hint="add units, lower per_hex_min or drop fill_all",
        )
    if cap is not None and units > cap:
        at.error(
            at.ln,
            f"[[pool]] can never be satisfied: {units} units but {n} "
            f"{plural} hold at most {pmax} each ({cap})",
            hint="raise per_hex_max or add set-up hexes",
        )
    return True


_PLACES = ("setup_code", "airbase", "hexes", "zones", "spaces")  # pools placed on the map


SETUP_KINDS = ("setup_code", "airbase", "carrier", "hexes", "zones", "spaces")
_NOUN = {"zones": "zone", "spaces": "space"}
_HINT = {
    "zones": "check the zone types and properties",
    "spaces": "check the lines, space types and properties",
}


def _strings(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _props(value: object) -> dict[str, PropValue]:
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, str | int | float | bool)}


def places_by_kind(
    ctx: Ctx, r: ScenarioFile, ln: int | None, t: dict[str, Any], map_def: MapDef, where: str
) -> tuple[str, ...] | None:
    """The zones (``where = "zones"``) or spaces (``"spaces"``) a pool may use, in source
    order: of one of ``types`` (all types when none is given), on one of ``lines`` (spaces
    only), and whose ``properties`` include every pair of the pool's ``properties`` table
    (``{ base = "NATO" }``). The area and point-to-point counterpart of set-up codes and
    airbases, which are hex-map features [11.1], [9.1]. ``None`` after reporting a problem
    at its ``file:line:col``."""
    d = ctx.diags
    layer = map_def.zones if where == "zones" else map_def.spaces
    if layer is None:
        d.error(
            r.file,
            r.tt.key_line("where", start=ln),
            f"[[pool]]: where = {where!r}, but this map has no {where}",
            hint='use where = "hexes" with a list, or the map\'s set-up codes and airbases',
        )
        return None
    ok = True
    allowed = {"zones": ("types",), "spaces": ("types", "lines")}[where]
    for key in ("types", "lines"):
        value = t.get(key)
        if value is None:
            continue
        if key not in allowed:
            d.error(
                r.file,
                r.tt.key_line(key, start=ln),
                f"[[pool]]: zones are not on lines; '{key}' is for where = \"spaces\"",
            )
            ok = False
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            d.error(
                r.file, r.tt.key_line(key, start=ln), f"[[pool]]: {key} must be a list of names"
            )
            ok = False
            continue
        known = list(layer.types) if key == "types" else list(map_def.spaces.lines)  # type: ignore[union-attr]
        for v in value:
            if v not in known:
                lnum, col = r.tt.value_pos(v, start=ln)
                noun = "space type" if where == "spaces" else "zone type"
                d.error(
                    r.file,
                    lnum,
                    f"[[pool]]: unknown {noun if key == 'types' else 'line'} {v!r}",
                    col=col,
                    hint=did_you_mean(v, known) or "declared: " + ", ".join(known[:8]),
                )
                ok = False
    props = t.get("properties")
    if props is not None and (
        not isinstance(props, dict)
        or not all(isinstance(v, str | int | float | bool) for v in props.values())
    ):
        d.error(
            r.file,
            r.tt.key_line("properties", start=ln),
            "[[pool]]: properties must be a table of plain values",
            hint='write e.g. properties = { base = "NATO" }',
        )
        ok = False
    if not ok:
        return None
    types = set(_strings(t.get("types")))
    lines = set(_strings(t.get("lines")))
    want = _props(props)
    places = layer.zones.values() if where == "zones" else layer.spaces.values()  # type: ignore[union-attr]
    out = []
    for place in places:
        if types and place.type not in types:
            continue
        if lines and not lines & set(getattr(place, "lines", ())):
            continue
        if any(place.properties.get(k) != v for k, v in want.items()):
            continue
        out.append(place.name)
    return tuple(out)


def load_reinforcement(
    ctx: Ctx,
    r: ScenarioFile,
    ln: int | None,
    t: dict[str, Any],
    expand: Any,
    hex_ok: Any,
    map_def: MapDef,
    sides: set[str],
    turns: int,
) -> Reinforcement | None:
    d = ctx.diags
    side = side_of(ctx, r, ln, t, sides, "[[reinforcement]]")
    if side is None:
        return None
    after = t.get("after_turn")
    if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after < turns:
        d.error(
            r.file,
            r.tt.key_line("after_turn", start=ln),
            f"[[reinforcement]]: after_turn "
            f"must be a Game-Turn before the last ({turns}), got {after!r}",
        )
        return None
    units = expand(r, ln, t.get("units", []), "[[reinforcement]]")
    entry = str(t.get("entry", ""))
    kinds = ctx.schema.entry_kinds if ctx.schema else ("airbases", "edge_adjacent", "area")
    if entry not in kinds:
        d.error(
            r.file,
            r.tt.key_line("entry", start=ln),
            f"[[reinforcement]]: unknown entry {entry!r}",
            hint="one of " + ", ".join(kinds),
        )
        return None
    listed = t.get("hexes", [])
    for key in ("hexes", "edge", "area", "loc_edge"):
        want = list if key == "hexes" else str
        if key in t and not isinstance(t[key], want):
            d.error(
                r.file,
                r.tt.key_line(key, start=ln),
                f"[[reinforcement]]: '{key}' must be "
                + ("a list of hex ids" if want is list else "a string")
                + f", got {t[key]!r}",
            )
            return None
    hexes = tuple(h for h in (hex_ok(r, ln, x, "[[reinforcement]]") for x in listed) if h)
    edge = t.get("edge")
    area = t.get("area")
    loc = t.get("loc_edge")
    for key, val in (("edge", edge), ("loc_edge", loc)):
        if val is not None and val not in map_def.edges:
            d.error(
                r.file,
                r.tt.key_line(key, start=ln),
                f"[[reinforcement]]: unknown edge {val!r}",
                hint=did_you_mean(str(val), list(map_def.edges)),
            )
    if area is not None and (not isinstance(area, str) or area not in map_def.areas):
        d.error(
            r.file,
            r.tt.key_line("area", start=ln),
            f"[[reinforcement]]: unknown area {area!r}",
            hint=did_you_mean(str(area), list(map_def.areas)),
        )
    if entry == "airbases":
        for h in hexes:
            hx = map_def.hexes.get(h)  # None: the map failed to load (reported already)
            if hx is not None and hx.airbase is None:
                lnum, col = r.tt.value_pos(h, start=ln)
                d.error(r.file, lnum, f"[[reinforcement]]: hex {h} has no airbase", col=col)
    if entry == "edge_adjacent" and edge is None:
        d.error(r.file, ln, "[[reinforcement]]: entry 'edge_adjacent' needs edge = \"..\"")
    if entry == "area" and area is None:
        d.error(r.file, ln, "[[reinforcement]]: entry 'area' needs area = \"..\"")
    if entry == "hex" and len(hexes) != 1:
        d.error(r.file, ln, "[[reinforcement]]: entry 'hex' needs hexes = [\"..\"], one hex")
    return Reinforcement(
        side=side,
        units=units,
        after_turn=after,
        entry=entry,
        hexes=hexes,
        edge=edge if isinstance(edge, str) else None,
        area=area if isinstance(area, str) else None,
        loc_edge=loc if isinstance(loc, str) else None,
        text=str(t.get("text", "")),
        rule=str(t.get("rule", "")),
        origin=Origin(r.file, ln),
    )


def pool_places_text(map_def: MapDef, pool: SetupPool) -> str:
    """Where a ``zones`` or ``spaces`` pool may place its units, in words ("in any Sea zone
    with base NATO", "on any space of the Atlantic Line"), for set-up cards and VASSAL."""
    layer = map_def.zones if pool.where == "zones" else map_def.spaces
    names = [layer.types[t].name if layer and t in layer.types else t for t in pool.types]
    kind = " or ".join(names) if names else ("zone" if pool.where == "zones" else "space")
    text = ("in any " if pool.where == "zones" else "on any ") + kind
    if pool.lines:
        text += " of the " + " or the ".join(pool.lines)
    if pool.properties:
        text += " with " + ", ".join(f"{k} {v}" for k, v in pool.properties.items())
    return text + f" ({len(pool.hexes)})"
