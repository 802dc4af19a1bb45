"""[DTP 11.5134] the optional Korean land war: which South Korean hex the East Block may take.

"Each even numbered AM turn the East Block player chooses a hex in South Korea which he
'captures' in the land war ... EACH HEX CHOSEN MUST BE ADJACENT TO TWO HEXES EITHER IN NORTH
KOREA OR ALREADY EAST BLOCK CONTROLLED. This means Suwon cannot be occupied on turn 4."

The countries are the map's ``[country]`` layer (module_src/dtp_westpac: ``k`` North Korea,
``s`` South Korea, nationalities ``NK`` and ``Ko``); the turn's day part is the scenario's
calendar (turn 1 AM: AM turns are 1, 4, 7, ...; the even ones 4, 10, 16, ...). In play (with the
optional rule chosen at ``referee new --option 11.5134``) the East Block writes ``capture HEX``
in its ship and sub movement file of such a turn: at most one a turn, the East Block's choice
(a reading: the rule gives the choice of hex to the player it favours; nothing forces it). The
hex falls at once: the SEATO air units in it are eliminated for good and a base or defended
hex there is destroyed, all counting for VP (:func:`capture_11_5134`).
"""

from __future__ import annotations

from collections.abc import Collection

from referee.engine.core import Event, GameState, Violation
from referee.engine.orders import Order
from referee.hexgrid import HexGrid
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import eliminate
from referee.rules.sixth_fleet_dtp.bases import DESTROYED
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.source.model import MapDef

RULE = "DTP 11.5134"
NORTH, SOUTH = "NK", "Ko"
NEEDED = 2  # "adjacent to two hexes"
AM_EVERY = 3  # AM, PM, Night [DTP 6.62]


def nationality_of(map_def: MapDef, hex_id: str) -> str | None:
    """The nationality of the country a hex lies in, if any (the ``[country]`` layer)."""
    h = map_def.hexes.get(hex_id)
    if h is None or h.country is None:
        return None
    return map_def.countries[h.country].nationality


def capture_turn_11_5134(turn: int) -> bool:
    """An even-numbered AM turn (turn 1 is AM) [DTP 11.5134]."""
    return turn % AM_EVERY == 1 and turn % 2 == 0


def capture_problem_11_5134(
    map_def: MapDef, grid: HexGrid, hex_id: str, turn: int, controlled: Collection[str]
) -> Violation | None:
    """Why the East Block may not capture ``hex_id`` on ``turn`` with ``controlled`` (the South
    Korean hexes it has taken), or None if it may [DTP 11.5134]."""
    if not capture_turn_11_5134(turn):
        return Violation(
            RULE,
            f"a Korean hex is captured only on even-numbered AM turns, not on turn {turn}",
            code="capture-turn",
            word=hex_id,
            hint="the next is turn " + str(_next_capture_turn(turn)),
        )
    if nationality_of(map_def, hex_id) != SOUTH or hex_id in controlled:
        return Violation(
            RULE,
            f"{hex_id} is not a South Korean hex still held by SEATO",
            code="capture-not-south-korea",
            word=hex_id,
        )
    held = [
        n for n in grid.neighbours(hex_id) if nationality_of(map_def, n) == NORTH or n in controlled
    ]
    if len(held) < NEEDED:
        return Violation(
            RULE,
            f"{hex_id} is adjacent to {len(held)} hex(es) in North Korea or East Block "
            f"controlled ({', '.join(held) or 'none'}); it must be adjacent to {NEEDED}",
            code="capture-not-adjacent",
            word=hex_id,
            hint="choose a hex next to two North Korean or captured hexes",
        )
    return None


def _next_capture_turn(turn: int) -> int:
    t = turn + 1
    while not capture_turn_11_5134(t):
        t += 1
    return t


# ---- the capture in play (optional rule 11.5134) ----------------------------------------------
OPTION = "11.5134"


def captured_11_5134(state: GameState) -> dict[str, int]:
    """The South Korean hexes the East Block has taken, each with its Game-Turn."""
    return {str(h): int(t) for h, t in facts_of(state).korea_captured.items()}


def capture_order_problems_11_5134(
    game: Game, state: GameState, side: str, o: Order, kind: str
) -> list[Violation]:
    """``capture HEX``: with optional rule 11.5134 only, by the East Block in its ship and sub
    movement phase of an even-numbered AM turn, one hex a turn, a hex the rule allows
    [DTP 11.5134]."""
    hex_id = o.hexes[0] if o.hexes else ""
    why = None
    if OPTION not in state.options:
        why = "the Korean land war is optional rule 11.5134, not chosen for this game"
    elif side != game.flags.soviet_side or kind != "ship":
        why = "the East Block captures a Korean hex in its ship and sub movement phase"
    elif state.turn in captured_11_5134(state).values():
        why = f"one hex each even-numbered AM turn: one has fallen on turn {state.turn}"
    if why is not None:
        return [Violation(RULE, why, code="capture-not-allowed", word=hex_id).at(o)]
    grid = game.module.map.grid
    assert grid is not None
    p = capture_problem_11_5134(game.module.map, grid, hex_id, state.turn, captured_11_5134(state))
    return [p.at(o)] if p is not None else []


def capture_11_5134(game: Game, state: GameState, hex_id: str, events: list[Event]) -> GameState:
    """The hex falls: East Block control (the detection marker of the rule), the SEATO air
    units there permanently eliminated, a base or defended hex there destroyed (D3), all for
    VP [DTP 11.5134]."""
    taken = {**captured_11_5134(state), hex_id: state.turn}
    state = DtpFacts.put(state, korea_captured=taken)
    events.append(
        Event(
            "capture",
            RULE,
            f"the East Block captures {hex_id} in the Korean land war",
            {"hex": hex_id},
        )
    )
    for u in sorted(state.stacks.get(hex_id, ())):
        if state.units[u].side != game.flags.soviet_side and game.category(u) == "air":
            state = eliminate(game, state, u, RULE, f"caught in {hex_id} as it falls", events)
    m = game.module.map
    if m.hexes[hex_id].defended is not None or game.board.airbase(hex_id) is not None:
        damage = {**facts_of(state).base_damage, hex_id: DESTROYED}
        state = DtpFacts.put(state, base_damage=damage)
        events.append(
            Event(
                "base-destroyed",
                RULE,
                f"the base in {hex_id} is destroyed as the hex falls",
                {"hex": hex_id},
            )
        )
    return state
