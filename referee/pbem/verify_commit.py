"""``referee verify`` for a game with commitments: sealed orders, hidden information,
referee-run sides (``docs/pbem.md``).

Before ``referee reveal`` a player can check everything that was published: the referee's
signatures and manifests, the hash chain, the dice seed chain, every public roll (derived
from the public seed and the orders commitment), that the record names as each submission's
signer the key of a side that was due, and, in a game that hides nothing, the whole replay
(sealed orders are checked against their commitments when they are opened).

After ``referee reveal`` (or for the referee, who holds ``secret/``) it also checks the
hidden-dice chain, every hidden roll, every commitment (the full state, the full record, each
orders file, each entry of each hidden pool) and replays the game from the set-up, rebuilding
every published ``report.json`` and view from the revealed record to compare byte for byte.
A failure names the file and what differs (``pool chits entry 3``, ``hidden roll 2``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, due_of, hidden_pools
from referee.pbem import commitments as cm
from referee.pbem import dice as dicemod
from referee.pbem import nonces
from referee.pbem.archive import Archive, GameConfig, TurnDir, sha256_hex
from referee.pbem.envelope import Envelope, open_envelope
from referee.pbem.keys import PrivateKey
from referee.pbem.problems import Refusal
from referee.pbem.publish import public_record
from referee.pbem.record import REPORT_FORMAT, awaiting_info, pretty_json
from referee.pbem.rendercheck import RenderMismatch, Since
from referee.pbem.rulings import matching_start, new_start, score_reading
from referee.pbem.running import sealed_trail
from referee.pbem.turn_folder import check_folder_full, check_players_and_dice
from referee.pbem.verdict import NO_NONCES_NOTE, Verified, VerifyFailure
from referee.pbem.verify_hidden import (
    check_commitment,
    check_revealed_complete,
    hidden_dir,
    hidden_seed,
    public_step_checks,
    revealed_record,
    secret_folder,
)
from referee.pbem.walk import OLDER_TEMPLATES_NOTE, Walk, replay_orders
from referee.source.model import Module


def verify_with_commitments(
    archive: Archive,
    cfg: GameConfig,
    turns: list[TurnDir],
    toml_sha: str,
    module: Module,
    rs: Ruleset,
    *,
    upto: int | None,
    keys: Sequence[PrivateKey],
    since_sha: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Verified:
    """A game with commitments: split into parts (:func:`verify_parts`), or made before
    parts, with its per-side files in the clear (:func:`verify_committed`)."""
    if cfg.secrets is not None and cfg.secrets.parts:
        return verify_parts(
            archive, cfg, toml_sha, module, rs, upto=upto, keys=keys, since_sha=since_sha,
            progress=progress,
        )  # fmt: skip
    return verify_committed(
        archive, cfg, turns, toml_sha, module, rs, upto=upto, since_sha=since_sha,
        progress=progress,
    )  # fmt: skip


def verify_parts(
    archive: Archive,
    cfg: GameConfig,
    toml_sha: str,
    module: Module,
    rs: Ruleset,
    *,
    upto: int | None,
    keys: Sequence[PrivateKey],
    since_sha: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Verified:
    """A game with parts: :func:`verify_committed` on a copy with every part the ``keys``
    (and a published parts key) open unpacked (:mod:`referee.pbem.parts_open`)."""
    from referee.pbem.parts_open import PartFailure, opened_copy

    try:
        with opened_copy(archive, cfg, keys) as (copy, opening):
            turns = copy.turn_dirs()
            if upto is not None:
                turns = turns[: upto + 1]
            out = verify_committed(
                copy, cfg, turns, toml_sha, module, rs, upto=upto, opening=opening,
                since_sha=since_sha, progress=progress,
            )  # fmt: skip
            opening.conflict()
    except PartFailure as exc:
        raise VerifyFailure(exc.file, exc.check, exc.message) from None
    except Refusal as exc:
        raise VerifyFailure(str(archive.root), "archive", exc.message) from None
    out.notes.extend(opening.notes())
    out.parts = opening.to_json()
    return out


def verify_committed(
    archive: Archive,
    cfg: GameConfig,
    turns: list[TurnDir],
    toml_sha: str,
    module: Module,
    rs: Ruleset,
    *,
    upto: int | None,
    opening: Any = None,
    since_sha: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Verified:
    hides = cfg.hides_information
    w = Walk(archive, cfg)
    w.opening = opening
    w.since = Since(since_sha)
    check_revealed_complete(archive, turns)
    for t in turns:
        try:
            _step(w, t, toml_sha, module, rs, hides)
            if progress is not None:
                progress(1)
        except Refusal as exc:  # a file missing, too large, a symlink...
            raise VerifyFailure(f"turns/{t.name}", "archive", exc.message) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise VerifyFailure(f"turns/{t.name}", "record", f"malformed ({exc!r})") from None
    out = w.verified(turns)
    try:
        w.since.check_reached(out.last_report)
    except RenderMismatch as exc:
        raise VerifyFailure(exc.file, "truncation", exc.message) from None
    if since_sha is not None:
        out.notes.append(w.since.note())
    if hides and w.replayed < len(turns):
        out.replayed = False
        out.notes.append(
            f"the hidden part is not revealed for {len(turns) - w.replayed} of {len(turns)} "
            "step(s): signatures, the hash chain, the dice seed chain and every public roll "
            "were checked; hidden rolls, commitments and the replay wait for `referee reveal`"
        )
    if hides and w.hidden_from:
        where = " and ".join(f"{k} ({n} step(s))" for k, n in sorted(w.hidden_from.items()))
        out.notes.append(
            f"hidden part checked from {where}: {w.hidden_rolls} hidden roll(s), every "
            "commitment and the replay"
        )
    if w.skipped_render:
        out.notes.append(OLDER_TEMPLATES_NOTE.format(n=w.skipped_render))
    out.notes.extend(w.notes)
    if not cfg.player_nonces and w.rolls:
        out.notes.append(NO_NONCES_NOTE)
    if upto is None:
        _check_current(w, turns, out, hides)
    return out


def _step(w: Walk, t: TurnDir, toml_sha: str, module: Module, rs: Ruleset, hides: bool) -> None:
    cfg, archive = w.cfg, w.archive
    rep, rsha, public_state, manifest = check_folder_full(
        archive, t, cfg.referee, with_state=not hides, opening=w.opening
    )
    manifest, skip = _as_opened(w, t, manifest)
    w.events = ()
    _check_chain(w, t, rep, toml_sha)
    secret = secret_folder(w, t)
    hseed = hidden_seed(w, t, secret) if secret is not None else None
    if secret is None:
        w.prev_hseed = None  # the hidden chain cannot be followed past an unrevealed step
    _public_checks(w, t, rep)
    # -- the full record and position: public, or revealed
    if not hides:
        record, state_bytes = rep, public_state
        if rep.get("state_sha256") != sha256_hex(state_bytes):
            raise VerifyFailure(f"turns/{t.name}/state.json", "record", "not the recorded state")
    elif secret is not None and hseed is not None and (t.sequence == 0 or w.state is not None):
        record, state_bytes = revealed_record(w, t, rep, secret, hseed, module, rs)
    else:
        record, state_bytes = None, b""
    if record is not None:
        new = _replay(w, t, rep, record, module, rs, hseed, secret, hides)
        if t.sequence == 0:
            new = matching_start(rs, new, state_bytes)
        _check_replayed(w, t, record, module, rs, new, state_bytes, secret)
        if hides:
            assert hseed is not None
            rebuilt = public_record(
                module, rs, record, new, hseed, state_bytes, pretty_json(record)
            )
            if pretty_json(rebuilt) != archive.read(t.path / "report.json"):
                raise VerifyFailure(
                    f"turns/{t.name}/report.json",
                    "commitment",
                    "the published record is not the public part of the revealed one",
                )
        if w.since.rendering_due(rsha):
            _renderings(w, t, module, rs, rep, record, rsha, new, hides, manifest, skip)
        else:
            w.history.add_from(lambda name: archive.read(t.path / name), manifest["files"])
        w.state = new
        w.replayed += 1
    else:  # hash-checked; a later legacy viewer shows them
        w.state = None
        _own_part(w, t, module, rs, rep, rsha, manifest)
        w.history.add_from(lambda name: archive.read(t.path / name), manifest["files"])
    w.records.append(record if record is not None else rep)
    w.shas.append(rsha)
    w.prev_sha, w.prev_public = rsha, rep


def _check_chain(w: Walk, t: TurnDir, rep: dict[str, Any], toml_sha: str) -> None:
    """The report's place in the game: its format, sequence, game, the report before it and
    ``game.toml`` (the hash chain), the ruleset and scenario."""
    cfg = w.cfg
    f = f"turns/{t.name}/report.json"
    expect = {
        "format": REPORT_FORMAT,
        "sequence": t.sequence,
        "game_id": cfg.game_id,
        "previous_report": w.prev_sha,
        "game_toml_sha256": toml_sha,
        "ruleset": cfg.ruleset,
        "scenario": cfg.scenario,
    }
    for key, want in expect.items():
        if rep.get(key) != want:
            check = "hash chain" if key in ("previous_report", "game_toml_sha256") else "record"
            raise VerifyFailure(f, check, f"{key} is {rep.get(key)!r}, expected {want!r}")


def _public_checks(w: Walk, t: TurnDir, rep: dict[str, Any]) -> None:
    """Report 000's players and dice heads, or a step's signer, turn, seed, public rolls and
    dice nonces: what anyone can check without the hidden part."""
    cfg = w.cfg
    f = f"turns/{t.name}/report.json"
    if t.sequence == 0:
        check_players_and_dice(cfg, rep, f)
        hidden = (rep.get("dice") or {}).get("hidden") or {}
        assert cfg.secrets is not None
        if hidden.get("head") != cfg.secrets.hidden_head:
            raise VerifyFailure(f, "dice commitment", "the hidden-dice head differs from game.toml")
        return
    public_step_checks(w, t, rep)
    for acc in nonces.history([rep.get("orders")]):
        why = nonces.problem(w.nonce_trail, acc, required=cfg.player_nonces)
        if why is not None:
            raise VerifyFailure(f, "dice nonce", why)
        w.nonce_trail.append(acc)


def _check_replayed(
    w: Walk,
    t: TurnDir,
    record: dict[str, Any],
    module: Module,
    rs: Ruleset,
    new: GameState,
    state_bytes: bytes,
    secret: Path | None,
) -> None:
    """The replayed position, what it waits for, the decisions owed and the score are the
    record's (the score read as the game was started: ``rulings.score_reading``)."""
    f = f"turns/{t.name}/report.json"
    if new.canonical().encode() != state_bytes:
        hides = w.cfg.hides_information
        where = (
            f"{w.archive.rel(secret)}/state.json"
            if secret and hides
            else f"turns/{t.name}/state.json"
        )
        raise VerifyFailure(where, "replay", "the replayed position differs")
    want_aw = awaiting_info(module, rs, new, _sealed_sides(w, record))
    if record.get("awaiting") != want_aw:
        raise VerifyFailure(f, "replay", "awaiting differs from the replay")
    if record.get("pending") != [p.to_json() for p in new.pending]:
        raise VerifyFailure(f, "replay", "the pending decisions differ from the replay")
    if t.sequence == 0:
        w.score = score_reading(record)
    if record.get("score") != w.score.recorded(rs, module, new):
        raise VerifyFailure(f, "replay", "the score differs from the replay")


def _as_opened(w: Walk, t: TurnDir, manifest: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """The manifest as this run reads the folder, and the files of parts it did not open
    (a game with parts: :meth:`referee.pbem.parts_open.Opening.effective`)."""
    if w.opening is None:
        return manifest, set()
    return w.opening.effective(t.name, manifest)


def _own_part(
    w: Walk,
    t: TurnDir,
    module: Module,
    rs: Ruleset,
    rep: dict[str, Any],
    rsha: str,
    manifest: dict[str, Any],
) -> None:
    """Before the reveal, the parts this run opened of a player's own side, checked as far
    as he can (:func:`referee.pbem.parts_open.check_own_part`)."""
    if w.opening is None:
        return
    from referee.pbem.parts_open import check_own_part

    check_own_part(w, t, module, rs, rep, rsha, manifest)


def _sealed_sides(w: Walk, record: dict[str, Any]) -> tuple[str, ...]:
    records = [*w.records, record]
    return tuple(records[i]["orders"]["side"] for i in sealed_trail(records))


def _orders_env(
    w: Walk, path: Path, name: str, side: str, f: str, o: dict[str, Any]
) -> tuple[Envelope, bytes]:
    """The signed orders kept at ``path``, checked against the record ``o`` names them in."""
    rel = w.archive.rel(path)
    try:
        raw = w.archive.read(path)
        text = raw.decode("utf-8")
        env = open_envelope(text, name)
    except (Refusal, UnicodeDecodeError) as exc:
        raise VerifyFailure(rel, "orders", str(exc)) from None
    if env.block is None or env.stored_text() != text:
        raise VerifyFailure(rel, "orders", "not stored as the referee stores orders")
    if side not in w.cfg.players or not env.signed_by(w.cfg.players[side]):
        raise VerifyFailure(rel, "orders signature", f"not signed by the key of side {side!r}")
    if env.header.side != side or env.header.game != w.cfg.game_id:
        raise VerifyFailure(rel, "orders", "the header names another side or game")
    recorded = {k: o[k] for k in ("nonce", "nonce_commit") if k in o}
    if recorded != nonces.fields(env.header.nonce, env.header.nonce_commit):
        raise VerifyFailure(f, "dice nonce", "the recorded nonces are not those of the orders")
    return env, raw


def _replay(
    w: Walk,
    t: TurnDir,
    rep: dict[str, Any],
    record: dict[str, Any],
    module: Module,
    rs: Ruleset,
    hseed: bytes | None,
    secret: Path | None,
    hides: bool,
) -> GameState:
    cfg = w.cfg
    f = f"turns/{t.name}/report.json"
    if t.sequence == 0:
        new = new_start(rs, module, cfg.scenario, cfg.game_id, cfg.options)
        committed = (record.get("commitments") or {}).get("pools")
        if not hides and hseed is not None and committed is not None:
            problems = cm.check_pools(committed, hseed, hidden_pools(rs, module, new))
            if problems:
                raise VerifyFailure(f, "commitment", "; ".join(problems))
        return new
    assert w.state is not None
    state = w.state
    o = record.get("orders") or {}
    side = str(o.get("side"))
    seed = bytes.fromhex(str((record.get("dice") or {}).get("seed")))
    window = _due_window(w, t, module, rs, state, side)
    if o.get("sealed") == "submitted":
        return _sealed_submission(w, t, record, state, hseed, secret, window)
    if o.get("sealed") == "resolved":
        return _replay_sealed(w, t, record, module, rs, state, seed, hseed, secret, hides, window)
    path = (secret / "orders.txt") if hides else (t.path / "orders.txt")
    if hides and secret is None:
        raise VerifyFailure(f, "replay", "no revealed orders")
    env, raw = _orders_env(w, path, str(o.get("name") or "orders.txt"), side, f, o)
    if env.sha256 != o.get("sha256"):
        raise VerifyFailure(f, "record", "the recorded orders hash is not orders.txt's")
    if hides:
        check_commitment(w, o, raw, hseed, w.archive.rel(path))
    if env.header.previous_report != w.prev_sha:
        raise VerifyFailure(w.archive.rel(path), "hash chain", "the orders answer another report")
    if env.header.turn != state.turn:
        raise VerifyFailure(w.archive.rel(path), "orders", "orders for another Game-Turn")
    key = o.get("dice_key")
    if key != (o.get("commitment") if hides else env.sha256):
        raise VerifyFailure(f, "dice", "the rolls are derived from the wrong key")
    return _resolve(w, t, record, rs, module, state, seed, hseed, key, {side: env})


def _due_window(
    w: Walk, t: TurnDir, module: Module, rs: Ruleset, state: GameState, side: str
) -> set[str | None]:
    """The side was due (``due_of``: one side at a time, impulses or sealed orders); returns
    the reports its orders may answer (the latest, or any since the sealed phase opened)."""
    window: set[str | None] = {w.prev_sha}
    trail = sealed_trail(w.records)
    if trail:
        window.update(w.shas[trail[0] - 1 :])
    sealed = {w.records[i]["orders"]["side"]: i for i in trail}
    due = [d for d in due_of(rs, module, state) if d.side not in sealed]
    if side not in {d.side for d in due}:
        raise VerifyFailure(
            f"turns/{t.name}/report.json", "orders", f"out of turn: {side} was not due"
        )
    return window


def _sealed_submission(
    w: Walk,
    t: TurnDir,
    record: dict[str, Any],
    state: GameState,
    hseed: bytes | None,
    secret: Path | None,
    window: set[str | None],
) -> GameState:
    """Sealed orders committed unopened: checked against the commitment once revealed; the
    step changed nothing."""
    f = f"turns/{t.name}/report.json"
    o = record.get("orders") or {}
    if secret is not None:
        env, raw = _orders_env(
            w, secret / "orders.txt", str(o.get("name")), str(o.get("side")), f, o
        )
        check_commitment(w, o, raw, hseed, w.archive.rel(secret / "orders.txt"))
        if env.header.previous_report not in window:
            raise VerifyFailure(f, "hash chain", "the sealed orders answer another report")
    if record.get("rolls") or record.get("events"):
        raise VerifyFailure(f, "replay", "a sealed submission that changed the game")
    return state


def _replay_sealed(
    w: Walk,
    t: TurnDir,
    record: dict[str, Any],
    module: Module,
    rs: Ruleset,
    state: GameState,
    seed: bytes,
    hseed: bytes | None,
    secret: Path | None,
    hides: bool,
    window: set[str | None],
) -> GameState:
    """The step that opened every side's sealed orders: each checked against the commitment
    recorded when it arrived, then all resolved together."""
    f = f"turns/{t.name}/report.json"
    o = record["orders"]
    envs: dict[str, Envelope] = {}
    commits: dict[str, str] = {}
    for r in o.get("reveals", []):
        s, i = str(r.get("side")), int(r.get("sequence", -1))
        if i == t.sequence:
            rec_o = o
        elif 0 < i < t.sequence and w.records[i]["orders"].get("sealed") == "submitted":
            rec_o = w.records[i]["orders"]
        else:
            raise VerifyFailure(f, "commitment", f"sealed orders of {s} from no sealed step")
        if rec_o.get("side") != s:
            raise VerifyFailure(f, "commitment", f"step {i} sealed the orders of another side")
        if hides:
            kept = hidden_dir(w, t.name if i == t.sequence else _turn_name(w, i))
            if kept is None:
                raise VerifyFailure(f, "replay", f"the sealed orders of {s} are not revealed")
            path = kept / "orders.txt"
        else:
            path = t.path / str(r.get("file"))
        env, raw = _orders_env(w, path, str(r.get("file")), s, f, rec_o)
        rel = w.archive.rel(path)
        try:
            salt = bytes.fromhex(str(r.get("salt")))
        except ValueError:
            raise VerifyFailure(f, "commitment", f"the salt of {s}'s orders is not hex") from None
        if cm.commit("orders", salt, raw) != rec_o.get("commitment") or env.sha256 != r.get(
            "sha256"
        ):
            raise VerifyFailure(rel, "commitment", "not the orders committed when they arrived")
        if env.header.previous_report not in window or env.header.turn != state.turn:
            raise VerifyFailure(rel, "hash chain", "the sealed orders answer another report")
        envs[s] = env
        commits[s] = str(rec_o.get("commitment"))
    trail = sealed_trail(w.records)
    if sorted(commits) != sorted([*(w.records[i]["orders"]["side"] for i in trail), o["side"]]):
        raise VerifyFailure(f, "commitment", "not every sealed submission was opened")
    key = cm.sealed_key(commits)
    if o.get("dice_key") != key:
        raise VerifyFailure(f, "dice", "the rolls are derived from the wrong key")
    return _resolve(w, t, record, rs, module, state, seed, hseed, key, envs)


def _turn_name(w: Walk, i: int) -> str:
    turns = w.archive.turn_dirs()
    return turns[i].name


def _resolve(
    w: Walk,
    t: TurnDir,
    record: dict[str, Any],
    rs: Ruleset,
    module: Module,
    state: GameState,
    seed: bytes,
    hseed: bytes | None,
    key: str,
    envs: dict[str, Envelope],
) -> GameState:
    f = f"turns/{t.name}/report.json"
    problems = dicemod.check_rolls(
        list(record.get("rolls", [])), seed, t.sequence, key, hidden_seed=hseed
    )
    if problems:
        kept = hidden_dir(w, t.name)
        where = (
            f
            if not w.cfg.hides_information or kept is None
            else w.archive.rel(kept / "record.json")
        )
        raise VerifyFailure(where, "dice", "; ".join(problems))
    w.hidden_rolls += sum(1 for r in record.get("rolls", []) if r.get("hidden_from"))
    dice = dicemod.CommittedDice(seed, t.sequence, key, hseed if w.cfg.hides_information else None)
    outcome = replay_orders(f, record, module, rs, state, envs, dice, blame=f)
    w.events = tuple(outcome.events)  # the picture marks them (_renderings)
    return outcome.state


def _renderings(
    w: Walk,
    t: TurnDir,
    module: Module,
    rs: Ruleset,
    rep: dict[str, Any],
    record: dict[str, Any],
    rsha: str,
    state: GameState,
    hides: bool,
    manifest: dict[str, Any],
    skip: set[str],
) -> None:
    """Every file a player opens in the folder, rendered again and compared
    (:func:`referee.pbem.rendercheck.check_committed`), a legacy step's viewers included, but
    the files of ``skip``, parts this run could not open."""
    from referee.pbem.rendercheck import check_committed, check_viewers

    base = f"turns/{t.name}"
    listed = dict(manifest["files"])
    read = lambda name: w.archive.read(t.path / name)  # noqa: E731
    try:
        older, want = check_committed(
            base,
            read,
            module,
            rs,
            rep,
            record,
            rsha,
            state,
            w.state if t.sequence else None,
            w.events,
            w.cfg.picture_dpi,
            hides,
            listed,
            w.unchecked,
            skip=skip,
        )
        if any(n.startswith("viewer-") for n in listed):
            check_viewers(base, module, rs, rep, want, w.history.docs(), listed, read, w.unchecked)
    except RenderMismatch as exc:
        raise VerifyFailure(exc.file, "rendering", exc.message) from None
    w.skipped_render += older
    w.history.add(want)


def _check_current(w: Walk, turns: list[TurnDir], out: Verified, hides: bool) -> None:
    archive = w.archive
    if hides:
        current_path, latest = archive.secret / "state.json", None
        if not current_path.is_file():
            return  # a player's copy: the current position is the referee's
        kept = archive.secret / "turns" / turns[-1].name / "state.json"
        latest = archive.read(kept) if kept.is_file() else None
        if latest is not None and archive.read(current_path) != latest:
            out.notes.append("secret/state.json is not the latest position")
        return
    try:
        current = archive.read(archive.state_json)
    except Refusal as exc:
        raise VerifyFailure("state.json", "state", exc.message) from None
    if current == archive.read(turns[-1].path / "state.json"):
        return
    if len(turns) >= 2 and current == archive.read(turns[-2].path / "state.json"):
        out.notes.append(
            f"state.json is the position before turns/{turns[-1].name}: an adjudication was "
            "interrupted after writing its report; `referee adjudicate GAME_DIR` completes it"
        )
        return
    raise VerifyFailure("state.json", "state", "is not the position of the latest report")
