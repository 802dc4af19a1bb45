"""[DTP 11.510-11.51022] Westpac's delayed start of hostilities, PRC entry and Taiwan entry.

"The East Block player may delay the start of hostilities to a later turn. The East Block
player announces at the very beginning of the turn, including turn 1 after set up is complete,
(and before any reinforcements are placed or movement of units) if hostilities will commence
that turn" [DTP 11.5101]; "The East Block player may also defer PRC entry into hostilities ...
PRC entry is announced at the very beginning of any turn" [DTP 11.51021].

So while either is still to come, each Game-Turn opens with the East Block's announcement
phase (``hostilities``, before the variable air roll, the reinforcements and any movement): a
``[hostilities]`` file with ``commence`` (hostilities begin this turn) and/or ``commence prc``
(the PRC enters this turn; with or after the others, never before), or with neither (not yet).
The record is ``state.data["hostilities"]``: ``war`` and ``prc``, the Game-Turn each began
(absent: not yet), and ``asked``, the last turn announced.

* Before hostilities "units are moved normally and may make detection attempts, air units roll
  for readiness and track reinforcements are received ... There is no combat" [DTP 11.5102]:
  the combat phase is passed over.
* Before the PRC enters, the PRC is not at war: no attack, strike or bounce by or on a PRC unit
  or base. "Taiwan does not enter the war until the PRC commences hostilities. No Taiwanese
  units may move until the turn the PRC commences hostilities" [DTP 11.51022]: a Taiwanese move
  is refused, and no attack, strike or bounce by or on a Taiwanese unit or base is allowed
  (docs/interpretations.md DTP-WP-9: who may not be attacked before the PRC enters).
* That amphibious and AK units may not land or unload in Taiwan before the PRC enters
  [DTP 11.5102, 11.51022] is read with :func:`prc_at_war` by the amphibious rules.

Played only in a module with national co-operation (the PRC is a nationality: Westpac); in
every other the war is on from the first turn and nothing here is asked or refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.core import Event, GameState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.westpac_national import PRC, national_11_508

RULE_START, RULE_DELAY, RULE_PRC, RULE_TAIWAN = (
    "DTP 11.5101",
    "DTP 11.5102",
    "DTP 11.51021",
    "DTP 11.51022",
)
TAIWAN = "Tw"  # the Republic of China in module_src/dtp_westpac
PHASE = "hostilities"
BEFORE = "ship_movement_a"  # the turn's first phase: the announcement comes before it
PRC_WORD = "prc"


def record(state: GameState) -> dict[str, int]:
    """``war``, ``prc`` (the Game-Turns hostilities and PRC entry began) and ``asked``."""
    rec = facts_of(state).hostilities
    return {str(k): int(v) for k, v in rec.items() if v is not None}


def at_war(game: Game, state: GameState) -> bool:
    """Hostilities have commenced [DTP 11.5101]; always, outside Westpac."""
    return not national_11_508(game.module) or "war" in record(state)


def prc_at_war(game: Game, state: GameState) -> bool:
    """The PRC has entered hostilities [DTP 11.51021] (and with it Taiwan [DTP 11.51022])."""
    return not national_11_508(game.module) or "prc" in record(state)


def asks_11_5101(game: Game, state: GameState, phase: str) -> bool:
    """The East Block announces before ``phase``: the turn's first phase, on a turn not yet
    announced, while hostilities or PRC entry are still to come [DTP 11.5101, 11.51021]."""
    if phase != BEFORE or not national_11_508(game.module):
        return False
    rec = record(state)
    return rec.get("asked") != state.turn and not ("war" in rec and "prc" in rec)


def check_11_5101(game: Game, state: GameState, orders: Sequence[Order]) -> list[Violation]:
    """The announcement file: ``commence`` and ``commence prc`` each at most once, neither of
    them again once begun, the PRC not before the others [DTP 11.5101, 11.51021]."""
    rec = record(state)
    probs: list[Violation] = []
    seen: set[str] = set()
    for o in orders:
        what = PRC_WORD if o.mode == PRC_WORD else "war"
        rule = RULE_PRC if what == PRC_WORD else RULE_START
        if o.verb != "commence":
            probs.append(
                Violation(rule, f"'{o.verb}' is not an announcement", code="not-announcement").at(o)
            )
        elif what in rec or what in seen:
            probs.append(
                Violation(
                    rule,
                    f"{'PRC entry' if what == PRC_WORD else 'hostilities'} already announced",
                    code="announced-twice",
                    hint="announce each once",
                ).at(o)
            )
        seen.add(what)
    if PRC_WORD in seen and "war" not in rec and "war" not in seen:
        probs.append(
            Violation(
                RULE_PRC,
                "the PRC may enter only with or after the other East Block nations: "
                "announce 'commence' too",
                code="prc-before-war",
                hint="commence",
            )
        )
    return probs


def carry_out_11_5101(
    game: Game, state: GameState, orders: Sequence[Order], events: list[Event]
) -> GameState:
    """Record the announcements of this Game-Turn."""
    rec: dict[str, Any] = {**record(state), "asked": state.turn}
    for o in orders:
        what = PRC_WORD if o.mode == PRC_WORD else "war"
        rec[what] = state.turn
        text = (
            f"Game-Turn {state.turn}: the PRC enters hostilities, and with it Taiwan"
            if what == PRC_WORD
            else f"Game-Turn {state.turn}: hostilities commence"
        )
        events.append(Event("hostilities", RULE_PRC if what == PRC_WORD else RULE_START, text, {}))
    return DtpFacts.put(state, hostilities=dict(sorted(rec.items())))


def _nationality_of(game: Game, word: str) -> str | None:
    """The nationality of a unit, or of the base named ``hex:HHHH``."""
    if word.startswith("hex:"):
        base = game.board.airbase(word[4:])
        return base.nationality if base is not None else None
    return game.unit(word).nationality if word in game.pieces else None


def combat_problem_11_5102(game: Game, state: GameState, o: Order) -> Violation | None:
    """An attack, strike or bounce by or on a PRC or Taiwanese unit or base before the PRC
    enters [DTP 11.51021, 11.51022]."""
    if prc_at_war(game, state):
        return None
    for w in (*o.units, *o.targets):
        nat = _nationality_of(game, w)
        if nat in (PRC, TAIWAN):
            who = "the PRC" if nat == PRC else "Taiwan"
            return Violation(
                RULE_TAIWAN if nat == TAIWAN else RULE_PRC,
                f"{w} is {who}'s, and {who} is not at war until the PRC enters hostilities",
                code="not-at-war",
                word=w,
                hint="the East Block announces PRC entry at the beginning of a Game-Turn "
                "('commence prc')",
            ).at(o)
    return None


def taiwan_move_problem_11_51022(game: Game, state: GameState, unit: str) -> Violation | None:
    """A Taiwanese unit moving before the turn the PRC enters [DTP 11.51022]."""
    if prc_at_war(game, state) or game.unit(unit).nationality != TAIWAN:
        return None
    return Violation(
        RULE_TAIWAN,
        f"{unit} is Taiwanese: no Taiwanese unit may move until the turn the PRC commences "
        "hostilities",
        code="taiwan-not-at-war",
        word=unit,
        unit=unit,
        hint="it stays where it is until the PRC enters",
    )


def no_combat_11_5102(game: Game, state: GameState) -> bool:
    """Before hostilities there is no combat [DTP 11.5102]."""
    return not at_war(game, state)


def scripted_lines(game: Game, state: GameState) -> list[str]:
    """The scripted East Block's announcement: everything at once, on the first turn asked."""
    rec = record(state)
    lines = [] if "war" in rec else ["commence"]
    return lines + ([] if "prc" in rec else ["commence prc"])
