"""Scenario files: length, sides' order, day/night, forces, set-up, reinforcements, victory.

A scenario may ``extends = "other_id"``: it starts from that scenario and adds its own
``[[fixed]]``, ``[[choice]]``, ``[[pool]]``, ``[[reinforcement]]``, ``[[prohibition]]`` and
``[[victory.bonus]]`` entries and forces, and overrides scalar settings (length, calendar).
That is how the Sixth Fleet Campaign "simply extends the short game" [11.0].
"""

from __future__ import annotations

import re
from typing import Any

from referee.numerals import HINT, is_digits, read_whole, shown, why_not
from referee.source.base import Ctx, check_keys
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
from referee.source.scenario_forces import (
    ScenarioFile,
    check_entry,
    load_pool,
    load_reinforcement,
)

SCENARIO_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")


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
    raws: dict[str, ScenarioFile] = {}
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
        raws[sid] = ScenarioFile(name, data, tt)
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
        "types",
        "lines",
        "properties",
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


def _check_scenario_keys(ctx: Ctx, raw: ScenarioFile) -> None:
    """Unknown keys are usually typos or a key filed under the wrong table."""
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


def _chain(ctx: Ctx, sid: str, raws: dict[str, ScenarioFile]) -> list[ScenarioFile] | None:
    chain: list[ScenarioFile] = []
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


SCENARIO_SHAPE: tuple[tuple[str, type, str], ...] = (
    ("name", str, "a string"),
    ("extends", str, "a string"),
    ("first_player", str, "a side id (a string)"),
    ("description", str, "a string"),
    ("setup_order", list, "a list of side ids"),
    ("optional_rules", list, "a list of rule cases"),
)


def _names(d: Any, f: Any, line: int | None, value: Any, key: str) -> list[str] | None:
    """A calendar's ``states`` or ``cycle``: a list of names (a fuzzed ``cycle = -1`` was an
    internal error, issue 31); anything else is an error and ``None``."""
    if isinstance(value, list) and all(isinstance(s, str) for s in value):
        return list(value)
    d.error(
        f,
        line,
        f"calendar {key} must be a list of names, got {shown(value)}",
        hint='e.g. cycle = ["AM", "PM", "Night"]',
    )
    return None


def _unit_vp_minimum(d: Any, chain: list[ScenarioFile]) -> int:
    """``[victory] minimum`` (default 1), the last file of the chain that sets it winning; a
    value that is not a whole number of ASCII digits is an error, reported where it is
    written (a fuzzed ``minimum = ""`` was an internal error, issue 31)."""
    for r in reversed(chain):
        v = r.data.get("victory", {})
        if isinstance(v, dict) and "minimum" in v:
            n = read_whole(v["minimum"], lo=0)
            if n is None:
                line = r.tt.key_line("minimum", start=r.tt.table_start("victory"))
                got = v["minimum"]
                d.error(
                    r.file,
                    line,
                    f"[victory] minimum: expected a whole number, got {shown(got)}{why_not(got)}",
                    hint=HINT,
                )
                return 1
            return n
    return 1


def _build(
    ctx: Ctx,
    sid: str,
    chain: list[ScenarioFile],
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
        for table, into in (("scenario", meta), ("calendar", calendar)):
            got = r.data.get(table, {})
            if not isinstance(got, dict):
                d.error(r.file, r.tt.table_start(table), f"[{table}] must be a table")
                return None
            into.update(got)
        v = r.data.get("victory", {})
        if isinstance(v, dict):
            victory.update({k: x for k, x in v.items() if k != "bonus"})
    top = chain[-1]
    f = top.file
    sl = top.tt.table_start("scenario")
    # the declared shape of [scenario]: a value of the wrong type is reported, never used
    for key, want, words in SCENARIO_SHAPE:
        if key in meta and not isinstance(meta[key], want):
            d.error(
                f,
                top.tt.key_line(key, start=sl),
                f"scenario {sid!r}: '{key}' must be {words}, got {meta[key]!r}",
            )
            return None

    def expand(r: ScenarioFile, ln: int | None, ids: object, what: str) -> tuple[str, ...]:
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

    def hex_ok(r: ScenarioFile, ln: int | None, hid: object, what: str) -> str | None:
        if isinstance(hid, str) and hid in names:
            return hid  # a zone or space of an area or point-to-point map
        digits = is_digits(hid) and len(str(hid)) == 4
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
                    if not (len(hid) == 4 and is_digits(hid))
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
        states = (
            _names(d, f, top.tt.key_line("states", start=cl), calendar["states"], "states") or []
        )
        if len(states) != turns:
            d.error(
                f,
                top.tt.key_line("states", start=cl),
                f"calendar lists {len(states)} turn states but the scenario has {turns} turns",
            )
    elif "cycle" in calendar:
        cycle = _names(d, f, top.tt.key_line("cycle", start=cl), calendar["cycle"], "cycle")
        if cycle == []:
            d.error(f, cl, "calendar cycle is empty")
        cycle = cycle or ["Day"]
        raw_start = calendar.get("start", 0)
        start = read_whole(raw_start)
        if start is None:
            d.error(
                f,
                top.tt.key_line("start", start=cl),
                f"calendar start must be a whole number (the index in 'cycle' of the first "
                f"turn's state), got {shown(raw_start)}{why_not(raw_start)}",
                hint=f"e.g. start = 0; {HINT}",
            )
            start = 0
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

    def claim(pid: str, r: ScenarioFile, ln: int | None, what: str) -> None:
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
                    check_entry(ctx, r, ln, map_def, pieces[pid], hid, "[[fixed]]")
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
                    check_entry(ctx, r, ln, map_def, pieces[pid], hid, "[[choice]]")
                choices.append(
                    ChoicePlacement(pid, hexes, str(t.get("rule", "")), Origin(r.file, ln))
                )
        for t, ln in r.blocks("pool"):
            pool = load_pool(ctx, r, ln, t, expand, hex_ok, map_def, pieces, nats, sides)
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
            rf = load_reinforcement(ctx, r, ln, t, expand, hex_ok, map_def, sides, turns)
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
            if not isinstance(area, str) or area not in map_def.areas:
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
            if area is not None and (not isinstance(area, str) or area not in map_def.areas):
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
        if req is not None and not isinstance(req, str):
            d.error(
                f,
                None,
                f"victory bonus {b.id!r}: 'requires' must name another bonus, got {shown(req)}",
                hint='e.g. requires = "israel_cut_off"',
            )
        elif req is not None and req not in ids:
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
        unit_vp_minimum=_unit_vp_minimum(d, chain),
        optional_rules=tuple(str(o) for o in opts) if isinstance(opts, list) else (),
        description=str(meta.get("description", "")),
        source=Origin(f, sl),
    )
