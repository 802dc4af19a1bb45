"""Hash commitments: publish now that something is fixed, show what it is later.

A game that hides information (or takes sealed orders) publishes, for every step, a
commitment to what it keeps in the referee-only part of the archive (``docs/pbem.md``)::

    commitment = SHA-256( "referee-commit-v1" LF  KIND LF  SALT-hex LF  DATA )

``KIND`` says what is committed (``state``, ``record``, ``orders``, ``pool-item``), ``DATA``
is the exact bytes kept (canonical JSON, the stored orders text, one pool entry), and
``SALT = HMAC-SHA256(key = hidden seed of the step, message = label)``. The salt makes the
commitment hiding: without it nobody can test guesses ("is the submarine in zone 3?") against
the hash, however few the possibilities. The hidden seed of each step is an element of the
hidden-dice chain committed in report 000 (``docs/dice.md``), so the referee could not choose
salts either; ``referee reveal`` releases the seeds and the committed bytes, and ``verify``
recomputes every commitment.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from typing import Any

PREFIX = b"referee-commit-v1\n"


def salt(hidden_seed: bytes, label: str) -> bytes:
    """The salt of one commitment: HMAC-SHA256 of ``label`` under the step's hidden seed."""
    return hmac.new(hidden_seed, label.encode("utf-8"), hashlib.sha256).digest()


def commit(kind: str, salt_bytes: bytes, data: bytes) -> str:
    """The hex commitment to ``data`` (see the module docstring)."""
    msg = PREFIX + kind.encode("ascii") + b"\n" + salt_bytes.hex().encode("ascii") + b"\n"
    return hashlib.sha256(msg + data).hexdigest()


def state_commitment(hidden_seed: bytes, state_bytes: bytes) -> str:
    return commit("state", salt(hidden_seed, "state"), state_bytes)


def record_commitment(hidden_seed: bytes, record_bytes: bytes) -> str:
    return commit("record", salt(hidden_seed, "record"), record_bytes)


def orders_commitment(hidden_seed: bytes, orders_text: bytes) -> str:
    return commit("orders", salt(hidden_seed, "orders"), orders_text)


def sealed_key(commitments: Mapping[str, str]) -> str:
    """The key the dice of a sealed step are derived from: every side's orders commitment,
    one ``SIDE TAB commitment`` line each in side order, hashed."""
    lines = "".join(f"{side}\t{c}\n" for side, c in sorted(commitments.items()))
    return hashlib.sha256(b"referee-sealed-v1\n" + lines.encode("utf-8")).hexdigest()


def _item_salt(hidden_seed: bytes, pool: str, index: int) -> bytes:
    return salt(hidden_seed, f"pool:{pool}:{index}")


def pool_commitments(
    hidden_seed: bytes, pools: Mapping[str, Sequence[str]]
) -> dict[str, dict[str, Any]]:
    """One commitment per entry of every hidden pool (chits in a cup, the warships of a
    face-down group), each with its own salt, so that one entry can be shown without
    showing the others; the number of entries is public."""
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(pools):
        items = [str(x) for x in pools[name]]
        out[name] = {
            "count": len(items),
            "items": [
                commit("pool-item", _item_salt(hidden_seed, name, i), x.encode("utf-8"))
                for i, x in enumerate(items)
            ],
        }
    return out


def check_pools(
    recorded: Mapping[str, Any], hidden_seed: bytes, pools: Mapping[str, Sequence[str]]
) -> list[str]:
    """What differs between the committed pools and the revealed ones, entry by entry."""
    problems: list[str] = []
    if sorted(recorded) != sorted(pools):
        problems.append(
            f"pools {', '.join(sorted(pools)) or 'none'} revealed, "
            f"{', '.join(sorted(recorded)) or 'none'} committed"
        )
        return problems
    for name in sorted(pools):
        items = [str(x) for x in pools[name]]
        want = recorded[name].get("items", []) if isinstance(recorded[name], Mapping) else []
        if len(items) != len(want):
            problems.append(f"pool {name}: {len(items)} entries revealed, {len(want)} committed")
            continue
        for i, (x, c) in enumerate(zip(items, want, strict=True)):
            if commit("pool-item", _item_salt(hidden_seed, name, i), x.encode("utf-8")) != c:
                problems.append(
                    f"pool {name} entry {i} ({x!r}) is not the entry committed in report 000"
                )
    return problems
