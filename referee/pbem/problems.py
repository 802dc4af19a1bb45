"""Why the referee refuses something, in words a player can act on.

A :class:`Refusal` is not a crash: it is the referee's answer to a bad, unsigned, replayed,
out-of-turn or illegal orders file, or to a game archive that fails a check. ``code`` is a
stable machine-readable reason (for ``--json`` and CI), ``message`` names the file, ``details``
lists every rule violation when the orders break rules (all-or-nothing validation).
"""

from __future__ import annotations

from typing import Any

# Stable reason codes, documented in docs/pbem.md.
REASONS: dict[str, str] = {
    "bad-input": "the file is not a readable text file (binary, not UTF-8, control characters)",
    "too-large": "the file is larger than the limit",
    "unsigned": "the orders carry no signature",
    "bad-signature": "the signature is malformed, by an unknown key, or does not match",
    "wrong-signer": "signed by a key that is not the key of the side named in the orders",
    "wrong-game": "the orders name another game",
    "replayed": "these exact orders were already adjudicated earlier in the game",
    "forked": "the orders answer a report that is not the latest one",
    "bad-nonce": "the dice nonce headers are missing or do not reveal the side's last commitment",
    "out-of-turn": "the game is not waiting for this side, turn or phase",
    "syntax": "the orders do not parse",
    "violation": "the orders break the rules (every violation is listed)",
    "no-progress": "the orders do not advance the game (standing orders only, nothing owed)",
    "game-over": "the game has ended",
    "dice-exhausted": "the dice commitment has no seeds left",
    "locked": "another adjudication of this game is running",
    "archive": "the game archive is damaged or inconsistent",
}


class Refusal(Exception):
    """The referee says no, with a reason."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        hint: str | None = None,
        details: list[str] | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        assert code in REASONS, code
        self.code = code
        self.message = message
        self.hint = hint
        self.details = details or []
        self.data = data or {}

    def __str__(self) -> str:
        text = self.message + (f" (hint: {self.hint})" if self.hint else "")
        return "\n".join([text, *("  " + d for d in self.details)])

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": False,
            "reason": self.code,
            "message": self.message,
            "hint": self.hint,
            "details": list(self.details),
            **self.data,
        }
