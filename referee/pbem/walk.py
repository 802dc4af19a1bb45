"""The walk ``referee verify`` makes through a game's turn folders, one step after the other:
what it carries from one step to the next (:class:`Walk`), and the replay of a step's orders
(:func:`replay_orders`), the same for every game (one side at a time, impulses, sealed orders,
hidden information).
"""

from __future__ import annotations

import json
from typing import Any

from referee.engine.core import Event, GameState, Outcome
from referee.engine.ruleset import Ruleset, sealed_resolution
from referee.pbem import nonces
from referee.pbem.acceptance import parse_orders_text
from referee.pbem.archive import Archive, GameConfig, TurnDir
from referee.pbem.dice import CommittedDice
from referee.pbem.envelope import Envelope
from referee.pbem.problems import Refusal
from referee.pbem.rendercheck import Since, ViewHistory
from referee.pbem.rulings import TODAY
from referee.pbem.verdict import Verified, VerifyFailure
from referee.source.model import Module

OLDER_TEMPLATES_NOTE = (
    "{n} report(s) were rendered with other report templates (an earlier referee version): "
    "their Markdown and HTML were re-rendered and compared except for the one section "
    "today's templates render differently"
)


class Walk:
    """What the walk through the turn folders carries from one step to the next."""

    def __init__(self, archive: Archive, cfg: GameConfig) -> None:
        self.archive = archive
        self.cfg = cfg
        # where a step's hidden part is looked for: what `reveal` released, then (on the
        # referee's own copy) the referee-only part
        self.hidden_roots = [
            p
            for p in (
                archive.revealed / "turns",
                archive.secret / "turns",
                archive.root / "parts" / "turns",  # referee.age parts verify opened
            )
            if p.is_dir()
        ]
        self.opening: Any = None  # a game with parts: what this run opened (parts_open.py)
        self.hidden_from: dict[str, int] = {}  # root label -> steps checked from it
        self.prev_sha: str | None = None
        self.prev_public: dict[str, Any] | None = None
        self.prev_seed = bytes.fromhex(cfg.dice_head)
        # the hidden-dice chain (a game with commitments; none in a game without)
        hidden_head = cfg.secrets.hidden_head if cfg.secrets is not None else None
        self.prev_hseed: bytes | None = bytes.fromhex(hidden_head) if hidden_head else None
        self.state: GameState | None = None  # the full position, while it can be replayed
        self.records: list[dict[str, Any]] = []
        self.shas: list[str] = []
        self.rolls = 0
        self.hidden_rolls = 0
        self.replayed = 0
        self.skipped_render = 0
        self.history = ViewHistory()  # each side's views so far (a legacy step's viewer)
        self.unchecked: list[tuple[str, str]] = []  # files that could not be proved, and why
        self.since = Since(None)  # verify --since: steps whose files are not rendered again
        self.notes: list[str] = []
        self.nonce_trail: list[nonces.Accepted] = []  # every accepted file's dice nonces
        self.events: tuple[Event, ...] = ()  # the events of the step being checked
        self.score = TODAY  # how the game records its score: report 000 says (rulings.py)
        self.template_rank = 0  # the report templates' version may only grow along the chain

    def proof_key(
        self, rsha: str, listed: dict[str, str], rs: Ruleset, skip: set[str] | frozenset[str]
    ) -> str:
        """The key under which a step's proved renderings are remembered
        (:mod:`referee.pbem.proofs`)."""
        from referee.pbem.proofs import step_key

        cfg = self.cfg
        return step_key(
            rsha,
            listed,
            ruleset=rs,
            module_sha256=cfg.module_sha256,
            picture_dpi=cfg.picture_dpi,
            hides=cfg.hides_information,
            skip=skip,
        )

    def verified(self, turns: list[TurnDir]) -> Verified:
        """The summary of a walk through ``turns`` that raised no failure."""
        cfg = self.cfg
        return Verified(
            game_id=cfg.game_id,
            reports=len(turns),
            last_report=f"turns/{turns[-1].name}",
            last_report_sha256=self.shas[-1],
            referee=cfg.referee.fingerprint,
            players={s: k.fingerprint for s, k in sorted(cfg.players.items())},
            rolls=self.rolls,
            report_shas=list(self.shas),
            unchecked=list(self.unchecked),
        )


def replay_orders(
    f: str,
    record: dict[str, Any],
    module: Module,
    rs: Ruleset,
    state: GameState,
    envs: dict[str, Envelope],
    dice: CommittedDice,
    *,
    blame: str,
) -> Outcome:
    """The orders of a step (one side's, or every sealed file it opened) parsed, validated
    and resolved again with the step's dice: the same rolls and events as ``record`` (the
    report ``f``). An orders file that no longer parses or passes is blamed on ``blame``."""
    docs = {}
    for s, env in sorted(envs.items()):
        try:
            docs[s] = parse_orders_text(rs, env.body, env.file)
        except Refusal as exc:
            raise VerifyFailure(blame, "replay", f"the orders do not parse: {exc}") from None
        violations = rs.validate(module, state, docs[s])
        if violations:
            raise VerifyFailure(blame, "replay", f"the orders break the rules: {violations[0]}")
    if (record.get("orders") or {}).get("sealed") == "resolved":
        outcome = sealed_resolution(rs).resolve_sealed(module, state, docs, dice)
    else:
        [doc] = docs.values()
        outcome = rs.resolve(module, state, doc, dice)
    if [r.to_json() for r in outcome.rolls] != record.get("rolls"):
        raise VerifyFailure(f, "replay", "the replay rolls different dice")
    if json.loads(json.dumps([e.to_json() for e in outcome.events])) != record.get("events"):
        raise VerifyFailure(f, "replay", "the replay's events differ from the record")
    return outcome
