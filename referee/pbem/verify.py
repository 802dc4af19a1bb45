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
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, get_ruleset, phase_title_of
from referee.errors import UserError
from referee.pbem import dice as dicemod
from referee.pbem import nonces
from referee.pbem.archive import Archive, TurnDir, module_info, module_sha256, sha256_hex
from referee.pbem.envelope import Envelope, open_envelope
from referee.pbem.game import SETUP_FOLDER
from referee.pbem.keys import PrivateKey
from referee.pbem.problems import Refusal
from referee.pbem.record import (
    REPORT_FORMAT,
    awaiting_info,
    phase_info,
    step_names,
    step_titles,
)
from referee.pbem.rendercheck import (
    RenderMismatch,
    Since,
    check_step_renderings,
    template_rank,
)
from referee.pbem.reports import templates_sha256
from referee.pbem.rulings import matching_start, new_start, score_reading
from referee.pbem.submit import orders_entry
from referee.pbem.turn_folder import check_folder_full, check_players_and_dice
from referee.pbem.verdict import NO_NONCES_NOTE, Verified, VerifyFailure
from referee.pbem.walk import OLDER_TEMPLATES_NOTE, Walk, replay_orders
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


# Every report of a game without commitments has these (all referee versions wrote them).
OPEN_REPORT_KEYS = (
    "title", "options", "referee", "module", "templates_sha256", "state_sha256", "dice",
    "orders", "rolls", "events", "pending", "awaiting", "score", "before", "after",
)  # fmt: skip

_HEAD_PATTERNS = (
    re.compile(r"report\.json`? SHA-256 `?([0-9a-f]{64})"),  # report.md, view-*.md, HTML
    re.compile(r"(?m)^previous-report:\s*([0-9a-f]{64})\s*$"),  # a signed orders file
    re.compile(r'"report_sha256":\s*"([0-9a-f]{64})"'),  # view-*.json
)


def head_of(value: str) -> str:
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
            f"--head {value}: neither a report SHA-256 (64 hex digits) nor a readable file",
            hint="give the report.json SHA-256 printed in your latest report, or that report",
        ) from None
    if path.name == "report.json":
        return sha256_hex(data)
    text = data.decode("utf-8", "replace")
    for rx in _HEAD_PATTERNS:
        m = rx.search(text)
        if m:
            return m.group(1)
    raise UserError(f"--head {value}: no report SHA-256 found in this file")


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
    rendered from it only after that report. ``progress(1)`` is called after each step."""
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
    if upto is not None:
        turns = turns[: upto + 1]
    if cfg.secrets is not None:
        from referee.pbem.verify_commit import verify_with_commitments

        return verify_with_commitments(
            archive, cfg, turns, toml_sha, module, rs, upto=upto, keys=keys,
            since_sha=since_sha, progress=progress,
        )  # fmt: skip
    w = Walk(archive, cfg)
    w.since = Since(since_sha)
    for t in turns:
        _open_step(w, t, toml_sha, module, rs)
        if progress is not None:
            progress(1)
    out = w.verified(turns)
    if w.skipped_render:
        out.notes.append(OLDER_TEMPLATES_NOTE.format(n=w.skipped_render))
    if since_sha is not None:
        out.notes.append(w.since.note())
    if not cfg.player_nonces and w.rolls:
        out.notes.append(NO_NONCES_NOTE)
    if upto is None:
        _check_current_state(archive, turns, out)
    return out


def _open_step(w: Walk, t: TurnDir, toml_sha: str, module: Module, rs: Ruleset) -> None:
    """One step of a game without commitments: its folder, its record, its replay."""
    cfg = w.cfg
    rep, rsha, state_bytes, manifest = check_folder_full(w.archive, t, cfg.referee)
    f = f"turns/{t.name}/report.json"
    _check_open_record(w, t, rep, toml_sha)
    if rep.get("state_sha256") != sha256_hex(state_bytes):
        raise VerifyFailure(f"turns/{t.name}/state.json", "record", "not the recorded state")
    state = w.state
    if t.sequence == 0:
        check_players_and_dice(cfg, rep, f)
        _check_open_setup(rep, f)
        new = new_start(rs, module, cfg.scenario, cfg.game_id, cfg.options)
        new = matching_start(rs, new, state_bytes)
        titles, folder = ("set-up request",), SETUP_FOLDER
        w.score = score_reading(rep)
    else:
        assert state is not None
        new, side = _replay_step(w, t, rep, module, rs, state)
        folder = step_names(t.sequence, side, state)[1]
        titles = step_titles(t.sequence, side, state, phase_title_of(rs, module, state))
    _check_names(t, rep, titles, folder, state, new)
    if new.canonical().encode() != state_bytes:
        raise VerifyFailure(f"turns/{t.name}/state.json", "replay", "the replayed position differs")
    if rep.get("awaiting") != awaiting_info(module, rs, new) or rep.get("pending") != [
        p.to_json() for p in new.pending
    ]:
        raise VerifyFailure(f, "replay", "awaiting/pending differ from the replay")
    if rep.get("score") != w.score.recorded(rs, module, new):
        raise VerifyFailure(f, "replay", "the score differs from the replay")
    _open_renderings(w, t, module, rs, rep, rsha, new, manifest)
    w.state, w.prev_sha = new, rsha
    w.shas.append(rsha)


def _check_open_record(w: Walk, t: TurnDir, rep: dict[str, Any], toml_sha: str) -> None:
    """What every report of a game without commitments holds, as the chain says it must."""
    cfg = w.cfg
    f = f"turns/{t.name}/report.json"
    expect = {
        "format": REPORT_FORMAT,
        "sequence": t.sequence,
        "game_id": cfg.game_id,
        "previous_report": w.prev_sha,
        "game_toml_sha256": toml_sha,
        "ruleset": cfg.ruleset,
        "scenario": cfg.scenario,
        "options": list(cfg.options),
        "referee": {"fingerprint": cfg.referee.fingerprint},
        "module": module_info(cfg),
    }
    missing = [k for k in OPEN_REPORT_KEYS if k not in rep]
    if missing or (t.sequence == 0 and "players" not in rep):
        raise VerifyFailure(f, "record", f"malformed: $.{(missing or ['players'])[0]} missing")
    if t.sequence == 0 and rep.get("game_toml_sha256") != toml_sha:
        raise VerifyFailure("game.toml", "hash chain", "changed since report 000 recorded it")
    for key, want in expect.items():
        if rep.get(key) != want:
            check = "hash chain" if key in ("previous_report", "game_toml_sha256") else "record"
            raise VerifyFailure(f, check, f"{key} is {rep.get(key)!r}, expected {want!r}")


def _check_names(
    t: TurnDir,
    rep: dict[str, Any],
    titles: tuple[str, ...],
    folder: str,
    before: GameState | None,
    after: GameState,
) -> None:
    """The folder's name, the report's title and its before/after phases are the replay's."""
    f = f"turns/{t.name}/report.json"
    if t.name != folder:
        raise VerifyFailure(
            f"turns/{t.name}", "record", f"the folder of this step is named {folder}"
        )
    if rep.get("title") not in titles:
        raise VerifyFailure(f, "record", f"title is {rep.get('title')!r}, expected {titles[0]!r}")
    for key, want in (
        ("before", None if before is None else phase_info(before)),
        ("after", phase_info(after)),
    ):
        if rep.get(key) != want:
            raise VerifyFailure(f, "record", f"{key} is {rep.get(key)!r}, expected {want!r}")


def _open_renderings(
    w: Walk,
    t: TurnDir,
    module: Module,
    rs: Ruleset,
    rep: dict[str, Any],
    rsha: str,
    new: GameState,
    manifest: dict[str, Any],
) -> None:
    """Every file a player opens, rendered again from the record and compared (only after
    the report of ``verify --since``)."""
    f = f"turns/{t.name}/report.json"
    read = lambda name: w.archive.read(t.path / name)  # noqa: E731
    try:
        here = template_rank(rep, f)
        if here < w.template_rank:
            raise RenderMismatch(f, "rendered with older templates than a report before it")
        w.template_rank = here
        if not w.since.rendering_due(rsha):
            w.history.add_from(read, manifest["files"])
            return
        if rep.get("templates_sha256") != templates_sha256():
            w.skipped_render += 1
        check_step_renderings(
            f"turns/{t.name}", read, module, rs, rep, rsha, new, w.state, w.events,
            w.cfg.picture_dpi, dict(manifest["files"]), w.history, w.unchecked,
        )  # fmt: skip
    except RenderMismatch as exc:
        raise VerifyFailure(exc.file, "rendering", exc.message) from None


def _check_open_setup(rep: dict[str, Any], f: str) -> None:
    """Report 000 of a game without commitments: nothing adjudicated, one dice entry."""
    for key, want in (("orders", None), ("rolls", []), ("events", [])):
        if rep.get(key, want) != want:
            raise VerifyFailure(f, "record", f"{key} is {rep.get(key)!r} in the set-up request")
    if set(rep.get("dice") or {}) != {"commitment"}:
        raise VerifyFailure(f, "dice commitment", "the set-up request's dice hold other entries")


def _replay_step(
    w: Walk, t: TurnDir, rep: dict[str, Any], module: Module, rs: Ruleset, state: GameState
) -> tuple[GameState, str]:
    """Step ``t`` replayed from ``orders.txt``: the signed orders and the record's entry for
    them, the dice seed chain and every roll, then the orders validated and resolved again
    with those dice: the same rolls and events. Returns the position and the side."""
    env, side = _recorded_orders(w, t, rep, state)
    of = f"turns/{t.name}/orders.txt"
    if env.header.previous_report != w.prev_sha:
        raise VerifyFailure(of, "hash chain", "the orders answer another report")
    if env.header.game != w.cfg.game_id:
        raise VerifyFailure(of, "orders", "the orders are for another game")
    want_side, _ = rs.awaiting(module, state)
    if side != want_side or env.header.turn != state.turn:
        raise VerifyFailure(of, "orders", f"out of turn: the game waited for {want_side}")
    seed = _seed_of(w, t, rep, env.sha256)
    for acc in nonces.history([rep.get("orders")]):  # bound to orders.txt above
        why = nonces.problem(w.nonce_trail, acc, required=w.cfg.player_nonces)
        if why is not None:
            raise VerifyFailure(of, "dice nonce", why)
        w.nonce_trail.append(acc)
    dice = dicemod.CommittedDice(seed, t.sequence, env.sha256)
    f = f"turns/{t.name}/report.json"
    outcome = replay_orders(f, rep, module, rs, state, {side: env}, dice, blame=of)
    w.events = tuple(outcome.events)  # the picture marks them
    return outcome.state, side


def _recorded_orders(
    w: Walk, t: TurnDir, rep: dict[str, Any], state: GameState
) -> tuple[Envelope, str]:
    """``orders.txt`` of step ``t``: stored as the referee stores orders, signed by the key of
    the side it names, and the report's orders entry exactly what it says."""
    base = f"turns/{t.name}"
    f, of = f"{base}/report.json", f"{base}/orders.txt"
    o = rep.get("orders") or {}
    try:
        text = w.archive.read(t.path / "orders.txt").decode("utf-8")
    except (Refusal, UnicodeDecodeError) as exc:
        raise VerifyFailure(of, "orders", str(exc)) from None
    try:
        env = open_envelope(text, str(o.get("name") or "orders.txt"))
    except Refusal as exc:
        raise VerifyFailure(of, "orders signature", exc.message) from None
    if env.block is None or env.stored_text() != text:
        raise VerifyFailure(of, "orders", "not stored as the referee stores orders")
    side = env.header.side or ""
    players = w.cfg.players
    if side not in players or not env.signed_by(players[side]):
        raise VerifyFailure(of, "orders signature", f"not signed by the key of side {side!r}")
    if env.sha256 != o.get("sha256") or o.get("side") != side:
        raise VerifyFailure(f, "record", "the recorded orders hash or side is not orders.txt's")
    want_o = orders_entry(env, side, state)
    want_o["name"] = o.get("name") if isinstance(o.get("name"), str) else "(a file name)"
    keys = (*want_o, *o)
    if {k: o.get(k) for k in keys} != {k: want_o.get(k) for k in keys}:
        bad = next(k for k in keys if o.get(k) != want_o.get(k))
        raise VerifyFailure(
            f, "record", f"orders.{bad} is {o.get(bad)!r}, expected {want_o.get(bad)!r}"
        )
    return env, side


def _seed_of(w: Walk, t: TurnDir, rep: dict[str, Any], key: str) -> bytes:
    """The step's revealed seed: it hashes to the one before, and every roll recomputes."""
    f = f"turns/{t.name}/report.json"
    d = rep.get("dice") or {}
    try:
        seed = bytes.fromhex(str(d.get("seed")))
    except ValueError:
        raise VerifyFailure(f, "dice seed chain", "the revealed seed is not hex") from None
    if d.get("seed_index") != t.sequence or not dicemod.links(seed, w.prev_seed):
        raise VerifyFailure(
            f, "dice seed chain", f"seed {t.sequence} does not hash to seed {t.sequence - 1}"
        )
    if d != {"seed_index": t.sequence, "seed": seed.hex(), "previous_seed": w.prev_seed.hex()}:
        raise VerifyFailure(f, "dice seed chain", "the dice entry records other values")
    problems = dicemod.check_rolls(list(rep.get("rolls", [])), seed, t.sequence, key)
    if problems:
        raise VerifyFailure(f, "dice", "; ".join(problems))
    w.prev_seed = seed
    w.rolls += len(rep.get("rolls", []))
    return seed


def _check_current_state(archive: Archive, turns: list[TurnDir], out: Verified) -> None:
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
