"""Verifiable dice: rolls that the referee cannot choose and no player can predict.

The scheme (``docs/dice.md`` explains it for players who check by hand):

1. **Commitment.** When the game is created the referee draws a secret ``seed_N`` (32 bytes
   from ``os.urandom``) and computes the chain ``seed_{i-1} = SHA-256(seed_i)`` down to
   ``seed_0``, the *head*, which report 000 publishes (signed).
2. **Reveal.** Adjudication number ``k`` (the turn folder ``turns/k-...``) reveals ``seed_k``.
   Anyone checks ``SHA-256(seed_k) == seed_{k-1}``: the seed was fixed before any orders were
   seen, and only the referee, who holds ``seed_N``, could compute it.
3. **Derivation.** Roll number ``j`` (0-based) of that adjudication is
   ``HMAC-SHA256(key=seed_k, msg=orders_sha256 || j || attempt)`` (``orders_sha256`` the 32
   raw bytes of the hash of the signed orders, ``j`` and ``attempt`` 4-byte big-endian). Its
   first 4 bytes, read as an unsigned big-endian number ``x``, give ``x mod sides + 1`` when
   ``x < 2^32 - (2^32 mod sides)``; otherwise ``attempt`` goes up by one (rejection sampling,
   so every face is exactly equally likely).

The referee cannot pick a roll: the seed is committed and the orders hash is the player's.
A player cannot predict a roll: the seed is secret until the adjudication reveals it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine.core import Roll
from referee.errors import UserError
from referee.safeio import write_bytes_atomic

ALGORITHM = "referee-dice/1"
HIDDEN_ALGORITHM = "referee-hidden-dice/1"
SEED_BYTES = 32
DEFAULT_LENGTH = 1024
MAX_LENGTH = 1_000_000
GAME_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def seed_at(root: bytes, length: int, index: int) -> bytes:
    """``seed_index`` of the chain whose secret end is ``root = seed_length``."""
    if not 0 <= index <= length:
        raise ValueError(f"seed index {index} outside 0..{length}")
    s = root
    for _ in range(length - index):
        s = sha256(s)
    return s


def links(seed: bytes, previous: bytes) -> bool:
    """Does a revealed seed hash to the one before it?"""
    return hmac.compare_digest(sha256(seed), previous)


def derive(seed: bytes, orders_sha256: bytes, index: int, sides: int) -> tuple[int, int, str]:
    """``(value, attempt, hmac_hex)`` of roll ``index`` of a ``sides``-sided die."""
    if not 2 <= sides <= 2**16:
        raise ValueError(f"a die has 2..65536 sides, not {sides}")
    if len(orders_sha256) != 32:
        raise ValueError("orders_sha256 must be 32 raw bytes")
    limit = 2**32 - (2**32 % sides)
    attempt = 0
    while True:
        msg = orders_sha256 + index.to_bytes(4, "big") + attempt.to_bytes(4, "big")
        mac = hmac.new(seed, msg, hashlib.sha256).digest()
        x = int.from_bytes(mac[:4], "big")
        if x < limit:
            return x % sides + 1, attempt, mac.hex()
        attempt += 1


class CommittedDice:
    """The :class:`referee.engine.core.Dice` of one adjudication: rolls derived from the
    revealed seed ``seed_index`` and the orders hash, each recorded with its derivation."""

    def __init__(
        self,
        seed: bytes,
        seed_index: int,
        orders_sha256: str,
        hidden_seed: bytes | None = None,
    ) -> None:
        self.seed = seed
        self.hidden_seed = hidden_seed
        self.seed_index = seed_index
        self.orders_sha256 = orders_sha256
        self._orders_raw = bytes.fromhex(orders_sha256)
        self.rolls: list[Roll] = []

    def roll(
        self, sides: int, purpose: str, rule: str = "", hidden_from: tuple[str, ...] = ()
    ) -> int:
        index = len(self.rolls)
        if hidden_from:
            return self._hidden_roll(index, sides, purpose, rule, tuple(hidden_from))
        value, attempt, mac = derive(self.seed, self._orders_raw, index, sides)
        self.rolls.append(
            Roll(
                index=index,
                sides=sides,
                value=value,
                purpose=purpose,
                rule=rule,
                derivation={
                    "algorithm": ALGORITHM,
                    "seed_index": self.seed_index,
                    "orders_sha256": self.orders_sha256,
                    "counter": index,
                    "attempt": attempt,
                    "hmac": mac,
                },
            )
        )
        return value

    def _hidden_roll(
        self, index: int, sides: int, purpose: str, rule: str, hidden_from: tuple[str, ...]
    ) -> int:
        """A roll some side may not see: keyed with this step's *hidden* seed, which stays in
        the referee-only part of the archive until ``referee reveal`` (``docs/dice.md``)."""
        if self.hidden_seed is None:
            raise RuntimeError(
                f"a hidden roll ({purpose}) in a game whose ruleset hides nothing "
                "(a ruleset that hides rolls has the HiddenInformation capability)"
            )
        value, attempt, mac = derive(self.hidden_seed, self._orders_raw, index, sides)
        self.rolls.append(
            Roll(
                index=index,
                sides=sides,
                value=value,
                purpose=purpose,
                rule=rule,
                derivation={
                    "algorithm": HIDDEN_ALGORITHM,
                    "seed_index": self.seed_index,
                    "orders_sha256": self.orders_sha256,
                    "counter": index,
                    "attempt": attempt,
                    "hmac": mac,
                },
                hidden_from=hidden_from,
            )
        )
        return value


def check_rolls(
    rolls: list[dict[str, Any]],
    seed: bytes,
    seed_index: int,
    orders_sha256: str,
    *,
    hidden_seed: bytes | None = None,
    numbered: bool = True,
) -> list[str]:
    """Recompute every recorded roll; a list of what does not match (empty: all good).

    A roll with ``hidden_from`` is recomputed from ``hidden_seed`` (known only after
    ``referee reveal``); ``numbered=False`` accepts a public record from which hidden rolls
    were left out (the indexes then have gaps)."""
    problems: list[str] = []
    raw = bytes.fromhex(orders_sha256)
    last = -1
    for pos, r in enumerate(rolls):
        try:
            sides, value, index = int(r["sides"]), int(r["value"]), int(r["index"])
            deriv = r.get("derivation", {})
            if (numbered and index != pos) or index <= last:
                problems.append(f"roll {pos}: recorded as number {index}")
                continue
            last = index
            key = seed
            if r.get("hidden_from"):
                if hidden_seed is None:
                    problems.append(f"roll {index}: a hidden roll where none can be checked")
                    continue
                key = hidden_seed
            want, attempt, mac = derive(key, raw, index, sides)
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"roll {pos}: malformed record ({exc})")
            continue
        if value != want:
            what = "hidden roll" if r.get("hidden_from") else "roll"
            problems.append(f"{what} {index} ({r.get('purpose', '')}): recorded {value}, is {want}")
        elif (
            deriv.get("hmac") != mac
            or deriv.get("attempt") != attempt
            or deriv.get("seed_index") != seed_index
            or deriv.get("orders_sha256") != orders_sha256
        ):
            problems.append(f"roll {pos}: recorded derivation does not match the recomputation")
    return problems


@dataclass(frozen=True, slots=True)
class SeedSecret:
    """The referee's secret end of the chain. Kept outside the game archive, mode 0600:
    whoever reads it can predict every future roll."""

    game_id: str
    root: bytes
    length: int

    @property
    def head(self) -> bytes:
        return seed_at(self.root, self.length, 0)

    def seed(self, index: int) -> bytes:
        return seed_at(self.root, self.length, index)

    def commitment(self) -> dict[str, Any]:
        return {"algorithm": ALGORITHM, "head": self.head.hex(), "length": self.length}

    # The hidden chain: a second SHA-256 chain from a root derived from the same secret, for
    # what must stay hidden until ``referee reveal`` (hidden rolls, salts of commitments).
    # Step ``k`` (0 = the set-up) uses element ``k + 1``; element 0, its head, is published.
    @property
    def hidden_root(self) -> bytes:
        return sha256(HIDDEN_ALGORITHM.encode("ascii") + b"\n" + self.root)

    @property
    def hidden_head(self) -> bytes:
        return seed_at(self.hidden_root, self.length + 1, 0)

    def hidden_seed(self, step: int) -> bytes:
        return seed_at(self.hidden_root, self.length + 1, step + 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "referee-seeds/1",
            "game_id": self.game_id,
            "root": self.root.hex(),
            "length": self.length,
            "head": self.head.hex(),
        }

    @staticmethod
    def new(game_id: str, length: int = DEFAULT_LENGTH, root: bytes | None = None) -> SeedSecret:
        if not 1 <= length <= MAX_LENGTH:
            raise UserError(f"--turns-of-dice must be 1..{MAX_LENGTH}, not {length}")
        return SeedSecret(game_id, root if root is not None else os.urandom(SEED_BYTES), length)


def referee_dir(game_id: str, override: Path | None = None) -> Path:
    """Where the referee keeps a game's secrets: ``--referee-dir``, else
    ``$REFEREE_HOME/games/<id>``, else ``~/.referee/games/<id>``."""
    if override is not None:
        return override
    home = os.environ.get("REFEREE_HOME")
    base = Path(home) if home else Path.home() / ".referee"
    return base / "games" / game_id


def save_secret(secret: SeedSecret, folder: Path, *, force: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / "seeds.json"
    if path.exists() and not force:
        raise UserError(
            f"{path} exists: seeds of another game with id {secret.game_id!r}?",
            hint="use another --game-id, or another --referee-dir",
        )
    text = json.dumps(secret.to_json(), indent=2, sort_keys=True) + "\n"
    write_bytes_atomic(path, text.encode("ascii"), private=True)
    return path


def load_secret(folder: Path, game_id: str, head: str, length: int) -> SeedSecret:
    """Read the secret and check it matches the game's public commitment."""
    path = folder / "seeds.json"
    try:
        data = json.loads(path.read_text("ascii"))
        secret = SeedSecret(str(data["game_id"]), bytes.fromhex(data["root"]), int(data["length"]))
    except FileNotFoundError:
        raise UserError(
            f"{path}: the dice seeds of game {game_id!r} are not here",
            hint="give the folder `referee new` used with --referee-dir (or set REFEREE_HOME)",
        ) from None
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: not a referee seeds file ({exc})") from None
    if secret.game_id != game_id or secret.length != length or secret.head.hex() != head:
        raise UserError(
            f"{path}: these seeds do not match the commitment of game {game_id!r}",
            hint="wrong --referee-dir?",
        )
    return secret
