"""What ``referee verify`` concludes: the archive verified (:class:`Verified`, with notes on
what was checked how), or the first failed check (:class:`VerifyFailure`).

Every part of the verification (:mod:`referee.pbem.verify`, :mod:`referee.pbem.turn_folder`,
:mod:`referee.pbem.verify_commit`, :mod:`referee.pbem.verify_hidden`) raises and returns these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class VerifyFailure(Exception):
    """One failed check: the file it is about, the check's name, and what is wrong."""

    def __init__(self, file: str, check: str, message: str) -> None:
        super().__init__(f"{file}: {check}: {message}")
        self.file = file
        self.check = check
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"ok": False, "file": self.file, "check": self.check, "message": self.message}


@dataclass(slots=True)
class Verified:
    game_id: str
    reports: int
    last_report: str
    last_report_sha256: str
    referee: str
    players: dict[str, str]
    rolls: int
    notes: list[str] = field(default_factory=list)
    replayed: bool = True  # False: hidden steps wait for `referee reveal`
    report_shas: list[str] = field(default_factory=list)  # every report, in order
    # a game with parts: what was opened, not opened, missing (parts_open.Opening.to_json)
    parts: dict[str, Any] | None = None
    # files a player opens that could not be proved (file, why): verify exits 3
    unchecked: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {} if self.replayed else {"replayed": False}
        if self.parts is not None:
            extra["parts"] = self.parts
        if self.unchecked:
            extra["unchecked"] = [{"file": f, "why": w} for f, w in self.unchecked]
        return {
            **extra,
            "ok": not self.unchecked,
            "game_id": self.game_id,
            "reports": self.reports,
            "last_report": self.last_report,
            "last_report_sha256": self.last_report_sha256,
            "referee_fingerprint": self.referee,
            "player_fingerprints": dict(self.players),
            "rolls": self.rolls,
            "notes": list(self.notes),
        }


NO_NONCES_NOTE = (
    "this game was made before player nonces: its rolls depend on the referee's seeds and the "
    "orders only, so the referee could have computed them before the orders were sent "
    "(docs/dice.md); every roll was still checked"
)
