"""Leaving the map [DTP 5.24]: the ``exit UNIT`` order of a ship-and-sub movement phase.

No unit may leave the map, with two exceptions [DTP 5.24] (and the convoy's diversion off the
south edge once Tromso is occupied [DTP 11.3 rule 7]): a *damaged* ship or sub may retreat
off its side's retreat edge (the players table [DTP 11.0]), taking along the air units aboard
a damaged CV; and a unit the scenario lets exit for victory. The second are the module's
``victory_exits`` table (Denmark Strait: an undamaged Soviet sub off the west edge or the
south edge west of the UK and Ireland; Los Angeles or Churchill, undamaged, off the east edge
[DTP 11.3 victory 1, 2]); such a unit goes to the box ``exited`` and scores its side its full
value, "calculated the same way as for eliminated units" (``victory.score_8_57``). A retreated
unit goes to the box ``retreated``; its damage still scores for the enemy [DTP 8.57].

Westpac's own exits [DTP 11.503] (removal ports, who may use the edge) and its command
ships, which never exit [DTP 11.5091], are ``westpac_retreat``'s.

The unit leaves from the hex it stands in when the order is read (a ``move`` to the edge
written above it), at no cost in MP (docs/interpretations.md DTP-DS-11).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee.engine.core import Event, GameState, UnitState, Violation
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.denmark_strait import CONVOY_FLAG
from referee.rules.sixth_fleet_dtp.facts import facts_of
from referee.rules.sixth_fleet_dtp.movement import (
    edge_hexes_5_24,
    exit_problem_5_24,
    retreat_edge_11_0,
)
from referee.rules.sixth_fleet_dtp.tables import parse_edges
from referee.rules.sixth_fleet_dtp.westpac_retreat import exit_problems_11_503, removal_port_11_503
from referee.source.boxes import holding_box
from referee.source.diagnostics import Diagnostic
from referee.source.model import Module

EXITED, RETREATED = "exited", "retreated"


@dataclass(frozen=True, slots=True)
class VictoryExit:
    """One row of ``victory_exits``: units (categories or unit ids) of ``side`` that score
    their full value by leaving the map undamaged from ``edge``."""

    id: str
    side: str
    units: frozenset[str]
    edge: tuple[str, ...]


def victory_exits(module: Module) -> list[VictoryExit]:
    t = module.tables.get("victory_exits")
    if t is None:
        return []
    sc, uc, ec = t.column("side"), t.column("units"), t.column("edge")
    return [
        VictoryExit(
            k.text,
            str(t.cells[r][sc]),
            frozenset(str(t.cells[r][uc]).split()),
            edge_hexes_5_24(str(t.cells[r][ec])),
        )
        for r, k in enumerate(t.row_keys)
    ]


def victory_exit_11_3(game: Game, unit: str, hex_id: str) -> VictoryExit | None:
    """The scenario's exit that lets this unit leave from ``hex_id`` for victory, if any."""
    u = game.unit(unit)
    for x in victory_exits(game.module):
        if u.side == x.side and ({u.category, unit} & x.units) and hex_id in x.edge:
            return x
    return None


def convoy_diverts_11_3_7(game: Game, state: GameState, unit: str, hex_id: str) -> bool:
    """With naval infantry in Tromso the convoy may "exit the south edge of the map" instead
    of docking [DTP 11.3 rule 7]: from any hex of the map's south edge, damaged or not."""
    from referee.rules.sixth_fleet_dtp.north_atlantic import TROMSO, occupied

    south = game.module.map.edges.get("south")
    return (
        CONVOY_FLAG in game.unit(unit).flags
        and TROMSO in occupied(state)
        and south is not None
        and hex_id in south.hexes
    )


def exit_problems(game: Game, state: GameState, side: str, unit: str) -> list[Violation]:
    """``exit UNIT``: the side's own ship or sub on the map; undamaged only by a victory exit
    [DTP 11.3 victory "cannot exit if damaged"]; damaged only by the retreat edge [DTP 5.24]."""
    st = state.units.get(unit)
    if st is None or st.side != side or st.location is None:
        return [
            Violation(
                "DTP 5.24", f"{unit} is not one of your units on the map", code="not-own", word=unit
            )
        ]
    cat = game.category(unit)
    damage = int(facts_of(state).damage.get(unit, 0))
    if damage == 0 and victory_exit_11_3(game, unit, st.location) is not None:
        return []
    if convoy_diverts_11_3_7(game, state, unit, st.location):
        return []
    westpac = exit_problems_11_503(game, state, side, unit, damage)  # [DTP 11.503, 11.5091]
    if westpac is not None:
        return westpac
    edge: Iterable[str] = retreat_edge_11_0(game.module, side) if damage else ()
    bad = exit_problem_5_24(unit, cat, damage, st.location, edge, False)
    if bad is not None and damage == 0 and victory_exits(game.module):
        bad = bad._replace(
            hint="the scenario's exits for victory are "
            + "; ".join(f"{x.id} ({' '.join(sorted(x.units))})" for x in victory_exits(game.module))
        )
    return [bad] if bad is not None else []


def carry_out_exit(game: Game, state: GameState, unit: str, events: list[Event]) -> GameState:
    """The unit leaves: to ``exited`` (a victory exit) or ``retreated`` (a damaged ship or sub,
    with the air aboard a CV) [DTP 5.24, 11.3 victory]."""
    st = state.units[unit]
    here = st.location or ""
    x = victory_exit_11_3(game, unit, here)
    damaged = int(facts_of(state).damage.get(unit, 0)) > 0
    box = RETREATED if damaged or x is None else EXITED
    if convoy_diverts_11_3_7(game, state, unit, here):
        state = state.with_unit(UnitState(unit, st.side, None, RETREATED, st.status))
        events.append(
            Event(
                "retreat",
                "DTP 11.3 rule 7",
                f"{unit} leaves the map by the south edge from {here}: Tromso is occupied",
                {"unit": unit, "hex": here},
            )
        )
        return state
    port = removal_port_11_503(game, unit, here) if damaged else None
    state = state.with_unit(UnitState(unit, st.side, None, box, st.status))
    if port is not None:
        events.append(
            Event(
                "retreat",
                port.rule,
                f"{unit} is removed from the map, damaged, at {here}: not eliminated, its "
                "damage scores at the end [DTP 11.5033]",
                {"unit": unit, "hex": here},
            )
        )
        return state
    if box == EXITED:
        assert x is not None
        events.append(
            Event(
                "exit",
                "DTP 11.3",
                f"{unit} leaves the map from {here} ({x.id}): it scores as if eliminated",
                {"unit": unit, "hex": here},
            )
        )
        return state
    aboard = sorted(u for u, s in state.units.items() if s.box == holding_box(unit))
    for a in aboard:
        s = state.units[a]
        state = state.with_unit(UnitState(a, s.side, None, RETREATED, s.status))
    events.append(
        Event(
            "retreat",
            "DTP 5.24",
            f"{unit} retreats off the map from {here}"
            + (f", with {', '.join(aboard)} aboard" if aboard else ""),
            {"unit": unit, "hex": here},
        )
    )
    return state


def check_victory_exits_11_3(module: Module) -> list[Diagnostic]:
    """``referee check``: a known side, units that are categories or unit ids, an edge of hex
    ranges on the map [DTP 11.3 victory]."""
    t = module.tables["victory_exits"]
    sc, uc, ec = t.column("side"), t.column("units"), t.column("edge")
    sides = {s.id for s in module.sides}
    cats = {str(v["category"]) for v in module.unit_types.values()}
    ids = {u.id for u in module.units}
    out: list[Diagnostic] = []
    for r, k in enumerate(t.row_keys):
        line = t.lines[r] if t.lines else None
        if str(t.cells[r][sc]) not in sides:
            out.append(Diagnostic(t.file, line, None, f"{k.text}: unknown side", ", ".join(sides)))
        for w in str(t.cells[r][uc]).split():
            if w not in cats and w not in ids:
                out.append(
                    Diagnostic(
                        t.file,
                        line,
                        None,
                        f"{k.text}: {w!r} is no category or unit",
                        "e.g. submarine",
                    )
                )
        edge = str(t.cells[r][ec])
        if parse_edges(edge) is None or any(
            h not in module.map.hexes for h in edge_hexes_5_24(edge)
        ):
            out.append(
                Diagnostic(
                    t.file,
                    line,
                    None,
                    f"{k.text}: edge {edge!r} is not a range of hexes on the map",
                    "e.g. 0101-0124",
                )
            )
    return out
