"""[DTP 11.5081] Westpac's national co-operation: the PRC stands apart.

"All SEATO units may stack with each other ... All East Block units except for the PRC may also
stack with each other ... PRC units may NOT stack with any other non-PRC unit."

At the end of a movement phase (where the DTP keeps SPI's stacking check [7.21][9.41]) a hex
that holds PRC and other units of the same side, and did not before the file, is the file's
fault. The PRC is the nationality :data:`PRC` (the Westpac module's code ``Ch``); a module
without it (every other) is unaffected. That PRC units may not combine their strengths with
others in attack, and the overflight and diversion limits [11.5081, 11.5083], are not here.

:func:`side_flags_11_502` names the sides that stand in the Soviet and NATO players' places.
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.problems import Problem
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.flags import DEFAULT_FLAGS
from referee.source.model import Module

RULE = "DTP 11.5081"
PRC = "Ch"  # the People's Republic of China in module_src/dtp_westpac


def _mixed(game: Game, state: GameState, side: str) -> dict[str, tuple[list[str], list[str]]]:
    """Hex -> (PRC units, other units) of ``side`` where both are present."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for hex_id, pieces in state.stacks.items():
        ours = [p for p in pieces if state.units[p].side == side]
        prc = [p for p in ours if game.unit(p).nationality == PRC]
        others = [p for p in ours if game.unit(p).nationality != PRC]
        if prc and others:
            out[hex_id] = (prc, others)
    return out


def prc_stacking_problems_11_5081(
    game: Game, before: GameState, after: GameState, side: str
) -> list[Problem]:
    """A hex where the file puts PRC and non-PRC units of ``side`` together [DTP 11.5081]."""
    was = _mixed(game, before, side)
    return [
        Problem(
            RULE,
            f"PRC units may not stack with other nations' units: {', '.join(prc)} and "
            f"{', '.join(others)} in {hex_id}",
            "prc-stacking",
            hex_id,
            hint="end the PRC units' move in a hex of their own",
        )
        for hex_id, (prc, others) in sorted(_mixed(game, after, side).items())
        if hex_id not in was
    ]


def side_flags_11_502(module: Module) -> dict[str, str]:
    """The rule flags that name the rulebook's "Soviet" and "NATO" sides, when a module's
    sides are called otherwise: Westpac's East Block is player A, in the Soviet player's place,
    SEATO player B, in NATO's [DTP 11.502]; the DTP rules that speak of NATO's bases [DTP 9.15]
    and the score's net (A minus B) read them. Empty for a module whose sides are SPI's (a game
    of it stays byte for byte what it was)."""
    t = module.tables.get("players")
    if t is None:
        return {}
    pc = t.column("player")
    by_player = {str(row[pc]): k.text for k, row in zip(t.row_keys, t.cells, strict=True)}
    out = {"soviet_side": by_player.get("A"), "nato_side": by_player.get("B")}
    default = {"soviet_side": DEFAULT_FLAGS.soviet_side, "nato_side": DEFAULT_FLAGS.nato_side}
    return {k: v for k, v in out.items() if v is not None and v != default[k]}
