"""Scenario files: length, sides' order, day/night, forces, set-up, reinforcements, victory.

A scenario may ``extends = "other_id"``: it starts from that scenario and adds its own
``[[fixed]]``, ``[[choice]]``, ``[[pool]]``, ``[[reinforcement]]``, ``[[prohibition]]`` and
``[[victory.bonus]]`` entries and forces, and overrides scalar settings (length, calendar).
That is how the Sixth Fleet Campaign "simply extends the short game" [11.0].
"""

from __future__ import annotations

import re
from typing import Any

from referee.numerals import HINT, read_whole, shown, why_not
from referee.source.base import Ctx, check_keys
from referee.source.diagnostics import did_you_mean
from referee.source.model import (
    MapDef,
    Nationality,
    OptionalRule,
    Origin,
    Scenario,
    UnitDef,
)
from referee.source.scenario_forces import ScenarioFile
from referee.source.scenario_setup import (
    SetUp,
    UnitRefs,
    check_all_placed,
    check_bonus_requires,
    read_bonuses,
    read_choices,
    read_fixed,
    read_forces,
    read_pools,
    read_prohibitions,
    read_reinforcements,
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
            _check_lists(ctx, raw, t, ln, f"[[{block}]]")


# Keys of the set-up blocks whose value the readers walk item by item: a list in every block.
LIST_KEYS = {
    "hexes": "hex ids",
    "countries": "countries",
    "units": "unit ids",
    "categories": "unit categories",
    "types": "zone or space types",
    "lines": "lines",
}
# Keys of the set-up blocks that name one thing and that their readers use as given (the
# others are read with str() or looked up and reported by their readers: "unknown side").
TEXT_KEYS = frozenset({"carrier", "status"})


def _check_lists(ctx: Ctx, raw: ScenarioFile, t: dict[str, Any], ln: int | None, what: str) -> None:
    """A list-valued key given anything else (``hexes = true``), or a naming key given
    anything but text (``carrier = []``), is reported where it stands and dropped, so each
    reader sees a value of its type or nothing, never one it cannot walk or look up."""
    for key in sorted(t.keys() & (LIST_KEYS.keys() | TEXT_KEYS)):
        if key in LIST_KEYS and not isinstance(t[key], list):
            expected = f"a list of {LIST_KEYS[key]}"
        elif key in TEXT_KEYS and not isinstance(t[key], str):
            expected = "text (a quoted string)"
        else:
            continue
        ctx.diags.error(
            raw.file,
            raw.tt.key_line(key, start=ln),
            f"{what}: '{key}' must be {expected}, got {t[key]!r}",
            hint=f'e.g. {key} = ["..."]' if key in LIST_KEYS else f'e.g. {key} = "..."',
        )
        del t[key]


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
    """The scenario ``sid`` from its chain of files (base first): its settings, calendar,
    forces and set-up blocks, each checked; ``None`` when a setting it cannot do without is
    wrong."""
    tables = _merged_tables(ctx, chain)
    if tables is None:
        return None
    meta, calendar, victory = tables
    top = chain[-1]
    f, sl = top.file, top.tt.table_start("scenario")
    if not _shape_ok(ctx, sid, top, meta):
        return None
    turns = _turns(ctx, sid, top, meta)
    if turns is None:
        return None
    first = _first_player(ctx, sid, top, meta, sides)
    order = _setup_order(ctx, sid, top, meta, sides)
    states, night_states = _turn_states(ctx, top, calendar, turns)
    refs = UnitRefs(ctx, pieces, rows, map_def, list(map_def.location_names()))
    forces = read_forces(refs, chain, sides, sid)
    setup = SetUp(refs, {pid for ids in forces.values() for pid in ids})
    for r in chain:
        read_fixed(setup, r)
        read_choices(setup, r)
        read_pools(setup, r, nats, sides)
        read_reinforcements(setup, r, sides, turns)
        read_prohibitions(setup, r)
        read_bonuses(setup, r, sides)
    check_bonus_requires(ctx, f, setup.bonuses)
    check_all_placed(ctx, f, sid, forces, setup.placed)
    opts = _optional_rules(ctx, sid, top, meta, optional)
    return Scenario(
        id=sid,
        name=str(meta.get("name", sid)),
        turns=turns,
        first_player=str(first),
        setup_order=tuple(order),
        turn_states=tuple(states),
        night_states=night_states,
        forces={s: tuple(ids) for s, ids in forces.items()},
        fixed=tuple(setup.fixed),
        choices=tuple(setup.choices),
        pools=tuple(setup.pools),
        reinforcements=tuple(setup.reinforcements),
        prohibitions=tuple(setup.prohibitions),
        victory_bonuses=tuple(setup.bonuses),
        unit_vp=str(victory.get("unit_vp", "ECM")),
        unit_vp_minimum=_unit_vp_minimum(ctx.diags, chain),
        optional_rules=opts,
        description=str(meta.get("description", "")),
        source=Origin(f, sl),
    )


def _merged_tables(
    ctx: Ctx, chain: list[ScenarioFile]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]] | None:
    """``[scenario]``, ``[calendar]`` and ``[victory]`` (but its bonuses) of the chain, a
    later file's keys over an earlier one's; ``None`` when one is not a table."""
    meta: dict[str, Any] = {}
    calendar: dict[str, Any] = {}
    victory: dict[str, Any] = {}
    for r in chain:
        for table, into in (("scenario", meta), ("calendar", calendar)):
            got = r.data.get(table, {})
            if not isinstance(got, dict):
                ctx.diags.error(r.file, r.tt.table_start(table), f"[{table}] must be a table")
                return None
            into.update(got)
        v = r.data.get("victory", {})
        if isinstance(v, dict):
            victory.update({k: x for k, x in v.items() if k != "bonus"})
    return meta, calendar, victory


def _shape_ok(ctx: Ctx, sid: str, top: ScenarioFile, meta: dict[str, Any]) -> bool:
    """The declared shape of [scenario]: a value of the wrong type is reported, never used."""
    sl = top.tt.table_start("scenario")
    for key, want, words in SCENARIO_SHAPE:
        if key in meta and not isinstance(meta[key], want):
            ctx.diags.error(
                top.file,
                top.tt.key_line(key, start=sl),
                f"scenario {sid!r}: '{key}' must be {words}, got {meta[key]!r}",
            )
            return False
    return True


def _turns(ctx: Ctx, sid: str, top: ScenarioFile, meta: dict[str, Any]) -> int | None:
    """The scenario's length: a whole number of turns from 1 to 999."""
    turns = meta.get("turns")
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 999:
        ctx.diags.error(
            top.file,
            top.tt.key_line("turns", start=top.tt.table_start("scenario")),
            f"scenario {sid!r}: 'turns' must be a whole number from 1 to 999, got {turns!r}",
        )
        return None
    return turns


def _first_player(
    ctx: Ctx, sid: str, top: ScenarioFile, meta: dict[str, Any], sides: set[str]
) -> Any:
    """The side that plays first (an unknown one is reported)."""
    first = meta.get("first_player")
    if first not in sides:
        ctx.diags.error(
            top.file,
            top.tt.key_line("first_player", start=top.tt.table_start("scenario")),
            f"scenario {sid!r}: unknown first_player {first!r}",
            hint=did_you_mean(str(first), sides),
        )
    return first


def _setup_order(
    ctx: Ctx, sid: str, top: ScenarioFile, meta: dict[str, Any], sides: set[str]
) -> list[str]:
    """The order the sides set up in: every side once (else reported; sorted instead)."""
    order = meta.get("setup_order", sorted(sides))
    if not isinstance(order, list) or sorted(order) != sorted(sides):
        ctx.diags.error(
            top.file,
            top.tt.key_line("setup_order", start=top.tt.table_start("scenario")),
            f"scenario {sid!r}: setup_order must list every side once",
        )
        order = sorted(sides)
    return order


def _turn_states(
    ctx: Ctx, top: ScenarioFile, calendar: dict[str, Any], turns: int
) -> tuple[list[str], frozenset[str]]:
    """Each turn's state (day/night): an explicit list per turn, or a repeating cycle; and
    which states are night."""
    d, f = ctx.diags, top.file
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
        states = _cycle_states(ctx, top, calendar, turns)
    else:
        states = ["Day"] * turns
    night = calendar.get("night", ["Night"])
    night_states = frozenset(str(x) for x in night) if isinstance(night, list) else frozenset()
    for n in night_states:
        if n not in states and states:
            d.warning(f, top.tt.key_line("night", start=cl), f"night state {n!r} never occurs")
    return states, night_states


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


def _cycle_states(ctx: Ctx, top: ScenarioFile, calendar: dict[str, Any], turns: int) -> list[str]:
    """The turns' states from ``cycle`` repeated, the first turn at index ``start``."""
    d, f = ctx.diags, top.file
    cl = top.tt.table_start("calendar")
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
    return [cycle[(start + i) % len(cycle)] for i in range(turns)]


def _optional_rules(
    ctx: Ctx, sid: str, top: ScenarioFile, meta: dict[str, Any], optional: dict[str, OptionalRule]
) -> tuple[str, ...]:
    """The optional rules the scenario uses; each must be one the module declares."""
    opts = meta.get("optional_rules", [])
    if not isinstance(opts, list):
        return ()
    sl = top.tt.table_start("scenario")
    for o in opts:
        if not isinstance(o, str) or o not in optional:
            lnum, col = top.tt.value_pos(str(o), start=sl)
            ctx.diags.error(
                top.file,
                lnum,
                f"scenario {sid!r}: unknown optional rule {o!r}",
                col=col,
                hint=did_you_mean(str(o), list(optional)),
            )
    return tuple(str(o) for o in opts)
