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

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, get_ruleset, phase_title_of
from referee.errors import UserError
from referee.pbem import dice as dicemod
from referee.pbem import nonces
from referee.pbem.adjudicate import parse_orders_text
from referee.pbem.archive import Archive, TurnDir, module_sha256, sha256_hex
from referee.pbem.envelope import open_envelope, signature_ok, split_block
from referee.pbem.game import SETUP_FOLDER, module_info
from referee.pbem.keys import CONTEXT_REPORT, PrivateKey, PublicKey
from referee.pbem.problems import Refusal
from referee.pbem.record import (
    CONTEXT_MANIFEST,
    MANIFEST_FORMAT,
    REPORT_FORMAT,
    SIGNED_FILES,
    awaiting_info,
    phase_info,
    step_names,
    step_titles,
)
from referee.pbem.rendercheck import (
    RenderMismatch,
    Since,
    ViewHistory,
    check_step_renderings,
    template_rank,
)
from referee.pbem.report_shape import check_manifest, check_report
from referee.pbem.reports import templates_sha256
from referee.shapes import ShapeError
from referee.source.model import Module


class VerifyFailure(Exception):
    """One failed check: the file it is about, the check's name, and what is wrong."""

    def __init__(self, file: str, check: str, message: str) -> None:
        super().__init__(f"{file}: {check}: {message}")
        self.file = file
        self.check = check
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"ok": False, "file": self.file, "check": self.check, "message": self.message}


@dataclass(slots=True)
class Verified:
    game_id: str
    reports: int
    last_report: str
    last_report_sha256: str
    referee: str
    players: dict[str, str]
    rolls: int
    notes: list[str] = field(default_factory=list)
    replayed: bool = True  # False: hidden steps wait for `referee reveal`
    report_shas: list[str] = field(default_factory=list)  # every report, in order
    # a game with parts: what was opened, not opened, missing (parts_open.Opening.to_json)
    parts: dict[str, Any] | None = None
    # files a player opens that could not be proved (file, why): verify exits 3
    unchecked: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {} if self.replayed else {"replayed": False}
        if self.parts is not None:
            extra["parts"] = self.parts
        if self.unchecked:
            extra["unchecked"] = [{"file": f, "why": w} for f, w in self.unchecked]
        return {
            **extra,
            "ok": not self.unchecked,
            "game_id": self.game_id,
            "reports": self.reports,
            "last_report": self.last_report,
            "last_report_sha256": self.last_report_sha256,
            "referee_fingerprint": self.referee,
            "player_fingerprints": dict(self.players),
            "rolls": self.rolls,
            "notes": list(self.notes),
        }


NO_NONCES_NOTE = (
    "this game was made before player nonces: its rolls depend on the referee's seeds and the "
    "orders only, so the referee could have computed them before the orders were sent "
    "(docs/dice.md); every roll was still checked"
)


def _check_sig(
    archive: Archive, data_path: Path, sig_path: Path, key: PublicKey, ctx: bytes
) -> bytes:
    """The bytes of ``data_path``, after checking the referee's signature on them."""
    rel, srel = archive.rel(data_path), archive.rel(sig_path)
    data = archive.read(data_path)
    try:
        text = archive.read(sig_path, 64 * 1024).decode("ascii")
        above, block = split_block(text, srel)
    except (Refusal, UnicodeDecodeError) as exc:
        raise VerifyFailure(srel, "signature", f"unreadable signature ({exc})") from None
    if block is None or above.strip() or block.armour() != text:
        raise VerifyFailure(srel, "signature", "not a signature block as the referee writes it")
    if block.fingerprint != key.fingerprint:
        raise VerifyFailure(srel, "signature", "made by a key that is not the referee's")
    if not signature_ok(block, key, ctx, data):
        raise VerifyFailure(
            rel, "signature", f"does not match its signature {sig_path.name}: one was changed"
        )
    return data


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
    prev_sha: str | None = None
    prev_seed = bytes.fromhex(cfg.dice_head)
    state: GameState | None = None
    rolls = 0
    skipped_render = 0
    last_sha = ""
    rank = 0
    shas: list[str] = []
    history = ViewHistory()  # each side's views so far (a legacy step's viewer shows them)
    unchecked: list[tuple[str, str]] = []
    since = Since(since_sha)
    trail: list[nonces.Accepted] = []
    for t in turns:
        rep, rsha, state_bytes, manifest = _check_folder_full(archive, t, cfg.referee)
        f = f"turns/{t.name}/report.json"
        expect = {
            "format": REPORT_FORMAT,
            "sequence": t.sequence,
            "game_id": cfg.game_id,
            "previous_report": prev_sha,
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
        if rep.get("state_sha256") != sha256_hex(state_bytes):
            raise VerifyFailure(f"turns/{t.name}/state.json", "record", "not the recorded state")
        events: tuple = ()
        if t.sequence == 0:
            _check_setup(cfg, rep, f)
            _check_open_setup(rep, f)
            new = rs.new_game(module, cfg.scenario, cfg.game_id, cfg.options)
            new = matching_start(rs, new, state_bytes)
            titles, folder = ("set-up request",), SETUP_FOLDER
        else:
            assert state is not None
            new, prev_seed, events, side = _replay_step(
                archive, t, rep, module, rs, cfg, state, prev_sha or "", prev_seed
            )
            folder = step_names(t.sequence, side, state)[1]
            titles = step_titles(t.sequence, side, state, phase_title_of(rs, module, state))
            rolls += len(rep.get("rolls", []))
            for acc in nonces.history([rep.get("orders")]):  # bound to orders.txt above
                why = nonces.problem(trail, acc, required=cfg.player_nonces)
                if why is not None:
                    raise VerifyFailure(f"turns/{t.name}/orders.txt", "dice nonce", why)
                trail.append(acc)
        if t.name != folder:
            raise VerifyFailure(
                f"turns/{t.name}", "record", f"the folder of this step is named {folder}"
            )
        if rep.get("title") not in titles:
            raise VerifyFailure(
                f, "record", f"title is {rep.get('title')!r}, expected {titles[0]!r}"
            )
        for key, want in (
            ("before", None if state is None else phase_info(state)),
            ("after", phase_info(new)),
        ):
            if rep.get(key) != want:
                raise VerifyFailure(f, "record", f"{key} is {rep.get(key)!r}, expected {want!r}")
        if new.canonical().encode() != state_bytes:
            raise VerifyFailure(
                f"turns/{t.name}/state.json", "replay", "the replayed position differs"
            )
        want_aw = awaiting_info(module, rs, new)
        if rep.get("awaiting") != want_aw or rep.get("pending") != [
            p.to_json() for p in new.pending
        ]:
            raise VerifyFailure(f, "replay", "awaiting/pending differ from the replay")
        if rep.get("score") != json.loads(json.dumps(dict(rs.score(module, new)))):
            raise VerifyFailure(f, "replay", "the score differs from the replay")
        try:
            here = template_rank(rep, f)
            if here < rank:
                raise RenderMismatch(f, "rendered with older templates than a report before it")
            rank = here
            if not since.rendering_due(rsha):
                history.add_from(lambda name, _t=t: archive.read(_t.path / name), manifest["files"])
            else:
                if rep.get("templates_sha256") != templates_sha256():
                    skipped_render += 1
                check_step_renderings(
                    f"turns/{t.name}",
                    lambda name, _t=t: archive.read(_t.path / name),
                    module,
                    rs,
                    rep,
                    rsha,
                    new,
                    state,
                    events,
                    cfg.picture_dpi,
                    dict(manifest["files"]),
                    history,
                    unchecked,
                )
        except RenderMismatch as exc:
            raise VerifyFailure(exc.file, "rendering", exc.message) from None
        if progress is not None:
            progress(1)
        state, prev_sha, last_sha = new, rsha, rsha
        shas.append(rsha)
    out = Verified(
        game_id=cfg.game_id,
        reports=len(turns),
        last_report=f"turns/{turns[-1].name}",
        last_report_sha256=last_sha,
        referee=cfg.referee.fingerprint,
        players={s: k.fingerprint for s, k in sorted(cfg.players.items())},
        rolls=rolls,
        report_shas=shas,
        unchecked=unchecked,
    )
    try:
        since.check_reached(out.last_report)
    except RenderMismatch as exc:
        raise VerifyFailure(exc.file, "truncation", exc.message) from None
    if skipped_render:
        out.notes.append(
            f"{skipped_render} report(s) were rendered with other report templates (an "
            "earlier referee version): their Markdown and HTML were re-rendered and compared "
            "except for the one section today's templates render differently"
        )
    if since_sha is not None:
        out.notes.append(since.note())
    if not cfg.player_nonces and rolls:
        out.notes.append(NO_NONCES_NOTE)
    if upto is None:
        _check_current_state(archive, turns, out)
    return out


def _check_folder(
    archive: Archive, t: TurnDir, referee: PublicKey, *, with_state: bool = True
) -> tuple[dict, str, bytes]:
    """Signatures and manifest of one turn folder: ``(report, its SHA-256, state.json)``
    (``b""`` for the state when the folder publishes none: a game hiding information)."""
    rep, rsha, state_bytes, _ = _check_folder_full(archive, t, referee, with_state=with_state)
    return rep, rsha, state_bytes


def _check_folder_full(
    archive: Archive,
    t: TurnDir,
    referee: PublicKey,
    *,
    with_state: bool = True,
    opening: Any = None,
) -> tuple[dict, str, bytes, dict]:
    """:func:`_check_folder`, and the folder's manifest. In a game with parts, ``opening``
    (:class:`referee.pbem.parts_open.Opening`) admits the files of the parts this run opened
    and the part files missing from this copy (which it reports)."""
    base = f"turns/{t.name}"
    try:
        mbytes = _check_sig(
            archive,
            t.path / "manifest.json",
            t.path / "manifest.json.sig",
            referee,
            CONTEXT_MANIFEST,
        )
        manifest = json.loads(mbytes)
        _shaped(check_manifest, manifest, f"{base}/manifest.json")
        if manifest.get("format") != MANIFEST_FORMAT:
            raise VerifyFailure(f"{base}/manifest.json", "manifest", "not a referee manifest")
        listed = dict(manifest["files"])
        extra, absent = opening.admit(t.name, manifest) if opening is not None else ((), ())
        present = sorted(p.name for p in t.path.iterdir())
        for name in present:
            if name not in listed and name not in SIGNED_FILES and name not in extra:
                raise VerifyFailure(f"{base}/{name}", "manifest", "a file the referee never wrote")
        for name in [*sorted(listed), *SIGNED_FILES]:
            if name not in present and name not in absent:
                raise VerifyFailure(f"{base}/{name}", "manifest", "missing")
        for name, want in sorted(listed.items()):
            if name in absent:
                continue
            if sha256_hex(archive.read(t.path / name)) != want:
                raise VerifyFailure(f"{base}/{name}", "hash", "changed since the referee signed it")
        rbytes = _check_sig(
            archive, t.path / "report.json", t.path / "report.json.sig", referee, CONTEXT_REPORT
        )
        rsha = sha256_hex(rbytes)
        if manifest.get("report_sha256") != rsha:
            raise VerifyFailure(f"{base}/manifest.json", "manifest", "names another report.json")
        rep = json.loads(rbytes)
        _shaped(check_report, rep, f"{base}/report.json")
        state_bytes = archive.read(t.path / "state.json") if with_state else b""
    except Refusal as exc:
        raise VerifyFailure(base, "archive", exc.message) from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise VerifyFailure(base, "record", f"malformed ({exc})") from None
    if not isinstance(rep, dict):
        raise VerifyFailure(f"{base}/report.json", "record", "not a report")
    return rep, rsha, state_bytes, manifest


def _shaped(checker: Any, value: Any, file: str) -> None:
    """Check a decoded signed file against its declared shape (``report_shape.py``)."""
    try:
        checker(value)
    except ShapeError as exc:
        raise VerifyFailure(file, "record", f"malformed: {exc}") from None


def _check_open_setup(rep: dict[str, Any], f: str) -> None:
    """Report 000 of a game without commitments: nothing adjudicated, one dice entry."""
    for key, want in (("orders", None), ("rolls", []), ("events", [])):
        if rep.get(key, want) != want:
            raise VerifyFailure(f, "record", f"{key} is {rep.get(key)!r} in the set-up request")
    if set(rep.get("dice") or {}) != {"commitment"}:
        raise VerifyFailure(f, "dice commitment", "the set-up request's dice hold other entries")


def _check_setup(cfg: Any, rep: dict[str, Any], f: str) -> None:
    players = {s: k.fingerprint for s, k in cfg.players.items()}
    got = {s: (p or {}).get("fingerprint") for s, p in (rep.get("players") or {}).items()}
    if got != players:
        raise VerifyFailure(f, "players", "the players' keys differ from game.toml")
    keys = {s: (p or {}).get("key") for s, p in (rep.get("players") or {}).items()}
    if "key" in next(iter((rep.get("players") or {None: {}}).values()), {}) and keys != {
        s: k.line() for s, k in cfg.players.items()
    }:
        raise VerifyFailure(f, "players", "the players' key lines differ from game.toml")

    commit = (rep.get("dice") or {}).get("commitment") or {}
    if (commit.get("head"), commit.get("length"), commit.get("algorithm")) != (
        cfg.dice_head,
        cfg.dice_length,
        cfg.dice_algorithm,
    ):
        raise VerifyFailure(f, "dice commitment", "differs from game.toml")


def _replay_step(
    archive: Archive,
    t: TurnDir,
    rep: dict[str, Any],
    module: Module,
    rs: Ruleset,
    cfg: Any,
    state: GameState,
    prev_sha: str,
    prev_seed: bytes,
) -> tuple[GameState, bytes, tuple, str]:
    base = f"turns/{t.name}"
    f = f"{base}/report.json"
    o = rep.get("orders") or {}
    of = f"{base}/orders.txt"
    try:
        text = archive.read(t.path / "orders.txt").decode("utf-8")
    except (Refusal, UnicodeDecodeError) as exc:
        raise VerifyFailure(of, "orders", str(exc)) from None
    try:
        env = open_envelope(text, str(o.get("name") or "orders.txt"))
    except Refusal as exc:
        raise VerifyFailure(of, "orders signature", exc.message) from None
    if env.block is None or env.stored_text() != text:
        raise VerifyFailure(of, "orders", "not stored as the referee stores orders")
    side = env.header.side or ""
    if env.block is None or side not in cfg.players or not env.signed_by(cfg.players[side]):
        raise VerifyFailure(of, "orders signature", f"not signed by the key of side {side!r}")
    if env.sha256 != o.get("sha256") or o.get("side") != side:
        raise VerifyFailure(f, "record", "the recorded orders hash or side is not orders.txt's")
    want_o = {
        "file": "orders.txt",
        "name": o.get("name") if isinstance(o.get("name"), str) else "(a file name)",
        "sha256": env.sha256,
        "side": side,
        "signer": env.block.fingerprint,
        "turn": env.header.turn,
        "phase": env.header.phase,
        "answers": [p.id for p in state.pending],
        **nonces.fields(env.header.nonce, env.header.nonce_commit),
    }
    if {k: o.get(k) for k in (*want_o, *o)} != {k: want_o.get(k) for k in (*want_o, *o)}:
        bad = next(k for k in (*want_o, *o) if o.get(k) != want_o.get(k))
        raise VerifyFailure(
            f, "record", f"orders.{bad} is {o.get(bad)!r}, expected {want_o.get(bad)!r}"
        )
    if env.header.previous_report != prev_sha:
        raise VerifyFailure(of, "hash chain", "the orders answer another report")
    if env.header.game != cfg.game_id:
        raise VerifyFailure(of, "orders", "the orders are for another game")
    want_side, _ = rs.awaiting(module, state)
    if side != want_side or env.header.turn != state.turn:
        raise VerifyFailure(of, "orders", f"out of turn: the game waited for {want_side}")
    d = rep.get("dice") or {}
    try:
        seed = bytes.fromhex(str(d.get("seed")))
    except ValueError:
        raise VerifyFailure(f, "dice seed chain", "the revealed seed is not hex") from None
    if d.get("seed_index") != t.sequence or not dicemod.links(seed, prev_seed):
        raise VerifyFailure(
            f, "dice seed chain", f"seed {t.sequence} does not hash to seed {t.sequence - 1}"
        )
    if d != {"seed_index": t.sequence, "seed": seed.hex(), "previous_seed": prev_seed.hex()}:
        raise VerifyFailure(f, "dice seed chain", "the dice entry records other values")
    problems = dicemod.check_rolls(list(rep.get("rolls", [])), seed, t.sequence, env.sha256)
    if problems:
        raise VerifyFailure(f, "dice", "; ".join(problems))
    try:
        doc = parse_orders_text(rs, env.body, env.file)
    except Refusal as exc:
        raise VerifyFailure(of, "replay", f"the orders do not parse: {exc}") from None
    violations = rs.validate(module, state, doc)
    if violations:
        raise VerifyFailure(of, "replay", f"the orders break the rules: {violations[0]}")
    dice = dicemod.CommittedDice(seed, t.sequence, env.sha256)
    outcome = rs.resolve(module, state, doc, dice)
    if [r.to_json() for r in outcome.rolls] != rep.get("rolls"):
        raise VerifyFailure(f, "replay", "the replay rolls different dice")
    got_events = json.loads(json.dumps([e.to_json() for e in outcome.events]))
    if got_events != rep.get("events"):
        raise VerifyFailure(f, "replay", "the replay's events differ from the record")
    return outcome.state, seed, tuple(outcome.events), side


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


def matching_start(rs: Ruleset, new: GameState, recorded: bytes) -> GameState:
    """The starting position ``new_game`` makes, or -- when the archive's recorded start
    differs -- the earlier start the ruleset made before a later ruling, if it is that one.

    A ruleset that records a ruling in new games (Sixth Fleet's [8.5] flag) offers the starts
    its older versions made through its ``earlier_starts(state)`` method; an archive
    begun before the ruling then replays under the reading it was played with."""
    if new.canonical().encode() == recorded:
        return new
    for alt in rs.earlier_starts(new):
        if alt.canonical().encode() == recorded:
            return alt
    return new
