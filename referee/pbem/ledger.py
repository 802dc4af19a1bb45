"""Each side's dice-nonce commitments so far, kept step by step instead of re-read.

A new orders file must not repeat any earlier commitment of its side, and reveals the nonce
of the side's last one (:mod:`referee.pbem.nonces`), so the referee (``adjudicate``) and the
player's signing tool (``referee sign --game-dir``) both need every commitment a side made.
Reading them from every earlier report at every step made a step's cost grow with the game
(issue 26: a 48 Game-Turn game has some 900 reports). The commitments up to a report are a
function of the chain up to it, and a report's SHA-256 fixes that chain (each report names
the one before it), so the active cache (:mod:`referee.cache`) keeps them under that hash:
a step reads the ledger of the report before and adds the latest report's entry (one cache
read and one report read), and reads the whole game only when the cache is off or cold.

The cached payload is data checked again here (a map of side to a list of 64-hex strings or
nulls); a wrong entry can only make a check refuse or accept a commitment, which ``verify``
decides again from the reports themselves (``verify_step.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from referee.pbem import nonces

Ledger = dict[str, list[str | None]]  # side -> its accepted files' nonce commitments, in order


def _entry(orders: Any) -> tuple[str, str | None] | None:
    """The (side, commitment) one report adds, as :func:`nonces.history` reads it."""
    (acc,) = nonces.history([orders]) or (None,)
    return None if acc is None else (acc.side, acc.nonce_commit)


def _key(source: str, head: str) -> str:
    from referee.cache import code_fingerprint, digest

    return digest("nonce-ledger", code_fingerprint("code"), source, head)


def _parse(data: bytes) -> Ledger | None:
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(doc, dict):
        return None
    for side, commits in doc.items():
        if not isinstance(side, str) or not isinstance(commits, list):
            return None
        if not all(c is None or (isinstance(c, str) and nonces.HEX64.match(c)) for c in commits):
            return None
    return doc


def ledger(
    count: int,
    orders_of: Callable[[int], Mapping[str, Any] | None],
    sha_of: Callable[[int], str],
    source: str,
) -> Ledger:
    """Every side's commitments in reports ``0 .. count-1``; ``orders_of(i)`` is report
    ``i``'s ``orders`` entry, ``sha_of(i)`` the chain's hash of report ``i`` and ``source``
    names what ``orders_of`` reads (the published reports or the referee's records)."""
    from referee.cache import active

    cache = active()
    start, out = 0, None
    if cache.enabled:
        for n in (count, count - 1):
            data = cache.get("history", _key(source, sha_of(n - 1))) if n > 0 else None
            out = None if data is None else _parse(data)
            if out is not None:
                start = n
                break
    led: Ledger = out or {}
    for i in range(start, count):
        got = _entry(orders_of(i))
        if got is not None:
            led.setdefault(got[0], []).append(got[1])
    if cache.enabled and count > 0 and start < count:
        body = json.dumps(led, sort_keys=True, separators=(",", ":")).encode()
        cache.put("history", _key(source, sha_of(count - 1)), body)
    return led


def accepted(led: Ledger) -> list[nonces.Accepted]:
    """The ledger as :func:`nonces.problem` takes the past (each side's files in order; the
    order between sides, which no check reads, is not kept)."""
    return [nonces.Accepted(s, None, c) for s, commits in sorted(led.items()) for c in commits]
