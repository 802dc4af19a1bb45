"""The bases the North Atlantic scenarios treat specially, read from the module's
``base_rules`` table [DTP 11.3 rules 2, 3, 5; 11.31 rule 2], and the [DTP 9.15] landing at
another NATO nation's base that one of them (Kinloss) is exempt from.

* **Murmansk** (really Pechenga) is off the map: no ``hex``, an ``anchor`` hex (3003) and a
  ``distance`` (2: one hex between) [DTP 11.3 rule 2]. An air unit based there is in the box
  named after the base; range and rebasing count ``distance`` plus the hexes from the anchor;
  its capacity is ``unlimited``; having no hex, no order can name it as a target (it "cannot
  be physically attacked").
* **Kinloss** is both a US and a UK base: ``nationalities`` lists every nation whose air units
  use it as their own [DTP 11.3 rule 3]; the map gives a base one nationality.
* **Keflavik**, once Soviet naval infantry occupy it, may take only the occupier's
  ``occupied_users`` unit types (the Kiev's Forgers and a Be-12), even at D3, and they roll
  readiness at ``occupied_readiness`` (-1) [DTP 11.3 rule 5, 11.31 rule 2]; one unit of a
  ``relocates`` type (a Be-12) may be picked up from an off-map base and put there in an air
  movement phase without counting range.

Every function answers "nothing special" on a module without the table (the Med).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.numerals import is_digits, read_whole
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.tables import cell_column
from referee.source.diagnostics import Diagnostic
from referee.source.memo import per_module
from referee.source.model import Module

UNLIMITED = "unlimited"
_HEX = re.compile(r"^[0-9]{4}$")


@dataclass(frozen=True, slots=True)
class BaseRule:
    """One row of the ``base_rules`` table."""

    name: str
    hex: str  # "" for an off-map base
    anchor: str  # the hex an off-map base is counted from
    distance: int  # hexes from the anchor to the off-map base (the anchor counted)
    nationalities: frozenset[str]
    capacity: int | None  # None: unlimited; for an on-map base the 9.4 limit applies anyway
    occupied_users: frozenset[str]
    occupied_readiness: int
    relocates: frozenset[str] = frozenset()  # types one unit of which may be moved in once
    recaptured_by: frozenset[str] = frozenset()  # units that take the occupied base back
    reinforced_by: tuple[str, ...] = ()  # units arriving once the recaptured base is at D1

    @property
    def off_map(self) -> bool:
        return not self.hex


def base_rules(module: Module) -> dict[str, BaseRule]:
    """The ``base_rules`` table by base name; empty without it. Read once per module (a
    rebasing phase's options ask it for every base of every air unit: issue 26); a copy, so
    no caller changes the module's."""
    return dict(per_module(module, "sixth_fleet_dtp.base_rules", lambda: _read(module)))


def _read(module: Module) -> dict[str, BaseRule]:
    t = module.tables.get("base_rules")
    if t is None:
        return {}
    out: dict[str, BaseRule] = {}
    for r, key in enumerate(t.row_keys):
        row = {c.text: str(t.cells[r][i]).strip() for i, c in enumerate(t.column_keys)}
        cap = row.get("capacity", "")
        out[key.text] = BaseRule(
            key.text,
            row.get("hex", ""),
            row.get("anchor", ""),
            read_whole(row.get("distance", "")) or 0,
            frozenset(row.get("nationalities", "").split()),
            read_whole(cap),
            frozenset(row.get("occupied_users", "").split()),
            read_whole(row.get("occupied_readiness") or "0", signed=True) or 0,
            frozenset(row.get("relocates", "").split()),
            frozenset(row.get("recaptured_by", "").split()),
            tuple(row.get("reinforced_by", "").split()),
        )
    return out


def off_map_base(module: Module, name: str | None) -> BaseRule | None:
    """The off-map base called ``name`` (also the name of its box) [DTP 11.3 rule 2]."""
    rule = base_rules(module).get(name or "")
    return rule if rule is not None and rule.off_map else None


def off_map_names(module: Module) -> frozenset[str]:
    return frozenset(n for n, r in base_rules(module).items() if r.off_map)


def off_map_boxes(module: Module) -> tuple[tuple[str, str], ...]:
    """The off-map bases as boxes for the VASSAL module: (box name, title) [DTP 11.3 rule 2]."""
    return tuple(
        (r.name, f"{r.name}: off the map, {r.distance} hexes from {r.anchor}")
        for r in base_rules(module).values()
        if r.off_map
    )


def rule_at(module: Module, hex_id: str) -> BaseRule | None:
    """The special rule of the on-map base in ``hex_id``, if any."""
    return next((r for r in base_rules(module).values() if r.hex == hex_id), None)


def entry_11_3_2(game: Game, box: str | None) -> tuple[str, int] | None:
    """Where a unit in an off-map base's box enters the map and what entering costs: the
    anchor hex, at ``distance`` MP (Murmansk: 3003 at 2) [DTP 11.3 rule 2]."""
    rule = off_map_base(game.module, box)
    return (rule.anchor, rule.distance) if rule is not None else None


def distance_11_3_2(game: Game, a: str, b: str) -> int:
    """Hexes between two places, either of which may be an off-map base: Murmansk counts as
    ``distance`` hexes from its anchor [DTP 11.3 rule 2]."""
    extra = 0
    ends = []
    for p in (a, b):
        rule = off_map_base(game.module, p)
        if rule is not None:
            extra += rule.distance
            ends.append(rule.anchor)
        else:
            ends.append(p)
    if ends[0] == ends[1] and extra and a != b:
        return extra  # from the base to its own anchor
    return extra + game.board.distance(ends[0], ends[1]) if a != b else 0


def nationalities_11_3_3(game: Game, hex_id: str) -> frozenset[str]:
    """The nations whose base ``hex_id`` is: the map's one, plus those of the base rules
    (Kinloss: US and UK [DTP 11.3 rule 3])."""
    base = game.board.airbase(hex_id)
    own = frozenset({base.nationality}) if base is not None else frozenset()
    rule = rule_at(game.module, hex_id)
    return own | (rule.nationalities if rule is not None else frozenset())


def other_nato_base_9_15(game: Game, unit: str, hex_id: str) -> bool:
    """Is ``hex_id`` another NATO nation's base for this NATO air unit [DTP 9.15]? Never for
    a Soviet unit [9.12], never at a base its nation shares (Kinloss [DTP 11.3 rule 3])."""
    u = game.unit(unit)
    if u.side != game.flags.nato_side or game.board.airbase(hex_id) is None:
        return False
    return u.nationality not in nationalities_11_3_3(game, hex_id)


def check_base_rules_11_3(module: Module) -> list[Diagnostic]:
    """``referee check``: each base on the map (an airbase there) or off it with an anchor on
    the map and a distance of at least 1; nationalities known; capacity a number or
    ``unlimited`` [DTP 11.3 rules 2, 3, 5]."""
    t = module.tables["base_rules"]
    out: list[Diagnostic] = []
    col = {c.text: i for i, c in enumerate(t.column_keys)}
    pieces = set(module.pieces())
    for r, key in enumerate(t.row_keys):
        row = {c.text: str(t.cells[r][i]).strip() for i, c in enumerate(t.column_keys)}
        found = [
            *_place_problems_11_3_2(module, row),
            *_value_problems_11_3_3(module, row),
            *_piece_problems_11_31(pieces, row),
        ]
        line = t.lines[r] if t.lines else None
        for column, msg, hint in found:
            cell = cell_column(t, r, col.get(column, 0))
            out.append(Diagnostic(t.file, line, cell, f"{key.text}: {msg}", hint))
    return out


_RowProblem = tuple[str, str, str]
"""(column, what is wrong, hint) in one row of ``base_rules.csv``."""


def _place_problems_11_3_2(module: Module, row: dict[str, str]) -> list[_RowProblem]:
    """A base on the map is an airbase hex; one off it has an anchor hex on the map and a
    distance of at least 1 [DTP 11.3 rule 2]."""
    hex_id, anchor, dist = row["hex"], row["anchor"], row["distance"]
    if hex_id:
        h = module.map.hexes.get(hex_id)
        if h is None or h.airbase is None:
            return [("hex", f"{hex_id!r} is not an airbase hex", "the map's [[airbase]]")]
        return []
    if not (_HEX.match(anchor) and anchor in module.map.hexes and is_digits(dist)):
        return [
            (
                "anchor",
                "an off-map base needs an anchor hex on the map and a distance [DTP 11.3 rule 2]",
                "e.g. anchor 3003, distance 2",
            )
        ]
    if read_whole(dist, lo=1) is None:
        return [("distance", "distance must be at least 1", "2 for Murmansk")]
    return []


def _value_problems_11_3_3(module: Module, row: dict[str, str]) -> list[_RowProblem]:
    """Nationalities the module knows [DTP 11.3 rule 3], a capacity that is a number or
    ``unlimited`` [DTP 11.3 rule 2], unit types the module knows [DTP 11.3 rule 5]."""
    out: list[_RowProblem] = [
        ("nationalities", f"unknown nationality {n!r}", "module.toml")
        for n in row["nationalities"].split()
        if n not in module.nationalities
    ]
    cap = row["capacity"]
    if cap and cap != UNLIMITED and not is_digits(cap):
        out.append(("capacity", f"capacity {cap!r}", f"a number or {UNLIMITED!r}"))
    out += [
        ("occupied_users", f"unknown unit type {ty!r}", "module.toml")
        for ty in (*row["occupied_users"].split(), *row.get("relocates", "").split())
        if ty not in module.unit_types
    ]
    return out


def _piece_problems_11_31(pieces: set[str], row: dict[str, str]) -> list[_RowProblem]:
    """The units that recapture or reinforce the base exist, and the occupier's readiness is
    a modifier [DTP 11.31 rules 1, 8]."""
    out: list[_RowProblem] = [
        (column, f"unknown unit {uid!r}", "units.csv ids")
        for column in ("recaptured_by", "reinforced_by")
        for uid in row.get(column, "").split()
        if uid not in pieces
    ]
    ready = row.get("occupied_readiness", "")
    if ready and read_whole(ready, signed=True, lo=-9, hi=9) is None:
        out.append(("occupied_readiness", f"{ready!r} is not a modifier", "e.g. -1"))
    return out
