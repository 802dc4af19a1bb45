"""[DTP 10.44] attacks and strikes on bases and Defended hexes in the combat phase, on a game
position (the pure rules are in ``bases.py``; the impulse that calls these is
``combat_phase.py``).

An attack names the hex alone (``attack SG-1 -> hex:2806``, ``strike A6 -> hex:0918``):

* the target is an enemy airbase or Defended hex not yet at D3 (D3 is permanent [DTP 10.44]);
* it may be attacked once every unit friendly to it has gone from its hex, earlier in the same
  combat phase included [DTP 10.44]; face-down (inactive) air units on it need not be attacked
  first [DTP 9.23];
* the attackers are the side's own units, next to it (air over it) [8.1], each attacking once
  a phase [8.13], with an AS strength above 0 [8.41, 8.43] (0 at D2 [DTP 8.55]); ships and
  subs ``attack``, air units ``strike`` and roll Strike Contact first [DTP 8.15]; a carrier's
  air units on a D2 carrier or a closed airbase cannot operate [DTP 9.27, 10.44];
* the CRT reads the attackers' AS total against the intrinsic DEF (0 for a bare airbase, never
  doubled [10.41]) on the hex's ECM row [SPI 10.44 kept]; a success rolls the Hit Table with
  the whole strength as the column and 2 x ECM as the DEF row [DTP 10.44, 8.52]; damage adds
  up [DTP 8.54]; an airbase at D2 closes [DTP 10.44]; at D3 the hex is destroyed for good (it
  may then be entered [10.46; digest 9.7]) and face-down air units on it recycle with +6
  [DTP 9.29]. The base's level is ``state.data["base_damage"][hex]``;
* where the scenario limits which subs may attack bases (Denmark Strait, Iceland: Soviet SGs,
  coastal bases, once per SG per game), ``sg_base_attacks.py`` checks and records it
  [DTP 11.3 rule 4].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.engine.core import Dice, Event, GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.combat import defended_target_10_44
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp import (
    air,
    base_air_defence,
    bases,
    combat,
    crt,
    hits,
    north_atlantic,
    sg_base_attacks,
)
from referee.rules.sixth_fleet_dtp.detection import STATUS
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.flags import DtpFlags
from referee.rules.sixth_fleet_dtp.removal import unit_of
from referee.rules.sixth_fleet_dtp.strikes import detected_after_attack_8_234, reach_problems_8_1

SURFACE = "surface"
"""A base is attacked with AS, the strength against surface targets [SPI 10.44, 8.43]."""


@dataclass(frozen=True, slots=True)
class Base:
    """A base or Defended hex as the combat phase reads it: its side, intrinsic DEF and ECM
    (0 for a bare airbase), whether it is an airbase [DTP 10.44] and its damage level."""

    hex: str
    side: str
    defense: int
    ecm: int
    airbase: bool
    level: int


def base_at(game: Game, state: GameState, hex_id: str) -> Base | None:
    """The base or Defended hex in ``hex_id`` (``None`` if neither): a Defended hex's side,
    else the airbase's nationality's side [9.1]; a base naval infantry hold is the
    occupier's (Keflavik in Iceland from the start, without DEF or ECM) [DTP 11.3 rule 5,
    11.31 rule 1]."""
    if not game.board.contains(hex_id):
        return None
    d, a = game.board.defended(hex_id), game.board.airbase(hex_id)
    if d is None and a is None:
        return None
    side = d.side if d is not None else ""
    if d is None and a is not None:
        nat = game.module.nationalities.get(a.nationality)
        side = nat.side if nat is not None else ""
    level = int(facts_of(state).base_damage.get(hex_id, 0))
    defense, ecm = (d.defense, d.ecm) if d is not None else (0, 0)
    held = north_atlantic.occupied_base(game, state, hex_id)
    if held is not None:
        # a base the Soviet player holds is his [DTP 11.3 rule 5]; one held from the start
        # has no intrinsic DEF or ECM [DTP 11.31 rule 1]
        side = game.flags.soviet_side
        if north_atlantic.occupied(state)[held.name] == 0:
            defense, ecm = 0, 0
    return Base(hex_id, side, defense, ecm, a is not None, level)


def defenders_10_44(game: Game, state: GameState, base: Base) -> list[str]:
    """The units friendly to the base still in its hex, which must go first [DTP 10.44];
    face-down air units need not be attacked before the base [DTP 9.23]."""
    return [
        u
        for u in state.stacks.get(base.hex, ())
        if state.units[u].side == base.side
        and not (game.category(u) == "air" and "inactive" in state.units[u].status)
    ]


def check_base_attack(
    game: Game,
    state: GameState,
    side: str,
    o: Order,
    attacked: Sequence[str],
    situation: combat.Situation,
    flags: DtpFlags,
) -> list[Violation]:
    """The problems of one ``attack``/``strike`` on ``hex:NNNN`` [DTP 10.44, 8.1, 8.13, 8.15;
    subs: DTP 11.3 rule 4] (``attacked``: the units that attacked this phase [8.13]). The
    steps: the target is an enemy base still standing [DTP 10.44]; the attackers [8.1, 8.12];
    then subs [DTP 11.3 rule 4], the base's own units first [DTP 10.44], the kind of order
    [DTP 8.15, 8.231], once a phase [8.13], reach [8.1], grounded air and strength [8.41]."""
    hex_id = defended_target_10_44(o.targets) or ""
    word = o.targets[0]  # the problems point at ``hex:NNNN`` in the order
    base = base_at(game, state, hex_id)
    bad = _target_base_10_44(base, hex_id, side, word) or _attackers_8_1(state, side, o)
    if bad or base is None:
        return bad
    probs = sg_base_attacks.sub_base_attack_problems_11_3_4(
        game, state, side, o.units, hex_id, flags, word
    )
    left = defenders_10_44(game, state, base)
    if left:
        probs.append(
            Violation(
                "DTP 10.44",
                f"the base in {hex_id} may be attacked only once every unit friendly to it is "
                f"gone (now: {', '.join(left)})",
                code="base-occupied",
                word=word,
                hint="attack those units first, earlier in this combat phase",
            )
        )
    probs += _kind_8_15(game, o)
    again = [a for a in o.units if a in attacked]
    if again:
        probs.append(
            Violation(
                "8.13",
                f"{', '.join(again)} already attacked this phase",
                code="attacked-twice",
                word=again[0],
            )
        )
    ahex = state.units[o.units[0]].location or ""
    probs += reach_problems_8_1([(a, game.board.distance(ahex, hex_id)) for a in o.units], hex_id)
    for a in o.units:
        grounded = air.grounded_problem(game, state, a)
        if grounded is not None:
            probs.append(grounded)
    if sum(combat.strength_8_43(unit_of(game, a), SURFACE, situation) for a in o.units) <= 0:
        probs.append(
            Violation(
                "8.41",
                "these units have no AS strength to attack a base (D2 units attack only when "
                "answering back [DTP 8.21])",
                code="no-strength",
            )
        )
    return probs


def _target_base_10_44(base: Base | None, hex_id: str, side: str, word: str) -> list[Violation]:
    """The target is an enemy base or Defended hex that is not destroyed [DTP 10.44]."""
    if base is None:
        return [
            Violation(
                "DTP 10.44",
                f"{hex_id} is not a base or Defended hex",
                code="not-a-base",
                word=word,
                hint="name a hex with an enemy airbase or Defended hex: hex:NNNN",
            )
        ]
    if base.side == side:
        return [Violation("DTP 10.44", f"{hex_id} is your own base", code="own-base", word=word)]
    if base.level >= bases.DESTROYED:
        return [
            Violation(
                "DTP 10.44",
                f"the base in {hex_id} is destroyed (D3 is permanent)",
                code="base-destroyed",
                word=word,
            )
        ]
    return []


def _attackers_8_1(state: GameState, side: str, o: Order) -> list[Violation]:
    """The attackers: one's own units [8.1] on the map, in one hex [8.12]."""
    for u in o.units:
        if u not in state.units or state.units[u].location is None:
            return [Violation("8.1", f"{u} is not on the map", code="not-on-map", word=u)]
    if any(state.units[u].side != side for u in o.units):
        return [
            Violation("8.1", "attackers must be your own units", code="not-own", word=o.units[0])
        ]
    if len({state.units[u].location for u in o.units}) != 1:
        return [Violation("8.12", "the attackers must be in one hex", code="hexes")]
    return []


def _kind_8_15(game: Game, o: Order) -> list[Violation]:
    """Air units on a base make a ``strike``, others an ``attack`` [DTP 8.15]; a first strike
    is made only on ships or subs [DTP 8.231]."""
    probs: list[Violation] = []
    cats = {game.category(u) for u in o.units}
    if o.verb == "strike" and cats != {"air"}:
        probs.append(
            Violation("DTP 8.15", "a strike is made by air units only", code="strike-kind")
        )
    if o.verb == "attack" and "air" in cats:
        probs.append(
            Violation("DTP 8.15", "air on a base is a `strike` (contact first)", code="use-strike")
        )
    if o.mode == "first-strike":
        probs.append(
            Violation(
                "DTP 8.231", "a first strike is made only on ships or subs", code="first-strike"
            )
        )
    return probs


def resolve_base_attack_10_44(
    game: Game,
    state: GameState,
    attackers: Sequence[str],
    hex_id: str,
    situation: combat.Situation,
    dice: Dice,
    events: list[Event],
    flags: DtpFlags,
) -> GameState:
    """One attack on a base, with the dice: a sub's one coastal-base attack used where the
    scenario limits them [DTP 11.3 rule 4], the CRT [SPI 10.44 kept, 8.8], on a success the
    Hit Table at 2 x ECM [DTP 10.44, 8.52], the damage [DTP 8.54], D2 closing an airbase and
    D3 destroying it [DTP 10.44], face-down air on a destroyed base recycling [DTP 9.29], the
    attackers Detected [DTP 8.234] and the phase record [8.13]."""
    base = base_at(game, state, hex_id)
    assert base is not None
    state = sg_base_attacks.record_11_3_4(game, state, attackers, hex_id, flags, events)
    att = sum(combat.strength_8_43(unit_of(game, a), SURFACE, situation) for a in attackers)
    pre = crt.crt_8_0(game.module, att, base.defense, base.ecm, None)
    roll = dice.roll(6, "CRT", "8.8") if pre.chance_in_6 > 0 else None
    res = crt.crt_8_0(game.module, att, base.defense, base.ecm, roll)
    outcome = f"rolled {roll}: {'success' if res.success else 'no effect'}" if roll else "no roll"
    events.append(
        Event(
            "attack",
            "DTP 10.44",
            f"{', '.join(attackers)} attack the base in {hex_id}: {att} against its DEF "
            f"{base.defense} [10.41], {res.reading.how}; {outcome}",
            {"attack": att, "defense": base.defense, "column": res.reading.column, "roll": roll},
        )
    )
    if res.success:
        state = _hit_base(game, state, base, att, dice, events)
    if flags.bases_attack_air and all(game.category(a) == "air" for a in attackers):
        level = int(facts_of(state).base_damage.get(hex_id, 0))
        state = base_air_defence.base_fires_10_41(
            game, state, hex_id, base.ecm, level, attackers, dice, events
        )
    for a in attackers:
        u = state.units[a]
        if u.location is not None and detected_after_attack_8_234(unit_of(game, a)):
            marker = STATUS[game.category(a)]
            state = state.with_unit(UnitState(u.id, u.side, u.location, u.box, u.status | {marker}))
    rec = dict(facts_of(state).combat or {})
    rec["attacked"] = sorted(set(rec.get("attacked", ())) | set(attackers))
    rec["engaged"] = sorted(rec.get("engaged", ()))
    return DtpFacts.put(state, combat=rec)


def _hit_base(
    game: Game, state: GameState, base: Base, strength: int, dice: Dice, events: list[Event]
) -> GameState:
    """The Hit Table on a base: column = the whole strength, row = 2 x ECM [DTP 10.44]."""
    def_row = hits.base_def_10_44(base.ecm)
    _reading, entry = hits.hit_entry_8_52(game.module, strength, def_row)
    hroll = (
        dice.roll(6, f"Hit Table: base {base.hex}", "DTP 8.52")
        if entry and entry.needs_roll
        else None
    )
    h = hits.hit_8_52(game.module, strength, def_row, hroll)
    level = hits.add_damage_8_54(base.level, h.levels)
    damage = {**facts_of(state).base_damage, base.hex: level}
    state = DtpFacts.put(state, base_damage=damage)
    note = ""
    if level >= bases.DESTROYED:
        note = ": destroyed, for good"
    elif base.airbase and bases.airbase_closed_10_44(level):
        note = ": the airbase is closed to air operations"
    events.append(
        Event(
            "hit",
            "DTP 10.44",
            f"base {base.hex}: strength {strength} on DEF {def_row} (2 x ECM {base.ecm}), "
            f"{h.reading.how}; D{base.level} -> D{level}{note}",
            {"hex": base.hex, "strength": strength, "roll": hroll, "damage": level},
        )
    )
    if level >= bases.DESTROYED:
        gone = sorted({*(facts_of(state).destroyed_defended or ()), base.hex})
        state = DtpFacts.put(state, destroyed_defended=gone)
        state = recycle_face_down_9_29(game, state, base.hex, dice, events)
    return state


def recycle_face_down_9_29(
    game: Game, state: GameState, hex_id: str, dice: Dice, events: list[Event]
) -> GameState:
    """Face-down air units on a base that reaches D3 are not destroyed: they recycle on the
    turn track with +6 on the 2d6 [DTP 9.29, 8.51]."""
    recycle = dict(facts_of(state).recycle)
    for u in [x for x in state.stacks.get(hex_id, ()) if game.category(x) == "air"]:
        st = state.units[u]
        if "inactive" not in st.status:
            continue
        d = game.unit(u)
        two_d6 = dice.roll(6, f"recycle {u}", "DTP 9.29") + dice.roll(6, f"recycle {u}", "DTP 9.29")
        r = air.recycle_8_51(
            state.turn,
            two_d6,
            air.rating_9_23(game.module, d.nationality, d.type),
            air.BASE_DESTROYED_9_29,
        )
        recycle[u] = r.return_turn
        state = state.with_unit(UnitState(u, st.side, None, "recycle", frozenset()))
        events.append(
            Event(
                "recycle",
                "DTP 9.29",
                f"{u}, face down on the destroyed base {hex_id}: 2d6 {two_d6} - readiness "
                f"{r.rating} + 6 = {r.delay} turns; back on turn {r.return_turn} [DTP 8.51]",
                {"unit": u, "return_turn": r.return_turn},
            )
        )
    return DtpFacts.put(state, recycle=recycle)
