"""[DTP 11.5081] Westpac's national co-operation: the PRC stands apart.

"All SEATO units may stack with each other ... All East Block units except for the PRC may also
stack with each other ... PRC units may NOT stack with any other non-PRC unit."

At the end of a movement phase (where the DTP keeps SPI's stacking check [7.21][9.41]) a hex
that holds PRC and other units of the same side, and did not before the file, is the file's
fault. The PRC is the nationality :data:`PRC` (the Westpac module's code ``Ch``); a module
without it (every other) is unaffected (:func:`national_11_508`).

"... nor may they combine their strengths with other non-PRC units in attack": an ``attack``,
``strike`` or ``bounce`` whose units mix the PRC's with another nation's is refused, and so is
a ``detect`` that pools their detection (:func:`pooled_problem_11_5081`). "Other East Block
air units may not overfly PRC all land hexes (they may fly through or end the air movement
phase in coastal hexes)": a non-PRC East Block air unit's path through a land hex of the PRC
(the map's ``[country]`` layer) is refused (:func:`overflight_problem_11_5081`). The bases
each nation may use and the diversion [DTP 11.5082, 11.5083] are ``westpac_bases``.

:func:`side_flags_11_502` names the sides that stand in the Soviet and NATO players' places.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.core import GameState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.flags import DEFAULT_FLAGS
from referee.source.memo import per_module
from referee.source.model import Module

RULE = "DTP 11.5081"
PRC = "Ch"  # the People's Republic of China in module_src/dtp_westpac


def national_11_508(module: Module) -> bool:
    """The module plays Westpac's national co-operation [DTP 11.508]: the PRC is one of its
    nationalities (only Westpac has it)."""
    return PRC in module.nationalities


def pooled_problem_11_5081(game: Game, o: Order) -> Violation | None:
    """An attack, strike, bounce or detection attempt that pools PRC units with another
    nation's [DTP 11.5081]."""
    units = [u for u in o.units if u in game.pieces]
    prc = [u for u in units if game.unit(u).nationality == PRC]
    if not prc or len(prc) == len(units) or not national_11_508(game.module):
        return None
    others = [u for u in units if u not in prc]
    return Violation(
        RULE,
        f"PRC units may not combine with other nations' units: {', '.join(prc)} with "
        f"{', '.join(others)}",
        code="prc-combined",
        word=prc[0],
        unit=prc[0],
        hint="the PRC units and the others each in an order of their own",
    ).at(o)


def overflight_problem_11_5081(game: Game, unit: str, path: Sequence[str]) -> Violation | None:
    """A non-PRC East Block air unit's path over a PRC all-land hex [DTP 11.5081]; coastal
    hexes may be flown through and ended in."""
    if not national_11_508(game.module) or game.category(unit) != "air":
        return None
    u = game.unit(unit)
    nat = game.module.nationalities.get(PRC)
    if nat is None or u.side != nat.side or u.nationality == PRC:
        return None
    for h in path:
        hx = game.module.map.hexes.get(h)
        if hx is None or hx.country is None or game.board.terrain(h) != "land":
            continue
        if game.module.map.countries[hx.country].nationality == PRC:
            return Violation(
                RULE,
                f"{unit} may not overfly {h}, a PRC all-land hex: other East Block air stays "
                "out of PRC land hexes",
                code="prc-overflight",
                word=h,
                unit=unit,
                hint="fly round it, over the PRC's coastal hexes or the sea",
            )
    return None


def _mixed(game: Game, state: GameState, side: str) -> dict[str, tuple[list[str], list[str]]]:
    """Hex -> (PRC units, other units) of ``side`` where both are present (none in a module
    without the PRC: its every stack checked came to 0.9 million calls in a Med campaign)."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    if not national_11_508(game.module):
        return out
    prc = _prc_units(game)
    for hex_id, pieces in state.stacks.items():
        if prc.isdisjoint(pieces):  # no PRC unit: no mix, whoever else is there
            continue
        mix = mix_11_5081(game, state, pieces, side)
        if mix is not None:
            out[hex_id] = mix
    return out


def _prc_units(game: Game) -> frozenset[str]:
    """The module's PRC units [DTP 11.5081], found once per module."""
    return per_module(
        game.module,
        "prc_units_11_5081",
        lambda: frozenset(p for p, u in game.pieces.items() if u.nationality == PRC),
    )


def mix_11_5081(
    game: Game, state: GameState, pieces: Sequence[str], side: str
) -> tuple[list[str], list[str]] | None:
    """(PRC units, other units) of ``side`` among the ``pieces`` of one hex when both are
    there [DTP 11.5081], else None."""
    if not national_11_508(game.module):
        return None
    ours = [p for p in pieces if state.units[p].side == side]
    prc = [p for p in ours if game.unit(p).nationality == PRC]
    others = [p for p in ours if game.unit(p).nationality != PRC]
    return (prc, others) if prc and others else None


def prc_stacking_problems_11_5081(
    game: Game, before: GameState, after: GameState, side: str
) -> list[Violation]:
    """A hex where the file puts PRC and non-PRC units of ``side`` together [DTP 11.5081]."""
    was = _mixed(game, before, side)
    return [
        Violation(
            RULE,
            f"PRC units may not stack with other nations' units: {', '.join(prc)} and "
            f"{', '.join(others)} in {hex_id}",
            code="prc-stacking",
            word=hex_id,
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
