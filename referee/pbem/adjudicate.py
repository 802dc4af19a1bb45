"""``referee adjudicate``: authenticate, validate, resolve with verifiable dice, record.

For each orders file, in order, the referee:

1. reads it defensively (at most 1 MB of UTF-8 text, no control characters);
2. **authenticates** it: signed by a player key of this game, the signature matches, the
   signer is the side named in ``side:``, ``game:`` is this game;
3. recognises a re-run (the same orders already made the latest turn: reports that result,
   changes nothing) and refuses a *replay* (orders adjudicated earlier), a *fork*
   (``previous-report:`` is not the latest report) and orders *out of turn* (from a side the
   game does not wait for, or for another Game-Turn or phase);
4. **validates** the whole file (all-or-nothing: any violation refuses the file, listing every
   violation with its rule case);
5. **resolves** it with :class:`~referee.pbem.dice.CommittedDice` (the next revealed seed and
   the orders hash or commitment), stopping at a decision the other player owes;
6. writes the new turn folder and ``state.json`` as a transaction
   (:mod:`referee.pbem.transaction`).

Steps 2-4 are :mod:`referee.pbem.acceptance`, 5-6 :mod:`referee.pbem.submit`: one path for
every game, in which one side at a time, impulses, sealed orders and hidden information are
variants of who is due and of what the step publishes.
"""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path
from typing import Any

from referee.engine.ruleset import Ruleset, get_ruleset, warnings_of
from referee.errors import UserError
from referee.pbem.acceptance import (
    already_applied,
    refuse_nonce,
    refuse_not_due,
    refuse_signer,
    validated,
)
from referee.pbem.archive import Archive, GameConfig
from referee.pbem.envelope import Envelope, open_envelope, read_orders_file
from referee.pbem.keys import PrivateKey
from referee.pbem.problems import Refusal
from referee.pbem.running import RunningGame, StepResult, load_game
from referee.pbem.submit import Submission, take_step
from referee.pbem.transaction import game_lock, recover
from referee.source.model import Module

__all__ = ["StepResult", "adjudicate"]


def adjudicate(
    game_dir: Path,
    orders_files: list[Path],
    *,
    referee_key: PrivateKey,
    module: Module,
    referee_dir: Path | None = None,
    dry_run: bool = False,
    ruleset: Ruleset | None = None,
) -> list[StepResult]:
    """Adjudicate each orders file in turn; raises :class:`Refusal` at the first refused
    file (the files before it stay adjudicated: each is its own transaction)."""
    archive = Archive(game_dir)
    archive.require()
    cfg = archive.config()
    if referee_key.public.fingerprint != cfg.referee.fingerprint:
        raise UserError(
            f"{referee_key.name}.key is not the referee key of game {cfg.game_id} "
            f"(that is {cfg.referee.short})",
            hint="give the key `referee new --referee-key` used",
        )
    found = archive.key_files()
    if found:
        raise Refusal(
            "archive",
            f"{archive.rel(found[0])}: a private key or seed file inside the game archive",
            hint="remove it (and make a new key: it has been exposed to the players)",
        )
    rs = ruleset or get_ruleset(cfg.ruleset)
    envelopes = [_envelope(path) for path in orders_files]
    batch = {e.sha256 for e in envelopes}
    lock = contextlib.nullcontext() if dry_run else game_lock(archive)
    results: list[StepResult] = []
    with lock:
        notes = _restore(archive, cfg, referee_key, referee_dir, dry_run)
        notes += [] if dry_run else recover(archive, cfg.hides_information)
        game = load_game(archive)
        game.notes = notes
        if dry_run:  # a real run writes each step: a repeated file is already applied
            game.written = len(game.turns)
        for env in envelopes:
            results.append(
                _one(game, env, module, rs, referee_key, referee_dir, batch, dry_run=dry_run)
            )
    return results


def _envelope(path: Path) -> Envelope:
    """Step 1: an orders file (and its detached signature, if any), read defensively."""
    text = read_orders_file(path)
    sig_path = path.with_name(path.name + ".sig")
    detached = read_orders_file(sig_path) if sig_path.is_file() else None
    return open_envelope(text, str(path), detached, name=path.name)


def _restore(
    archive: Archive,
    cfg: GameConfig,
    referee_key: PrivateKey,
    referee_dir: Path | None,
    dry_run: bool,
) -> list[str]:
    """In a game with parts, the referee's working copy ``secret/`` made again from the
    referee-only parts where it lacks steps (a fresh clone of the published game, as a CI
    runner has it). A dry run restores too: the working copy is the referee's own, never
    part of the archive, and a run that loses the race to write a folder finds it there."""
    from referee.pbem.parts import has_parts, restore_referee_copy

    if not has_parts(cfg):
        return []

    try:
        return restore_referee_copy(archive, cfg, referee_key)
    except Refusal:
        if dry_run:  # another run restored it meanwhile
            return []
        raise


def _one(
    game: RunningGame,
    env: Envelope,
    module: Module,
    rs: Ruleset,
    referee_key: PrivateKey,
    referee_dir: Path | None,
    batch: set[str],
    *,
    dry_run: bool,
) -> StepResult:
    """Steps 2-6 for one orders file."""
    side = refuse_signer(game, env)
    done = already_applied(game, env, batch)
    if done is not None:
        return done
    owed, sealed = game.due_now(module, rs)
    due = refuse_not_due(game, env, side, owed, sealed)
    refuse_nonce(game, env, side)  # after whose turn it is: that refusal says more
    k = game.next_sequence()
    doc = validated(rs, module, game.state, env)
    # a dry run's warnings: what the orders make certain before any die (issue 12 §1). They
    # reveal no roll; in a game that hides information they could tell what the side may not
    # see, so there it shows none
    warns: tuple[dict[str, Any], ...] = ()
    if dry_run and not game.cfg.hides_information:
        warns = tuple(w.to_json() for w in warnings_of(rs, module, game.state, doc))
    sub = Submission(env, side, due, owed, sealed, doc, k)
    result = take_step(game, sub, module, rs, referee_key, referee_dir, dry_run=dry_run)
    return dataclasses.replace(result, warnings=warns) if warns else result
