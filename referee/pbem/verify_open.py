"""The form of a game without commitments (``game.toml`` has no ``[secrets]``): one side at
a time, nothing hidden, the format every archive had before commitments, which games made for
such a ruleset keep. :func:`referee.pbem.verify_step.verify_step` checks its steps with
:class:`OpenForm`.

Its record says more than a committed one and all of it is checked: every report holds
the same keys (:data:`OPEN_REPORT_KEYS`, with the options, referee and module of
``game.toml``), the orders entry is exactly the one the referee makes of ``orders.txt``, the
dice entry holds only the seed chain, and the folder's name and the report's title are those
the replay gives.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, phase_title_of
from referee.pbem import dice as dicemod
from referee.pbem import proofs
from referee.pbem.archive import TurnDir, module_info
from referee.pbem.envelope import Envelope, open_envelope
from referee.pbem.game import SETUP_FOLDER
from referee.pbem.problems import Refusal
from referee.pbem.record import phase_info, step_names, step_titles
from referee.pbem.rendercheck import RenderMismatch, check_step_renderings, template_rank
from referee.pbem.reports import templates_sha256
from referee.pbem.submit import orders_entry
from referee.pbem.turn_folder import check_players_and_dice
from referee.pbem.verdict import VerifyFailure
from referee.pbem.verify_step import (
    Step,
    StepForm,
    chain_fields,
    check_fields,
    check_nonces,
    resolve_step,
)
from referee.pbem.walk import Walk
from referee.source.model import Module

# Every report of a game without commitments has these (all referee versions wrote them).
OPEN_REPORT_KEYS = (
    "title", "options", "referee", "module", "templates_sha256", "state_sha256", "dice",
    "orders", "rolls", "events", "pending", "awaiting", "score", "before", "after",
)  # fmt: skip


class OpenForm(StepForm):
    """A step of a game without commitments (see the module docstring)."""

    def check_record(self, w: Walk, t: TurnDir, rep: dict[str, Any], toml_sha: str) -> None:
        """What every report of a game without commitments holds, as the chain says it must."""
        cfg = w.cfg
        f = f"turns/{t.name}/report.json"
        expect = {
            **chain_fields(w, t, toml_sha),
            "options": list(cfg.options),
            "referee": {"fingerprint": cfg.referee.fingerprint},
            "module": module_info(cfg),
        }
        missing = [k for k in OPEN_REPORT_KEYS if k not in rep]
        if missing or (t.sequence == 0 and "players" not in rep):
            raise VerifyFailure(f, "record", f"malformed: $.{(missing or ['players'])[0]} missing")
        if t.sequence == 0 and rep.get("game_toml_sha256") != toml_sha:
            raise VerifyFailure("game.toml", "hash chain", "changed since report 000 recorded it")
        check_fields(f, rep, expect)

    def public_checks(self, w: Walk, t: TurnDir, rep: dict[str, Any]) -> None:
        """Report 000: its players and dice commitment are those of ``game.toml``, nothing
        was adjudicated and its dice hold only the commitment. A later step's public part is
        its orders file, checked with the replay (:meth:`replay`)."""
        if t.sequence != 0:
            return
        f = f"turns/{t.name}/report.json"
        check_players_and_dice(w.cfg, rep, f)
        for key, want in (("orders", None), ("rolls", []), ("events", [])):
            if rep.get(key, want) != want:
                raise VerifyFailure(f, "record", f"{key} is {rep.get(key)!r} in the set-up request")
        if set(rep.get("dice") or {}) != {"commitment"}:
            raise VerifyFailure(
                f, "dice commitment", "the set-up request's dice hold other entries"
            )

    def replay(self, w: Walk, step: Step, module: Module, rs: Ruleset) -> GameState:
        """``orders.txt`` and the record's entry for it, signed by the side the game waited
        for and answering the report before; the dice seed chain; then the replay with
        dice derived from the orders' hash."""
        t, rep, state = step.t, step.rep, w.state
        assert state is not None
        env, side = _recorded_orders(w, t, rep, state)
        of = f"turns/{t.name}/orders.txt"
        if env.header.previous_report != w.prev_sha:
            raise VerifyFailure(of, "hash chain", "the orders answer another report")
        if env.header.game != w.cfg.game_id:
            raise VerifyFailure(of, "orders", "the orders are for another game")
        want_side, _ = rs.awaiting(module, state)
        if side != want_side or env.header.turn != state.turn:
            raise VerifyFailure(of, "orders", f"out of turn: the game waited for {want_side}")
        seed = _seed_of(w, t, rep)
        check_nonces(w, rep, of)  # bound to orders.txt above
        return resolve_step(w, step, module, rs, seed, env.sha256, {side: env}, blame=of)

    def check_names(self, w: Walk, step: Step, module: Module, rs: Ruleset, new: GameState) -> None:
        """The folder's name, the report's title and its before/after phases are the
        replay's."""
        t, rep, before = step.t, step.rep, w.state
        f = step.report_file
        if t.sequence == 0:
            titles, folder = ("set-up request",), SETUP_FOLDER
        else:
            assert before is not None
            side = str((rep.get("orders") or {}).get("side"))
            folder = step_names(t.sequence, side, before)[1]
            titles = step_titles(t.sequence, side, before, phase_title_of(rs, module, before))
        if t.name != folder:
            raise VerifyFailure(
                f"turns/{t.name}", "record", f"the folder of this step is named {folder}"
            )
        if rep.get("title") not in titles:
            raise VerifyFailure(
                f, "record", f"title is {rep.get('title')!r}, expected {titles[0]!r}"
            )
        for key, want in (
            ("before", None if before is None else phase_info(before)),
            ("after", phase_info(new)),
        ):
            if rep.get(key) != want:
                raise VerifyFailure(f, "record", f"{key} is {rep.get(key)!r}, expected {want!r}")

    def renderings(
        self,
        w: Walk,
        step: Step,
        module: Module,
        rs: Ruleset,
        new: GameState,
        manifest: dict[str, Any],
        skip: set[str],
    ) -> None:
        """The report templates' version never falls along the chain; then every file a
        player opens, rendered again from the record and compared (only after the report of
        ``verify --since``)."""
        t, rep, rsha = step.t, step.rep, step.rsha
        f = step.report_file
        read = lambda name: w.archive.read(t.path / name)  # noqa: E731
        try:
            here = template_rank(rep, f)
            if here < w.template_rank:
                raise RenderMismatch(f, "rendered with older templates than a report before it")
            w.template_rank = here
            if not w.since.rendering_due(rsha):
                w.history.add_from(read, manifest["files"])
                return
            current = rep.get("templates_sha256") == templates_sha256()
            if not current:
                w.skipped_render += 1
            key = w.proof_key(rsha, dict(manifest["files"]), rs, frozenset())
            if current and proofs.proved(key):  # proved before: the same bytes again
                w.history.add_from(read, manifest["files"])
                return
            unchecked = len(w.unchecked)
            check_step_renderings(
                f"turns/{t.name}", read, module, rs, rep, rsha, new, w.state, w.events,
                w.cfg.picture_dpi, dict(manifest["files"]), w.history, w.unchecked,
            )  # fmt: skip
            if current and len(w.unchecked) == unchecked:
                proofs.remember(key)
        except RenderMismatch as exc:
            raise VerifyFailure(exc.file, "rendering", exc.message) from None


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


def _seed_of(w: Walk, t: TurnDir, rep: dict[str, Any]) -> bytes:
    """The step's revealed seed: it hashes to the one before, and the dice entry holds
    only the seed chain (every roll is recomputed with the replay)."""
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
    w.prev_seed = seed
    w.rolls += len(rep.get("rolls", []))
    return seed
