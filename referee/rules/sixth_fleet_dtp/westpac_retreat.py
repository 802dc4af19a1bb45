"""[DTP 11.503] Westpac's retreat edges and removal ports: who may leave the map damaged, and
where.

"The East Block has no retreat edge in this scenario, however, damaged Soviet naval units may
be removed from the game immediately if they enter Vladivostok (3033). Damaged Chinese naval
units may similarly be removed from 3 ports ... Damaged North Korean units may also be removed
from Vladivostok" [11.5031]. "The SEATO retreat edge is the south map edge east of hex 2072
inclusive, and the east map edge south of hex 6037 inclusive. US, Australian, New Zealand,
Canadian and Japanese units ... may use these retreat edges. Damaged Japanese units (only) can
alternately move into Yokosuka (3945), Nagoya (3546) or Kure (3147) and be immediately removed
from the map. Damaged South Korean and Taiwanese units may not be removed" [11.5032].

The edges are the players table's (``players.csv``, as in every DTP scenario [DTP 11.0]); who
may use them and the ports are the module's ``retreat_rules`` table, one row per nationality.
Both are taken with the DTP ``exit UNIT`` order [DTP 5.24]: written while the damaged unit
stands on the edge or in the port (a ``move`` into the port above it). A removed unit goes to
the box ``retreated``: it is not eliminated and its damage scores at the end of the game
[11.5033] (the score reads the damage of every unit, on the map or not). The command ships may
not leave at all [11.5091] (``westpac_command_ships``). A module without the table (every
other DTP module) keeps the plain 5.24 rule: :func:`exit_problems_11_503` answers None.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.core import GameState, Violation
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.movement import retreat_edge_11_0
from referee.rules.sixth_fleet_dtp.westpac_command_ships import exit_problem_11_5091
from referee.source.model import Module

TABLE = "retreat_rules"


@dataclass(frozen=True, slots=True)
class RetreatRule:
    """One nationality's row: may its damaged ships use the side's retreat edge, and the
    ports where they may be removed [DTP 11.503]."""

    nationality: str
    edge: bool
    ports: tuple[str, ...]
    rule: str


def retreat_rules_11_503(module: Module) -> dict[str, RetreatRule]:
    """The module's ``retreat_rules`` by nationality; empty when it has none."""
    t = module.tables.get(TABLE)
    if t is None:
        return {}
    ec, pc, rc = t.column("retreat_edge"), t.column("ports"), t.column("rule")
    return {
        k.text: RetreatRule(
            k.text,
            str(t.cells[r][ec]) == "yes",
            tuple(str(t.cells[r][pc]).split()),
            str(t.cells[r][rc]),
        )
        for r, k in enumerate(t.row_keys)
    }


def removal_port_11_503(game: Game, unit: str, hex_id: str) -> RetreatRule | None:
    """The row that lets ``unit`` be removed in the port ``hex_id``, if any [DTP 11.5031,
    11.5032]."""
    row = retreat_rules_11_503(game.module).get(game.unit(unit).nationality)
    return row if row is not None and hex_id in row.ports else None


def _place(game: Game, hex_id: str) -> str:
    name = next((p.name for p in game.module.map.places if p.hex == hex_id), None)
    return f"{name} {hex_id}" if name else hex_id


def _where(game: Game, row: RetreatRule) -> str:
    ways = ["its side's retreat edge"] if row.edge else []
    ways += [", ".join(_place(game, h) for h in row.ports)] if row.ports else []
    return " or ".join(ways)


def exit_problems_11_503(
    game: Game, state: GameState, side: str, unit: str, damage: int
) -> list[Violation] | None:
    """``exit UNIT`` in Westpac: a command ship never [DTP 11.5091]; a damaged unit from its
    nationality's removal port, or from the retreat edge if its nationality may use it
    [DTP 11.5031, 11.5032]. None on a module without ``retreat_rules`` or for an undamaged
    unit (the plain DTP 5.24 answers)."""
    rules = retreat_rules_11_503(game.module)
    if not rules:
        return None
    command = exit_problem_11_5091(game, unit)
    if command is not None:
        return [command]
    if damage < 1:
        return None
    here = state.units[unit].location or ""
    nat = game.unit(unit).nationality
    row = rules.get(nat)
    if row is None:
        return None
    if here in row.ports:
        return []
    on_edge = here in retreat_edge_11_0(game.module, side)
    if row.edge and on_edge:
        return []
    name = game.module.nationalities[nat].name if nat in game.module.nationalities else nat
    if on_edge or not (row.edge or row.ports):
        return [
            Violation(
                row.rule,
                f"{unit} ({name}) may not leave the map: "
                + (
                    f"only at {_where(game, row)}"
                    if row.edge or row.ports
                    else f"damaged {name} units may not be removed"
                ),
                code="exit-nationality",
                word=unit,
                unit=unit,
                hint="it stays on the map, damaged, and still scores the enemy its damage",
            )
        ]
    return [
        Violation(
            row.rule,
            f"{unit} may leave the map only at {_where(game, row)}, not from {here}",
            code="exit-not-on-edge",
            word=unit,
            unit=unit,
            hint="move it there first (a move line above the exit)",
        )
    ]
