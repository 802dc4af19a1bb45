"""Steps 5-6 of ``referee adjudicate``: an accepted submission becomes one step of the game.

There is one path for every game; what differs is a variant of it (``docs/pbem.md``):

* **who is due** comes from ``engine.ruleset.due_of``: a ruleset that declares no ``due``
  waits for the one side its ``awaiting`` names; others wait for impulses, answers to
  pending decisions, or **sealed** orders of several sides at once;
* **sealed orders** are validated when they arrive but not opened: the step records only a
  salted commitment (:mod:`referee.pbem.commitments`) and keeps the signed file in the
  referee-only part. When the last side due has sent its own, that step resolves them all
  together (``ruleset.resolve_sealed``) with dice derived from every side's commitment and
  (when the ruleset hides nothing) publishes every sealed file next to its salt;
* a game whose ruleset **hides information** keeps every orders file, the full record and
  position in the referee-only part until ``referee reveal``; the published record holds
  commitments, and the dice are derived from the orders' commitment instead of their plain
  hash (which few possible orders would give away);
* a game **without commitments** (``game.toml`` has no ``[secrets]``: made for a ruleset
  that hides nothing and declares no ``due``) records no hidden seed and no dice key, as
  every such archive always has, so an old game continues in its own format.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, Outcome
from referee.engine.ruleset import Due, Ruleset, sealed_resolution
from referee.pbem import commitments as cm
from referee.pbem import dice as dicemod
from referee.pbem import nonces
from referee.pbem.acceptance import (
    awaited_text,
    parse_orders_text,
    refuse_no_progress,
    refuse_outcome,
)
from referee.pbem.archive import TurnDir, module_info, slug
from referee.pbem.envelope import Envelope, open_envelope
from referee.pbem.keys import PrivateKey
from referee.pbem.parts import sealer_for
from referee.pbem.problems import Refusal
from referee.pbem.publish import hidden_turn_files, secrets_json
from referee.pbem.record import (
    awaiting_info,
    base_report,
    build_turn_files,
    phase_info,
    step_title,
)
from referee.pbem.running import RunningGame, StepResult
from referee.pbem.transaction import write_state, write_turn
from referee.source.model import Module


@dataclass(slots=True)
class Submission:
    """One accepted orders file, as the step records it."""

    env: Envelope
    side: str
    due: Due  # what the game waited for from the side
    owed: list[Due]  # every submission the game waited for
    sealed: dict[str, int]  # sides whose sealed orders are in -> their step
    doc: Any  # the parsed, validated orders
    k: int  # the step's sequence number (and dice seed index)


@dataclass(slots=True)
class Taken:
    """What a submission does to the game, before its files are made."""

    orders: dict[str, Any]  # the report's orders entry
    outcome: Outcome
    title: str
    kind: str  # the last word of the turn folder's name
    kept: dict[str, bytes] = field(default_factory=dict)  # referee-only files
    published: dict[str, bytes] = field(default_factory=dict)  # sealed files now opened
    sealed_in: tuple[str, ...] = ()  # sides whose sealed orders wait unopened after it


@dataclass(frozen=True, slots=True)
class Seeds:
    """The step's dice seed and, in a game with commitments, its hidden seed."""

    seed: bytes
    hidden: bytes | None


def orders_entry(env: Envelope, side: str, before: GameState) -> dict[str, Any]:
    """The orders entry every step's report has (``verify`` rebuilds it from orders.txt)."""
    assert env.block is not None
    return {
        "file": "orders.txt",
        "name": env.name,
        "sha256": env.sha256,
        "side": side,
        "signer": env.block.fingerprint,
        "turn": env.header.turn,
        "phase": env.header.phase,
        "answers": [p.id for p in before.pending],
        **nonces.fields(env.header.nonce, env.header.nonce_commit),
    }


def take_step(
    game: RunningGame,
    sub: Submission,
    module: Module,
    rs: Ruleset,
    referee_key: PrivateKey,
    referee_dir: Path | None,
    *,
    dry_run: bool,
) -> StepResult:
    """Resolve ``sub`` with the step's committed dice, record it, and write (or, in a dry
    run, preview) its turn folder as a transaction."""
    cfg, state = game.cfg, game.state
    secret = game.seed_secret(referee_dir)
    seeds = Seeds(secret.seed(sub.k), secret.hidden_seed(sub.k) if cfg.secrets else None)
    orders = orders_entry(sub.env, sub.side, state)
    if sub.due.kind == "sealed":
        taken = _sealed(game, sub, seeds, orders, module, rs)
    else:
        taken = _in_the_open(game, sub, seeds, orders, module, rs)
    report = step_report(game, module, rs, sub.k, taken, seeds.seed, state)
    name = f"{sub.k:03d}-{slug(sub.side)}-{slug(taken.kind)}"
    made = _turn_files(game, sub, taken, report, seeds, module, rs, referee_key)
    _write(game, sub, taken, name, made, dry_run=dry_run)
    notes, game.notes = tuple(game.notes), []
    status = "dry-run" if dry_run else "adjudicated"
    return StepResult(sub.env.file, status, sub.k, f"turns/{name}", made.rsha, made.shown, notes)


def _in_the_open(
    game: RunningGame,
    sub: Submission,
    seeds: Seeds,
    orders: dict[str, Any],
    module: Module,
    rs: Ruleset,
) -> Taken:
    """Orders or an answer, resolved at once with dice from the orders' hash (or, when the
    game hides information, from their commitment)."""
    cfg, state, env = game.cfg, game.state, sub.env
    hides = cfg.hides_information
    key = env.sha256
    kept: dict[str, bytes] = {}
    if hides:
        assert seeds.hidden is not None
        orders["commitment"] = key = cm.orders_commitment(seeds.hidden, env.stored_text().encode())
        kept["orders.txt"] = env.stored_text().encode()
    if cfg.secrets is not None:  # a game without commitments records no dice key
        orders["dice_key"] = key
    dice = dicemod.CommittedDice(seeds.seed, sub.k, key, seeds.hidden if hides else None)
    outcome = rs.resolve(module, state, sub.doc, dice)
    refuse_outcome(env, outcome)
    if cfg.secrets is None:
        # one side at a time: a step must move the position, phase or decisions owed. With
        # impulses a pass may change only the ruleset's own data, so games with commitments
        # leave it to the ruleset (as they always did)
        refuse_no_progress(env, state, outcome.state)
    if sub.due.kind == "answer":
        # a game with commitments names the decisions of the answering side only (several
        # sides may owe answers at once); an older game named every one owed, as it still does
        owed = [p for p in state.pending if p.side == sub.side or cfg.secrets is None]
        title = f"{sub.side} answers {', '.join(p.id for p in owed)}"
        return Taken(orders, outcome, title, "answer", kept)
    title = step_title(rs, module, sub.k, sub.side, state)
    return Taken(orders, outcome, title, state.phase, kept)


def _sealed(
    game: RunningGame,
    sub: Submission,
    seeds: Seeds,
    orders: dict[str, Any],
    module: Module,
    rs: Ruleset,
) -> Taken:
    """Sealed orders: committed unopened while another side's are still due, else opened
    with every other sealed file of the phase and resolved together."""
    cfg, state, env = game.cfg, game.state, sub.env
    if seeds.hidden is None:
        raise Refusal(
            "archive",
            f"game {cfg.game_id} was made without commitments ([secrets] in game.toml), so it "
            "cannot take sealed orders",
            hint="start a new game with this version of the referee",
        )
    stored = env.stored_text().encode()
    orders["commitment"] = cm.orders_commitment(seeds.hidden, stored)
    if any(x.kind == "sealed" and x.side != sub.side for x in sub.owed):
        orders["sealed"] = "submitted"
        if not cfg.hides_information:
            for key in ("file", "name", "sha256"):
                orders.pop(key)
        title = f"Game-Turn {state.turn}, {sub.side} sealed orders for {state.phase}"
        nothing = Outcome(state, (), ())
        return Taken(
            orders, nothing, title, "sealed", {"orders.txt": stored}, {}, (*sub.sealed, sub.side)
        )
    return _sealed_opened(game, sub, seeds, orders, module, rs)


def _sealed_opened(
    game: RunningGame,
    sub: Submission,
    seeds: Seeds,
    orders: dict[str, Any],
    module: Module,
    rs: Ruleset,
) -> Taken:
    """The last sealed file of the phase: every side's opened, checked and resolved."""
    cfg, state, env = game.cfg, game.state, sub.env
    assert seeds.hidden is not None and game.secret is not None
    hides = cfg.hides_information
    docs = {sub.side: sub.doc}
    commits = {sub.side: orders["commitment"]}
    reveals = []
    taken = Taken(orders, Outcome(state, (), ()), "", "sealed")
    for s, i in sorted(sub.sealed.items()):
        other, text = _sealed_file(game, s, i)
        docs[s] = parse_orders_text(rs, other.body, other.file)
        commits[s] = game.reports[i]["orders"]["commitment"]
        reveals.append(_reveal(s, i, other.sha256, game.secret.hidden_seed(i), other.file))
        if not hides:
            taken.published[other.file] = text
    mine = f"orders-{slug(sub.side)}.txt"
    reveals.append(_reveal(sub.side, sub.k, env.sha256, seeds.hidden, mine))
    reveals.sort(key=lambda r: r["side"])
    orders.update(sealed="resolved", sealed_sides=sorted(commits), reveals=reveals)
    if not hides:
        orders["file"] = mine
    orders["dice_key"] = cm.sealed_key(commits)
    dice = dicemod.CommittedDice(
        seeds.seed, sub.k, orders["dice_key"], seeds.hidden if hides else None
    )
    taken.outcome = sealed_resolution(rs).resolve_sealed(module, state, docs, dice)
    refuse_outcome(env, taken.outcome)
    taken.title = f"Game-Turn {state.turn}, sealed orders of {', '.join(sorted(commits))} opened"
    if hides:
        taken.kept["orders.txt"] = env.stored_text().encode()
    else:
        taken.published[mine] = env.stored_text().encode()
    return taken


def _sealed_file(game: RunningGame, side: str, i: int) -> tuple[Envelope, bytes]:
    """The sealed orders ``side`` sent in step ``i``, from the referee-only part."""
    text = game.secret_file(game.turns[i].name, "orders.txt")
    if text is None:
        raise Refusal(
            "archive",
            f"secret/turns/{game.turns[i].name}/orders.txt: missing (the sealed "
            f"orders of {side}, committed in turns/{game.turns[i].name})",
            hint="restore the referee-only secret/ folder from its backup",
        )
    return open_envelope(text.decode("utf-8"), f"orders-{slug(side)}.txt"), text


def _reveal(side: str, step: int, sha256: str, hidden_seed: bytes, file: str) -> dict[str, Any]:
    """How anyone checks a sealed file against the commitment made when it arrived."""
    return {
        "side": side,
        "sequence": step,
        "file": file,
        "sha256": sha256,
        "salt": cm.salt(hidden_seed, "orders").hex(),
    }


def step_report(
    game: RunningGame,
    module: Module,
    rs: Ruleset,
    k: int,
    taken: Taken,
    seed: bytes,
    before: GameState,
) -> dict[str, Any]:
    """The record of adjudication ``k`` (in a game that hides information, the full record
    the published one is made from)."""
    cfg = game.cfg
    after = taken.outcome.state
    report = base_report(
        game_id=cfg.game_id,
        sequence=k,
        title=taken.title,
        previous_report=game.report_shas[-1],
        game_toml_sha256=game.game_toml_sha256,
        module=module_info(cfg),
        ruleset=cfg.ruleset,
        scenario=cfg.scenario,
        options=cfg.options,
        referee_fingerprint=cfg.referee.fingerprint,
    )
    report.update(
        orders=taken.orders,
        dice={
            "seed_index": k,
            "seed": seed.hex(),
            "previous_seed": dicemod.sha256(seed).hex(),
        },
        before=phase_info(before),
        after=phase_info(after),
        rolls=[r.to_json() for r in taken.outcome.rolls],
        events=[e.to_json() for e in taken.outcome.events],
        pending=[p.to_json() for p in after.pending],
        awaiting=awaiting_info(module, rs, after, taken.sealed_in),
        score=game.score.score(rs, module, after),  # as the game was started
    )
    return report


@dataclass(frozen=True, slots=True)
class Made:
    """A step's files: published, referee-only (``None``: a game without commitments), the
    record the referee keeps reading, what the step shows, its position and report hash."""

    files: dict[str, bytes]
    secret: dict[str, bytes] | None
    record: dict[str, Any]
    shown: dict[str, Any]
    state_bytes: bytes
    rsha: str


def _turn_files(
    game: RunningGame,
    sub: Submission,
    taken: Taken,
    report: dict[str, Any],
    seeds: Seeds,
    module: Module,
    rs: Ruleset,
    referee_key: PrivateKey,
) -> Made:
    cfg = game.cfg
    new, events = taken.outcome.state, tuple(taken.outcome.events)
    sealer = sealer_for(cfg, seeds.hidden) if seeds.hidden is not None else None
    if cfg.hides_information:
        assert seeds.hidden is not None
        files, secret_files, rsha = hidden_turn_files(
            module, rs, record=report, state=new, before=game.state, events=events,
            secret_orders=taken.kept, hidden_seed=seeds.hidden, step=sub.k,
            referee_key=referee_key, picture_dpi=cfg.picture_dpi, sealer=sealer,
        )  # fmt: skip
        record = json.loads(secret_files["record.json"])
        shown = json.loads(files["report.json"])
        return Made(files, secret_files, record, shown, secret_files["state.json"], rsha)
    referee_files = None
    if seeds.hidden is not None:
        referee_files = {**taken.kept, "secrets.json": secrets_json(sub.k, seeds.hidden)}
    stored = None if taken.kept or taken.published else sub.env.stored_text()
    files, rsha = build_turn_files(
        module, rs, report=report, state=new, before=game.state, events=events,
        orders_text=stored, referee_key=referee_key, picture_dpi=cfg.picture_dpi,
        extra_files=taken.published, sealer=sealer, referee_files=referee_files,
    )  # fmt: skip
    record = json.loads(files["report.json"])
    return Made(files, referee_files, record, record, files["state.json"], rsha)


def _write(
    game: RunningGame, sub: Submission, taken: Taken, name: str, made: Made, *, dry_run: bool
) -> None:
    """Write the turn folder and the position (or, in a dry run, go on as if written: the
    next file gets the next seed, and a later sealed file of the batch opens this one's
    orders from memory), then update the game the next file is checked against."""
    if not dry_run:
        path = write_turn(game.archive, name, made.files, made.secret)
        write_state(game.archive, made.state_bytes, game.cfg.hides_information)
        turn = TurnDir(sub.k, name, path)
    else:
        turn = TurnDir(sub.k, name, game.archive.turns / name)
        if made.secret is not None:
            game.previewed[name] = made.secret
        if sub.due.kind == "sealed":  # what the real run would do; who is due is public
            game.notes.append(
                f"{sub.side}'s sealed orders would be committed unopened; still due: "
                f"{awaited_text([x for x in sub.owed if x.side != sub.side])}"
                if taken.orders["sealed"] == "submitted"
                else f"the sealed orders of {', '.join(taken.orders['sealed_sides'])} would be "
                "opened and resolved together"
            )
    game.add_step(turn, made.record, made.rsha)
    game.state = taken.outcome.state
