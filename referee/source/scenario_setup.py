"""A scenario's forces and set-up, read block by block: the units each side starts with
(``[forces]``), where they are placed (``[[fixed]]``, ``[[choice]]``, ``[[pool]]``), what comes
later (``[[reinforcement]]``), the areas closed for a while (``[[prohibition]]``) and the
victory bonuses (``[[victory.bonus]]``). ``scenario.py`` calls them in the file's order, base
scenario first; every reader reports what is wrong at its line and never uses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.numerals import is_digits, shown
from referee.source.base import Ctx
from referee.source.diagnostics import did_you_mean
from referee.source.model import (
    ChoicePlacement,
    FixedPlacement,
    MapDef,
    Nationality,
    Origin,
    Prohibition,
    Reinforcement,
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

BONUS_KEYS = ("id", "side", "vp", "condition", "text", "rule")  # the rest are its parameters


@dataclass(frozen=True)
class UnitRefs:
    """How a scenario names units and places: piece ids (a roster id stands for all its
    copies) and hexes, zones or spaces of its map."""

    ctx: Ctx
    pieces: dict[str, UnitDef]
    rows: dict[str, UnitDef]
    map_def: MapDef
    names: list[str]  # the map's zones and spaces (of an area or point-to-point map)

    def expand(self, r: ScenarioFile, ln: int | None, ids: object, what: str) -> tuple[str, ...]:
        """Piece ids; a roster id stands for all its copies; an unknown id is reported."""
        if not isinstance(ids, list):
            self.ctx.diags.error(r.file, ln, f"{what}: expected a list of unit ids")
            return ()
        out: list[str] = []
        for x in ids:
            x = str(x)
            if x in self.pieces:
                out.append(x)
            elif x in self.rows:
                out.extend(self.rows[x].piece_ids)
            else:
                lnum, col = r.tt.value_pos(x, start=ln)
                self.ctx.diags.error(
                    r.file,
                    lnum,
                    f"{what}: unknown unit {x!r}",
                    col=col,
                    hint=did_you_mean(x, list(self.pieces) + list(self.rows)),
                )
        return tuple(out)

    def hex_ok(self, r: ScenarioFile, ln: int | None, hid: object, what: str) -> str | None:
        """``hid`` if it is a hex (a quoted 4-digit id on the map), zone or space of the map."""
        names, grid = self.names, self.map_def.grid
        if isinstance(hid, str) and hid in names:
            return hid  # a zone or space of an area or point-to-point map
        digits = is_digits(hid) and len(str(hid)) == 4
        if grid is None or (names and not digits):
            lnum, col = r.tt.value_pos(str(hid), start=ln)
            self.ctx.diags.error(
                r.file,
                lnum,
                f"{what}: {hid!r} is not a {'hex, ' if grid else ''}zone or space of this map",
                col=col,
                hint=did_you_mean(str(hid), names) or "names: " + ", ".join(names[:8]),
            )
            return None
        if not isinstance(hid, str) or not grid.is_valid_id(hid):
            lnum, col = r.tt.value_pos(str(hid), start=ln)
            self.ctx.diags.error(
                r.file, lnum, f"{what}: hex {hid!r} is {_why_no_hex(hid)}", col=col
            )
            return None
        return hid


def _why_no_hex(hid: object) -> str:
    if not isinstance(hid, str):
        return "not a quoted 4-digit id"
    return "not a hex of this map" if not (len(hid) == 4 and is_digits(hid)) else "off the map"


# ---- [forces] -------------------------------------------------------------------------------


def read_forces(
    refs: UnitRefs, chain: list[ScenarioFile], sides: set[str], sid: str
) -> dict[str, list[str]]:
    """Each side's starting units, base scenario first; a unit of another side, an unknown
    side or a unit listed twice is reported."""
    d = refs.ctx.diags
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
            forces[side].extend(_side_forces(refs, r, ln, side, ids))
    seen: set[str] = set()
    for ids in forces.values():
        for pid in ids:
            if pid in seen:
                d.error(
                    chain[-1].file,
                    None,
                    f"scenario {sid!r}: unit {pid} is listed twice in the forces",
                )
            seen.add(pid)
    return forces


def _side_forces(
    refs: UnitRefs, r: ScenarioFile, ln: int | None, side: str, ids: object
) -> list[str]:
    out: list[str] = []
    for pid in refs.expand(r, ln, ids, f"[forces] {side}"):
        if refs.pieces[pid].side != side:
            lnum, col = r.tt.value_pos(pid, start=ln)
            refs.ctx.diags.error(
                r.file, lnum, f"[forces] {side}: {pid} belongs to {refs.pieces[pid].side}", col=col
            )
        out.append(pid)
    return out


# ---- placements -----------------------------------------------------------------------------


@dataclass
class SetUp:
    """What the set-up blocks declare, and which block placed each unit (a unit is placed once)."""

    refs: UnitRefs
    in_force: set[str]
    fixed: list[FixedPlacement] = field(default_factory=list)
    choices: list[ChoicePlacement] = field(default_factory=list)
    pools: list[SetupPool] = field(default_factory=list)
    reinforcements: list[Reinforcement] = field(default_factory=list)
    prohibitions: list[Prohibition] = field(default_factory=list)
    bonuses: list[VictoryBonus] = field(default_factory=list)
    placed: dict[str, str] = field(default_factory=dict)

    def claim(self, pid: str, r: ScenarioFile, ln: int | None, what: str) -> None:
        """``what`` places ``pid``; a second placement is reported."""
        if pid in self.placed:
            lnum, col = r.tt.value_pos(pid, start=ln)
            self.refs.ctx.diags.error(
                r.file, lnum, f"{what}: unit {pid} is already placed by {self.placed[pid]}", col=col
            )
        self.placed[pid] = what

    def not_in_force(self, pid: str, r: ScenarioFile, ln: int | None, what: str) -> None:
        """A placed unit must be one of the scenario's starting forces."""
        if pid not in self.in_force:
            self.refs.ctx.diags.error(
                r.file, ln, f"{what}: {pid} is not in this scenario's [forces]"
            )


def read_fixed(s: SetUp, r: ScenarioFile) -> None:
    """``[[fixed]]``: a unit set up in one hex."""
    refs = s.refs
    for t, ln in r.blocks("fixed"):
        pids = refs.expand(r, ln, [t.get("unit")], "[[fixed]]")
        hid = refs.hex_ok(r, ln, t.get("at", t.get("hex")), "[[fixed]]")
        for pid in pids:
            s.claim(pid, r, ln, "[[fixed]]")
            s.not_in_force(pid, r, ln, "[[fixed]]")
            if hid:
                check_entry(refs.ctx, r, ln, refs.map_def, refs.pieces[pid], hid, "[[fixed]]")
                origin = Origin(r.file, ln)
                rule = str(t.get("rule", ""))
                s.fixed.append(FixedPlacement(pid, hid, rule, t.get("status"), origin))


def read_choices(s: SetUp, r: ScenarioFile) -> None:
    """``[[choice]]``: a unit set up in one hex of several, its owner's choice."""
    refs = s.refs
    for t, ln in r.blocks("choice"):
        pids = refs.expand(r, ln, [t.get("unit")], "[[choice]]")
        listed = t.get("hexes", [])
        listed = listed if isinstance(listed, list) else []
        hexes = tuple(h for h in (refs.hex_ok(r, ln, x, "[[choice]]") for x in listed) if h)
        if len(hexes) < 1:
            refs.ctx.diags.error(r.file, ln, "[[choice]] needs hexes = [..] with at least one hex")
        for pid in pids:
            s.claim(pid, r, ln, "[[choice]]")
            for hid in hexes:
                check_entry(refs.ctx, r, ln, refs.map_def, refs.pieces[pid], hid, "[[choice]]")
            s.choices.append(
                ChoicePlacement(pid, hexes, str(t.get("rule", "")), Origin(r.file, ln))
            )


def read_pools(s: SetUp, r: ScenarioFile, nats: dict[str, Nationality], sides: set[str]) -> None:
    """``[[pool]]``: units set up by their owner among the places the pool allows."""
    refs = s.refs
    for t, ln in r.blocks("pool"):
        pool = load_pool(
            refs.ctx, r, ln, t, refs.expand, refs.hex_ok, refs.map_def, refs.pieces, nats, sides
        )
        if pool is None:
            continue
        if pool.carrier is not None and pool.carrier not in s.in_force:
            refs.ctx.diags.error(
                r.file,
                r.tt.key_line("carrier", start=ln),
                f"[[pool]]: carrier {pool.carrier} is not in this scenario's [forces]",
            )
        for pid in pool.units:
            s.claim(pid, r, ln, "[[pool]]")
            s.not_in_force(pid, r, ln, "[[pool]]")
        s.pools.append(pool)


def read_reinforcements(s: SetUp, r: ScenarioFile, sides: set[str], turns: int) -> None:
    """``[[reinforcement]]``: units that enter later; never one of the starting forces."""
    refs = s.refs
    for t, ln in r.blocks("reinforcement"):
        rf = load_reinforcement(
            refs.ctx, r, ln, t, refs.expand, refs.hex_ok, refs.map_def, sides, turns
        )
        if rf is None:
            continue
        for pid in rf.units:
            if pid in s.in_force:
                lnum, col = r.tt.value_pos(pid, start=ln)
                refs.ctx.diags.error(
                    r.file,
                    lnum,
                    f"[[reinforcement]]: {pid} is already in the starting forces",
                    col=col,
                )
            s.claim(pid, r, ln, "[[reinforcement]]")
        s.reinforcements.append(rf)


def read_prohibitions(s: SetUp, r: ScenarioFile) -> None:
    """``[[prohibition]]``: an area closed to some categories until a Game-Turn."""
    d, map_def = s.refs.ctx.diags, s.refs.map_def
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
        until = t.get("until_turn")
        if not isinstance(until, int) or isinstance(until, bool):
            d.error(
                r.file,
                r.tt.key_line("until_turn", start=ln),
                "[[prohibition]]: 'until_turn' must be a Game-Turn number",
            )
            continue
        cats = t.get("categories", [])
        if not isinstance(cats, list):
            d.error(
                r.file,
                r.tt.key_line("categories", start=ln),
                f"[[prohibition]]: 'categories' must be a list of unit categories, got {cats!r}",
                hint='e.g. categories = ["air"]',
            )
            continue
        text, rule = str(t.get("text", "")), str(t.get("rule", ""))
        s.prohibitions.append(Prohibition(str(area), tuple(map(str, cats)), until, text, rule))


# ---- [[victory.bonus]] ----------------------------------------------------------------------


def read_bonuses(s: SetUp, r: ScenarioFile, sides: set[str]) -> None:
    """``[[victory.bonus]]``: VP a side scores when a condition of the schema holds."""
    v = r.data.get("victory", {})
    bl = r.tt.block_starts("victory.bonus")
    for i, t in enumerate(v.get("bonus", []) if isinstance(v, dict) else []):
        ln = bl[i] if i < len(bl) else None
        s.bonuses.append(_bonus(s.refs.ctx, r, ln, t, sides, s.refs.map_def))


def _bonus(
    ctx: Ctx, r: ScenarioFile, ln: int | None, t: dict[str, Any], sides: set[str], map_def: MapDef
) -> VictoryBonus:
    """One bonus; its unknown condition, side or area and a VP that is no whole number are
    reported (the VP then counts 0)."""
    d = ctx.diags
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
        d.error(r.file, r.tt.key_line("side", start=ln), f"victory bonus: unknown side {side!r}")
    params = {k: x for k, x in t.items() if k not in BONUS_KEYS}
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
        d.error(r.file, r.tt.key_line("vp", start=ln), "victory bonus: 'vp' must be a whole number")
        vp = 0
    text, rule = str(t.get("text", "")), str(t.get("rule", ""))
    return VictoryBonus(str(t.get("id", cond)), side, vp, cond, params, text, rule)


def check_bonus_requires(ctx: Ctx, file: str, bonuses: list[VictoryBonus]) -> None:
    """A bonus that ``requires`` another names one the scenario declares."""
    ids = {b.id for b in bonuses}
    for b in bonuses:
        req = b.params.get("requires")
        if req is not None and not isinstance(req, str):  # a fuzzed [[1]] (issue 31)
            ctx.diags.error(
                file,
                None,
                f"victory bonus {b.id!r}: 'requires' must name another bonus, got {shown(req)}",
                hint='e.g. requires = "israel_cut_off"',
            )
        elif req is not None and req not in ids:
            ctx.diags.error(
                file,
                None,
                f"victory bonus {b.id!r} requires unknown bonus {req!r}",
                hint=did_you_mean(str(req), ids),
            )


def check_all_placed(
    ctx: Ctx, file: str, sid: str, forces: dict[str, list[str]], placed: dict[str, str]
) -> None:
    """Every starting unit is placed by some set-up block."""
    for side, ids in forces.items():
        for pid in ids:
            if pid not in placed:
                ctx.diags.error(
                    file,
                    None,
                    f"scenario {sid!r}: {side} unit {pid} is in the forces but no "
                    "[[fixed]], [[choice]] or [[pool]] places it",
                )
