"""[DTP 4.1 phases 1-4] a movement phase on a game position: moves and the detection attempts
they open [DTP 5.0, 5.25, 6.2, 6.22].

Orders are carried out in the order written, so a ``detect`` line sees the position the moves
above it have made. The moving player may try to detect enemy units that a move has just
brought within one hex: the ``detect`` line comes right after that ``move`` and is made by
units in the mover's hex [DTP 6.2a]. The same moment lets the other player try to detect the
mover [DTP 6.2b]: with a standing ``detect whenever-allowed`` his best eligible stack in the
hex whose zone was entered tries at once [DTP 6.23]; otherwise the moment is kept in
``state.data["moments"]`` for his decision (docs/interpretations.md DTP-18). Ship and sub
phases move ships and subs; air phases move air units [DTP 4.1]. Each detector tries a target
once per phase [DTP 6.22] (``state.data["detect_tried"]``). Only units that may reach a sub
under the pack ice count, for either player [DTP 11.3 rule 6]. Air aboard a D2 carrier or on
a closed airbase does not move [DTP 9.27, 10.44]; ``cap``/``box`` launch and land carrier air
in the air phases (``carriers.py``) and ``stack`` orders the naval units [7.42], both SPI's
orders that DTP keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.core import Dice, Event, GameState, SourcePos, UnitState, Violation
from referee.engine.orders import Order
from referee.engine.steps import Carry
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.optional import announce_14_2
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_1975.stacking import (
    AIR_LIMIT,
    NAVAL_LIMIT,
    counts,
    overstacked_7_0,
    stack_order_7_42,
)
from referee.rules.sixth_fleet_dtp import (
    air,
    carriers,
    denmark_strait,
    exits,
    landing,
    north_atlantic,
    special_bases,
    westpac_bases,
    westpac_hostilities,
    westpac_korea,
    westpac_national,
    westpac_overstack,
    westpac_z5,
)
from referee.rules.sixth_fleet_dtp.air import (
    based_at_9_28b,
    inactive_problems_9_23,
    return_home_problem_9_28b,
)
from referee.rules.sixth_fleet_dtp.detection import (
    STATUS,
    attempt_6_3,
    attempt_groups_6_2b,
    attempt_problems_6_2,
)
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.path import (
    Moment,
    check_path_5_0,
    detection_moments_6_2,
    move_start,
)
from referee.rules.sixth_fleet_dtp.removal import enemy_base_adjacent, unit_of
from referee.rules.sixth_fleet_dtp.standing import best_stack_6_23
from referee.rules.sixth_fleet_dtp.westpac_command_ships import (
    ALL_SEA,
    at_sea_problems_11_5091,
    is_command_ship,
)
from referee.rules.sixth_fleet_dtp.westpac_national import prc_stacking_problems_11_5081
from referee.source.boxes import carrier_of

MOVES = {"ship": ("surface", "submarine"), "air": ("air",)}


def _inshore(game: Game, hex_id: str) -> bool:
    return game.board.terrain(hex_id) in ("restricted", "coastal")


def _detect_check(
    game: Game, state: GameState, side: str, o: Order, last: Sequence[Moment]
) -> list[Violation]:
    for u in (*o.units, *o.targets):
        if u not in state.units or state.units[u].location is None:
            return [Violation("DTP 6.2", f"{u} is not on the map", code="not-on-map", word=u)]
    if any(state.units[u].side != side for u in o.units):
        return [
            Violation(
                "DTP 6.2", "detectors must be your own units", code="not-own", word=o.units[0]
            )
        ]
    tried = {tuple(x) for x in facts_of(state).detect_tried}
    kept = kept_moment_6_2b(state, side, o.units, o.targets)
    if kept is not None:  # the answer to an enemy move, at the moment's positions [DTP 6.2b]
        probs = attempt_problems_6_2(
            [unit_of(game, u) for u in o.units],
            game.category(o.targets[0]),
            game.board.distance(kept["from"], kept["at"]),
            [(a, b) for a, b in tried],
            o.targets[0],
        )
        ice = _under_ice(game, "detect", o.units, kept["from"], kept["at"])
        return probs if ice is None else [*probs, ice]
    dhex = {state.units[u].location for u in o.units}
    thex = {state.units[t].location for t in o.targets}
    cats = {game.category(t) for t in o.targets}
    if len(dhex) != 1 or len(thex) != 1 or len(cats) != 1 or "air" in cats:
        return [
            Violation(
                "DTP 6.2a",
                "detect enemy ships or subs of one category in one hex, from units in one hex",
                code="detect-shape",
            )
        ]
    d, t, cat = dhex.pop() or "", thex.pop() or "", cats.pop()
    key = next((x for x in o.targets if any((u, x) in tried for u in o.units)), o.targets[0])
    probs = attempt_problems_6_2(
        [unit_of(game, u) for u in o.units],
        cat,
        game.board.distance(d, t),
        [(a, b) for a, b in tried],
        key,
    )
    ice = _under_ice(game, "detect", o.units, d, t)
    if ice is not None:
        probs.append(ice)
    if not any(m.at == d and m.their_hex == t for m in last):
        probs.append(
            Violation(
                "DTP 6.2a",
                f"no move just brought the units in {t} within one hex of {d}",
                code="detect-no-moment",
                word=o.units[0],
                hint="write the detect line right after the move that brings them into the "
                "detection zone",
            )
        )
    return probs


def _under_ice(
    game: Game, verb: str, units: Sequence[str], from_hex: str, target_hex: str
) -> Violation | None:
    """The pack-ice limit on ``units`` in ``from_hex`` reaching a sub in ``target_hex``
    [DTP 11.3 rule 6] (``denmark_strait.py``): None off the ice and on maps without it."""
    return denmark_strait.under_ice_problem_11_3_6(
        verb,
        game.board.terrain(target_hex),
        [(u, game.unit(u).type, game.board.terrain(from_hex)) for u in units],
        game.board.distance(from_hex, target_hex),
        target_hex,
    )


def kept_moment_6_2b(
    state: GameState, side: str, detectors: Sequence[str], targets: Sequence[str]
) -> dict[str, Any] | None:
    """The kept moment (``state.data["moments"]``) this ``detect`` answers: an enemy mover
    that entered the zone of these stationary units of ``side`` [DTP 6.2b]."""
    for m in facts_of(state).moments:
        if (
            list(targets) == [m["mover"]]
            and set(detectors) <= set(m["units"])
            and state.units[m["mover"]].side != side
        ):
            return dict(m)
    return None


def returning_problems_8_51(
    game: Game, state: GameState, side: str, o: Order, kind: str
) -> list[Violation]:
    """``base UNIT HEX`` in an air movement phase brings back an aborted air unit whose turn
    has come: it arrives at the start of its owner's air movement phase on a usable airbase
    of its side, before the on-map air units move [DTP 8.51, 9.25, 10.44]."""
    from referee.rules.sixth_fleet_dtp.rebasing import AIR_PER_HEX_9_4, usable_base

    u, to = o.units[0], (o.hexes[0] if o.hexes else "")
    st = state.units.get(u)
    due = int(facts_of(state).recycle.get(u, 10**6))
    if kind != "air" or st is None or st.side != side or st.box != "recycle" or due > state.turn:
        return [
            Violation(
                "DTP 8.51",
                f"{u} is not an air unit of yours returning from the turn track this turn",
                code="not-returning",
                word=u,
                hint="returning units are based at the start of their owner's air movement",
            )
        ]
    if landing.returns_aboard_9_26(game, state, u) is not None:
        aboard = landing.return_problem_9_26(game, state, u, to)
        return [aboard] if aboard is not None else []
    air_here = sum(1 for x in state.stacks.get(to, ()) if game.category(x) == "air")
    if westpac_bases.other_base_11_5083(game, u, to):  # [DTP 9.15; Westpac 11.5061, 11.5082]
        return [
            Violation(
                westpac_bases.returning_rule(game),
                f"{u} returns to a base of its own nation, not to {to}",
                code="returning-base",
                word=to,
                hint=f"at {westpac_bases.other_words(game)} it would go through 8.51 again",
            )
        ]
    if special_bases.off_map_base(game.module, to) is not None:
        air_here = 0  # unlimited capacity [DTP 11.3 rule 2]
    home = return_home_problem_9_28b(game, state, u, to, air_here)
    if isinstance(home, Violation):
        return [home]
    if home is None and (not usable_base(game, state, u, to) or air_here >= AIR_PER_HEX_9_4):
        return [
            Violation(
                "DTP 8.51",
                f"{u} cannot be based at {to}: not an open airbase of its side with room",
                code="returning-base",
                word=to,
            )
        ]
    return []


def _based(game: Game, state: GameState, unit: str, to: str) -> GameState:
    """A returning unit placed on its base: a hex, or an off-map base's box [DTP 11.3 rule 2]."""
    side = state.units[unit].side
    if special_bases.off_map_base(game.module, to) is not None:
        return state.with_unit(UnitState(unit, side, None, to))
    state = landing.arrive_8_51(game, state, unit, to)  # below decks if [DTP 9.26] says so
    return based_at_9_28b(game, state, unit, to)


def announce_14_2_first(
    game: Game,
    state: GameState,
    side: str,
    orders: Sequence[Order],
    probs: list[Violation],
    events: list[Event],
) -> GameState:
    """``option 14.2``, made "at the start of any Soviet Movement Phase" [14.2], so before
    the file's other orders whatever its line: SPI's check and effect (``announce_14_2``:
    the optional rule in use, the Soviet player, once a game). Its problems go to
    ``probs``, its event to ``events``."""
    for o in orders:
        if o.verb == "option":
            carry = Carry(state)
            announce_14_2(game, carry, side, o)
            probs += carry.problems
            events += carry.events
            state = carry.state
    return state


@dataclass(slots=True)
class _Walk:
    """A movement file walked order by order: the position so far, the detection moments the
    last move opened [DTP 6.2], the CAP claims to check at the end [9.62A], the problems."""

    work: GameState
    # the last lawful move (the position it started from, the unit, its hexes): its
    # detection moments are worked out only when a detect order asks for them (:meth:`last`);
    # a file of moves alone, as each candidate move ``referee options`` checks, needs none
    moved: tuple[GameState, str, tuple[str, ...]] | None = None
    claims: list[Order] = field(default_factory=list)
    probs: list[Violation] = field(default_factory=list)
    # the moments of ``moved`` once worked out (several detect lines behind one move)
    seen: tuple[tuple[GameState, str, tuple[str, ...]], tuple[Moment, ...]] | None = None

    def last(self, game: Game) -> tuple[Moment, ...]:
        """The detection moments the last move opened [DTP 6.2] (none before any move)."""
        if self.moved is None:
            return ()
        if self.seen is None or self.seen[0] is not self.moved:
            state, unit, hexes = self.moved
            self.seen = (self.moved, detection_moments_6_2(game, state, unit, hexes))
        return self.seen[1]


def check_movement(
    game: Game, state: GameState, side: str, orders: Sequence[Order], kind: str
) -> list[Violation]:
    """Every problem of a ship-and-sub (``kind="ship"``) or air (``"air"``) movement file,
    each order checked on the position the orders above it leave."""
    walk = _Walk(state)
    walk.work = announce_14_2_first(game, walk.work, side, orders, walk.probs, [])
    for o in orders:
        if o.verb == "move":
            _walk_move_5_0(game, walk, side, o, kind)
        elif o.verb == "base" and north_atlantic.may_relocate_11_3_5(
            game, walk.work, o.units[0], o.hexes[0]
        ):
            _walk_relocate_11_3_5(game, walk, o, kind)
        elif o.verb == "base":
            bad = returning_problems_8_51(game, walk.work, side, o, kind)
            walk.probs += bad
            if not bad:
                walk.work = _based(game, walk.work, o.units[0], o.hexes[0])
        elif o.verb == "exit":
            _walk_exit_5_24(game, walk, side, o, kind)
        elif o.verb == "detect":
            _walk_detect_6_2(game, walk, side, o)
        elif o.verb == "stack":  # SPI's order of the naval units, top first [7.42]
            carry = Carry(walk.work)
            stack_order_7_42(game, carry, side, o)
            walk.probs += carry.problems
            walk.work = carry.state
        elif o.verb in carriers.VERBS:
            _walk_carrier_9_62(game, walk, side, o, kind)
        elif o.verb == "capture":  # [DTP 11.5134], optional
            walk.probs += westpac_korea.capture_order_problems_11_5134(
                game, walk.work, side, o, kind
            )
    probs = walk.probs
    for o in walk.claims:  # [9.62A] a claimed CAP ends over its carrier
        claim = carriers.cap_claim_problem_9_62A(walk.work, o)
        probs += [claim.at(o)] if claim else []
    if kind == "ship":  # [DTP 11.5091] the command ships end each ship phase at sea
        probs += at_sea_problems_11_5091(game, walk.work, side)
    # [DTP 11.5063] what reinforcements left over the limit is eliminated at the phase's end
    probs += westpac_overstack.problems_11_5063(game, walk.work, side, orders, kind)
    return probs + stacking_problems_7_21(game, state, walk.work, side)


def _walk_move_5_0(game: Game, walk: _Walk, side: str, o: Order, kind: str) -> None:
    """A ``move`` (:func:`move_problems_5_0`); a lawful one opens the detection moments of its
    path [DTP 6.2]."""
    work = walk.work
    bad = move_problems_5_0(game, work, side, o.units[0], o.hexes, kind, o)
    if bad:
        walk.probs += bad
        return
    u = o.units[0]
    start = move_start(game, work, u) or ""
    hexes = [start, *(o.hexes[1:] if o.hexes[0] == start else o.hexes)]
    walk.moved = (work, u, tuple(hexes))
    walk.work = move_piece(game, work, u, hexes[-1])


@dataclass(frozen=True, slots=True)
class Mover:
    """What :func:`move_problems_5_0` finds of a unit before any hex of its path, the same
    for every path it may be given: grounded [DTP 9.27, 10.44], face down [DTP 9.23],
    docked [DTP 11.3 rule 7], Taiwanese before the PRC enters [DTP 11.51022], and its damage
    (a D2 ship moves half [DTP 8.55]). A legal-move search asks it once a unit
    (:meth:`LoneMove.accepts`), not once a hex."""

    grounded: Violation | None
    inactive: tuple[Violation, ...]
    docked: Violation | None
    taiwan: Violation | None
    damage: int

    @classmethod
    def of(cls, game: Game, work: GameState, u: str) -> Mover:
        return cls(
            grounded=air.grounded_problem(game, work, u),  # [DTP 9.27, 10.44]
            inactive=tuple(inactive_problems_9_23([(u, work.units[u].status)], "fly")),
            docked=north_atlantic.docked_problem_11_3_7(work, u),
            taiwan=westpac_hostilities.taiwan_move_problem_11_51022(game, work, u),
            damage=int(facts_of(work).damage.get(u, 0)),
        )


def move_problems_5_0(
    game: Game,
    work: GameState,
    side: str,
    u: str,
    written: Sequence[str],
    kind: str,
    o: Order | None = None,
    path: Sequence[Violation] | None = None,
    mover: Mover | None = None,
) -> list[Violation]:
    """The problems of ``move u WRITTEN``: the mover's own unit [5.1] of this phase [DTP 4.1],
    not grounded [DTP 9.27, 10.44] or inactive [DTP 9.23], on a legal path [DTP 5.0], not
    docked and into no closed port [DTP 11.3 rule 7], over no PRC land [DTP 11.5081], not
    Taiwanese before the PRC enters [DTP 11.51022]. ``o``: the order, to place the Z-5's
    problem on; ``path``: :func:`check_path_5_0`'s answer when the caller has it already (a
    legal-move search that checked the path hex by hex); ``mover``: :meth:`Mover.of` of ``u``
    in ``work`` when the caller has it already (the same search, for each hex it reaches)."""
    if u not in work.units or work.units[u].side != side:
        return [Violation("5.1", f"{u} is not one of your units", code="not-own", word=u)]
    z5 = westpac_z5.move_problem_11_5095(game, work, u, written[-1], kind)  # [DTP 11.5095]
    if isinstance(z5, Violation):
        return [z5.at(o) if o is not None else z5]
    if game.category(u) not in MOVES[kind] and z5 is not True:
        return [
            Violation("DTP 4.1", f"{u} does not move in this phase", code="wrong-phase", word=u)
        ]
    m = mover if mover is not None else Mover.of(game, work, u)
    if m.grounded is not None:
        return [m.grounded]
    bad = list(m.inactive)
    if not bad:
        bad = list(path) if path is not None else check_path_5_0(game, work, u, written, m.damage)
    port = north_atlantic.port_problem_11_3_7(game, work, u, written[-1])
    over = westpac_national.overflight_problem_11_5081(game, u, written)  # [DTP 11.5081]
    return [*bad, *(p for p in (m.taiwan, m.docked, port, over) if p is not None)]


def _walk_relocate_11_3_5(game: Game, walk: _Walk, o: Order, kind: str) -> None:
    """A ``base`` that relocates a unit [DTP 11.3 rule 5], in an air movement phase only."""
    bad = [p for p in [north_atlantic.relocate_problem_11_3_5(walk.work, o.units[0])] if p]
    if kind != "air":
        bad.append(Violation("DTP 4.1", "relocate in an air movement phase", code="wrong-phase"))
    walk.probs += bad
    if not bad:
        walk.work = north_atlantic.relocate_11_3_5(game, walk.work, o.units[0], o.hexes[0], [])


def _walk_exit_5_24(game: Game, walk: _Walk, side: str, o: Order, kind: str) -> None:
    """An ``exit``: off the map in a ship and sub movement phase only [DTP 5.24]."""
    bad = exits.exit_problems(game, walk.work, side, o.units[0])
    if kind != "ship":
        bad = [
            Violation(
                "DTP 5.24",
                f"{o.units[0]} may leave the map only in a ship and sub movement phase",
                code="wrong-phase",
                word=o.units[0],
            )
        ]
    walk.probs += bad
    if not bad:
        walk.work = exits.carry_out_exit(game, walk.work, o.units[0], [])


def _walk_detect_6_2(game: Game, walk: _Walk, side: str, o: Order) -> None:
    """A ``detect``: active detectors [DTP 9.23] at a moment the last move opened [DTP 6.2],
    each trying a target once a phase [DTP 6.22]."""
    work = walk.work
    bad = inactive_problems_9_23(
        [(u, work.units[u].status) for u in o.units if u in work.units],
        "attempt detection",
    )
    bad = bad or _detect_check(game, work, side, o, walk.last(game))
    pooled = westpac_national.pooled_problem_11_5081(game, o)  # [DTP 11.5081]
    bad = [*bad, pooled] if pooled is not None else bad
    walk.probs += [p if p.where else p.at(o) for p in bad]  # this line, not the move's
    if not bad:
        tried = [list(x) for x in facts_of(work).detect_tried]
        tried += [[d, t] for d in o.units for t in o.targets]
        walk.work = DtpFacts.put(work, detect_tried=tried)


def _walk_carrier_9_62(game: Game, walk: _Walk, side: str, o: Order, kind: str) -> None:
    """``cap``/``box``: carrier air launches and lands in an air movement phase [DTP 4.1]
    [9.62]; a CAP over another carrier is a claim checked at the end of the file [9.62A]."""
    if kind != "air":
        msg = "carrier air launches and lands in an air movement phase"
        walk.probs.append(Violation("DTP 4.1", msg, code="wrong-phase", word=o.units[0]).at(o))
        return
    bad = carriers.check_carrier_order(game, walk.work, side, o)
    walk.probs += [p.at(o) for p in bad]
    if not bad:
        if o.verb == "cap" and carrier_of(walk.work.units[o.units[0]].box) != o.carrier:
            walk.claims.append(o)
        walk.work = carriers.carry_out_carrier_order(game, walk.work, o, [])


def stacking_problems_7_21(
    game: Game, before: GameState, after: GameState, side: str
) -> list[Violation]:
    """SPI's limit, which DTP keeps [DTP 101.1]: at the end of a movement phase at most three
    naval and six air units of a side in a hex [7.21][7.11][9.41]. Only a hex the file makes
    over-stacked (or more so) is the file's fault. In Westpac the PRC's units also stack with
    no other nation's [DTP 11.5081] (``westpac_national``)."""
    was = overstacked_7_0(game, before, side)
    out = []
    for hex_id, (naval, aircraft) in overstacked_7_0(game, after, side).items():
        n0, a0 = was.get(hex_id, (0, 0))
        if naval > n0:
            msg = f"{NAVAL_LIMIT + naval} naval units of yours end in {hex_id}; the limit is 3"
            out.append(Violation("7.21", msg, code="naval-stacking", word=hex_id))
        if aircraft > a0:
            msg = f"{AIR_LIMIT + aircraft} air units of yours end in {hex_id}; the limit is 6"
            out.append(Violation("9.41", msg, code="air-stacking", word=hex_id))
    return out + prc_stacking_problems_11_5081(game, before, after, side)


@dataclass(frozen=True, slots=True)
class LoneMove:
    """A movement file of one ``move`` judged without walking it: what :func:`check_movement`
    finds at the end of such a file [7.21][9.41][DTP 11.5063, 11.5081, 11.5091], from facts
    of the position before it counted once (:meth:`of`) and the two hexes the move changes
    (the one it leaves, the one it ends in). ``referee options`` judges every hex a unit may
    reach this way (issue 26: some 13,000 candidate moves in a Westpac air movement phase);
    ``validate`` walks the file. The two agree by construction: nothing else in the position
    differs between before and after a lone move (tests/rules/test_sixth_fleet_dtp_options_cost.py
    takes both on every candidate of several positions)."""

    game: Game
    state: GameState
    side: str
    kind: str
    ashore: frozenset[str]  # the side's command ships not in an all-sea hex [DTP 11.5091]
    recorded: tuple[str, ...]  # the hexes over the limit since reinforcement [DTP 11.5063]
    movers: dict[str, Mover] = field(default_factory=dict, compare=False)  # by unit, once asked

    @classmethod
    def of(cls, game: Game, state: GameState, side: str, kind: str) -> LoneMove:
        ashore = frozenset(
            p.unit or ""
            for p in (at_sea_problems_11_5091(game, state, side) if kind == "ship" else ())
        )
        recorded: tuple[str, ...] = ()
        if kind == "ship" and westpac_overstack.in_play_11_5063(state):
            recorded = tuple(westpac_overstack.recorded_11_5063(state, side))
        return cls(game, state, side, kind, ashore, recorded)

    def accepts(self, unit: str, written: Sequence[str], path: Sequence[Violation]) -> bool:
        """Whether ``check_movement`` accepts the file ``move UNIT WRITTEN`` (no error), with
        ``path`` the path check's answer for it."""
        game, state, side = self.game, self.state, self.side
        mover = self.movers.get(unit)
        if mover is None and unit in state.units:
            mover = self.movers[unit] = Mover.of(game, state, unit)
        probs = move_problems_5_0(
            game, state, side, unit, written, self.kind, path=path, mover=mover
        )
        if any(p.severity == "error" for p in probs):
            return False
        if probs:  # warnings only: the file is walked as written
            return not _errors(check_movement(game, state, side, [_lone(unit, written)], self.kind))
        start = move_start(game, state, unit) or ""
        end = ([start, *(written[1:] if written[0] == start else written)])[-1]
        return not self._end_faults(unit, state.units[unit].location, end)

    def _end_faults(self, unit: str, left: str | None, end: str) -> bool:
        """The end-of-file checks of the position after ``unit`` moved from ``left`` (None:
        from a box) to ``end``: only those two hexes changed."""
        game, state, side = self.game, self.state, self.side
        if self.kind == "ship":  # [DTP 11.5091]
            ashore = self.ashore - {unit}
            if is_command_ship(game, unit) and game.board.terrain(end) not in ALL_SEA:
                ashore |= {unit}
            if ashore:
                return True
        naval = not game.is_air(unit)
        for h in self.recorded:  # [DTP 11.5063], a file with no ``remove`` line
            n = counts(game, state, h, side)[0]
            n += naval * ((h == end) - (h == left))
            if n > NAVAL_LIMIT:
                return True
        if end == left:
            return False
        n0, a0 = counts(game, state, end, side)  # [7.21][9.41]: only the hex it enters grows
        n1, a1 = (n0 + 1, a0) if naval else (n0, a0 + 1)
        if max(0, n1 - NAVAL_LIMIT) > max(0, n0 - NAVAL_LIMIT):
            return True
        if max(0, a1 - AIR_LIMIT) > max(0, a0 - AIR_LIMIT):
            return True
        here = state.stacks.get(end, ())  # [DTP 11.5081]: a mix the move makes
        return (
            westpac_national.mix_11_5081(game, state, (unit, *here), side) is not None
            and westpac_national.mix_11_5081(game, state, here, side) is None
        )


def _errors(probs: Sequence[Violation]) -> bool:
    return any(p.severity == "error" for p in probs)


def _lone(unit: str, written: Sequence[str]) -> Order:
    """The order ``move UNIT WRITTEN`` as the orders parser reads it."""
    return Order("move", "movement", SourcePos("options", 1, 1), (unit,), tuple(written))


def detected_by_base_6_43(
    game: Game, state: GameState, unit: str, hexes: Sequence[str], events: list[Event]
) -> GameState:
    """A surface unit whose move takes it next to an enemy base (not destroyed) is Detected
    automatically [DTP 6.43]: bases have no detection zone and roll nothing."""
    side = state.units[unit].side
    if game.category(unit) != "surface" or STATUS["surface"] in state.units[unit].status:
        return state
    near = next((h for h in hexes if enemy_base_adjacent(game, state, h, side)), None)
    if near is None:
        return state
    events.append(
        Event(
            "detected",
            "DTP 6.43",
            f"{unit} is next to an enemy base in {near} and is Detected",
            {"unit": unit, "hex": near},
        )
    )
    return _mark(state, unit, "surface")


def _mark(state: GameState, pid: str, category: str) -> GameState:
    u = state.units[pid]
    return state.with_unit(
        UnitState(u.id, u.side, u.location, u.box, u.status | {STATUS[category]})
    )


def _try(
    game: Game,
    state: GameState,
    detectors: Sequence[str],
    targets: Sequence[str],
    dice: Dice,
    events: list[Event],
    at: str | None = None,
) -> GameState:
    """One attempt; ``at`` is the target's hex at a kept moment [DTP 6.2b] (default: now)."""
    cat = game.category(targets[0])
    thex = at or state.units[targets[0]].location or ""
    res, evs = attempt_6_3(
        game.module,
        [unit_of(game, d) for d in detectors],
        [unit_of(game, t) for t in targets],
        cat,
        _inshore(game, thex),
        dice,
    )
    events.extend(evs)
    tried = [list(x) for x in facts_of(state).detect_tried]
    tried += [[d, t] for d in detectors for t in targets]
    state = DtpFacts.put(state, detect_tried=sorted(tried))
    if res.detected:
        for t in targets:
            if game.category(t) == cat:
                state = _mark(state, t, cat)
    return state


def _reaction_6_2b(
    game: Game,
    state: GameState,
    mover: str,
    m: Moment,
    standing: bool,
    dice: Dice,
    events: list[Event],
) -> GameState:
    """The stationary player's chance at the mover [DTP 6.2b]: his standing order, or a kept
    moment for his decision. Only his units that may reach the mover where it is count: under
    the pack ice, nuclear subs under the ice or in an adjacent ocean hex [DTP 11.3 rule 6];
    with none, the moment gives him nothing."""
    cat = game.category(mover)
    if cat == "air":
        return state  # air units are always detected [DTP 6.0b]
    able = [e for e in m.enemies if _under_ice(game, "detect", [e], m.their_hex, m.at) is None]
    if not able:
        return state
    if standing:
        return _standing_attempts_6_2b(game, state, mover, able, cat, dice, events)
    kept: list[Any] = list(facts_of(state).moments)
    kept.append({"mover": mover, "at": m.at, "from": m.their_hex, "units": able})
    return DtpFacts.put(state, moments=kept)


def _standing_attempts_6_2b(
    game: Game,
    state: GameState,
    mover: str,
    able: Sequence[str],
    cat: str,
    dice: Dice,
    events: list[Event],
) -> GameState:
    """A standing ``detect whenever-allowed``: the hex's air, surface and sub units each
    attempt separately [DTP 6.2b], the group with the best detection ECM first [DTP 6.23]
    (the book's hint: "make attempts with your best ECM rated units first"), until the mover
    is Detected; a unit that tried it this phase does not try again [DTP 6.22]."""
    groups = attempt_groups_6_2b([unit_of(game, e) for e in able])
    ranked = []
    for kind, units in groups.items():
        best = best_stack_6_23({kind: units}, cat)
        if best is not None:
            ranked.append((-best[1].ecm, list(groups).index(kind), best[1].able))
    rolled = False
    for _, _, detectors in sorted(ranked):
        if rolled and STATUS[cat] in state.units[mover].status:
            break  # Detected: the other groups need not roll
        tried = {tuple(x) for x in facts_of(state).detect_tried}
        if not any((u, mover) in tried for u in detectors):
            state = _try(game, state, detectors, [mover], dice, events)
            rolled = True
    return state


def carry_out_movement(
    game: Game,
    state: GameState,
    side: str,
    orders: Sequence[Order],
    dice: Dice,
    events: list[Event],
    other_detects_whenever_allowed: bool = False,
) -> GameState:
    """Carry out a checked movement file: each move (with the other player's [DTP 6.2b]
    reactions at each moment it opens), each detection attempt [DTP 6.3]; an ``option
    14.2`` first [14.2]."""
    state = announce_14_2_first(game, state, side, orders, [], events)
    for o in orders:
        if o.verb == "base" and north_atlantic.may_relocate_11_3_5(
            game, state, o.units[0], o.hexes[0]
        ):  # the Be-12 to an occupied Keflavik [DTP 11.3 rule 5]
            state = north_atlantic.relocate_11_3_5(game, state, o.units[0], o.hexes[0], events)
        elif o.verb == "base":  # a returning unit arrives [DTP 8.51]
            u, to = o.units[0], o.hexes[0]
            state = _based(game, state, u, to)
            recycle = dict(facts_of(state).recycle)
            recycle.pop(u, None)
            state = DtpFacts.put(state, recycle=recycle)
            events.append(Event("return", "DTP 8.51", f"{u} returns at {to}", {"unit": u}))
        if o.verb == "move":
            u = o.units[0]
            start = move_start(game, state, u) or ""
            hexes = [start, *(o.hexes[1:] if o.hexes[0] == start else o.hexes)]
            moments = detection_moments_6_2(game, state, u, hexes)
            state = move_piece(game, state, u, hexes[-1])
            events.append(Event("move", "5.0", f"{u} moves {' '.join(hexes)}", {"unit": u}))
            state = detected_by_base_6_43(game, state, u, hexes, events)
            state = north_atlantic.after_move_11_3(game, state, u, hexes, dice, events)
            for m in moments:
                state = _reaction_6_2b(
                    game, state, u, m, other_detects_whenever_allowed, dice, events
                )
        elif o.verb == "exit":  # [DTP 5.24, 11.3 victory]
            state = exits.carry_out_exit(game, state, o.units[0], events)
        elif o.verb == "capture":  # [DTP 11.5134]
            state = westpac_korea.capture_11_5134(game, state, o.hexes[0], events)
        elif o.verb in carriers.VERBS:
            state = carriers.carry_out_carrier_order(game, state, o, events)
        elif o.verb == "stack":
            carry = Carry(state)
            stack_order_7_42(game, carry, side, o)
            events.extend(carry.events)
            state = carry.state
        elif o.verb == "detect":
            kept = kept_moment_6_2b(state, side, o.units, o.targets)
            state = _try(game, state, o.units, o.targets, dice, events, kept and kept["at"])
    # the moments kept for this player are answered in this file or not at all (DTP-18)
    left = [m for m in facts_of(state).moments if state.units[m["mover"]].side == side]
    if facts_of(state).moments:
        state = DtpFacts.put(state, moments=left)
    return state


def detects_after_move_6_2a(
    game: Game,
    state: GameState,
    side: str,
    unit: str,
    hexes: Sequence[str],
    opened: Sequence[Moment],
    targets: Sequence[str],
) -> dict[str, bool]:
    """Whether :func:`check_movement` accepts the file ``move UNIT ...`` (``hexes``, its
    start first) then ``detect UNIT -> TARGET`` [DTP 6.2a], for each of ``targets``, where
    the move alone is accepted (:class:`LoneMove`, as every move ``referee options`` offers)
    and ``opened`` are the detection moments of its last step: the only ones an attempt
    behind it can answer, the detector standing where the move ends (:func:`_detect_check`).
    Each attempt is judged as the file's walk judges it, on the position the move leaves;
    the file's end checks are the lone move's (an attempt changes no unit, only the attempts
    tried [DTP 6.22]), so they are not run again. Options format 8."""
    moved = (state, unit, tuple(hexes))
    work = move_piece(game, state, unit, hexes[-1])
    out: dict[str, bool] = {}
    for t in targets:
        walk = _Walk(work, moved=moved, seen=(moved, tuple(opened)))
        line = Order("detect", "movement", SourcePos("options", 2, 1), (unit,), (), (t,))
        _walk_detect_6_2(game, walk, side, line)
        out[t] = not _errors(walk.probs)
    return out
