"""Attacking the units that advanced after an 8.24 retreat [8.5.4].

The non-phasing player may advance into a hex his enemy's 8.24 retreat left empty [8.5], and
"if the non-Phasing Player's units are advanced (as allowed by this rule) they may be
subsequently attacked in the hex they advance into during the same Combat Phase" [8.5.4].
The referee makes the 8.24 retreats after the phasing player's last attack (his attacks are
written before any die, docs/interpretations.md [8.24]), so under the ruling (flag
``attack_advanced_8_5_4``, recorded by ``new_game``) the phase does not end there: when one
of his units may still legally attack a unit that advanced, he sends a further ``[combat]``
file whose attacks go against those units only (an empty one ends the phase). The
obligations of [8.21]-[8.24] were met by the first file; an advance creates no new one
(docs/interpretations.md [8.5.4]). Games created before the ruling end the phase after the
retreats, as they were played.
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.driver import Task, push_front
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.combat import (
    defended_target_10_44,
    phase_record,
    with_record,
)
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.mandatory import best_attacks_from

ADVANCED = "advanced_824"
"""The record's list of non-phasing units that advanced after an 8.24 retreat [8.5.4]."""
FOLLOWUP = "followup_824"
"""The record's list of those units the phasing player may still attack: not empty while
the phase waits for his further file [8.5.4]."""


def record_advance_8_5_4(game: Game, state: GameState, unit: str) -> GameState:
    """Note a non-phasing unit's advance after an 8.24 retreat, under the ruling [8.5.4]."""
    if not game.flags.attack_advanced_8_5_4:
        return state
    rec = phase_record(state)
    rec[ADVANCED].append(unit)
    return with_record(state, rec)


def attackable_advanced_8_5_4(game: Game, state: GameState, side: str) -> list[str]:
    """The units that advanced after an 8.24 retreat which some group of ``side``'s units may
    still legally attack [8.5.4] (not used, retreated or advanced this phase [8.13][8.74]
    [8.5]), sorted."""
    rec = phase_record(state)
    advanced = {
        u
        for u in rec[ADVANCED]
        if u in state.units and state.units[u].side != side and state.units[u].location
    }
    hexes = {state.units[u].location for u in advanced}
    froms = sorted({n for h in hexes if h for n in game.board.neighbours(h)})
    found: set[str] = set()
    for h in froms:
        if not any(state.units[u].side == side for u in state.stacks.get(h, ())):
            continue
        for calc in best_attacks_from(game, state, side, h, rec):
            if set(calc.targets) <= advanced:
                found.update(calc.targets)
    return sorted(found)


def after_retreats_8_5_4(
    game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]
) -> GameState:
    """The 8.24 retreats and the advances into the hexes they emptied are done: the phase
    ends, unless under the ruling the phasing player may attack a unit that advanced; then
    it waits for his further ``[combat]`` file [8.5.4]."""
    side = state.active_side
    assert side is not None
    targets = (
        attackable_advanced_8_5_4(game, state, side) if game.flags.attack_advanced_8_5_4 else []
    )
    if not targets:
        return push_front(state, [{"t": "end_phase"}])
    rec = phase_record(state)
    rec[FOLLOWUP] = targets
    ev.append(
        Event(
            "attack-advanced",
            "8.5.4",
            f"{', '.join(targets)} advanced after an 8.24 retreat and may be attacked in the "
            f"same Combat Phase: {side} may send a further [combat] file attacking them "
            "(an empty one ends the phase)",
            {"side": side, "units": targets},
        )
    )
    return with_record(state, rec)


def followup_8_5_4(state: GameState) -> list[str]:
    """The units a further file may attack, or ``[]`` when the phase is in its first file."""
    return phase_record(state)[FOLLOWUP]


def not_advanced_8_5_4(state: GameState, targets: tuple[str, ...]) -> Violation | None:
    """In a further file, an attack on a unit that did not advance after the 8.24 retreats
    (or on a Defended hex [10.44]) is refused [8.5.4]: the phase's other attacks were made in
    its first file. ``None`` for an attack a further file may make, and in a first file.
    The validator's check, and what ``referee options`` (hence the viewer) leaves out."""
    allowed = followup_8_5_4(state)
    if not allowed:
        return None
    defended = defended_target_10_44(targets)
    others = [defended] if defended is not None else [t for t in targets if t not in allowed]
    if not others:
        return None
    return Violation(
        "8.5.4",
        f"{', '.join(others)}: after the 8.24 retreats only the units that "
        f"advanced ({', '.join(sorted(allowed))}) may be attacked; the phase's "
        "other attacks were made in its first file",
        code="not-advanced",
        word=others[0],
    )


def check_followup_8_5_4(state: GameState, orders: tuple[Order, ...]) -> list[Violation]:
    """A further file attacks only the units that advanced after an 8.24 retreat [8.5.4]:
    the phase's other attacks were written in its first file."""
    allowed = set(followup_8_5_4(state))
    probs: list[Violation] = []
    for o in orders:
        if o.verb == "retreat":
            probs.append(_retreat_in_followup(o, allowed).at(o))
            continue
        if o.verb != "attack":
            continue
        refused = not_advanced_8_5_4(state, o.targets)
        if refused is not None:
            probs.append(refused.at(o))
    return probs


def _retreat_in_followup(o: Order, allowed: set[str]) -> Violation:
    """A ``retreat`` line in a further file would never be carried out: the 8.24 retreats were
    made after the first file [8.24], and the further file's attacks retreat only enemy units
    [8.71], so none of the phasing player's units retreats again this phase [8.5.4]."""
    return Violation(
        "8.5.4",
        f"{o.text}: the 8.24 retreats were made after the first file; a further file may only "
        f"attack the units that advanced ({', '.join(sorted(allowed))}), and none of your units "
        "retreats again this phase",
        code="no-retreat-in-further-file",
        word=o.verb,
        hint="a further [8.5.4] file may only attack the units that advanced "
        "(with `advance` and `displace` lines for those attacks); remove this line",
    )
