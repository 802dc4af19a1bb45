"""Scenario files: length, sides' order, day/night, forces, set-up, reinforcements, victory.

A scenario may ``extends = "other_id"``: it starts from that scenario and adds its own
``[[fixed]]``, ``[[choice]]``, ``[[pool]]``, ``[[reinforcement]]``, ``[[prohibition]]`` and
``[[victory.bonus]]`` entries and forces, and overrides scalar settings (length, calendar).
That is how the Sixth Fleet Campaign "simply extends the short game" [11.0].
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from referee.source.diagnostics import did_you_mean
from referee.source.model import (
    ChoicePlacement,
    FixedPlacement,
    MapDef,
    Nationality,
    OptionalRule,
    Origin,
    Prohibition,
    Reinforcement,
    Scenario,
    SetupPool,
    UnitDef,
    VictoryBonus,
)
from referee.source.tomlpos import TomlText

if TYPE_CHECKING:
    from referee.source.loader import Ctx

SCENARIO_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")


class _Raw:
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


def load_scenarios(
    ctx: Ctx,
    files: list[str],
    line: int | None,
    units: tuple[UnitDef, ...],
    map_def: MapDef,
    sides: set[str],
    nats: dict[str, Nationality],
    optional: dict[str, OptionalRule],
) -> dict[str, Scenario]:
    raws: dict[str, _Raw] = {}
    d = ctx.diags
    for name in files:
        got = ctx.toml(name, what="scenario file", line=line)
        if got is None:
            continue
        data, tt = got
        meta = data.get("scenario")
        if not isinstance(meta, dict) or not isinstance(meta.get("id"), str):
            d.error(name, tt.table_start("scenario"), "missing [scenario] table with an id")
            continue
        sid = meta["id"]
        if not SCENARIO_ID_RE.match(sid):
            d.error(
                name,
                tt.key_line("id", start=tt.table_start("scenario")),
                f"scenario id {sid!r} must be lower-case letters, digits, '-' or '_'",
            )
        if sid in raws:
            d.error(
                name,
                tt.table_start("scenario"),
                f"duplicate scenario id {sid!r} (also in {raws[sid].file})",
            )
            continue
        raws[sid] = _Raw(name, data, tt)
        _check_scenario_keys(ctx, raws[sid])
    pieces: dict[str, UnitDef] = {}
    for u in units:
        for pid in u.piece_ids:
            pieces[pid] = u
    out: dict[str, Scenario] = {}
    for sid in raws:
        chain = _chain(ctx, sid, raws)
        if chain is None:
            continue
        sc = _build(
            ctx, sid, chain, pieces, {u.id: u for u in units}, map_def, sides, nats, optional
        )
        if sc is not None:
            out[sid] = sc
    if not raws and not d.errors:
        d.warning("module.toml", line, "no scenarios: the module has no set-ups")
    return out


SCENARIO_KEYS: dict[str, tuple[str, ...]] = {
    "": (
        "scenario",
        "calendar",
        "victory",
        "forces",
        "fixed",
        "choice",
        "pool",
        "reinforcement",
        "prohibition",
    ),
    "scenario": (
        "id",
        "name",
        "extends",
        "turns",
        "first_player",
        "setup_order",
        "description",
        "optional_rules",
    ),
    "calendar": ("cycle", "start", "night", "states"),
    "victory": ("unit_vp", "minimum", "bonus"),
    "fixed": ("unit", "hex", "at", "rule", "status"),
    "choice": ("unit", "hexes", "rule"),
    "pool": (
        "side",
        "units",
        "where",
        "code",
        "nationality",
        "countries",
        "carrier",
        "hexes",
        "per_hex_min",
        "per_hex_max",
        "fill_all",
        "rule",
        "text",
    ),
    "reinforcement": (
        "side",
        "units",
        "after_turn",
        "entry",
        "hexes",
        "edge",
        "area",
        "loc_edge",
        "text",
        "rule",
    ),
    "prohibition": ("area", "categories", "until_turn", "text", "rule"),
}


def _check_scenario_keys(ctx: Ctx, raw: _Raw) -> None:
    """Unknown keys are usually typos or a key filed under the wrong table."""
    from referee.source.loader import check_keys

    check_keys(ctx, raw.file, raw.tt, raw.data, None, "the scenario file", SCENARIO_KEYS[""])
    for table in ("scenario", "calendar", "victory"):
        t = raw.data.get(table)
        if isinstance(t, dict):
            check_keys(
                ctx,
                raw.file,
                raw.tt,
                t,
                raw.tt.table_start(table),
                f"[{table}]",
                SCENARIO_KEYS[table],
            )
    for block in ("fixed", "choice", "pool", "reinforcement", "prohibition"):
        for t, ln in raw.blocks(block):
            check_keys(ctx, raw.file, raw.tt, t, ln, f"[[{block}]]", SCENARIO_KEYS[block])


def _chain(ctx: Ctx, sid: str, raws: dict[str, _Raw]) -> list[_Raw] | None:
    chain: list[_Raw] = []
    seen: set[str] = set()
    cur: str | None = sid
    while cur is not None:
        if cur in seen:
            ctx.diags.error(
                raws[sid].file, None, f"scenario {sid!r}: 'extends' loops back to {cur!r}"
            )
            return None
        seen.add(cur)
        if cur not in raws:
            r = raws[sid]
            ctx.diags.error(
                r.file,
                r.tt.key_line("extends"),
                f"scenario {sid!r} extends unknown scenario {cur!r}",
                hint=did_you_mean(cur, list(raws)),
            )
            return None
        chain.append(raws[cur])
        ext = raws[cur].data["scenario"].get("extends")
        cur = ext if isinstance(ext, str) else None
    chain.reverse()  # base first
    return chain


def _build(
    ctx: Ctx,
    sid: str,
    chain: list[_Raw],
    pieces: dict[str, UnitDef],
    rows: dict[str, UnitDef],
    map_def: MapDef,
    sides: set[str],
    nats: dict[str, Nationality],
    optional: dict[str, OptionalRule],
) -> Scenario | None:
    d = ctx.diags
    grid = map_def.grid
    names = list(map_def.location_names())
    meta: dict[str, Any] = {}
    calendar: dict[str, Any] = {}
    victory: dict[str, Any] = {}
    for r in chain:
        meta.update(r.data.get("scenario", {}))
        calendar.update(r.data.get("calendar", {}))
        v = r.data.get("victory", {})
        if isinstance(v, dict):
            victory.update({k: x for k, x in v.items() if k != "bonus"})
    top = chain[-1]
    f = top.file
    sl = top.tt.table_start("scenario")

    def expand(r: _Raw, ln: int | None, ids: object, what: str) -> tuple[str, ...]:
        """Piece ids; a roster id stands for all its copies."""
        if not isinstance(ids, list):
            d.error(r.file, ln, f"{what}: expected a list of unit ids")
            return ()
        out: list[str] = []
        for x in ids:
            x = str(x)
            if x in pieces:
                out.append(x)
            elif x in rows:
                out.extend(rows[x].piece_ids)
            else:
                lnum, col = r.tt.value_pos(x, start=ln)
                d.error(
                    r.file,
                    lnum,
                    f"{what}: unknown unit {x!r}",
                    col=col,
                    hint=did_you_mean(x, list(pieces) + list(rows)),
                )
        return tuple(out)

    def hex_ok(r: _Raw, ln: int | None, hid: object, what: str) -> str | None:
        if isinstance(hid, str) and hid in names:
            return hid  # a zone or space of an area or point-to-point map
        digits = isinstance(hid, str) and len(hid) == 4 and hid.isdigit()
        if grid is None or (names and not digits):
            lnum, col = r.tt.value_pos(str(hid), start=ln)
            d.error(
                r.file,
                lnum,
                f"{what}: {hid!r} is not a {'hex, ' if grid else ''}zone or space of this map",
                col=col,
                hint=did_you_mean(str(hid), names) or "names: " + ", ".join(names[:8]),
            )
            return None
        if not isinstance(hid, str) or not grid.is_valid_id(hid):
            lnum, col = r.tt.value_pos(str(hid), start=ln)
            reason = (
                "not a quoted 4-digit id"
                if not isinstance(hid, str)
                else (
                    "not a hex of this map"
                    if not (len(hid) == 4 and hid.isdigit())
                    else "off the map"
                )
            )
            d.error(r.file, lnum, f"{what}: hex {hid!r} is {reason}", col=col)
            return None
        return hid

    turns = meta.get("turns")
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 999:
        d.error(
            f,
            top.tt.key_line("turns", start=sl),
            f"scenario {sid!r}: 'turns' must be a whole number from 1 to 999, got {turns!r}",
        )
        return None
    first = meta.get("first_player")
    if first not in sides:
        d.error(
            f,
            top.tt.key_line("first_player", start=sl),
            f"scenario {sid!r}: unknown first_player {first!r}",
            hint=did_you_mean(str(first), sides),
        )
    order = meta.get("setup_order", sorted(sides))
    if not isinstance(order, list) or sorted(order) != sorted(sides):
        d.error(
            f,
            top.tt.key_line("setup_order", start=sl),
            f"scenario {sid!r}: setup_order must list every side once",
        )
        order = sorted(sides)

    # day/night: either an explicit list per turn, or a repeating cycle
    states: list[str] = []
    cl = top.tt.table_start("calendar")
    if "states" in calendar:
        states = [str(s) for s in calendar["states"]]
        if len(states) != turns:
            d.error(
                f,
                top.tt.key_line("states", start=cl),
                f"calendar lists {len(states)} turn states but the scenario has {turns} turns",
            )
    elif "cycle" in calendar:
        cycle = [str(s) for s in calendar["cycle"]]
        if not cycle:
            d.error(f, cl, "calendar cycle is empty")
            cycle = ["Day"]
        start = int(calendar.get("start", 0)) if str(calendar.get("start", 0)).isdigit() else 0
        states = [cycle[(start + i) % len(cycle)] for i in range(turns)]
    else:
        states = ["Day"] * turns
    night = calendar.get("night", ["Night"])
    night_states = frozenset(str(x) for x in night) if isinstance(night, list) else frozenset()
    for n in night_states:
        if n not in states and states:
            d.warning(f, top.tt.key_line("night", start=cl), f"night state {n!r} never occurs")

    forces: dict[str, list[str]] = {s: [] for s in sides}
    for r in chain:
        fc = r.data.get("forces", {})
        fl = r.tt.table_start("forces")
        if not isinstance(fc, dict):
            d.error(r.file, fl, "[forces] must map each side to a list of units")
            continue
        for side, ids in fc.items():
            ln = r.tt.key_line(side, start=fl)
            if side not in sides:
                d.error(
                    r.file, ln, f"[forces]: unknown side {side!r}", hint=did_you_mean(side, sides)
                )
                continue
            for pid in expand(r, ln, ids, f"[forces] {side}"):
                if pieces[pid].side != side:
                    lnum, col = r.tt.value_pos(pid, start=ln)
                    d.error(
                        r.file,
                        lnum,
                        f"[forces] {side}: {pid} belongs to {pieces[pid].side}",
                        col=col,
                    )
                forces[side].append(pid)
    seen_pid: dict[str, str] = {}
    for side, ids in forces.items():
        for pid in ids:
            if pid in seen_pid:
                d.error(f, None, f"scenario {sid!r}: unit {pid} is listed twice in the forces")
            seen_pid[pid] = side

    fixed: list[FixedPlacement] = []
    choices: list[ChoicePlacement] = []
    pools: list[SetupPool] = []
    reinf: list[Reinforcement] = []
    prohib: list[Prohibition] = []
    bonuses: list[VictoryBonus] = []
    placed: dict[str, str] = {}

    def claim(pid: str, r: _Raw, ln: int | None, what: str) -> None:
        if pid in placed:
            lnum, col = r.tt.value_pos(pid, start=ln)
            d.error(r.file, lnum, f"{what}: unit {pid} is already placed by {placed[pid]}", col=col)
        placed[pid] = what

    in_force = set(seen_pid)
    for r in chain:
        for t, ln in r.blocks("fixed"):
            pids = expand(r, ln, [t.get("unit")], "[[fixed]]")
            hid = hex_ok(r, ln, t.get("at", t.get("hex")), "[[fixed]]")
            for pid in pids:
                claim(pid, r, ln, "[[fixed]]")
                if pid not in in_force:
                    d.error(r.file, ln, f"[[fixed]]: {pid} is not in this scenario's [forces]")
                if hid:
                    _check_entry(ctx, r, ln, map_def, pieces[pid], hid, "[[fixed]]")
                    fixed.append(
                        FixedPlacement(
                            pid, hid, str(t.get("rule", "")), t.get("status"), Origin(r.file, ln)
                        )
                    )
        for t, ln in r.blocks("choice"):
            pids = expand(r, ln, [t.get("unit")], "[[choice]]")
            hexes = tuple(
                h for h in (hex_ok(r, ln, x, "[[choice]]") for x in t.get("hexes", [])) if h
            )
            if len(hexes) < 1:
                d.error(r.file, ln, "[[choice]] needs hexes = [..] with at least one hex")
            for pid in pids:
                claim(pid, r, ln, "[[choice]]")
                for hid in hexes:
                    _check_entry(ctx, r, ln, map_def, pieces[pid], hid, "[[choice]]")
                choices.append(
                    ChoicePlacement(pid, hexes, str(t.get("rule", "")), Origin(r.file, ln))
                )
        for t, ln in r.blocks("pool"):
            pool = _pool(ctx, r, ln, t, expand, hex_ok, map_def, pieces, nats, sides)
            if pool is None:
                continue
            if pool.carrier is not None and pool.carrier not in in_force:
                d.error(
                    r.file,
                    r.tt.key_line("carrier", start=ln),
                    f"[[pool]]: carrier {pool.carrier} is not in this scenario's [forces]",
                )
            for pid in pool.units:
                claim(pid, r, ln, "[[pool]]")
                if pid not in in_force:
                    d.error(r.file, ln, f"[[pool]]: {pid} is not in this scenario's [forces]")
            pools.append(pool)
        for t, ln in r.blocks("reinforcement"):
            rf = _reinforcement(ctx, r, ln, t, expand, hex_ok, map_def, sides, turns)
            if rf is None:
                continue
            for pid in rf.units:
                if pid in in_force:
                    lnum, col = r.tt.value_pos(pid, start=ln)
                    d.error(
                        r.file,
                        lnum,
                        f"[[reinforcement]]: {pid} is already in the starting forces",
                        col=col,
                    )
                claim(pid, r, ln, "[[reinforcement]]")
            reinf.append(rf)
        for t, ln in r.blocks("prohibition"):
            area = t.get("area")
            if area not in map_def.areas:
                d.error(
                    r.file,
                    r.tt.key_line("area", start=ln),
                    f"[[prohibition]]: unknown area {area!r}",
                    hint=did_you_mean(str(area), list(map_def.areas)),
                )
                continue
            cats = t.get("categories", [])
            until = t.get("until_turn")
            if not isinstance(until, int) or isinstance(until, bool):
                d.error(
                    r.file,
                    r.tt.key_line("until_turn", start=ln),
                    "[[prohibition]]: 'until_turn' must be a Game-Turn number",
                )
                continue
            prohib.append(
                Prohibition(
                    str(area),
                    tuple(str(c) for c in cats),
                    until,
                    str(t.get("text", "")),
                    str(t.get("rule", "")),
                )
            )
        v = r.data.get("victory", {})
        bl = r.tt.block_starts("victory.bonus")
        for i, t in enumerate(v.get("bonus", []) if isinstance(v, dict) else []):
            ln = bl[i] if i < len(bl) else None
            cond = str(t.get("condition", ""))
            if ctx.schema and cond not in ctx.schema.victory_conditions:
                d.error(
                    r.file,
                    r.tt.key_line("condition", start=ln),
                    f"unknown victory condition {cond!r}",
                    hint=did_you_mean(cond, ctx.schema.victory_conditions),
                )
            side = str(t.get("side", ""))
            if side not in sides:
                d.error(
                    r.file, r.tt.key_line("side", start=ln), f"victory bonus: unknown side {side!r}"
                )
            params = {
                k: x
                for k, x in t.items()
                if k not in ("id", "side", "vp", "condition", "text", "rule")
            }
            area = params.get("area")
            if area is not None and area not in map_def.areas:
                d.error(
                    r.file,
                    r.tt.key_line("area", start=ln),
                    f"victory bonus: unknown area {area!r}",
                    hint=did_you_mean(str(area), list(map_def.areas)),
                )
            vp = t.get("vp")
            if not isinstance(vp, int):
                d.error(
                    r.file,
                    r.tt.key_line("vp", start=ln),
                    "victory bonus: 'vp' must be a whole number",
                )
                vp = 0
            bonuses.append(
                VictoryBonus(
                    str(t.get("id", cond)),
                    side,
                    vp,
                    cond,
                    params,
                    str(t.get("text", "")),
                    str(t.get("rule", "")),
                )
            )
    ids = {b.id for b in bonuses}
    for b in bonuses:
        req = b.params.get("requires")
        if req is not None and req not in ids:
            d.error(
                f,
                None,
                f"victory bonus {b.id!r} requires unknown bonus {req!r}",
                hint=did_you_mean(str(req), ids),
            )
    # every starting unit must be placed somehow
    for side, ids in forces.items():
        for pid in ids:
            if pid not in placed:
                d.error(
                    f,
                    None,
                    f"scenario {sid!r}: {side} unit {pid} is in the forces but no "
                    "[[fixed]], [[choice]] or [[pool]] places it",
                )
    opts = meta.get("optional_rules", [])
    for o in opts if isinstance(opts, list) else []:
        if o not in optional:
            lnum, col = top.tt.value_pos(str(o), start=sl)
            d.error(
                f,
                lnum,
                f"scenario {sid!r}: unknown optional rule {o!r}",
                col=col,
                hint=did_you_mean(str(o), list(optional)),
            )
    return Scenario(
        id=sid,
        name=str(meta.get("name", sid)),
        turns=turns,
        first_player=str(first),
        setup_order=tuple(order),
        turn_states=tuple(states),
        night_states=night_states,
        forces={s: tuple(ids) for s, ids in forces.items()},
        fixed=tuple(fixed),
        choices=tuple(choices),
        pools=tuple(pools),
        reinforcements=tuple(reinf),
        prohibitions=tuple(prohib),
        victory_bonuses=tuple(bonuses),
        unit_vp=str(victory.get("unit_vp", "ECM")),
        unit_vp_minimum=int(victory.get("minimum", 1)),
        optional_rules=tuple(str(o) for o in opts) if isinstance(opts, list) else (),
        description=str(meta.get("description", "")),
        source=Origin(f, sl),
    )


def _side(
    ctx: Ctx, r: _Raw, ln: int | None, t: dict[str, Any], sides: set[str], what: str
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


def _check_entry(
    ctx: Ctx, r: _Raw, ln: int | None, map_def: MapDef, unit: UnitDef, hid: str, what: str
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


def _pool(
    ctx: Ctx,
    r: _Raw,
    ln: int | None,
    t: dict[str, Any],
    expand: Any,
    hex_ok: Any,
    map_def: MapDef,
    pieces: dict[str, UnitDef],
    nats: dict[str, Nationality],
    sides: set[str],
) -> SetupPool | None:
    d = ctx.diags
    side = _side(ctx, r, ln, t, sides, "[[pool]]")
    if side is None:
        return None
    units = expand(r, ln, t.get("units", []), "[[pool]]")
    where = str(t.get("where", ""))
    kinds = ctx.schema.setup_kinds if ctx.schema else ("setup_code", "airbase", "carrier", "hexes")
    if where not in kinds:
        d.error(
            r.file,
            r.tt.key_line("where", start=ln),
            f"[[pool]]: unknown where {where!r}",
            hint="one of " + ", ".join(kinds),
        )
        return None
    pmin = t.get("per_hex_min", 0)
    pmax = t.get("per_hex_max")
    if not isinstance(pmin, int) or (pmax is not None and not isinstance(pmax, int)):
        d.error(r.file, ln, "[[pool]]: per_hex_min/per_hex_max must be whole numbers")
        return None
    if pmax is not None and pmax < pmin:
        d.error(
            r.file,
            r.tt.key_line("per_hex_max", start=ln),
            f"[[pool]]: per_hex_max {pmax} is below per_hex_min {pmin}",
        )
        return None
    fill_all = bool(t.get("fill_all", False))
    code = t.get("code")
    nat = t.get("nationality")
    countries = tuple(str(c) for c in t.get("countries", []))
    carrier = t.get("carrier")
    hexes: tuple[str, ...] = ()
    for pid in units:
        if pieces[pid].side != side:
            lnum, col = r.tt.value_pos(pid, start=ln)
            d.error(
                r.file, lnum, f"[[pool]]: {pid} belongs to {pieces[pid].side}, not {side}", col=col
            )
    if where == "setup_code":
        if code not in map_def.setup_codes:
            d.error(
                r.file,
                r.tt.key_line("code", start=ln),
                f"[[pool]]: unknown set-up code {code!r}",
                hint=did_you_mean(str(code), list(map_def.setup_codes)),
            )
            return None
        hexes = tuple(sorted(h.id for h in map_def.hexes.values() if h.setup_code == code))
        for pid in units:
            if pieces[pid].category == "air":
                lnum, col = r.tt.value_pos(pid, start=ln)
                d.error(
                    r.file,
                    lnum,
                    f"[[pool]]: air unit {pid} cannot use naval set-up code {code}",
                    col=col,
                )
    elif where == "airbase":
        if nat not in nats:
            d.error(
                r.file,
                r.tt.key_line("nationality", start=ln),
                f"[[pool]]: unknown nationality {nat!r}",
                hint=did_you_mean(str(nat), list(nats)),
            )
            return None
        for c in countries:
            if c not in map_def.countries:
                d.error(
                    r.file,
                    r.tt.key_line("countries", start=ln),
                    f"[[pool]]: unknown country {c!r}",
                    hint=did_you_mean(c, list(map_def.countries)),
                )
        hexes = tuple(
            sorted(
                a.hex
                for a in map_def.airbases()
                if a.nationality == nat
                and (not countries or map_def.hexes[a.hex].country in countries)
            )
        )
    elif where == "carrier":
        if carrier not in pieces or pieces[carrier].type != "CV":
            d.error(
                r.file,
                r.tt.key_line("carrier", start=ln),
                f"[[pool]]: carrier {carrier!r} is not a CV of the roster",
                hint=did_you_mean(str(carrier), [p for p, u in pieces.items() if u.type == "CV"]),
            )
            return None
        for pid in units:
            u = pieces[pid]
            lnum, col = r.tt.value_pos(pid, start=ln)
            if u.category != "air" or not u.has("carrier"):
                d.error(r.file, lnum, f"[[pool]]: {pid} is not a carrier-based air unit", col=col)
            elif u.nationality != pieces[carrier].nationality:
                d.error(
                    r.file,
                    lnum,
                    f"[[pool]]: {pid} ({u.nationality}) cannot use "
                    f"{carrier} ({pieces[carrier].nationality}): carrier air uses carriers "
                    "of its own nationality [9.61]",
                    col=col,
                )
    elif where == "hexes":
        hexes = tuple(h for h in (hex_ok(r, ln, x, "[[pool]]") for x in t.get("hexes", [])) if h)
    if where in ("setup_code", "airbase", "hexes"):
        n = len(hexes)
        if n == 0:
            d.error(
                r.file,
                ln,
                f"[[pool]] ({where}): no hex on the map qualifies",
                hint="check the set-up code, nationality or countries",
            )
            return None
        cap = None if pmax is None else pmax * n
        need = pmin * n if fill_all else 0
        if fill_all and pmin < 1:
            need = n
        if len(units) < need:
            d.error(
                r.file,
                ln,
                f"[[pool]] can never be satisfied: {n} hexes must each get at "
                f"least {max(pmin, 1)} unit(s) but the pool has only {len(units)}",
                hint="add units, lower per_hex_min or drop fill_all",
            )
        if cap is not None and len(units) > cap:
            d.error(
                r.file,
                ln,
                f"[[pool]] can never be satisfied: {len(units)} units but {n} "
                f"hexes hold at most {pmax} each ({cap})",
                hint="raise per_hex_max or add set-up hexes",
            )
    return SetupPool(
        side=side,
        units=units,
        where=where,
        rule=str(t.get("rule", "")),
        code=code if isinstance(code, str) else None,
        nationality=nat if isinstance(nat, str) else None,
        countries=countries,
        carrier=carrier if isinstance(carrier, str) else None,
        hexes=hexes,
        per_hex_min=pmin,
        per_hex_max=pmax,
        fill_all=fill_all,
        text=str(t.get("text", "")),
        origin=Origin(r.file, ln),
    )


def _reinforcement(
    ctx: Ctx,
    r: _Raw,
    ln: int | None,
    t: dict[str, Any],
    expand: Any,
    hex_ok: Any,
    map_def: MapDef,
    sides: set[str],
    turns: int,
) -> Reinforcement | None:
    d = ctx.diags
    side = _side(ctx, r, ln, t, sides, "[[reinforcement]]")
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
    hexes = tuple(
        h for h in (hex_ok(r, ln, x, "[[reinforcement]]") for x in t.get("hexes", [])) if h
    )
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
    if area is not None and area not in map_def.areas:
        d.error(
            r.file,
            r.tt.key_line("area", start=ln),
            f"[[reinforcement]]: unknown area {area!r}",
            hint=did_you_mean(str(area), list(map_def.areas)),
        )
    if entry == "airbases":
        for h in hexes:
            if map_def.hexes[h].airbase is None:
                lnum, col = r.tt.value_pos(h, start=ln)
                d.error(r.file, lnum, f"[[reinforcement]]: hex {h} has no airbase", col=col)
    if entry == "edge_adjacent" and edge is None:
        d.error(r.file, ln, "[[reinforcement]]: entry 'edge_adjacent' needs edge = \"..\"")
    if entry == "area" and area is None:
        d.error(r.file, ln, "[[reinforcement]]: entry 'area' needs area = \"..\"")
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
