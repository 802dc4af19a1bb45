"""The form of a game with commitments (``game.toml`` has ``[secrets]``): impulses, sealed
orders, hidden information and referee-run sides (``docs/pbem.md``).
:func:`referee.pbem.verify_step.verify_step` checks its steps with :class:`CommittedForm`.

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

Whose orders a step holds is a variant of the record's orders entry: one side's file (an
impulse, an answer, or one side at a time), a sealed file committed unopened
(``sealed: submitted``), or every sealed file of the phase opened together
(``sealed: resolved``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, due_of
from referee.pbem import commitments as cm
from referee.pbem import nonces, proofs
from referee.pbem.archive import TurnDir
from referee.pbem.envelope import Envelope, open_envelope
from referee.pbem.problems import Refusal
from referee.pbem.rendercheck import RenderMismatch
from referee.pbem.reports import templates_sha256
from referee.pbem.running import sealed_trail
from referee.pbem.turn_folder import check_players_and_dice
from referee.pbem.verdict import VerifyFailure
from referee.pbem.verify_hidden import (
    check_commitment,
    hidden_dir,
    hidden_seed,
    public_step_checks,
    secret_folder,
)
from referee.pbem.verify_step import (
    Hidden,
    Step,
    StepForm,
    chain_fields,
    check_fields,
    check_nonces,
    resolve_step,
)
from referee.pbem.walk import Walk
from referee.source.model import Module


class CommittedForm(StepForm):
    """A step of a game with commitments (see the module docstring)."""

    def check_record(self, w: Walk, t: TurnDir, rep: dict[str, Any], toml_sha: str) -> None:
        """The report's place in the game: its format, sequence, game, the report before it
        and ``game.toml`` (the hash chain), the ruleset and scenario."""
        check_fields(f"turns/{t.name}/report.json", rep, chain_fields(w, t, toml_sha))

    def hidden_part(self, w: Walk, t: TurnDir) -> Hidden:
        """The step's released (or the referee's own) hidden part and its hidden seed; the
        hidden-dice chain cannot be followed past a step whose part is not here."""
        secret = secret_folder(w, t)
        if secret is None:
            w.prev_hseed = None
            return Hidden()
        return Hidden(secret, hidden_seed(w, t, secret))

    def public_checks(self, w: Walk, t: TurnDir, rep: dict[str, Any]) -> None:
        """Report 000's players and dice heads, or a step's signer, turn, seed, public rolls
        and dice nonces: what anyone can check without the hidden part."""
        cfg = w.cfg
        f = f"turns/{t.name}/report.json"
        if t.sequence == 0:
            check_players_and_dice(cfg, rep, f)
            hidden = (rep.get("dice") or {}).get("hidden") or {}
            assert cfg.secrets is not None
            if hidden.get("head") != cfg.secrets.hidden_head:
                raise VerifyFailure(
                    f, "dice commitment", "the hidden-dice head differs from game.toml"
                )
            return
        public_step_checks(w, t, rep)
        check_nonces(w, rep, f)

    def replay(self, w: Walk, step: Step, module: Module, rs: Ruleset) -> GameState:
        """The side was due; its orders (or every sealed file the step opened) checked
        against the record and, in a game that hides information, against their commitment;
        then the replay with dice derived from the recorded key."""
        t, record = step.t, step.record
        state = w.state
        assert state is not None
        f = step.report_file
        hides = w.cfg.hides_information
        o = record.get("orders") or {}
        side = str(o.get("side"))
        seed = bytes.fromhex(str((record.get("dice") or {}).get("seed")))
        window = _due_window(w, t, module, rs, state, side)
        if o.get("sealed") == "submitted":
            return _sealed_submission(w, step, state, window)
        if o.get("sealed") == "resolved":
            return _replay_sealed(w, step, module, rs, state, seed, window)
        secret = step.hidden.folder
        if hides and secret is None:
            raise VerifyFailure(f, "replay", "no revealed orders")
        path = (secret / "orders.txt") if hides and secret else (t.path / "orders.txt")
        env, raw = _orders_env(w, path, str(o.get("name") or "orders.txt"), side, f, o)
        if env.sha256 != o.get("sha256"):
            raise VerifyFailure(f, "record", "the recorded orders hash is not orders.txt's")
        if hides:
            check_commitment(w, o, raw, step.hidden.seed, w.archive.rel(path))
        if env.header.previous_report != w.prev_sha:
            raise VerifyFailure(
                w.archive.rel(path), "hash chain", "the orders answer another report"
            )
        if env.header.turn != state.turn:
            raise VerifyFailure(w.archive.rel(path), "orders", "orders for another Game-Turn")
        key = o.get("dice_key")
        if key != (o.get("commitment") if hides else env.sha256):
            raise VerifyFailure(f, "dice", "the rolls are derived from the wrong key")
        return resolve_step(w, step, module, rs, seed, str(key), {side: env}, blame=f)

    def check_names(self, w: Walk, step: Step, module: Module, rs: Ruleset, new: GameState) -> None:
        """Nothing: a committed step's folder name and title say who sent what (sealed,
        answer, an impulse) and are signed with its report; they are not derived again."""

    def renderings(
        self,
        w: Walk,
        step: Step,
        module: Module,
        rs: Ruleset,
        new: GameState,
        manifest: dict[str, Any],
        skip: set[str],
    ) -> None:
        """Every file a player opens in the folder, rendered again and compared
        (:func:`referee.pbem.rendercheck.check_committed`), a legacy step's viewers included,
        but the files of ``skip``, parts this run could not open (only after the report of
        ``verify --since``)."""
        from referee.pbem.rendercheck import check_committed, check_viewers

        t, rep = step.t, step.rep
        read = lambda name: w.archive.read(t.path / name)  # noqa: E731
        if not w.since.rendering_due(step.rsha):
            w.history.add_from(read, manifest["files"])
            return
        base = f"turns/{t.name}"
        listed = dict(manifest["files"])
        current = rep.get("templates_sha256") == templates_sha256()
        key = w.proof_key(step.rsha, listed, rs, skip)
        if current and proofs.proved(key):  # proved before: the same bytes again
            w.history.add_from(read, manifest["files"])
            return
        unchecked = len(w.unchecked)
        try:
            older, want = check_committed(
                base,
                read,
                module,
                rs,
                rep,
                step.record,
                step.rsha,
                new,
                w.state if t.sequence else None,
                w.events,
                w.cfg.picture_dpi,
                w.cfg.hides_information,
                listed,
                w.unchecked,
                skip=skip,
            )
            if any(n.startswith("viewer-") for n in listed):
                check_viewers(
                    base, module, rs, rep, want, w.history.docs(), listed, read, w.unchecked
                )
        except RenderMismatch as exc:
            raise VerifyFailure(exc.file, "rendering", exc.message) from None
        w.skipped_render += older
        w.history.add(want)
        if current and not older and len(w.unchecked) == unchecked:
            proofs.remember(key)


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


def _sealed_submission(w: Walk, step: Step, state: GameState, window: set[str | None]) -> GameState:
    """Sealed orders committed unopened: checked against the commitment once revealed; the
    step changed nothing."""
    f, record, secret = step.report_file, step.record, step.hidden.folder
    o = record.get("orders") or {}
    if secret is not None:
        env, raw = _orders_env(
            w, secret / "orders.txt", str(o.get("name")), str(o.get("side")), f, o
        )
        check_commitment(w, o, raw, step.hidden.seed, w.archive.rel(secret / "orders.txt"))
        if env.header.previous_report not in window:
            raise VerifyFailure(f, "hash chain", "the sealed orders answer another report")
    if record.get("rolls") or record.get("events"):
        raise VerifyFailure(f, "replay", "a sealed submission that changed the game")
    return state


def _replay_sealed(
    w: Walk,
    step: Step,
    module: Module,
    rs: Ruleset,
    state: GameState,
    seed: bytes,
    window: set[str | None],
) -> GameState:
    """The step that opened every side's sealed orders: each checked against the commitment
    recorded when it arrived, then all resolved together."""
    f = step.report_file
    o = step.record["orders"]
    envs: dict[str, Envelope] = {}
    commits: dict[str, str] = {}
    for r in o.get("reveals", []):
        s, i = str(r.get("side")), int(r.get("sequence", -1))
        rec_o = _sealed_entry(w, step, s, i)
        path = _sealed_path(w, step, s, i, r)
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
    return resolve_step(w, step, module, rs, seed, key, envs, blame=f)


def _sealed_entry(w: Walk, step: Step, side: str, i: int) -> dict[str, Any]:
    """The orders entry of the step ``i`` that sealed ``side``'s orders (this step, or an
    earlier sealed submission of the phase)."""
    f = step.report_file
    o = step.record["orders"]
    if i == step.t.sequence:
        rec_o = o
    elif 0 < i < step.t.sequence and w.records[i]["orders"].get("sealed") == "submitted":
        rec_o = w.records[i]["orders"]
    else:
        raise VerifyFailure(f, "commitment", f"sealed orders of {side} from no sealed step")
    if rec_o.get("side") != side:
        raise VerifyFailure(f, "commitment", f"step {i} sealed the orders of another side")
    return rec_o


def _sealed_path(w: Walk, step: Step, side: str, i: int, reveal: dict[str, Any]) -> Path:
    """Where the sealed file of ``side`` (sealed in step ``i``) is read: published in this
    step's folder, or in a game that hides information, the revealed part of step ``i``."""
    t = step.t
    if not w.cfg.hides_information:
        return t.path / str(reveal.get("file"))
    name = t.name if i == t.sequence else w.archive.turn_dirs()[i].name
    kept = hidden_dir(w, name)
    if kept is None:
        raise VerifyFailure(
            step.report_file, "replay", f"the sealed orders of {side} are not revealed"
        )
    return kept / "orders.txt"
