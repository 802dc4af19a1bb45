"""One step of ``referee verify``, checked in the same order in every game (``docs/pbem.md``).

1. the turn folder: the referee's signatures, the manifest, no file missing or added;
2. the record's place in the chain (:meth:`StepForm.check_record`);
3. what anyone can check without a hidden part (:meth:`StepForm.public_checks`);
4. the full record and position: the published ones, or in a game that hides information
   the revealed ones, each against its commitment (:func:`full_record`);
5. the replay: report 000's set-up made again (:func:`start`), or the step's orders opened
   and checked (:meth:`StepForm.replay`), every roll recomputed and the orders validated and
   resolved again (:func:`resolve_step`);
6. the replayed position, what it waits for, the decisions owed and the score against the
   record (:func:`check_replayed`), and the published record against the revealed one;
7. every file a player opens rendered again and compared (:meth:`StepForm.renderings`).

What differs between games is the form of their record, chosen from ``game.toml``
(:func:`referee.pbem.verify.verify_archive`): :class:`referee.pbem.verify_open.OpenForm` for a
game without commitments (one side at a time, the format every archive had before
commitments), :class:`referee.pbem.verify_commit.CommittedForm` for a game with commitments,
in which impulses, sealed orders and hidden information are variants of whose orders a step
holds and of where its full record is kept. A step whose hidden part is not revealed is
checked as far as its public part allows (steps 1-3, and a player's own part).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, hidden_pools
from referee.pbem import commitments as cm
from referee.pbem import dice as dicemod
from referee.pbem import nonces
from referee.pbem.archive import TurnDir, sha256_hex
from referee.pbem.envelope import Envelope
from referee.pbem.publish import public_record
from referee.pbem.record import REPORT_FORMAT, awaiting_info, pretty_json
from referee.pbem.rulings import matching_start, new_start, score_reading
from referee.pbem.running import sealed_trail
from referee.pbem.turn_folder import check_folder_full
from referee.pbem.verdict import VerifyFailure
from referee.pbem.verify_hidden import hidden_dir, revealed_record
from referee.pbem.walk import Walk, replay_orders
from referee.source.model import Module


@dataclass(frozen=True, slots=True)
class Hidden:
    """A step's hidden part as this run holds it: the folder it was released into (or the
    referee's own), and its hidden seed once the hidden-dice chain reaches it. Both ``None``
    in a game without commitments, and before the reveal."""

    folder: Path | None = None
    seed: bytes | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """What one step's checks read: the folder, the published report and its hash, the
    full record (the report itself where nothing is hidden) and the hidden part."""

    t: TurnDir
    rep: dict[str, Any]
    rsha: str
    record: dict[str, Any]
    hidden: Hidden

    @property
    def report_file(self) -> str:
        return f"turns/{self.t.name}/report.json"


class StepForm(ABC):
    """What differs between games in the checks of a step (see the module docstring)."""

    @abstractmethod
    def check_record(self, w: Walk, t: TurnDir, rep: dict[str, Any], toml_sha: str) -> None:
        """The report's place in the game: format, sequence, game, the report before it and
        ``game.toml`` (the hash chain), the ruleset and scenario, and what else the form
        records in every report."""

    def hidden_part(self, w: Walk, t: TurnDir) -> Hidden:
        """The step's hidden part, if this run holds it (none in a game without it)."""
        return Hidden()

    @abstractmethod
    def public_checks(self, w: Walk, t: TurnDir, rep: dict[str, Any]) -> None:
        """What anyone can check of the step without its hidden part."""

    @abstractmethod
    def replay(self, w: Walk, step: Step, module: Module, rs: Ruleset) -> GameState:
        """The step's orders opened, checked against the record and replayed from ``w.state``
        (:func:`resolve_step`); the position after it."""

    @abstractmethod
    def check_names(self, w: Walk, step: Step, module: Module, rs: Ruleset, new: GameState) -> None:
        """The folder's name and the report's title, where the form derives them from the
        replay."""

    @abstractmethod
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
        """Every file a player opens, rendered again from the record and the replay and
        compared (only after the report of ``verify --since``), but the files of ``skip``,
        parts this run could not open."""


def verify_step(
    w: Walk, t: TurnDir, toml_sha: str, module: Module, rs: Ruleset, form: StepForm
) -> None:
    """Every check of one step, in the order of the module docstring; raises
    :class:`VerifyFailure` at the first that fails, and moves ``w`` on to the next step."""
    cfg, archive = w.cfg, w.archive
    hides = cfg.hides_information
    rep, rsha, public_state, manifest = check_folder_full(
        archive, t, cfg.referee, with_state=not hides, opening=w.opening
    )
    manifest, skip = _as_opened(w, t, manifest)
    w.events = ()
    form.check_record(w, t, rep, toml_sha)
    hidden = form.hidden_part(w, t)
    form.public_checks(w, t, rep)
    full = full_record(w, t, rep, public_state, hidden, module, rs)
    if full is None:  # hidden and not revealed: hash-checked, and a player's own part
        w.state = None
        _own_part(w, t, module, rs, rep, rsha, manifest)
        w.history.add_from(lambda name: archive.read(t.path / name), manifest["files"])
        record = rep
    else:
        record, state_bytes = full
        step = Step(t, rep, rsha, record, hidden)
        if t.sequence == 0:
            new = matching_start(rs, start(w, step, module, rs), state_bytes)
        else:
            new = form.replay(w, step, module, rs)
        form.check_names(w, step, module, rs, new)
        check_replayed(w, step, module, rs, new, state_bytes)
        if hides:
            _check_published(w, step, module, rs, new, state_bytes)
        form.renderings(w, step, module, rs, new, manifest, skip)
        w.state = new
        w.replayed += 1
    w.records.append(record)
    w.shas.append(rsha)
    w.prev_sha, w.prev_public = rsha, rep


def full_record(
    w: Walk,
    t: TurnDir,
    rep: dict[str, Any],
    public_state: bytes,
    hidden: Hidden,
    module: Module,
    rs: Ruleset,
) -> tuple[dict[str, Any], bytes] | None:
    """The step's full record and position: the published ones where nothing is hidden, the
    revealed ones (each checked against its commitment) where this run holds them and the
    position before is known, else ``None``."""
    if not w.cfg.hides_information:
        if rep.get("state_sha256") != sha256_hex(public_state):
            raise VerifyFailure(f"turns/{t.name}/state.json", "record", "not the recorded state")
        return rep, public_state
    if hidden.folder is None or hidden.seed is None:
        return None
    if t.sequence != 0 and w.state is None:
        return None
    return revealed_record(w, t, rep, hidden.folder, hidden.seed, module, rs)


def start(w: Walk, step: Step, module: Module, rs: Ruleset) -> GameState:
    """Report 000's position made again from the scenario; where the pools are published
    (a game with commitments that hides nothing), each checked against its commitment."""
    cfg = w.cfg
    new = new_start(rs, module, cfg.scenario, cfg.game_id, cfg.options)
    committed = (step.record.get("commitments") or {}).get("pools")
    if not cfg.hides_information and step.hidden.seed is not None and committed is not None:
        problems = cm.check_pools(committed, step.hidden.seed, hidden_pools(rs, module, new))
        if problems:
            raise VerifyFailure(step.report_file, "commitment", "; ".join(problems))
    return new


def chain_fields(w: Walk, t: TurnDir, toml_sha: str) -> dict[str, Any]:
    """What every report records of its place in the game, whatever its form: its format,
    sequence and game, the report before it and ``game.toml`` (the hash chain), the ruleset
    and scenario."""
    cfg = w.cfg
    return {
        "format": REPORT_FORMAT,
        "sequence": t.sequence,
        "game_id": cfg.game_id,
        "previous_report": w.prev_sha,
        "game_toml_sha256": toml_sha,
        "ruleset": cfg.ruleset,
        "scenario": cfg.scenario,
    }


def check_fields(f: str, rep: dict[str, Any], expect: dict[str, Any]) -> None:
    """Each of ``expect``'s fields as the report ``f`` records it, the first that differs
    named (a hash-chain field as the chain's failure)."""
    for key, want in expect.items():
        if rep.get(key) != want:
            check = "hash chain" if key in ("previous_report", "game_toml_sha256") else "record"
            raise VerifyFailure(f, check, f"{key} is {rep.get(key)!r}, expected {want!r}")


def check_nonces(w: Walk, rep: dict[str, Any], f: str) -> None:
    """The dice nonces of the step's orders entry follow every earlier file's
    (``nonces.problem``; required when ``game.toml`` says so)."""
    for acc in nonces.history([rep.get("orders")]):
        why = nonces.problem(w.nonce_trail, acc, required=w.cfg.player_nonces)
        if why is not None:
            raise VerifyFailure(f, "dice nonce", why)
        w.nonce_trail.append(acc)


def resolve_step(
    w: Walk,
    step: Step,
    module: Module,
    rs: Ruleset,
    seed: bytes,
    key: str,
    envs: dict[str, Envelope],
    *,
    blame: str,
) -> GameState:
    """Every roll of the record recomputed from the step's seed (and hidden seed) and the
    dice ``key``, then the orders of ``envs`` validated and resolved again with those dice
    (:func:`referee.pbem.walk.replay_orders`): the same rolls and events. An orders file that
    no longer parses or passes is blamed on ``blame``."""
    t, record, hseed = step.t, step.record, step.hidden.seed
    f = step.report_file
    rolls = list(record.get("rolls", []))
    problems = dicemod.check_rolls(rolls, seed, t.sequence, key, hidden_seed=hseed)
    if problems:
        kept = hidden_dir(w, t.name) if w.cfg.hides_information else None
        where = f if kept is None else w.archive.rel(kept / "record.json")
        raise VerifyFailure(where, "dice", "; ".join(problems))
    w.hidden_rolls += sum(1 for r in rolls if r.get("hidden_from"))
    assert w.state is not None  # a step is replayed from the position before it
    dice = dicemod.CommittedDice(seed, t.sequence, key, hseed if w.cfg.hides_information else None)
    outcome = replay_orders(f, record, module, rs, w.state, envs, dice, blame=blame)
    w.events = tuple(outcome.events)  # the picture marks them
    return outcome.state


def check_replayed(
    w: Walk, step: Step, module: Module, rs: Ruleset, new: GameState, state_bytes: bytes
) -> None:
    """The replayed position, what it waits for, the decisions owed and the score are the
    record's (the score read as the game was started: ``rulings.score_reading``)."""
    t, record = step.t, step.record
    f = step.report_file
    if new.canonical().encode() != state_bytes:
        folder = step.hidden.folder
        hides = w.cfg.hides_information
        where = (
            f"{w.archive.rel(folder)}/state.json"
            if folder is not None and hides
            else f"turns/{t.name}/state.json"
        )
        raise VerifyFailure(where, "replay", "the replayed position differs")
    records = [*w.records, record]
    sealed_in = tuple(records[i]["orders"]["side"] for i in sealed_trail(records))
    if record.get("awaiting") != awaiting_info(module, rs, new, sealed_in):
        raise VerifyFailure(f, "replay", "awaiting differs from the replay")
    if record.get("pending") != [p.to_json() for p in new.pending]:
        raise VerifyFailure(f, "replay", "the pending decisions differ from the replay")
    if t.sequence == 0:
        w.score = score_reading(record)
    if record.get("score") != w.score.recorded(rs, module, new):
        raise VerifyFailure(f, "replay", "the score differs from the replay")


def _check_published(
    w: Walk, step: Step, module: Module, rs: Ruleset, new: GameState, state_bytes: bytes
) -> None:
    """In a game that hides information, the published ``report.json`` is exactly the
    public part of the revealed record."""
    assert step.hidden.seed is not None
    record = step.record
    rebuilt = public_record(
        module, rs, record, new, step.hidden.seed, state_bytes, pretty_json(record)
    )
    if pretty_json(rebuilt) != w.archive.read(step.t.path / "report.json"):
        raise VerifyFailure(
            step.report_file,
            "commitment",
            "the published record is not the public part of the revealed one",
        )


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
