"""[DTP 11.5063] Westpac's ship and sub reinforcements over the stacking limit: "They may be
placed in excess of stacking limits, but stacking limits must be adhered to by the conclusion
of the next movement phase for those units. If they are not, the owning player must remove
units (which are considered eliminated for all purposes) sufficient to comply with stacking
restrictions."

* A placement that leaves its entry hex over the naval limit (three naval units of a side
  [7.21]) records the hex for its side (``state.data["over_limit_11_5063"]``:
  side -> hexes), :func:`record_11_5063`.
* The owner's next ship and sub movement phase (the same Game-Turn: the reinforcement phase
  comes before all movement [DTP 11.5041]) may move units out; whatever excess is left at its
  end the owner names with ``remove UNIT`` lines (the rule's word) in that file, one for each
  unit over the limit, any of his ships or subs in the hex: the owner chooses, the referee
  never does. The lines are carried out at the conclusion of the phase whatever their place
  in the file (the rule's moment), so a unit named must still be in the hex when the moves
  are done; naming too few, too many, or a unit elsewhere is refused (:func:`problems_11_5063`).
* The units named are eliminated "for all purposes" (they score for the enemy, carrier air
  in the holding box goes with its carrier [9.62B, DTP 9.27]); the side's record is then
  cleared (:func:`eliminate_11_5063`).

Games begun before this was played keep their reading: the rule is on in a game whose
``dtp_flags`` say ``eliminate_overstacked_11_5063`` (``flags.py``; ``new_game`` records it
for a scenario with the DTP reinforcement track).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.engine.core import Event, GameState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.air import box_contents
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import eliminate
from referee.rules.sixth_fleet_1975.stacking import NAVAL_LIMIT, counts
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.flags import flags_of

RULE = "DTP 11.5063"
KEY = "over_limit_11_5063"
VERB = "remove"


def in_play_11_5063(state: GameState) -> bool:
    """The game plays the elimination (its ``dtp_flags``)."""
    return flags_of(state).eliminate_overstacked_11_5063


def _record(state: GameState) -> dict[str, list[str]]:
    return {str(k): [str(h) for h in v] for k, v in facts_of(state).over_limit_11_5063.items()}


def record_11_5063(game: Game, state: GameState, side: str, hex_id: str) -> GameState:
    """After a ship or sub reinforcement is placed in ``hex_id``: the hex recorded for
    ``side`` when it is now over the naval limit."""
    if not in_play_11_5063(state) or counts(game, state, hex_id, side)[0] <= NAVAL_LIMIT:
        return state
    rec = _record(state)
    rec[side] = sorted({*rec.get(side, ()), hex_id})
    return DtpFacts.put(state, over_limit_11_5063=dict(sorted(rec.items())))


def recorded_11_5063(state: GameState, side: str) -> list[str]:
    """The hexes recorded for ``side``: over the naval limit since a reinforcement."""
    return _record(state).get(side, [])


def excess_11_5063(game: Game, state: GameState, side: str) -> dict[str, int]:
    """The recorded hexes of ``side`` still over the naval limit in ``state``: hex -> units
    over it."""
    out = {}
    for h in recorded_11_5063(state, side):
        naval = counts(game, state, h, side)[0]
        if naval > NAVAL_LIMIT:
            out[h] = naval - NAVAL_LIMIT
    return out


def _naval_here(game: Game, state: GameState, side: str, hex_id: str) -> list[str]:
    return [
        u
        for u in state.stacks.get(hex_id, ())
        if state.units[u].side == side and not game.is_air(u)
    ]


def _order_problem(
    game: Game, after: GameState, side: str, o: Order, excess: dict[str, int], kind: str
) -> Violation | None:
    """What is wrong with one ``remove UNIT`` line, or None."""
    u = o.units[0]
    st = after.units.get(u)
    if kind != "ship":
        msg = "over-limit reinforcements are eliminated in their ship and sub movement phase"
        return Violation(RULE, msg, unit=u, code="wrong-phase", word=u)
    if st is None or st.side != side or game.is_air(u):
        return Violation(RULE, f"{u} is not a ship or sub of yours", unit=u, code="not-own", word=u)
    if st.location not in excess:
        over = " ".join(sorted(excess))
        return Violation(
            RULE,
            f"{u} is not in a hex its reinforcements left over the stacking limit "
            f"(at the end of the moves it is in {st.location or st.box})",
            code="not-over-limit",
            word=u,
            unit=u,
            hint=f"over the limit: {over}" if over else "nothing of yours is over the limit",
        )
    return None


def problems_11_5063(
    game: Game, after: GameState, side: str, orders: Sequence[Order], kind: str
) -> list[Violation]:
    """The file's ``remove`` lines against the position its moves leave (``after``): in a
    ship and sub movement phase, exactly the excess of each recorded hex, each unit once, of
    the owner's ships and subs in that hex [DTP 11.5063]."""
    lines = [o for o in orders if o.verb == VERB]
    excess = excess_11_5063(game, after, side) if kind == "ship" else {}
    if not in_play_11_5063(after):
        excess = {}
    out: list[Violation] = []
    named: Counter[str] = Counter()
    seen: set[str] = set()
    for o in lines:
        u = o.units[0]
        bad = _order_problem(game, after, side, o, excess, kind)
        if bad is None and u in seen:
            bad = Violation(RULE, f"{u} is named twice", unit=u, code="listed-twice", word=u)
        if bad is None:
            h = str(after.units[u].location)
            named[h] += 1
            if named[h] > excess[h]:
                bad = Violation(
                    RULE,
                    f"{h} is {excess[h]} over the limit: remove {excess[h]} unit(s), not more",
                    code="too-many",
                    word=u,
                    unit=u,
                    hint=f"drop this line, or move a unit out of {h} instead",
                )
        seen.add(u)
        if bad is not None:
            out.append(bad.at(o))
    for h, n in sorted(excess.items()):
        if named[h] < n:
            here = " ".join(_naval_here(game, after, side, h))
            out.append(
                Violation(
                    RULE,
                    f"{NAVAL_LIMIT + n} naval units of yours end this phase in {h}, over the "
                    f"limit of {NAVAL_LIMIT} since their reinforcement: {n - named[h]} more "
                    f"must be eliminated",
                    code="over-limit",
                    word=h,
                    hint=f"move units out of {h}, or choose with 'remove UNIT' (in {h}: {here})",
                )
            )
    return out


def eliminate_11_5063(
    game: Game, state: GameState, side: str, orders: Sequence[Order], events: list[Event]
) -> GameState:
    """At the conclusion of ``side``'s ship and sub movement phase: the units its file named
    eliminated, with the carrier air in their holding boxes [9.62B, DTP 9.27]; the side's
    record cleared [DTP 11.5063]."""
    rec = _record(state)
    if side not in rec:
        return state
    for o in orders:
        if o.verb != VERB:
            continue
        u = o.units[0]
        where = state.units[u].location
        for a in box_contents(state, u):
            state = eliminate(game, state, a, "DTP 9.27", f"aboard {u}, eliminated", events)
        state = eliminate(
            game, state, u, RULE, f"over the stacking limit in {where} after its move", events
        )
    rec.pop(side)
    return DtpFacts.put(state, over_limit_11_5063=dict(sorted(rec.items())))


def scripted_lines(game: Game, state: GameState, side: str) -> list[str]:
    """The scripted player's answer before its moves: each over-limit hex's excess moved one
    hex out where it may go with room, else eliminated (the last units of the stack, the
    newest arrivals, go first) [DTP 11.5063]."""
    from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12

    lines: list[str] = []
    taken: Counter[str] = Counter()
    for h, n in sorted(excess_11_5063(game, state, side).items()):
        for u in _naval_here(game, state, side, h)[-n:]:
            room = [
                x
                for x in game.board.neighbours(h)
                if entry_cost_5_12(game, state, u, x) is not None
                and counts(game, state, x, side)[0] + taken[x] < NAVAL_LIMIT
                and not any(state.units[e].side != side for e in state.stacks.get(x, ()))
            ]
            if room:
                taken[room[0]] += 1
                lines.append(f"move {u} {room[0]}")
            else:
                lines.append(f"{VERB} {u}")
    return lines
