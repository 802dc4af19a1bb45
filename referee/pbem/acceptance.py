"""Whether the referee takes a submission: steps 2-4 of ``referee adjudicate``.

Each check refuses with a :class:`~referee.pbem.problems.Refusal` that names the file, what
is wrong and what to do, and burns no seed: the signature and the signer's side, the game,
a re-run (the result it made) or a replay, a fork, the side and turn the game waits for
(:meth:`RunningGame.due_now`: one side at a time, impulses, answers or sealed orders), the
dice nonces, and last the orders themselves, all or nothing.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Due, Ruleset
from referee.numerals import HINT, shown, why_not
from referee.pbem import nonces
from referee.pbem.envelope import Envelope, open_envelope
from referee.pbem.ledger import accepted, ledger
from referee.pbem.problems import Refusal
from referee.pbem.record import game_over
from referee.pbem.running import RunningGame, StepResult, sealed_trail
from referee.source.model import Module


def parse_orders_text(ruleset: Ruleset, body: str, file: str) -> Any:
    """Parse in the ruleset's words (its vocabulary, or its own orders language)."""

    try:
        return ruleset.parse_orders(body, file)
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


def refuse_signer(game: RunningGame, env: Envelope) -> str:
    """Step 2: signed by a player key of this game that matches the side named in ``side:``,
    for this game and a Game-Turn; returns the signer's side."""
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
    _refuse_header(game, env, side)
    return side


def _refuse_header(game: RunningGame, env: Envelope, side: str) -> None:
    h = env.header
    if h.side != side:
        raise Refusal(
            "wrong-signer",
            f"{env.file}: signed with the key of {side}, but the orders say side: {h.side}",
            hint="each side signs its own orders",
        )
    if h.game != game.cfg.game_id:
        raise Refusal(
            "wrong-game",
            f"{env.file}: the orders are for game {h.game!r}; this is game {game.cfg.game_id!r}",
        )
    if h.turn is None:
        written = h.turn_written
        raise Refusal(
            "syntax",
            f"{env.file}:{h.lines.get('turn', 1)}: expected a Game-Turn number after 'turn:', "
            f"got {'nothing' if written is None else shown(written) + why_not(written)}",
            hint=f"{HINT}; the game is at Game-Turn {game.state.turn}",
        )


def awaited_text(due: list[Due]) -> str:
    return "; ".join(f"{d.side} ({d.kind}): {d.what}" for d in due) or "nobody"


def refuse_not_due(
    game: RunningGame, env: Envelope, side: str, due: list[Due], sealed: dict[str, int]
) -> Due:
    """Step 3's last check: the submission the game waits for from ``side`` (the first of
    ``due`` that is the side's), or a refusal naming every side awaited and for what."""
    h, state = env.header, game.state
    mine = [d for d in due if d.side == side]
    if side in sealed:
        raise Refusal(
            "out-of-turn",
            f"{env.file}: {side} already sent sealed orders for this phase "
            f"(turns/{game.turns[sealed[side]].name}); the game waits for {awaited_text(due)}",
        )
    if not mine or h.turn != state.turn:
        raise Refusal(
            "out-of-turn",
            f"{env.file}: orders of {side} for Game-Turn {h.turn}, but the game waits for "
            f"{awaited_text(due)} (Game-Turn {state.turn})",
        )
    d = mine[0]
    if h.phase is not None and d.kind != "answer" and h.phase.lower() != state.phase.lower():
        raise Refusal(
            "out-of-turn",
            f"{env.file}:{h.lines.get('phase', 1)}: orders for phase {h.phase!r}, but the "
            f"game waits for {awaited_text(due)}",
        )
    return d


def refuse_nonce(game: RunningGame, env: Envelope, side: str) -> None:
    """A game with player nonces takes only files that reveal the side's last committed nonce
    and commit to a fresh one (``docs/dice.md``); the refusal burns no seed."""
    led = ledger(
        len(game.reports),
        lambda i: game.reports[i].get("orders"),
        lambda i: game.report_shas[i],
        "record" if game.cfg.hides_information else "report",
    )
    past = accepted(led)
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


def validated(rs: Ruleset, module: Module, state: GameState, env: Envelope) -> Any:
    """Step 4: the parsed orders, refused (all or nothing) when any order breaks the rules."""
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


def _orders_sha(game: RunningGame, i: int) -> str | None:
    """The SHA-256 of the orders adjudicated in step ``i`` (sealed orders of a game without
    hidden information keep theirs in the referee-only part until they are revealed)."""
    o = game.reports[i].get("orders") or {}
    if o.get("sha256") is None and o.get("sealed") == "submitted":
        kept = game.secret_file(game.turns[i].name, "orders.txt")
        if kept is not None:
            return open_envelope(kept.decode("utf-8"), "orders.txt").sha256
    return o.get("sha256")


def already_applied(game: RunningGame, env: Envelope, batch: set[str]) -> StepResult | None:
    """Step 3: a re-run of orders that made the latest step(s): their result. Refuses orders
    adjudicated earlier, orders answering another report, and orders after the end.

    Orders answering the latest report (or, in a sealed phase, a report of its window) can
    only have made a step of that window (each file names the report it answers, and its
    hash covers that line), so only there is it looked for: a step reads a few reports, not
    every report of the game. Any other file is looked for everywhere, to say which step it
    repeats or answers."""
    first = _window_start(game, env)
    for i in range(first, len(game.reports)):
        rep = game.reports[i]
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
    _refuse_fork(game, env)
    if game_over(game.state):
        raise Refusal("game-over", f"{env.file}: game {game.cfg.game_id} is over")
    return None


def _window_start(game: RunningGame, env: Envelope) -> int:
    """The first step orders answering the window of :func:`_refuse_fork` could have made
    (0: look everywhere)."""
    prev = env.header.previous_report
    trail = sealed_trail(game.reports)
    first = trail[0] if trail else len(game.reports)
    if prev is not None and prev in game.report_shas[first - 1 :]:
        return first
    return 0


def _refuse_fork(game: RunningGame, env: Envelope) -> None:
    """The orders answer the latest report. Sealed orders are written at the same time: each
    may answer the report that opened the sealed phase, or any report of the other sides'
    sealed submissions since."""
    h = env.header
    latest = game.report_shas[-1]
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
    if h.previous_report in window:
        return
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
