"""``referee adjudicate``: authenticate, validate, resolve with verifiable dice, record.

For each orders file, in order, the referee:

1. reads it defensively (at most 1 MB of UTF-8 text, no control characters);
2. **authenticates** it: signed by a player key of this game, the signature matches, the
   signer is the side named in ``side:``, ``game:`` is this game;
3. recognises a re-run (the same orders already made the latest turn: reports that result,
   changes nothing) and refuses a *replay* (orders adjudicated earlier), a *fork*
   (``previous-report:`` is not the latest report) and orders *out of turn* (not the awaited
   side, Game-Turn or phase);
4. **validates** the whole file (all-or-nothing: any violation refuses the file, listing every
   violation with its rule case);
5. **resolves** it with :class:`~referee.pbem.dice.CommittedDice` (the next revealed seed and
   the orders hash), stopping at a decision the other player owes;
6. writes the new turn folder and ``state.json`` as a transaction
   (:mod:`referee.pbem.transaction`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, get_ruleset, warnings_of
from referee.errors import UserError
from referee.numerals import HINT, shown, why_not
from referee.pbem import dice as dicemod
from referee.pbem import nonces
from referee.pbem.archive import Archive, GameConfig, TurnDir, sha256_hex
from referee.pbem.envelope import Envelope, open_envelope, read_orders_file
from referee.pbem.game import module_info
from referee.pbem.keys import PrivateKey
from referee.pbem.problems import Refusal
from referee.pbem.record import (
    awaiting_info,
    base_report,
    build_turn_files,
    game_over,
    phase_info,
    step_names,
    step_title,
)
from referee.pbem.transaction import game_lock, recover, write_state, write_turn
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
class _Game:
    """What one adjudication run knows about the archive, updated after each step."""

    archive: Archive
    cfg: GameConfig
    game_toml_sha256: str
    turns: list[TurnDir]
    reports: list[dict[str, Any]]
    report_shas: list[str]
    state: GameState
    secret: dicemod.SeedSecret | None = None
    notes: list[str] = field(default_factory=list)
    written: int = 1_000_000_000  # turns on disk; a dry run's previews come after them
    # the referee-only files of the steps a dry run previewed (turn folder name -> files):
    # kept in memory, never written, so that a later file of the same dry-run batch (the
    # other side's sealed orders, issue 10 §4) reads them as the real batch reads the disk
    previewed: dict[str, dict[str, bytes]] = field(default_factory=dict)

    def secret_file(self, turn: str, name: str) -> bytes | None:
        """A referee-only file of a turn folder (``secret/turns/TURN/NAME``), from a step
        previewed earlier in this dry run or from the archive; ``None`` when there is none."""
        if turn in self.previewed:
            return self.previewed[turn].get(name)
        path = self.archive.secret / "turns" / turn / name
        return self.archive.read(path) if path.is_file() else None


def parse_orders_text(ruleset: Ruleset, body: str, file: str) -> Any:
    """Parse in the ruleset's words (its vocabulary, or its own orders language)."""
    from referee.engine.ruleset import parse_orders_for

    try:
        return parse_orders_for(ruleset, body, file)
    except Exception as exc:
        errors = getattr(exc, "errors", None)  # OrdersSyntaxError lists every problem
        if not isinstance(errors, list):
            raise
        raise Refusal(
            "syntax",
            f"{file}: the orders do not parse ({len(errors)} problem(s))",
            details=[str(e) for e in errors],
            hint=f"docs/orders.md has the grammar, docs/orders/{ruleset.id}.md the orders",
        ) from None


def _read_report(archive: Archive, path: Path) -> tuple[dict[str, Any], str]:
    """A signed report (or a referee-only record) as JSON, and its SHA-256."""
    data = archive.read(path)
    try:
        return json.loads(data.decode("utf-8")), sha256_hex(data)
    except (UnicodeDecodeError, ValueError) as exc:
        raise Refusal("archive", f"{archive.rel(path)}: not valid JSON ({exc})") from None


def _check_shapes(archive: Archive, paths: list[Path], read: list[tuple[dict, str]]) -> None:
    """Every report checked against its declared shape (``report_shape.py``) before any
    field is used. The active cache remembers, by a hash chained over the reports' SHA-256s
    (with this code), that a game's reports up to one step passed, so each step checks only
    the reports added since: one or two cache reads, not one check a report (issue 24: a
    step's cost does not grow with the game)."""
    from referee.cache import active, code_fingerprint
    from referee.pbem.report_shape import check_report
    from referee.shapes import ShapeError

    cache = active()
    chain = [hashlib.sha256(f"report-shapes\0{code_fingerprint('code')}".encode()).hexdigest()]
    for _, sha in read:
        chain.append(hashlib.sha256(f"{chain[-1]}\0{sha}".encode()).hexdigest())
    done = 0
    if cache.enabled:
        for n in (len(read), len(read) - 1):
            if n > 0 and cache.get("checked", chain[n]) is not None:
                done = n
                break
    for path, (rep, _) in list(zip(paths, read, strict=True))[done:]:
        try:
            check_report(rep)
        except ShapeError as exc:
            raise Refusal("archive", f"{archive.rel(path)}: malformed: {exc}") from None
    if cache.enabled and done < len(read):
        cache.put("checked", chain[len(read)], b"")


def load_game(archive: Archive) -> _Game:
    """The archive as the referee sees it. In a game that hides information ``reports``
    holds the full records (``secret/turns/*/record.json``), ``report_shas`` the hashes of
    the published ``report.json`` files (the chain)."""
    archive.require()
    cfg = archive.config()
    turns = archive.turn_dirs()
    hides = cfg.hides_information
    paths = [
        archive.secret / "turns" / t.name / "record.json" if hides else t.path / "report.json"
        for t in turns
    ]
    read = [_read_report(archive, p) for p in paths]
    _check_shapes(archive, paths, read)
    reports = [rep for rep, _ in read]
    shas = (
        [sha256_hex(archive.read(t.path / "report.json")) for t in turns]
        if hides
        else [sha for _, sha in read]
    )
    state_path = archive.state_path(turns[-1], hides)
    try:
        state = GameState.from_json(archive.read_json(state_path))
    except (ValueError, KeyError, TypeError) as exc:
        raise Refusal(
            "archive", f"{archive.rel(state_path)}: not a referee state file: {exc}"
        ) from None
    return _Game(
        archive=archive,
        cfg=cfg,
        game_toml_sha256=sha256_hex(archive.read(archive.game_toml)),
        turns=turns,
        reports=reports,
        report_shas=shas,
        state=state,
    )


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
    envelopes: list[Envelope] = []
    for path in orders_files:
        text = read_orders_file(path)
        sig_path = path.with_name(path.name + ".sig")
        detached = read_orders_file(sig_path) if sig_path.is_file() else None
        envelopes.append(open_envelope(text, str(path), detached, name=path.name))
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


def refuse_nonce(game: _Game, env: Envelope, side: str) -> None:
    """A game with player nonces takes only files that reveal the side's last committed nonce
    and commit to a fresh one (``docs/dice.md``); the refusal burns no seed."""
    past = nonces.history(r.get("orders") for r in game.reports)
    h = env.header
    why = nonces.problem(
        past, nonces.Accepted(side, h.nonce, h.nonce_commit), required=game.cfg.player_nonces
    )
    if why is not None:
        line = h.lines.get("nonce" if "'nonce:'" in why else "nonce-commit", 1)
        raise Refusal(
            "bad-nonce",
            f"{env.file}:{line}: {why}",
            hint="sign with `referee sign --game-dir GAME_DIR`, which fills in both headers",
        )


def _refuse_header(game: _Game, env: Envelope, module: Module, rs: Ruleset) -> str:
    """Steps 2-3 up to the turn check; returns the signer's side."""
    cfg = game.cfg
    if env.block is None:
        raise Refusal(
            "unsigned",
            f"{env.file}: the orders are not signed",
            hint=f"sign them: referee sign {env.file} --key YOUR.key --game-dir GAME_DIR",
        )
    side = cfg.side_of(env.block.fingerprint)
    if side is None:
        raise Refusal(
            "bad-signature",
            f"{env.file}: signed by key {env.block.fingerprint[:16]}..., which is not a player "
            f"key of game {cfg.game_id}",
            hint="sign with the key whose .pub the referee put in game.toml",
        )
    if not env.signed_by(cfg.players[side]):
        raise Refusal(
            "bad-signature",
            f"{env.file}: the signature does not match the orders "
            "(changed after signing, or a broken signature)",
            hint=env.signature_hint(cfg.players[side]),
        )
    h = env.header
    if h.side != side:
        raise Refusal(
            "wrong-signer",
            f"{env.file}: signed with the key of {side}, but the orders say side: {h.side}",
            hint="each side signs its own orders",
        )
    if h.game != cfg.game_id:
        raise Refusal(
            "wrong-game",
            f"{env.file}: the orders are for game {h.game!r}; this is game {cfg.game_id!r}",
        )
    if h.turn is None:
        written = h.turn_written
        raise Refusal(
            "syntax",
            f"{env.file}:{h.lines.get('turn', 1)}: expected a Game-Turn number after 'turn:', "
            f"got {'nothing' if written is None else shown(written) + why_not(written)}",
            hint=f"{HINT}; the game is at Game-Turn {game.state.turn}",
        )
    return side


def _one(
    game: _Game,
    env: Envelope,
    module: Module,
    rs: Ruleset,
    referee_key: PrivateKey,
    referee_dir: Path | None,
    batch: set[str],
    *,
    dry_run: bool,
) -> StepResult:
    side = _refuse_header(game, env, module, rs)
    done = _already_applied(game, env, batch)
    if done is not None:
        return done
    if game.cfg.secrets is not None:  # checks whose turn it is, then the nonces
        from referee.pbem.submit import committed_step

        return committed_step(
            game, env, side, module, rs, referee_key, referee_dir, dry_run=dry_run
        )
    cfg, state = game.cfg, game.state
    h = env.header
    want_side, what = rs.awaiting(module, state)
    if side != want_side or h.turn != state.turn:
        raise Refusal(
            "out-of-turn",
            f"{env.file}: orders of {side} for Game-Turn {h.turn}, but the game waits for "
            f"{what} (Game-Turn {state.turn})",
        )
    if h.phase is not None and not state.pending and h.phase.lower() != state.phase.lower():
        raise Refusal(
            "out-of-turn",
            f"{env.file}:{h.lines.get('phase', 1)}: orders for phase {h.phase!r}, but the "
            f"game waits for {what}",
        )
    refuse_nonce(game, env, side)  # after whose turn it is: that refusal says more
    k = next_sequence(game)
    # -- validate (all or nothing), then resolve
    doc = validated(rs, module, state, env)
    warns = tuple(w.to_json() for w in warnings_of(rs, module, state, doc)) if dry_run else ()
    seed = seed_secret(game, referee_dir).seed(k)
    dice = dicemod.CommittedDice(seed, k, env.sha256)
    outcome = rs.resolve(module, state, doc, dice)
    refuse_outcome(env, outcome)
    new = outcome.state
    refuse_no_progress(env, state, new)
    title, name = step_title(rs, module, k, side, state), step_names(k, side, state)[1]
    report = step_report(
        game, module, rs, k, title, env, side, seed, state, new, outcome.events, outcome.rolls
    )
    files, rsha = build_turn_files(
        module,
        rs,
        report=report,
        state=new,
        before=state,
        events=outcome.events,
        orders_text=env.stored_text(),
        referee_key=referee_key,
        picture_dpi=cfg.picture_dpi,
    )
    if not dry_run:
        path = write_turn(game.archive, name, files)
        write_state(game.archive, files["state.json"])
        game.turns.append(TurnDir(k, name, path))
    else:  # the preview goes on as if written: the next file gets the next seed
        game.turns.append(TurnDir(k, name, game.archive.turns / name))
    game.reports.append(report)
    game.report_shas.append(rsha)
    game.state = new
    notes, game.notes = tuple(game.notes), []
    return StepResult(
        env.file,
        "dry-run" if dry_run else "adjudicated",
        k,
        f"turns/{name}",
        rsha,
        report,
        notes,
        warns,
    )


def next_sequence(game: _Game) -> int:
    """The number of the next adjudication; refuses when the dice commitment is used up."""
    k = len(game.turns)
    if k > game.cfg.dice_length:
        raise Refusal(
            "dice-exhausted",
            f"game {game.cfg.game_id}: all {game.cfg.dice_length} committed dice seeds are used",
            hint="start the next game with a larger --turns-of-dice",
        )
    return k


def validated(rs: Ruleset, module: Module, state: GameState, env: Envelope) -> Any:
    """The parsed orders, refused (all or nothing) when any order breaks the rules."""
    # parsed under the name the report records (a base name): what the orders leave in the
    # position (a standing order's place) must be what verify's replay makes of them, and no
    # folder of the referee's machine may enter the archive
    doc = parse_orders_text(rs, env.body, env.name or env.file)
    violations = list(rs.validate(module, state, doc))
    if violations:
        raise Refusal(
            "violation",
            f"{env.file}: refused: {len(violations)} order(s) break the rules; "
            "nothing was adjudicated",
            details=[str(v) for v in violations],
            hint="fix every listed order and send the whole file again",
        )
    return doc


def seed_secret(game: _Game, referee_dir: Path | None) -> dicemod.SeedSecret:
    if game.secret is None:
        cfg = game.cfg
        folder = dicemod.referee_dir(cfg.game_id, referee_dir)
        game.secret = dicemod.load_secret(folder, cfg.game_id, cfg.dice_head, cfg.dice_length)
    return game.secret


def refuse_outcome(env: Envelope, outcome: Any) -> None:
    if outcome.violations:
        raise Refusal(
            "violation",
            f"{env.file}: refused during resolution; nothing was adjudicated",
            details=[str(v) for v in outcome.violations],
        )


def progress_of(state: GameState) -> tuple[Any, ...]:
    """What a step must change to advance the game: the position, the turn and phase, the
    side to act, or the decisions owed. Standing orders alone change none of them."""
    j = state.to_json()
    return (j["turn"], j["phase"], j["active_side"], j["units"], j["stacks"], j["pending"])


def refuse_no_progress(env: Envelope, before: GameState, after: GameState) -> None:
    """Refuse a submission that leaves the game where it was (issue 11: files of standing
    orders only, each used to take a seed and a turn folder, could burn the dice chain and
    reroll an outcome not yet seen). Nothing is written and no seed is used."""
    if progress_of(before) != progress_of(after):
        return
    owed = ", ".join(f"{p.id} ({p.side})" for p in before.pending)
    raise Refusal(
        "no-progress",
        f"{env.file}: these orders do not advance the game (the position, phase and the "
        "decisions owed stay as they are); nothing was adjudicated",
        hint=(f"answer the decision(s) owed: {owed}" if owed else "give the orders of the step")
        + "; standing orders go in the same file",
    )


def _orders_sha(game: _Game, i: int) -> str | None:
    """The SHA-256 of the orders adjudicated in step ``i`` (sealed orders of a game without
    hidden information keep theirs in the referee-only part until they are revealed)."""
    o = game.reports[i].get("orders") or {}
    if o.get("sha256") is None and o.get("sealed") == "submitted":
        kept = game.secret_file(game.turns[i].name, "orders.txt")
        if kept is not None:
            return open_envelope(kept.decode("utf-8"), "orders.txt").sha256
    return o.get("sha256")


def sealed_trail(reports: list[dict[str, Any]]) -> list[int]:
    """Indexes of the latest steps that took sealed orders still unopened (in order)."""
    out: list[int] = []
    for i in range(len(reports) - 1, 0, -1):
        if (reports[i].get("orders") or {}).get("sealed") != "submitted":
            break
        out.insert(0, i)
    return out


def _already_applied(game: _Game, env: Envelope, batch: set[str]) -> StepResult | None:
    """A re-run of orders that made the latest step(s): their result. Refuses orders
    adjudicated earlier, orders answering another report, and orders after the end."""
    h = env.header
    for i, rep in enumerate(game.reports):
        if _orders_sha(game, i) != env.sha256:
            continue
        later = [_orders_sha(game, j) for j in range(i + 1, len(game.reports))]
        if i >= game.written:  # previewed earlier in this dry run: a real run re-uses it
            return StepResult(
                env.file,
                "dry-run",
                i,
                f"turns/{game.turns[i].name}",
                game.report_shas[i],
                {},
                (f"the same orders as an earlier file of this run (turns/{game.turns[i].name})",),
            )
        if all(x in batch for x in later):
            shown = rep
            if game.cfg.hides_information:
                shown = game.archive.read_json(game.turns[i].path / "report.json")
            return StepResult(
                env.file,
                "already-applied",
                i,
                f"turns/{game.turns[i].name}",
                game.report_shas[i],
                shown,
                (f"already adjudicated as turns/{game.turns[i].name}; nothing changed",),
            )
        raise Refusal(
            "replayed",
            f"{env.file}: these orders were already adjudicated as turns/{game.turns[i].name}",
            hint=f"the game has moved on; the latest report is turns/{game.turns[-1].name}",
        )
    latest = game.report_shas[-1]
    # Sealed orders are written at the same time: each may answer the report that opened
    # the sealed phase, or any report of the other sides' sealed submissions since.
    window = {latest}
    trail = sealed_trail(game.reports)
    if trail:
        window.update(game.report_shas[trail[0] - 1 :])
    if h.previous_report is None:
        raise Refusal(
            "forked",
            f"{env.file}: no 'previous-report:' header naming the report these orders answer",
            hint=f"add 'previous-report: {latest}' (referee sign --game-dir GAME fills it in)",
        )
    if h.previous_report not in window:
        if h.previous_report in game.report_shas:
            k = game.report_shas.index(h.previous_report)
            raise Refusal(
                "forked",
                f"{env.file}: the orders answer report turns/{game.turns[k].name}, but the "
                f"latest report is turns/{game.turns[-1].name}",
                hint="read the latest report and write orders for the position it shows",
            )
        raise Refusal(
            "forked",
            f"{env.file}:{h.lines.get('previous-report', 1)}: previous-report "
            f"{h.previous_report[:16]}... is no report of game {game.cfg.game_id}",
            hint=f"the latest report is {latest}",
        )
    if game_over(game.state):
        raise Refusal("game-over", f"{env.file}: game {game.cfg.game_id} is over")
    return None


def step_report(
    game: _Game,
    module: Module,
    rs: Ruleset,
    k: int,
    title: str,
    env: Envelope,
    side: str,
    seed: bytes,
    before: GameState,
    after: GameState,
    events: Any,
    rolls: Any,
    *,
    orders: dict[str, Any] | None = None,
    sealed_in: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The record of adjudication ``k``. ``orders`` replaces the orders entry (sealed and
    committed orders); ``sealed_in`` names the sides whose sealed orders wait unopened."""
    cfg = game.cfg
    assert env.block is not None
    report = base_report(
        game_id=cfg.game_id,
        sequence=k,
        title=title,
        previous_report=game.report_shas[-1],
        game_toml_sha256=game.game_toml_sha256,
        module=module_info(cfg),
        ruleset=cfg.ruleset,
        scenario=cfg.scenario,
        options=cfg.options,
        referee_fingerprint=cfg.referee.fingerprint,
    )
    report.update(
        orders=orders
        or {
            "file": "orders.txt",
            "name": env.name,
            "sha256": env.sha256,
            "side": side,
            "signer": env.block.fingerprint,
            "turn": env.header.turn,
            "phase": env.header.phase,
            "answers": [p.id for p in before.pending],
            **nonces.fields(env.header.nonce, env.header.nonce_commit),
        },
        dice={
            "seed_index": k,
            "seed": seed.hex(),
            "previous_seed": dicemod.sha256(seed).hex(),
        },
        before=phase_info(before),
        after=phase_info(after),
        rolls=[r.to_json() for r in rolls],
        events=[e.to_json() for e in events],
        pending=[p.to_json() for p in after.pending],
        awaiting=awaiting_info(module, rs, after, sealed_in),
        score=dict(rs.score(module, after)),
    )
    return report
