"""Adjudicating one submission in a game with commitments (``docs/pbem.md``).

A ruleset written to the newer contract says with ``due`` which sides the game waits for
and for what: orders for a phase or an impulse, an answer to a pending decision, or
**sealed** orders. The referee accepts a submission from any side that is due, and refuses
one from a side that is not, naming every side awaited and for what.

Sealed orders are validated when they arrive but not opened: the step records only a
salted commitment (:mod:`referee.pbem.commitments`) and keeps the signed file in the
referee-only part of the archive. When the last side due has sent its own, that step
resolves them all together (``ruleset.resolve_sealed``) with dice derived from every side's
commitment, and (when the ruleset hides nothing) publishes every sealed file next to the
salts, so anyone can check each against the commitment made when it arrived.

In a game whose ruleset hides information every orders file stays in the referee-only part
until ``referee reveal``; the published record holds its commitment, and the dice are derived
from that commitment instead of the plain orders hash (which few possible orders would give
away).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.engine.core import Outcome
from referee.engine.ruleset import Due, Ruleset, due_of, sealed_resolution
from referee.pbem import commitments as cm
from referee.pbem import dice as dicemod
from referee.pbem import nonces
from referee.pbem.adjudicate import (
    StepResult,
    _Game,
    next_sequence,
    parse_orders_text,
    refuse_nonce,
    refuse_outcome,
    sealed_trail,
    seed_secret,
    step_report,
    validated,
)
from referee.pbem.archive import TurnDir, slug
from referee.pbem.envelope import Envelope, open_envelope
from referee.pbem.keys import PrivateKey
from referee.pbem.parts import sealer_for
from referee.pbem.problems import Refusal
from referee.pbem.publish import SECRETS_FORMAT, hidden_turn_files
from referee.pbem.record import build_turn_files, pretty_json, step_title
from referee.pbem.transaction import write_state, write_turn
from referee.source.model import Module


def awaited_text(due: list[Due]) -> str:
    return "; ".join(f"{d.side} ({d.kind}): {d.what}" for d in due) or "nobody"


def due_now(game: _Game, module: Module, rs: Ruleset) -> tuple[list[Due], dict[str, int]]:
    """What is still owed, and the sides whose sealed orders are in (side -> step)."""
    sealed = {game.reports[i]["orders"]["side"]: i for i in sealed_trail(game.reports)}
    due = [d for d in due_of(rs, module, game.state) if d.side not in sealed]
    return due, sealed


def _refuse_not_due(
    game: _Game, env: Envelope, side: str, due: list[Due], sealed: dict[str, int]
) -> Due:
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


def committed_step(
    game: _Game,
    env: Envelope,
    side: str,
    module: Module,
    rs: Ruleset,
    referee_key: PrivateKey,
    referee_dir: Path | None,
    *,
    dry_run: bool,
) -> StepResult:
    cfg, state = game.cfg, game.state
    hides = cfg.hides_information
    due, sealed = due_now(game, module, rs)
    d = _refuse_not_due(game, env, side, due, sealed)
    refuse_nonce(game, env, side)  # after whose turn it is: that refusal says more
    k = next_sequence(game)
    doc = validated(rs, module, state, env)
    secret = seed_secret(game, referee_dir)
    seed, hseed = secret.seed(k), secret.hidden_seed(k)
    stored = env.stored_text()
    assert env.block is not None
    orders: dict[str, Any] = {
        "file": "orders.txt",
        "name": env.name,
        "sha256": env.sha256,
        "side": side,
        "signer": env.block.fingerprint,
        "turn": env.header.turn,
        "phase": env.header.phase,
        "answers": [p.id for p in state.pending],
        **nonces.fields(env.header.nonce, env.header.nonce_commit),
    }
    if hides or d.kind == "sealed":
        orders["commitment"] = cm.orders_commitment(hseed, stored.encode())
    public_extra: dict[str, bytes] = {}
    kept: dict[str, bytes] = {}
    sealed_in: tuple[str, ...] = ()
    if d.kind == "sealed" and any(x.kind == "sealed" and x.side != side for x in due):
        # not the last: record the commitment only; nothing is opened or resolved
        orders["sealed"] = "submitted"
        outcome = Outcome(state, (), ())
        sealed_in = (*sealed, side)
        kept["orders.txt"] = stored.encode()
        if not hides:
            for key in ("file", "name", "sha256"):
                orders.pop(key)
        title = f"Game-Turn {state.turn}, {side} sealed orders for {state.phase}"
        kind = "sealed"
    elif d.kind == "sealed":
        docs = {side: doc}
        commits = {side: orders["commitment"]}
        reveals = []
        for s, i in sorted(sealed.items()):
            text = game.secret_file(game.turns[i].name, "orders.txt")
            if text is None:
                raise Refusal(
                    "archive",
                    f"secret/turns/{game.turns[i].name}/orders.txt: missing (the sealed "
                    f"orders of {s}, committed in turns/{game.turns[i].name})",
                    hint="restore the referee-only secret/ folder from its backup",
                )
            other = open_envelope(text.decode("utf-8"), f"orders-{slug(s)}.txt")
            docs[s] = parse_orders_text(rs, other.body, other.file)
            commits[s] = game.reports[i]["orders"]["commitment"]
            reveals.append(_reveal(s, i, other.sha256, secret.hidden_seed(i), other.file))
            if not hides:
                public_extra[other.file] = text
        reveals.append(_reveal(side, k, env.sha256, hseed, f"orders-{slug(side)}.txt"))
        reveals.sort(key=lambda r: r["side"])
        orders.update(sealed="resolved", sealed_sides=sorted(commits), reveals=reveals)
        if not hides:
            orders["file"] = f"orders-{slug(side)}.txt"
        orders["dice_key"] = cm.sealed_key(commits)
        dice = dicemod.CommittedDice(seed, k, orders["dice_key"], hseed if hides else None)
        outcome = sealed_resolution(rs).resolve_sealed(module, state, docs, dice)
        refuse_outcome(env, outcome)
        title = f"Game-Turn {state.turn}, sealed orders of {', '.join(sorted(commits))} opened"
        kind = "sealed"
        if hides:
            kept["orders.txt"] = stored.encode()
        else:
            public_extra[f"orders-{slug(side)}.txt"] = stored.encode()
    else:
        orders["dice_key"] = orders["commitment"] if hides else env.sha256
        dice = dicemod.CommittedDice(seed, k, orders["dice_key"], hseed if hides else None)
        outcome = rs.resolve(module, state, doc, dice)
        refuse_outcome(env, outcome)
        answering = d.kind == "answer"
        title = (
            f"{side} answers {', '.join(p.id for p in state.pending if p.side == side)}"
            if answering
            else step_title(rs, module, k, side, state)
        )
        kind = "answer" if answering else state.phase
        if hides:
            kept["orders.txt"] = stored.encode()
    new = outcome.state
    report = step_report(
        game,
        module,
        rs,
        k,
        title,
        env,
        side,
        seed,
        state,
        new,
        outcome.events,
        outcome.rolls,
        orders=orders,
        sealed_in=sealed_in,
    )
    name = f"{k:03d}-{slug(side)}-{slug(kind)}"
    sealer = sealer_for(cfg, hseed)
    if hides:
        files, secret_files, rsha = hidden_turn_files(
            module,
            rs,
            record=report,
            state=new,
            before=state,
            events=outcome.events,
            secret_orders=kept,
            hidden_seed=hseed,
            step=k,
            referee_key=referee_key,
            picture_dpi=cfg.picture_dpi,
            sealer=sealer,
        )
        record = _json(secret_files["record.json"])
        shown = _json(files["report.json"])
        state_bytes = secret_files["state.json"]
    else:
        secret_files = {**kept, "secrets.json": secrets_json(k, hseed)}
        files, rsha = build_turn_files(
            module,
            rs,
            report=report,
            state=new,
            before=state,
            events=outcome.events,
            orders_text=None if "orders.txt" in kept or public_extra else stored,
            referee_key=referee_key,
            picture_dpi=cfg.picture_dpi,
            extra_files=public_extra,
            sealer=sealer,
            referee_files=secret_files,
        )
        record = shown = _json(files["report.json"])
        state_bytes = files["state.json"]
    if not dry_run:
        path = write_turn(game.archive, name, files, secret_files)
        write_state(game.archive, state_bytes, hides)
        game.turns.append(TurnDir(k, name, path))
    else:  # the preview goes on as if written: the next file gets the next seed, and a
        # later sealed file of the batch opens this one's orders from memory
        game.turns.append(TurnDir(k, name, game.archive.turns / name))
        game.previewed[name] = secret_files
        if d.kind == "sealed":  # what the real run would do; who is due is public
            game.notes.append(
                f"{side}'s sealed orders would be committed unopened; still due: "
                f"{awaited_text([x for x in due if x.side != side])}"
                if orders["sealed"] == "submitted"
                else f"the sealed orders of {', '.join(orders['sealed_sides'])} would be "
                "opened and resolved together"
            )
    game.reports.append(record)
    game.report_shas.append(rsha)
    game.state = new
    notes, game.notes = tuple(game.notes), []
    return StepResult(
        env.file, "dry-run" if dry_run else "adjudicated", k, f"turns/{name}", rsha, shown, notes
    )


def secrets_json(step: int, hidden_seed: bytes) -> bytes:
    return pretty_json({"format": SECRETS_FORMAT, "step": step, "hidden_seed": hidden_seed.hex()})


def _reveal(side: str, step: int, sha256: str, hidden_seed: bytes, file: str) -> dict[str, Any]:
    """How anyone checks a sealed file against the commitment made when it arrived."""
    return {
        "side": side,
        "sequence": step,
        "file": file,
        "sha256": sha256,
        "salt": cm.salt(hidden_seed, "orders").hex(),
    }


def _json(data: bytes) -> dict[str, Any]:
    import json

    return json.loads(data)
