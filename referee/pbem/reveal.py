"""``referee reveal``: release the referee-only part of a game archive.

A game whose ruleset hides information (or that took sealed orders) keeps, for every step,
the full position, the full record with every hidden roll, the signed orders and the step's
hidden seed in ``secret/turns/NNN-what/``, which the documented layout says never to publish
(``referee new`` lists it in ``.gitignore``). The published reports hold salted commitments to
all of it. ``reveal`` copies ``secret/turns/`` to ``revealed/turns/`` (published like the rest
of the archive) once the game is over, or earlier where the ruleset's ``may_reveal`` allows;
``referee verify`` then checks every commitment and hidden roll and replays the game.

The copy is made in a temporary folder and renamed into place, so a crash leaves either the
old ``revealed/`` or the new one, never a mixture.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, get_ruleset, may_reveal
from referee.errors import UserError
from referee.pbem.archive import TMP_PREFIX, Archive
from referee.pbem.keys import PrivateKey
from referee.pbem.transaction import game_lock
from referee.safeio import fsync_dir
from referee.source.model import Module


@dataclass(frozen=True, slots=True)
class Revealed:
    game_id: str
    steps: tuple[str, ...]
    folder: Path


def reveal(game_dir: Path, module: Module, *, ruleset: Ruleset | None = None) -> Revealed:
    archive = Archive(game_dir)
    archive.require()
    cfg = archive.config()
    if cfg.secrets is None:
        raise UserError(
            f"game {cfg.game_id} keeps nothing hidden: there is nothing to reveal",
            hint="`referee verify` already checks everything in it",
        )
    rs = ruleset or get_ruleset(cfg.ruleset)
    with game_lock(archive):
        turns = archive.turn_dirs()
        kept = archive.secret / "turns"
        missing = [t.name for t in turns if not (kept / t.name).is_dir()]
        if missing:
            raise UserError(
                f"{archive.rel(kept)}/{missing[0]}: the referee-only part of this step is missing",
                hint="reveal runs on the referee's own copy of the archive (with secret/)",
            )
        where = archive.state_path(turns[-1], cfg.hides_information)
        try:
            state = GameState.from_json(archive.read_json(where))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise UserError(f"{archive.rel(where)}: not a position ({exc})") from None
        if not may_reveal(rs, module, state):
            raise UserError(
                f"game {cfg.game_id} is not over, and its ruleset does not allow a reveal now",
                hint="reveal at the end of the game (the ruleset decides any earlier point)",
            )
        tmp = archive.root / f"{TMP_PREFIX}revealed-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        (tmp / "turns").mkdir(parents=True)
        for t in turns:
            shutil.copytree(kept / t.name, tmp / "turns" / t.name)
            _fsync_tree(tmp / "turns" / t.name)
        fsync_dir(tmp / "turns")
        old = archive.root / f"{TMP_PREFIX}revealed-old-{os.getpid()}"
        if archive.revealed.exists():
            os.rename(archive.revealed, old)
        os.rename(tmp, archive.revealed)
        fsync_dir(archive.root)
        if old.exists():
            shutil.rmtree(old)
    return Revealed(cfg.game_id, tuple(t.name for t in turns), archive.revealed)


def restore(game_dir: Path, referee_key: PrivateKey) -> list[str]:
    """The referee's working copy ``secret/`` made again from the referee-only parts (a game
    with parts; :func:`referee.pbem.parts.restore_referee_copy`), under the game's lock."""
    from referee.pbem.parts import restore_referee_copy

    archive = Archive(game_dir)
    archive.require()
    cfg = archive.config()
    if referee_key.public.fingerprint != cfg.referee.fingerprint:
        raise UserError(f"{referee_key.name}.key is not the referee key of game {cfg.game_id}")

    with game_lock(archive):
        return restore_referee_copy(archive, cfg, referee_key)


def _fsync_tree(folder: Path) -> None:
    for p in sorted(folder.iterdir()):
        if p.is_file():
            fd = os.open(p, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    fsync_dir(folder)
