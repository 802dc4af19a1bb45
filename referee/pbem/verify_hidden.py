"""What ``referee verify`` checks of one step of a game with commitments besides the replay:
the public checks anyone can make (signer, turn order, dice seed chain, public rolls) and the
hidden part once ``referee reveal`` released it (hidden seed chain, hidden rolls, pools, and the
record and position against their commitments). The walk itself is
:mod:`referee.pbem.verify_commit`; see ``docs/pbem.md``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, hidden_pools
from referee.pbem import commitments as cm
from referee.pbem import dice as dicemod
from referee.pbem.archive import Archive, TurnDir, sha256_hex
from referee.pbem.problems import Refusal
from referee.pbem.publish import SECRETS_FORMAT
from referee.pbem.verdict import VerifyFailure
from referee.pbem.walk import Walk
from referee.source.model import Module


def check_revealed_complete(archive: Archive, turns: list[TurnDir]) -> None:
    """``reveal`` releases every step up to the point of the reveal: a gap would hide one."""
    root = archive.revealed / "turns"
    if not root.is_dir():
        return
    names = {p.name for p in root.iterdir()}
    known = {t.name for t in archive.turn_dirs()}
    for name in sorted(names - known):
        raise VerifyFailure(f"revealed/turns/{name}", "revealed", "a step the archive lacks")
    last = max((t.sequence for t in turns if t.name in names), default=-1)
    for t in turns:
        if t.sequence <= last and t.name not in names:
            raise VerifyFailure(
                f"revealed/turns/{t.name}",
                "revealed",
                "missing (reveal releases every step up to the last one it shows)",
            )


def hidden_dir(w: Walk, name: str) -> Path | None:
    """The folder holding the hidden part of step ``name``, if anyone released it here."""
    for root in w.hidden_roots:
        p = root / name
        if p.is_dir() and not p.is_symlink():
            return p
    return None


def secret_folder(w: Walk, t: TurnDir) -> Path | None:
    p = hidden_dir(w, t.name)
    if p is not None:
        label = w.archive.rel(p.parent.parent) + "/"
        if label == "parts/":
            label = "the referee-only parts (referee.age)"
        w.hidden_from[label] = w.hidden_from.get(label, 0) + 1
    return p


def _read_json(w: Walk, path: Path) -> Any:
    try:
        return w.archive.read_json(path)
    except Refusal as exc:
        raise VerifyFailure(w.archive.rel(path), "revealed", exc.message) from None


def hidden_seed(w: Walk, t: TurnDir, secret: Path) -> bytes | None:
    """The step's hidden seed, checked against the hidden-dice chain of report 000."""
    rel = w.archive.rel(secret / "secrets.json")
    data = _read_json(w, secret / "secrets.json")
    try:
        if data.get("format") != SECRETS_FORMAT or data.get("step") != t.sequence:
            raise ValueError("not the secrets of this step")
        seed = bytes.fromhex(str(data["hidden_seed"]))
    except (ValueError, KeyError, AttributeError) as exc:
        raise VerifyFailure(rel, "hidden dice seed chain", f"malformed ({exc})") from None
    if w.prev_hseed is None:
        return None
    if not dicemod.links(seed, w.prev_hseed):
        raise VerifyFailure(
            rel,
            "hidden dice seed chain",
            f"the hidden seed of step {t.sequence} does not hash to the one before it",
        )
    w.prev_hseed = seed
    return seed


def public_step_checks(w: Walk, t: TurnDir, rep: dict[str, Any]) -> None:
    """What anyone can check of a step without its hidden part."""
    cfg = w.cfg
    f = f"turns/{t.name}/report.json"
    o = rep.get("orders") or {}
    side = o.get("side")
    if side not in cfg.players or o.get("signer") != cfg.players[side].fingerprint:
        raise VerifyFailure(f, "orders signature", f"not signed by the key of side {side!r}")
    aw = (w.prev_public or {}).get("awaiting") or {}
    due = {d.get("side") for d in aw.get("due", [])} if aw.get("due") else {aw.get("side")}
    if side not in due:
        raise VerifyFailure(f, "orders", f"out of turn: the game waited for {aw.get('what')!r}")
    d = rep.get("dice") or {}
    try:
        seed = bytes.fromhex(str(d.get("seed")))
    except ValueError:
        raise VerifyFailure(f, "dice seed chain", "the revealed seed is not hex") from None
    if d.get("seed_index") != t.sequence or not dicemod.links(seed, w.prev_seed):
        raise VerifyFailure(
            f, "dice seed chain", f"seed {t.sequence} does not hash to seed {t.sequence - 1}"
        )
    w.prev_seed = seed
    public = [r for r in rep.get("rolls", []) if not r.get("hidden_from")]
    if public:
        key = o.get("dice_key")
        if not isinstance(key, str):
            raise VerifyFailure(f, "dice", "rolls without the key they are derived from")
        problems = dicemod.check_rolls(public, seed, t.sequence, key, numbered=False)
        if problems:
            raise VerifyFailure(f, "dice", "; ".join(problems))
    w.rolls += len(public)


def revealed_record(
    w: Walk,
    t: TurnDir,
    rep: dict[str, Any],
    secret: Path,
    hseed: bytes,
    module: Module,
    rs: Ruleset,
) -> tuple[dict[str, Any], bytes]:
    """The revealed full record and state of a step, each checked against its commitment.
    Rolls and pools are checked first, so that a changed roll or chit is named."""
    rel = w.archive.rel(secret)
    record_bytes = w.archive.read(secret / "record.json")
    state_bytes = w.archive.read(secret / "state.json")
    try:
        record = json.loads(record_bytes)
        if not isinstance(record, dict):
            raise ValueError("not a record")
    except ValueError as exc:
        raise VerifyFailure(f"{rel}/record.json", "revealed", f"malformed ({exc})") from None
    try:
        revealed_state = GameState.from_json(json.loads(state_bytes))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise VerifyFailure(f"{rel}/state.json", "revealed", f"malformed ({exc})") from None
    if t.sequence == 0:
        committed = (rep.get("commitments") or {}).get("pools") or {}
        problems = cm.check_pools(committed, hseed, hidden_pools(rs, module, revealed_state))
        if problems:
            raise VerifyFailure(f"{rel}/state.json", "commitment", "; ".join(problems))
    else:
        seed = bytes.fromhex(str((rep.get("dice") or {}).get("seed")))
        key = (record.get("orders") or {}).get("dice_key")
        if record.get("rolls"):
            problems = dicemod.check_rolls(
                list(record["rolls"]), seed, t.sequence, str(key), hidden_seed=hseed
            )
            if problems:
                raise VerifyFailure(f"{rel}/record.json", "dice", "; ".join(problems))
    c = rep.get("commitments") or {}
    if cm.record_commitment(hseed, record_bytes) != c.get("record"):
        raise VerifyFailure(
            f"{rel}/record.json", "commitment", "not the record committed in report.json"
        )
    if cm.state_commitment(hseed, state_bytes) != c.get("state"):
        raise VerifyFailure(
            f"{rel}/state.json", "commitment", "not the position committed in report.json"
        )
    if record.get("state_sha256") != sha256_hex(state_bytes):
        raise VerifyFailure(f"{rel}/record.json", "record", "names another state.json")
    return record, state_bytes


def check_commitment(w: Walk, o: dict[str, Any], raw: bytes, hseed: bytes | None, rel: str) -> None:
    if hseed is not None and cm.orders_commitment(hseed, raw) != o.get("commitment"):
        raise VerifyFailure(rel, "commitment", "not the orders committed when they arrived")
