"""The game being adjudicated: the archive as the referee reads it, updated after each step.

One adjudication run (``referee adjudicate``, :mod:`referee.pbem.adjudicate`) loads it once,
then each accepted submission (:mod:`referee.pbem.submit`) appends its report and position,
so the next file of the batch is checked against the game as it now stands. A dry run
appends previews that are never written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from referee.engine.core import GameState
from referee.engine.ruleset import Due, Ruleset, due_of
from referee.pbem import dice as dicemod
from referee.pbem.archive import Archive, GameConfig, TurnDir, sha256_hex
from referee.pbem.problems import Refusal
from referee.pbem.rulings import TODAY, ScoreReading, score_reading
from referee.source.model import Module


@dataclass(frozen=True, slots=True)
class StepResult:
    """What one orders file led to."""

    orders_file: str
    status: str  # adjudicated | already-applied | dry-run
    sequence: int
    folder: str
    report_sha256: str
    report: dict[str, Any]
    notes: tuple[str, ...] = ()
    # a dry run's warnings: what the orders make certain before any die (issue 12 §1); they
    # reveal no roll, so a dry run may show them
    warnings: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        r = self.report
        if self.status == "dry-run":
            # A dry run says only whether the file would be accepted: its rolls and their
            # consequences must not be seen before the real adjudication publishes them
            # (a player who saw them could try to have the file dropped and send another).
            return {
                "ok": True,
                "orders_file": self.orders_file,
                "status": self.status,
                "sequence": self.sequence,
                "notes": list(self.notes),
            } | ({"warnings": list(self.warnings)} if self.warnings else {})
        return {
            "ok": True,
            "orders_file": self.orders_file,
            "status": self.status,
            "sequence": self.sequence,
            "folder": self.folder,
            "report_sha256": self.report_sha256,
            "rolls": r.get("rolls", []),
            "events": r.get("events", []),
            "pending": r.get("pending", []),
            "awaiting": r.get("awaiting"),
            "notes": list(self.notes),
        }


@dataclass(slots=True)
class RunningGame:
    """What one adjudication run knows about the archive, updated after each step."""

    archive: Archive
    cfg: GameConfig
    game_toml_sha256: str
    turns: list[TurnDir]
    reports: History  # records, read when asked for
    report_shas: History  # the chain: each published report.json's SHA-256
    state: GameState
    secret: dicemod.SeedSecret | None = None
    notes: list[str] = field(default_factory=list)
    written: int = 1_000_000_000  # turns on disk; a dry run's previews come after them
    # the referee-only files of the steps a dry run previewed (turn folder name -> files):
    # kept in memory, never written, so that a later file of the same dry-run batch (the
    # other side's sealed orders, issue 10 §4) reads them as the real batch reads the disk
    previewed: dict[str, dict[str, bytes]] = field(default_factory=dict)
    # how this game's reports record the score: as it was started (rulings.score_reading)
    score: ScoreReading = TODAY

    def secret_file(self, turn: str, name: str) -> bytes | None:
        """A referee-only file of a turn folder (``secret/turns/TURN/NAME``), from a step
        previewed earlier in this dry run or from the archive; ``None`` when there is none."""
        if turn in self.previewed:
            return self.previewed[turn].get(name)
        path = self.archive.secret / "turns" / turn / name
        return self.archive.read(path) if path.is_file() else None

    def add_step(self, turn: TurnDir, record: dict[str, Any], rsha: str) -> None:
        """A step this run wrote (or, in a dry run, previewed): the next file is checked
        against the game with it."""
        published = turn.path / "report.json"
        path = (
            self.archive.secret / "turns" / turn.name / "record.json"
            if self.cfg.hides_information
            else published
        )
        self.turns.append(turn)
        self.reports.add(path, published, record, rsha)

    def next_sequence(self) -> int:
        """The number of the next adjudication; refuses when the dice commitment is used up."""
        k = len(self.turns)
        if k > self.cfg.dice_length:
            raise Refusal(
                "dice-exhausted",
                f"game {self.cfg.game_id}: all {self.cfg.dice_length} committed dice seeds "
                "are used",
                hint="start the next game with a larger --turns-of-dice",
            )
        return k

    def seed_secret(self, referee_dir: Path | None) -> dicemod.SeedSecret:
        """The referee's seeds of this game (read once a run, from ``--referee-dir``)."""
        if self.secret is None:
            cfg = self.cfg
            folder = dicemod.referee_dir(cfg.game_id, referee_dir)
            self.secret = dicemod.load_secret(folder, cfg.game_id, cfg.dice_head, cfg.dice_length)
        return self.secret

    def due_now(self, module: Module, rs: Ruleset) -> tuple[list[Due], dict[str, int]]:
        """What is still owed, and the sides whose sealed orders are in (side -> step). A
        ruleset that declares no ``due`` waits for one side, the one its ``awaiting`` names
        (``engine.ruleset.due_of``)."""
        sealed = {self.reports[i]["orders"]["side"]: i for i in sealed_trail(self.reports)}
        due = [d for d in due_of(rs, module, self.state) if d.side not in sealed]
        return due, sealed


def sealed_trail(reports: list[dict[str, Any]]) -> list[int]:
    """Indexes of the latest steps that took sealed orders still unopened (in order)."""
    out: list[int] = []
    for i in range(len(reports) - 1, 0, -1):
        if (reports[i].get("orders") or {}).get("sealed") != "submitted":
            break
        out.insert(0, i)
    return out


def _read_report(archive: Archive, path: Path) -> tuple[dict[str, Any], str]:
    """A signed report (or a referee-only record) as JSON, and its SHA-256, checked against
    its declared shape (``report_shape.py``) before any field is used."""
    from referee.pbem.report_shape import check_report
    from referee.shapes import ShapeError

    data = archive.read(path)
    try:
        rep = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise Refusal("archive", f"{archive.rel(path)}: not valid JSON ({exc})") from None
    try:
        check_report(rep)
    except ShapeError as exc:
        raise Refusal("archive", f"{archive.rel(path)}: malformed: {exc}") from None
    return rep, sha256_hex(data)


class History(Sequence[Any]):
    """The game's reports, or their SHA-256s, read from the archive only when asked for.

    A step needs the latest report (the chain head), the few before it that took sealed
    orders, and report 000 (how the game records its score): reading every earlier report
    at every step made a step's cost grow with the game (issue 26: 0.7 ms a report, some
    0.6 s a step at step 900). Each report is read, hashed and shape-checked once a run,
    the first time any index of it is asked for; the steps of the run are appended. Only
    what looks back over the whole game (a replayed or forked file's message,
    :mod:`referee.pbem.acceptance`) reads them all, and only on that path."""

    def __init__(self, source: _Source, pick: int) -> None:
        self._source = source
        self._pick = pick  # 0: the report (record), 1: its SHA-256

    def __len__(self) -> int:
        return len(self._source.paths)

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self._source.entry(i)[self._pick]

    def add(self, path: Path, published: Path, record: dict[str, Any], sha: str) -> None:
        """A step of this run (the reports and their SHA-256s share one source)."""
        self._source.add(path, published, record, sha)


class _Source:
    """Where :class:`History` reads report ``i`` from: its path (the record) and, in a game
    that hides information, the published ``report.json`` whose SHA-256 the chain holds."""

    def __init__(self, archive: Archive, paths: list[Path], published: list[Path] | None):
        self.archive = archive
        self.paths = paths
        self.published = published
        self.read: dict[int, tuple[dict[str, Any], str]] = {}

    def entry(self, i: int) -> tuple[dict[str, Any], str]:
        hit = self.read.get(i)
        if hit is None:
            rep, sha = _read_report(self.archive, self.paths[i])
            if self.published is not None:
                sha = sha256_hex(self.archive.read(self.published[i]))
            hit = self.read[i] = (rep, sha)
        return hit

    def add(self, path: Path, published: Path, record: dict[str, Any], sha: str) -> None:
        self.read[len(self.paths)] = (record, sha)
        self.paths.append(path)
        if self.published is not None:
            self.published.append(published)


def load_game(archive: Archive) -> RunningGame:
    """The archive as the referee sees it. In a game that hides information ``reports``
    holds the full records (``secret/turns/*/record.json``), ``report_shas`` the hashes of
    the published ``report.json`` files (the chain). Both are :class:`History`: a report is
    read when a check asks for it, so loading costs the same at step 10 and step 900."""
    archive.require()
    cfg = archive.config()
    turns = archive.turn_dirs()
    hides = cfg.hides_information
    paths = [
        archive.secret / "turns" / t.name / "record.json" if hides else t.path / "report.json"
        for t in turns
    ]
    source = _Source(archive, paths, [t.path / "report.json" for t in turns] if hides else None)
    reports, shas = History(source, 0), History(source, 1)
    state_path = archive.state_path(turns[-1], hides)
    try:
        state = GameState.from_json(archive.read_json(state_path))
    except (ValueError, KeyError, TypeError) as exc:
        raise Refusal(
            "archive", f"{archive.rel(state_path)}: not a referee state file: {exc}"
        ) from None
    return RunningGame(
        archive=archive,
        cfg=cfg,
        game_toml_sha256=sha256_hex(archive.read(archive.game_toml)),
        turns=turns,
        reports=reports,
        report_shas=shas,
        state=state,
        score=score_reading(reports[0]),
    )
