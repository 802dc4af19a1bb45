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
    """The ``base_rules`` table by base name; empty without it."""
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

    def bad(r: int, column: str, msg: str, hint: str) -> None:
        line = t.lines[r] if t.lines else None
        out.append(Diagnostic(t.file, line, cell_column(t, r, col.get(column, 0)), msg, hint))

    for r, key in enumerate(t.row_keys):
        row = {c.text: str(t.cells[r][i]).strip() for i, c in enumerate(t.column_keys)}
        hex_id, anchor, dist = row["hex"], row["anchor"], row["distance"]
        if hex_id:
            h = module.map.hexes.get(hex_id)
            if h is None or h.airbase is None:
                bad(
                    r,
                    "hex",
                    f"{key.text}: {hex_id!r} is not an airbase hex",
                    "the map's [[airbase]]",
                )
        elif not (_HEX.match(anchor) and anchor in module.map.hexes and is_digits(dist)):
            bad(
                r,
                "anchor",
                f"{key.text}: an off-map base needs an anchor hex on the map and a distance "
                "[DTP 11.3 rule 2]",
                "e.g. anchor 3003, distance 2",
            )
        elif read_whole(dist, lo=1) is None:
            bad(r, "distance", f"{key.text}: distance must be at least 1", "2 for Murmansk")
        for n in row["nationalities"].split():
            if n not in module.nationalities:
                bad(r, "nationalities", f"{key.text}: unknown nationality {n!r}", "module.toml")
        cap = row["capacity"]
        if cap and cap != UNLIMITED and not is_digits(cap):
            bad(r, "capacity", f"{key.text}: capacity {cap!r}", f"a number or {UNLIMITED!r}")
        for ty in (*row["occupied_users"].split(), *row.get("relocates", "").split()):
            if ty not in module.unit_types:
                bad(r, "occupied_users", f"{key.text}: unknown unit type {ty!r}", "module.toml")
        pieces = set(module.pieces())
        for column in ("recaptured_by", "reinforced_by"):
            for uid in row.get(column, "").split():
                if uid not in pieces:
                    bad(r, column, f"{key.text}: unknown unit {uid!r}", "units.csv ids")
        ready = row.get("occupied_readiness", "")
        if ready and read_whole(ready, signed=True, lo=-9, hi=9) is None:
            bad(r, "occupied_readiness", f"{key.text}: {ready!r} is not a modifier", "e.g. -1")
    return out
