"""[DTP 8.2] semi-simultaneous combat: one combat phase of alternating impulses, Player B first.

In an impulse a player picks one unit or stack and makes one attack (air: Strike Contact first;
a failed contact still ends the impulse). Players alternate. A player who passes has no more
impulses (he may still bounce enemy air strikes [DTP 8.232]); the other then makes all his
remaining attacks. Results apply at once [DTP 8.21], except that the player whose impulse is
next may attack first with a unit (or a stack holding one) damaged in the immediately preceding
enemy impulse; its damage stays applied but it still gets that one attack [DTP 8.21, 8.22]. A
first strike or bounce allows no such answer [DTP 8.231, 8.232].

The record is plain JSON for ``state.data["impulses"]``: ``{"next": side | None, "passed":
[sides], "answer_back": {"side": side, "units": [ids]} | None, "count": n}``, and after a first
strike ``"lost_answer"``: the same shape, the units it damaged, which may not answer back
[DTP 8.231]; every function returns a new record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from referee.engine.core import Violation

Record = Mapping[str, Any]


def start_8_2(player_b: str) -> dict[str, Any]:
    """The combat phase opens with Player B's impulse [DTP 8.2]."""
    return {"next": player_b, "passed": [], "answer_back": None, "count": 0}


def due_8_2(rec: Record) -> str | None:
    """Whose impulse it is; ``None`` once both players have passed (the phase is over)."""
    return rec.get("next")


def _other(sides: Sequence[str], side: str) -> str:
    return next(s for s in sides if s != side)


def _advance(rec: Record, sides: Sequence[str], side: str, passed: list[str]) -> str | None:
    other = _other(sides, side)
    if other not in passed:
        return other
    return side if side not in passed else None


def after_attack_8_2(
    rec: Record,
    sides: Sequence[str],
    side: str,
    damaged_enemy: Iterable[str],
    answerable: bool = True,
) -> dict[str, Any]:
    """The record after ``side``'s impulse: the other player's turn unless he has passed
    [DTP 8.2]; the enemy units this impulse damaged (sunk, D2, aborted) may answer in the very
    next impulse [DTP 8.21, 8.22] unless the attack was a first strike [DTP 8.231]."""
    passed = list(rec.get("passed", ()))
    units = sorted(set(damaged_enemy)) if answerable else []
    other = _other(sides, side)
    out: dict[str, Any] = {
        "next": _advance(rec, sides, side, passed),
        "passed": passed,
        "answer_back": {"side": other, "units": units} if units and other not in passed else None,
        "count": int(rec.get("count", 0)) + 1,
    }
    lost = sorted(set(damaged_enemy)) if not answerable else []
    if lost:
        out["lost_answer"] = {"side": other, "units": lost}
    return out


def after_pass_8_2(rec: Record, sides: Sequence[str], side: str) -> dict[str, Any]:
    """A pass is final: no more impulses for ``side`` (bounces excepted) [DTP 8.2]; the
    answer-back chance lapses with the impulse it belonged to [DTP 8.22]."""
    passed = sorted(set(rec.get("passed", ())) | {side})
    return {
        "next": _advance(rec, sides, side, passed),
        "passed": passed,
        "answer_back": None,
        "count": int(rec.get("count", 0)) + 1,
    }


def may_answer_8_21(rec: Record, side: str, attackers: Iterable[str]) -> tuple[str, ...]:
    """The attackers that are unable to attack (damaged) but may, because ``side`` is using
    the very next impulse after the enemy impulse that damaged them [DTP 8.21, 8.22]."""
    ab = rec.get("answer_back") or {}
    if ab.get("side") != side:
        return ()
    allowed = set(ab.get("units", ()))
    return tuple(a for a in attackers if a in allowed)


def lost_answer_8_231(rec: Record, side: str, attackers: Iterable[str]) -> tuple[str, ...]:
    """The attackers damaged by the first strike of the enemy impulse just before: they get no
    answer back [DTP 8.231: 8.21 and 8.22 do not apply]."""
    lost = rec.get("lost_answer") or {}
    if lost.get("side") != side:
        return ()
    return tuple(a for a in attackers if a in set(lost.get("units", ())))


def turn_problems_8_2(rec: Record, side: str) -> list[Violation]:
    """An impulse out of turn: Player B opens, players alternate, a player who has passed has
    no more impulses (bounces excepted) [DTP 8.2]."""
    if side in rec.get("passed", ()):
        return [
            Violation(
                "DTP 8.2",
                f"{side} has passed and has no more impulses this combat phase",
                code="impulse-after-pass",
                hint="after a pass only bounces are allowed [DTP 8.232]",
            )
        ]
    due = due_8_2(rec)
    if due != side:
        return [
            Violation(
                "DTP 8.2",
                (f"it is {due}'s impulse, not {side}'s" if side else f"it is {due}'s impulse")
                if due
                else "the combat phase is over",
                code="impulse-out-of-turn",
                hint="impulses alternate, Player B first"
                if side or not due
                else f"add the line: side: {due}",
            )
        ]
    return []
