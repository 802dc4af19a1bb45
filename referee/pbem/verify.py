"""``referee verify``: anyone can check a game archive without trusting the referee.

Checks, in order, stopping at the first failure (later ones would only repeat it):

* ``game.toml`` parses; the module source hashes to what it records;
* every turn folder: the referee's signatures on ``manifest.json`` and ``report.json``, every
  file's SHA-256 against the manifest, no file missing or added;
* the hash chain: each report names the SHA-256 of the one before it, and of ``game.toml``;
* report 000: its players and dice commitment are those of ``game.toml``;
* every orders file: signed by the key of the side it names, answering the report before it;
* the dice: each revealed seed hashes to the one before it (the first to the committed head),
  every roll recomputes from the seed and the orders hash;
* the replay: from the set-up, every step validated and resolved again with those dice gives
  the same rolls, events, decisions and position, and the same Markdown reports and views;
* ``state.json`` is the latest position (or, after an interrupted adjudication, the one
  before it: accepted, with a note saying how to complete it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine.ruleset import Ruleset, get_ruleset
from referee.errors import UserError
from referee.pbem.archive import Archive, GameConfig, TurnDir, module_sha256, sha256_hex
from referee.pbem.keys import PrivateKey
from referee.pbem.problems import Refusal
from referee.pbem.rendercheck import RenderMismatch, Since
from referee.pbem.rulings import matching_start
from referee.pbem.verdict import NO_NONCES_NOTE, Verified, VerifyFailure
from referee.pbem.verify_commit import CommittedForm
from referee.pbem.verify_hidden import check_revealed_complete
from referee.pbem.verify_open import OpenForm
from referee.pbem.verify_step import StepForm, verify_step
from referee.pbem.walk import OLDER_TEMPLATES_NOTE, Walk
from referee.source.model import Module

__all__ = [
    "NO_NONCES_NOTE",
    "Verified",
    "VerifyFailure",
    "check_head",
    "find_archive",
    "head_of",
    "matching_start",
    "verify_archive",
]


def find_archive(target: Path) -> tuple[Path, int | None]:
    """A game folder, or a ``report.json`` inside one (verify up to that report)."""
    if target.is_file():
        turn = target.resolve().parent
        root = turn.parent.parent
        if turn.parent.name != "turns" or not (root / "game.toml").is_file():
            raise Refusal(
                "archive",
                f"{target}: a report must be verified inside its game archive "
                "(GAME_DIR/turns/NNN-.../report.json)",
            )
        try:
            return root, int(turn.name.split("-", 1)[0])
        except ValueError:
            raise Refusal("archive", f"{target}: not inside a numbered turn folder") from None
    return target, None


_HEAD_PATTERNS = (
    re.compile(r"report\.json`? SHA-256 `?([0-9a-f]{64})"),  # report.md, view-*.md, HTML
    re.compile(r"(?m)^previous-report:\s*([0-9a-f]{64})\s*$"),  # a signed orders file
    re.compile(r'"report_sha256":\s*"([0-9a-f]{64})"'),  # view-*.json
)


def head_of(value: str, option: str = "--head") -> str:
    """The report hash a player holds: a SHA-256 in hex, a ``report.json`` (its hash), a
    ``report.md``/``view-*.md``/``report.html``/``view-*.json`` (the hash it states), or a
    signed orders file (the report it answers, its ``previous-report:``)."""
    v = value.strip().lower()
    if re.fullmatch(r"[0-9a-f]{64}", v):
        return v
    path = Path(value)
    try:
        data = path.read_bytes()[: 32 * 1024 * 1024]
    except OSError:
        raise UserError(
            f"{option} {value}: neither a report SHA-256 (64 hex digits) nor a readable file",
            hint="give the report.json SHA-256 printed in your latest report, or that report",
        ) from None
    if path.name == "report.json":
        return sha256_hex(data)
    text = data.decode("utf-8", "replace")
    for rx in _HEAD_PATTERNS:
        m = rx.search(text)
        if m:
            return m.group(1)
    raise UserError(f"{option} {value}: no report SHA-256 found in this file")


def check_head(result: Verified, head: str) -> None:
    """The archive reaches the report a player holds, or it was truncated or forked."""
    if head in result.report_shas:
        return
    raise VerifyFailure(
        result.last_report,
        "truncation",
        f"the archive does not reach report {head[:16]}... that you hold: it ends at "
        f"{result.last_report} ({result.last_report_sha256[:16]}...), so reports were removed "
        "or the game was forked after you saw it",
    )


def verify_archive(
    game_dir: Path,
    module: Module,
    *,
    upto: int | None = None,
    ruleset: Ruleset | None = None,
    keys: Sequence[PrivateKey] = (),
    since_sha: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Verified:
    """Every check of the module docstring; raises :class:`VerifyFailure`. ``keys`` (a
    player's or the referee's) open their parts of a game with parts (``parts_open.py``).

    ``since_sha``: the report a player verified before (``verify --since``): the record of
    every step is checked again (it is what later steps stand on, and cheap), the files
    rendered from it only after that report. ``progress(1)`` is called after each step.

    One walk for every game (:func:`walk_steps`), each step checked by
    :func:`referee.pbem.verify_step.verify_step` in the form of the game's record: without
    commitments (:class:`~referee.pbem.verify_open.OpenForm`) or with them
    (:class:`~referee.pbem.verify_commit.CommittedForm`); a game with parts is walked on a
    copy with every part this run opens unpacked (:func:`verify_parts`)."""
    archive = Archive(game_dir)
    try:
        archive.require()
        cfg = archive.config()
        turns = archive.turn_dirs()
        toml_sha = sha256_hex(archive.read(archive.game_toml))
    except Refusal as exc:
        raise VerifyFailure(str(game_dir), "archive", exc.message) from None
    except UserError as exc:
        raise VerifyFailure(str(game_dir), "archive", str(exc)) from None
    if module_sha256(module.root) != cfg.module_sha256:
        raise VerifyFailure("game.toml", "module", "the module source given is not the game's")
    rs = ruleset or get_ruleset(cfg.ruleset)
    game = Game(toml_sha, module, rs, upto, since_sha, progress)
    if cfg.secrets is not None and cfg.secrets.parts:
        return verify_parts(archive, cfg, game, keys)
    if upto is not None:
        turns = turns[: upto + 1]
    return walk_steps(archive, cfg, turns, game)


@dataclass(frozen=True, slots=True)
class Game:
    """What every step of one run of ``verify`` is checked against, besides the archive."""

    toml_sha: str
    module: Module
    rs: Ruleset
    upto: int | None
    since_sha: str | None
    progress: Callable[[int], None] | None


def verify_parts(
    archive: Archive, cfg: GameConfig, game: Game, keys: Sequence[PrivateKey]
) -> Verified:
    """A game with parts: :func:`walk_steps` on a copy with every part the ``keys`` (and a
    published parts key) open unpacked (:mod:`referee.pbem.parts_open`)."""
    from referee.pbem.parts_open import PartFailure, opened_copy

    try:
        with opened_copy(archive, cfg, keys) as (copy, opening):
            turns = copy.turn_dirs()
            if game.upto is not None:
                turns = turns[: game.upto + 1]
            out = walk_steps(copy, cfg, turns, game, opening=opening)
            opening.conflict()
    except PartFailure as exc:
        raise VerifyFailure(exc.file, exc.check, exc.message) from None
    except Refusal as exc:
        raise VerifyFailure(str(archive.root), "archive", exc.message) from None
    out.notes.extend(opening.notes())
    out.parts = opening.to_json()
    return out


def walk_steps(
    archive: Archive, cfg: GameConfig, turns: list[TurnDir], game: Game, *, opening: Any = None
) -> Verified:
    """Every step of ``turns`` checked in order (:func:`verify_step`), then what the walk
    found said in notes, and the current position checked."""
    form: StepForm = OpenForm() if cfg.secrets is None else CommittedForm()
    w = Walk(archive, cfg)
    w.opening = opening
    w.since = Since(game.since_sha)
    check_revealed_complete(archive, turns)
    for t in turns:
        try:
            verify_step(w, t, game.toml_sha, game.module, game.rs, form)
        except Refusal as exc:  # a file missing, too large, a symlink...
            raise VerifyFailure(f"turns/{t.name}", "archive", exc.message) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise VerifyFailure(f"turns/{t.name}", "record", f"malformed ({exc!r})") from None
        if game.progress is not None:
            game.progress(1)
    out = w.verified(turns)
    try:
        w.since.check_reached(out.last_report)
    except RenderMismatch as exc:
        raise VerifyFailure(exc.file, "truncation", exc.message) from None
    if w.cfg.hides_information and w.replayed < len(turns):
        out.replayed = False
    out.notes.extend(_notes(w, turns, game))
    if game.upto is None:
        _check_current(w, turns, out)
    return out


def _notes(w: Walk, turns: list[TurnDir], game: Game) -> list[str]:
    """What the walk could not check or checked otherwise, for people."""
    notes: list[str] = []
    hides = w.cfg.hides_information
    if game.since_sha is not None:
        notes.append(w.since.note())
    if hides and w.replayed < len(turns):
        notes.append(
            f"the hidden part is not revealed for {len(turns) - w.replayed} of {len(turns)} "
            "step(s): signatures, the hash chain, the dice seed chain and every public roll "
            "were checked; hidden rolls, commitments and the replay wait for `referee reveal`"
        )
    if hides and w.hidden_from:
        where = " and ".join(f"{k} ({n} step(s))" for k, n in sorted(w.hidden_from.items()))
        notes.append(
            f"hidden part checked from {where}: {w.hidden_rolls} hidden roll(s), every "
            "commitment and the replay"
        )
    if w.skipped_render:
        notes.append(OLDER_TEMPLATES_NOTE.format(n=w.skipped_render))
    notes.extend(w.notes)
    if not w.cfg.player_nonces and w.rolls:
        notes.append(NO_NONCES_NOTE)
    return notes


def _check_current(w: Walk, turns: list[TurnDir], out: Verified) -> None:
    """The current position: in a game that hides information the referee's own
    ``secret/state.json`` (a player's copy has none), else ``state.json``, the latest step's
    (or, after an interrupted adjudication, the one before it: a note says how to complete
    it); unfinished turn folders and files that look like keys are noted."""
    archive = w.archive
    if w.cfg.hides_information:
        current_path = archive.secret / "state.json"
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
        pass
    elif len(turns) >= 2 and current == archive.read(turns[-2].path / "state.json"):
        out.notes.append(
            f"state.json is the position before turns/{turns[-1].name}: an adjudication was "
            "interrupted after writing its report; `referee adjudicate GAME_DIR` completes it"
        )
    else:
        raise VerifyFailure("state.json", "state", "is not the position of the latest report")
    stale = archive.stale_tmp_dirs()
    if stale:
        out.notes.append(f"ignored {len(stale)} unfinished turns/.tmp-* folder(s)")
    found = archive.key_files()
    if found:
        out.notes.append(f"WARNING: {archive.rel(found[0])} looks like a private key or seeds")
