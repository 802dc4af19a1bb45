"""Player nonces: dice that nobody, the referee included, can preview (``docs/dice.md``).

The referee holds every future seed of the dice chain, so without this he could compute, for
any orders text, the rolls it would get. In a game made with player nonces (``game.toml``
``[dice] player_nonces = true``) every signed orders file carries two envelope headers:

* ``nonce-commit: C`` -- ``C = SHA-256(n)`` (hex) for a fresh secret 32-byte nonce ``n``
  that the player keeps until his next accepted orders file;
* ``nonce: n`` -- in every accepted file after a side's first: the nonce whose commitment his
  previous accepted file carried.

The nonce is in the signed body, so it enters the orders hash, and the orders hash keys
every roll (``referee-dice/1``). Before a player sends a file, the referee knows only
``SHA-256(n)``, so he cannot compute the roll of any text that will carry ``n``; the player
knows ``n`` but not the seed. Both were fixed before the file was written: the seed at game
creation, the nonce in the player's previous signed file.

``referee sign --game-dir`` fills both headers in. It derives the nonces from the player's
key, so nothing has to be stored: ``n_i = SHA-256("referee-nonce-v1" LF || sig)`` where
``sig`` is the Ed25519 signature (deterministic) of ``GAME LF SIDE LF i`` in the SSH
signature namespace ``referee-nonce-v1`` and ``i`` the number of files of that side the game
has accepted before. Only the key's holder can compute it. A player who signs with other
tools may use any random 32 bytes instead (``openssl rand -hex 32``) and must keep them.

Every check is a pure function over the records, so ``adjudicate`` (on arrival) and
``verify`` (on the whole archive) apply the same rules.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.pbem.keys import PrivateKey

CONTEXT_NONCE = b"referee-nonce-v1\n"
HEX64 = re.compile(r"^[0-9a-f]{64}$")


def commit_of(nonce_hex: str) -> str:
    """The commitment to a nonce: SHA-256 of its 32 raw bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(nonce_hex)).hexdigest()


def commit_of_or_none(nonce_hex: str) -> str | None:
    """:func:`commit_of`, or None for a value that is not 64 hex digits."""
    return commit_of(nonce_hex) if HEX64.match(nonce_hex) else None


def derive_nonce(key: PrivateKey, game_id: str, side: str, index: int) -> str:
    """The ``index``-th nonce of ``side`` in ``game_id``, from the player's key (see above)."""
    message = f"{game_id}\n{side}\n{index}".encode()
    sig = key.sign_ssh(CONTEXT_NONCE, message).signature
    return hashlib.sha256(CONTEXT_NONCE + sig).hexdigest()


def fields(nonce: str | None, nonce_commit: str | None) -> dict[str, str]:
    """The record's copy of a file's nonce headers (only those it has: an old archive's
    records stay as they were)."""
    out: dict[str, str] = {}
    if nonce is not None:
        out["nonce"] = nonce
    if nonce_commit is not None:
        out["nonce_commit"] = nonce_commit
    return out


@dataclass(frozen=True, slots=True)
class Accepted:
    """One accepted orders file's nonce headers, as recorded."""

    side: str
    nonce: str | None
    nonce_commit: str | None


def history(orders_records: Iterable[Mapping[str, Any] | None]) -> list[Accepted]:
    """The accepted files, in order, from the reports' ``orders`` entries (report 000 and
    steps without orders have none)."""
    out: list[Accepted] = []
    for o in orders_records:
        if not isinstance(o, Mapping) or not isinstance(o.get("side"), str):
            continue
        n, c = o.get("nonce"), o.get("nonce_commit")
        n = n if isinstance(n, str) else None
        out.append(Accepted(o["side"], n, c if isinstance(c, str) else None))
    return out


def count_for(past: Iterable[Accepted], side: str) -> int:
    """How many files of ``side`` were accepted: the index of its next nonce."""
    return sum(1 for a in past if a.side == side)


def problem(past: list[Accepted], new: Accepted, *, required: bool) -> str | None:
    """Why ``new`` may not follow ``past`` (None: it may). With ``required`` False (a game
    made before player nonces) the headers are not checked."""
    if not required:
        return None
    mine = [a for a in past if a.side == new.side]
    if new.nonce_commit is None or not HEX64.match(new.nonce_commit):
        return (
            "no 'nonce-commit:' header (64 lower-case hex digits): this game mixes a nonce of "
            "each player into the dice"
        )
    used = {a.nonce_commit for a in mine}
    if new.nonce_commit in used:
        return "'nonce-commit:' repeats an earlier commitment of this side: commit a fresh nonce"
    if not mine:
        if new.nonce is not None:
            return "'nonce:' in a side's first orders: there is no commitment to reveal yet"
        return None
    want = mine[-1].nonce_commit
    if new.nonce is None or not HEX64.match(new.nonce):
        return (
            f"no 'nonce:' header: reveal the nonce committed in {new.side}'s previous orders "
            f"(nonce-commit: {want})"
        )
    if want is None or commit_of_or_none(new.nonce) != want:
        return (
            f"'nonce:' does not hash to the commitment of {new.side}'s previous orders "
            f"(nonce-commit: {want})"
        )
    return None


def check_all(records: list[Accepted], *, required: bool) -> tuple[int, str] | None:
    """The first file (its position in ``records``) that breaks the rules, and why."""
    for i, a in enumerate(records):
        why = problem(records[:i], a, required=required)
        if why is not None:
            return i, why
    return None
