"""[DTP 11.5132] Westpac's optional variable game end: the armistice roll.

"On each AM turn, commencing with the first AM turn not less than 7 days (21 turns) after the
commencement of hostilities, the East Block player rolls 1D6. On the first roll, on a roll of
one, an armistice is agreed and the game ends, and Victory points are assessed. If the game
continues, roll 1D6 again on the next AM turn, and on this occasion a 1-2 ends hostilities. On
the third, and any subsequent rolls, a roll of 1-3 ends hostilities. This rule can also be
applied to extend the game beyond turn 48 ... There will then always be at least 7 days (21
turns) of hostilities, but with a variable end time after that."

The roll is the referee's, with the game's committed dice, as a Game-Turn that is an AM turn
begins (before its reinforcement phase); the rolls are ``state.data["armistice"]`` (Game-Turn
-> roll). With the option the game does not stop at the end of turn 48 [11.5103]: it runs
until a roll ends it. Hostilities begin on turn 1 unless the game records a later start
(``state.data["hostilities"]["war"]``, the Game-Turn the East Block announced
``commence``: the delayed start [11.5101] is ``westpac_hostilities``'). Turn 1 is an AM
turn, so AM turns are 1, 4, 7, ...
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of

RULE = "DTP 11.5132"
OPTION = "11.5132"
AFTER = 21  # "not less than 7 days (21 turns) after the commencement of hostilities"
AM_EVERY = 3
ENDS_ON = (1, 2, 3)  # the first roll ends on 1, the second on 1-2, the third and later 1-3


def hostilities_began(state: GameState) -> int:
    """The Game-Turn hostilities began: the recorded one, else turn 1 [DTP 11.5101]."""
    rec = facts_of(state).hostilities
    return int(rec["war"]) if rec.get("war") is not None else 1


def rolls_on_11_5132(turn: int, began: int) -> bool:
    """An AM turn at least 21 turns after hostilities began [DTP 11.5132]."""
    return turn % AM_EVERY == 1 and turn - began >= AFTER


def ends_on_11_5132(nth: int) -> int:
    """The highest roll that ends the game on the ``nth`` roll (1-based)."""
    return ENDS_ON[min(nth, len(ENDS_ON)) - 1]


def extends_11_5132(state: GameState) -> bool:
    """With the option, the end of turn 48 does not end the game: a roll does."""
    return OPTION in state.options


def roll_11_5132(
    state: GameState, turn: int, dice: Dice, events: list[Event]
) -> tuple[GameState, bool]:
    """The roll as Game-Turn ``turn`` begins, if it is due: the position with the roll
    recorded, and whether an armistice ends the game [DTP 11.5132]."""
    if OPTION not in state.options or not rolls_on_11_5132(turn, hostilities_began(state)):
        return state, False
    rolls = {str(k): int(v) for k, v in facts_of(state).armistice.items()}
    if str(turn) in rolls:
        return state, False
    roll = dice.roll(6, "armistice", RULE)
    rolls[str(turn)] = roll
    limit = ends_on_11_5132(len(rolls))
    over = roll <= limit
    events.append(
        Event(
            "armistice" if over else "armistice-roll",
            RULE,
            f"Game-Turn {turn}: the armistice roll (roll {len(rolls)}, ends on 1-{limit}) is "
            f"{roll}: " + ("an armistice is agreed and the game ends" if over else "war goes on"),
            {"turn": turn, "roll": roll, "ends_on": limit},
        )
    )
    return DtpFacts.put(state, armistice=rolls), over
