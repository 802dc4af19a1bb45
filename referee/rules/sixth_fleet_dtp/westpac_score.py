"""[DTP 11.5121-11.5126] the Westpac score in play: the whole awards table, the winner.

Each player "accumulates victory points for damaging and eliminating enemy units, for moving
amphibious assault ships and convoys through to their objectives, and for 'sea control' of the
Formosa Strait, Sea of Japan and Sea of Okhotsk" [11.5121]. The score reads the game's records:

* **losses** [11.5122, 11.5124, 11.5126]: each enemy ship or sub sunk its ECM value (0 ECM = 1),
  D2 half, D1 a quarter, the command ships double (``westpac_victory.ship_vp_11_5124``), the
  AK/TK convoys one value per three damage levels plus the fraction; damaged ships removed or
  retreated off the map count their damage [11.5033]; an air unit that is damaged and not back
  on the map counts as eliminated (at the end: "failed to re-enter before the end of turn 48";
  during the game the running tally counts it while it waits); a base or defended hex its ECM
  when destroyed (D3), half at D2, a quarter at D1 (``victory.base_vp_8_57``, DTP-43);
* **unloading** [11.50922, 11.50942]: the points ``westpac_unloading`` recorded;
* **each turn** (the table's ``*``): at the end of each Game-Turn SEATO scores 1 for at least
  three undamaged US SSNs, and 1 for at least three undamaged US surface units of ASW 12 or
  more, in the Sea of Okhotsk bastion (:func:`end_of_turn_11_5124`, ``state.data
  ["award_turns"]``);
* **sea control at the end** [11.5123]: once the game is over, in each of the three areas,
  after the ships and subs at D2 or worse are left out, a side with ships or subs there and the
  enemy with none scores 50 (coastal bases and air units have no effect).

"The player with the larger total of points wins. A tie is a tie" [11.5125]: the module's
``victory_levels`` bands on the net (East Block minus SEATO). Fractions are kept [11.5126].
Once the game is over (the end of Game-Turn 48 [11.5103], or the armistice of the optional
rule [11.5132]) the score also names the **result**: who won, by how many points, and the
table's level (:func:`result_11_5125`); the game-over event says it with its case
(:func:`game_over_11_5125`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from referee.engine.core import Event, GameState
from referee.numerals import mixed_number
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.base_combat import base_at
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.flags import flags_of
from referee.rules.sixth_fleet_dtp.victory import base_vp_8_57, level_11_3
from referee.rules.sixth_fleet_dtp.westpac_unloading import unloaded_11_50922
from referee.rules.sixth_fleet_dtp.westpac_victory import (
    CONVOY_TYPES,
    Award,
    awards_11_5124,
    ship_vp_11_5124,
)

RULE = "DTP 11.5124"
SUNK = 3
CONVOY_SUNK = 12
PRESENCE = 3  # "at least 3 undamaged US ... units" [DTP 11.5124]
ASW_AT_LEAST = 12
SEA_CONTROL_DAMAGE = 2  # "any ships and subs with D2 damage ... are removed" [DTP 11.5123]
NAVAL = ("surface", "submarine")
OKHOTSK_SSN, OKHOTSK_ASW = "se_okhotsk_ssn", "se_okhotsk_asw"  # the two '*' rows


def unit_worth_11_5124(game: Game, unit: str, damage: int, lost: bool) -> Fraction:
    """What one unit scores the enemy [DTP 11.5091, 11.50921, 11.5124, 11.5126]."""
    d = game.unit(unit)
    ecm = int(d.values.get("ECM", 0))
    if game.category(unit) == "air":
        return Fraction(max(ecm, 1)) if lost else Fraction(0)
    if d.type in CONVOY_TYPES:
        return ship_vp_11_5124(d.type, ecm, max(damage, CONVOY_SUNK) if lost else damage)
    return ship_vp_11_5124(d.type, ecm, SUNK if lost else damage)


def _losses(game: Game, state: GameState) -> dict[str, list[dict[str, Any]]]:
    lost = {
        x["unit"]: str(x.get("rule", ""))
        for x in (facts_of(state).losses or ())
        if x.get("scores", True)
    }
    damage = facts_of(state).damage
    out: dict[str, list[dict[str, Any]]] = {s: [] for s in game.sides}
    for pid, u in sorted(state.units.items()):
        gone = pid in lost or u.box == "recycle"
        level = int(damage.get(pid, 0))
        if not (gone or level):
            continue
        worth = unit_worth_11_5124(game, pid, level, gone)
        if not worth:
            continue
        row = {"unit": pid, "vp": str(worth), "rule": lost.get(pid) or RULE}
        out[game.enemy_of(u.side)].append(row if gone else {**row, "what": f"damaged D{level}"})
    for hex_id, level in sorted(facts_of(state).base_damage.items()):
        base = base_at(game, state, hex_id)
        if base is None or not level or base.side not in out:
            continue
        worth = base_vp_8_57(base.ecm, int(level))
        what = "destroyed" if int(level) >= SUNK else f"damaged D{level}"
        out[game.enemy_of(base.side)].append(
            {"unit": f"base {hex_id}", "vp": str(worth), "rule": RULE, "what": what}
        )
    return out


def _present(game: Game, state: GameState, area: str, side: str) -> list[str]:
    """``side``'s ships and subs in ``area`` below D2 [DTP 11.5123]."""
    damage = facts_of(state).damage
    return sorted(
        pid
        for pid, u in state.units.items()
        if u.side == side
        and u.location is not None
        and game.category(pid) in NAVAL
        and int(damage.get(pid, 0)) < SEA_CONTROL_DAMAGE
        and game.module.map.in_area(u.location, area)
    )


def sea_control_11_5123(game: Game, state: GameState, a: Award) -> bool:
    """An ``end`` award: the enemy has no ship or sub in the area and the side at least one,
    the damaged (D2 or worse) left out [DTP 11.5123, 11.5124]."""
    area = a.hexes[0]
    enemy = game.enemy_of(a.side)
    return bool(_present(game, state, area, a.side)) and not _present(game, state, area, enemy)


def okhotsk_presence_11_5124(game: Game, state: GameState, a: Award) -> bool:
    """A ``turn`` award: at least three undamaged US SSNs (``okhotsk_ssn``), or three
    undamaged US surface units of ASW 12 or more (``okhotsk_asw``), in the area now."""
    area = a.hexes[0]
    damage = facts_of(state).damage
    count = 0
    for pid, u in state.units.items():
        d = game.unit(pid)
        if u.side != a.side or u.location is None or d.nationality != "US":
            continue
        if int(damage.get(pid, 0)) or not game.module.map.in_area(u.location, area):
            continue
        ssn = a.id == OKHOTSK_SSN and d.type == "SN"
        asw = a.id == OKHOTSK_ASW and d.category == "surface"
        count += ssn or (asw and game.value(pid, "ASW") >= ASW_AT_LEAST)
    return count >= PRESENCE


def end_of_turn_11_5124(game: Game, state: GameState, events: list[Event]) -> GameState:
    """The end of a Game-Turn: each ``turn`` award that holds now scores once more
    (``state.data["award_turns"]``: award -> turns earned) [DTP 11.5124 *]."""
    turns = dict(facts_of(state).award_turns)
    changed = False
    for a in awards_11_5124(game.module):
        if a.per == "turn" and okhotsk_presence_11_5124(game, state, a):
            turns[a.id] = int(turns.get(a.id, 0)) + 1
            changed = True
            events.append(
                Event(
                    "award",
                    RULE,
                    f"Game-Turn {state.turn}: {a.side} +{a.points} VP ({a.id})",
                    {"award": a.id, "vp": a.points},
                )
            )
    return DtpFacts.put(state, award_turns=turns) if changed else state


def _award_vp(game: Game, state: GameState, a: Award, final: bool) -> int | None:
    """An award's points so far, or None for the loss rows (counted unit by unit)."""
    if a.points is None:
        return None
    if a.per in ("once", "unit"):
        return sum(int(x["vp"]) for x in unloaded_11_50922(state) if x["award"] == a.id)
    if a.per == "turn":
        return a.points * int(facts_of(state).award_turns.get(a.id, 0))
    return a.points if final and sea_control_11_5123(game, state, a) else 0


def score_11_5124(game: Game, state: GameState, final: bool) -> dict[str, Any]:
    """The Westpac score [DTP 11.5121-11.5126]: losses, awards, net and result; sea control
    only once the game is over (``final``) [DTP 11.5123]."""
    destroyed = _losses(game, state)
    vp = {s: sum((Fraction(r["vp"]) for r in destroyed[s]), Fraction(0)) for s in game.sides}
    bonuses: list[dict[str, Any]] = []
    for a in awards_11_5124(game.module):
        got = _award_vp(game, state, a, final)
        if got is None:
            continue
        vp[a.side] = vp.get(a.side, Fraction(0)) + got
        bonuses.append({"id": a.id, "side": a.side, "vp": got, "holds": bool(got), "rule": a.rule})
    net = vp.get(game.flags.soviet_side, Fraction(0)) - vp.get(game.flags.nato_side, Fraction(0))
    level = level_11_3(game.module, net)
    mixed = flags_of(state).mixed_fractions_11_5126
    out: dict[str, Any] = {
        "rule": RULE,
        "vp": {s: str(v) for s, v in vp.items()},
        "bonuses_in_vp": True,
        "destroyed": destroyed,
        "bonuses": bonuses,
        "net": str(net),
        "level": level,
    }
    if mixed:  # the reports write the fractions as mixed numbers [DTP 11.5126]
        out["fractions"] = "mixed"
    if final:
        out["result"] = result_11_5125(game, vp, level, mixed=mixed)
    return out


RESULT_RULE = "DTP 11.5125"


def _side_name(game: Game, side: str) -> str:
    return next((s.name for s in game.module.sides if s.id == side), side)


def _area_name(game: Game, area: str) -> str:
    """A victory area's name as the map declares it, without what follows a colon (the
    map's note of the rule): "Sea of Okhotsk bastion"."""
    a = game.module.map.areas.get(area)
    return a.name.split(":", 1)[0].strip() if a is not None else area


def winner_11_5125(game: Game, vp: dict[str, Fraction]) -> tuple[str | None, Fraction]:
    """The side with the larger total and its margin, or ``(None, 0)`` for a tie: "The
    player with the larger total of points wins. A tie is a tie" [DTP 11.5125]; fractions
    are kept [DTP 11.5126], so a quarter point decides."""
    a, b = game.flags.soviet_side, game.flags.nato_side
    margin = vp.get(a, Fraction(0)) - vp.get(b, Fraction(0))
    if margin == 0:
        return None, Fraction(0)
    return (a, margin) if margin > 0 else (b, -margin)


def result_11_5125(game: Game, vp: dict[str, Fraction], level: str, *, mixed: bool = False) -> str:
    """The result in words, for the last report, the score table and ``state show``: the
    winner, by how much, the two totals, the table's level and the case; e.g. "East Block
    wins by 12 1/4 VP (East Block 57 1/4, SEATO 45): East Block Victory [DTP 11.5125]".
    Fractions are kept [DTP 11.5126]: as mixed numbers with ``mixed`` (the game's
    ``mixed_fractions_11_5126``), else exact ("49/4", the wording of older games)."""

    def shown(v: Fraction) -> int | str:
        return mixed_number(v) if mixed else str(v)

    totals = ", ".join(  # as the score table prints them [DTP 11.5126]
        f"{_side_name(game, s)} {shown(vp.get(s, Fraction(0)))}"
        for s in (game.flags.soviet_side, game.flags.nato_side)
    )
    side, margin = winner_11_5125(game, vp)
    if side is None:
        return f"a tie ({totals}): {level} [{RESULT_RULE}]"
    return (
        f"{_side_name(game, side)} wins by {shown(margin)} VP ({totals}): {level} [{RESULT_RULE}]"
    )


def game_over_11_5125(game: Game, state: GameState) -> list[Event]:
    """The events of the step that ends the game (``state``: the position with the game
    over): each sea control award held now [DTP 11.5123, 11.5124], then the result with the
    final score [DTP 11.5125]."""
    score = score_11_5124(game, state, final=True)
    out = [
        Event(
            "award",
            "DTP 11.5123",
            f"{_side_name(game, a.side)} +{a.points} VP: sea control of the "
            f"{_area_name(game, a.hexes[0])} at the end of the game, no enemy ship or sub "
            f"there ({a.id})",
            {"award": a.id, "vp": a.points},
        )
        for a in awards_11_5124(game.module)
        if a.per == "end" and sea_control_11_5123(game, state, a)
    ]
    vp = {s: Fraction(v) for s, v in score["vp"].items()}
    side, margin = winner_11_5125(game, vp)
    out.append(
        Event(
            "game_over",
            RESULT_RULE,
            f"the game is over; the result: {score['result']}",
            {
                "winner": side or "",
                "margin": str(margin),
                "level": score["level"],
                "vp": score["vp"],
                "net": score["net"],
            },
        )
    )
    return out
