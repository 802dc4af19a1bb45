"""[DTP 4.1 phases 6 and 7] rebasing and readiness, and the Night phase, on a game position.

Phase 6 [DTP 9.22-9.29]: every air unit of both sides is picked up and placed on a suitable
base within its range (a ``rebase UNIT HEX`` order of its owner; no map movement, no
detection): an airbase, or for carrier air a carrier of its nationality, below decks
(``landing.py`` [DTP 9.22, 9.26]); a unit on a closed airbase or aboard a D2 carrier cannot
operate and stays [DTP 10.44, 9.27]; CAP over its own base that never left it neither lands
nor rolls [DTP 9.24]; as each unit lands a d6 at or below its readiness keeps it active,
otherwise it is turned face down (``inactive``) until it passes in a later phase 6
[DTP 9.23]; an air unit that cannot land is eliminated and recycles [DTP 8.51 note].
Stacking limits apply [DTP 9.25, 9.4].

A NATO unit may land at another NATO nation's base only when no base of its own nation is
within range [9.15, kept]; it then goes through 8.51 with the [DTP 9.15] extra on the 2d6 (the
rule flag ``other_nato_base_literal``) and counts as eliminated while off the map [DTP 8.57].
A base several nations share (Kinloss, US and UK [DTP 11.3 rule 3]) is every one's own. An
off-map base (Murmansk) is named by its name, counts its distance from its anchor hex and has
no stacking limit [DTP 11.3 rule 2]; a base naval infantry occupy takes only the occupier's
listed types, at their readiness modifier [DTP 11.3 rule 5, 11.31 rules 1-2]
(``special_bases.py``, ``north_atlantic.py``).

Phase 7, Night turns only: surface Detected markers come off (``removal.py``) and each damaged
base repairs one level on a d6 of 1-3, D3 permanent [DTP 10.44]; an occupied Keflavik never
repairs [DTP 11.3 rule 5].
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.core import Dice, Event, GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp import (
    air,
    bases,
    north_atlantic,
    special_bases,
    westpac_bases,
    westpac_hostilities,
    westpac_z5,
)
from referee.rules.sixth_fleet_dtp import landing as decks
from referee.rules.sixth_fleet_dtp.combat_phase import flags_of
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.flags import other_nato_base_extra_9_15
from referee.rules.sixth_fleet_dtp.removal import night_removal_6_62
from referee.source.boxes import carrier_of

AIR_PER_HEX_9_4 = 6


def usable_base(game: Game, state: GameState, unit: str, hex_id: str) -> bool:
    """An airbase of the unit's side [9.1, kept], not closed by damage [DTP 10.44]; an
    off-map base of its side [DTP 11.3 rule 2]; at a base naval infantry hold, only the
    occupier's listed types (despite D3), never the other side [DTP 11.3 rule 5]."""
    side = state.units[unit].side
    off = special_bases.off_map_base(game.module, hex_id)
    if off is not None:
        return any(_nation_side(game, n) == side for n in off.nationalities)
    base = game.board.airbase(hex_id)
    if base is None:
        return False
    held = north_atlantic.occupied_base(game, state, hex_id)
    if held is not None:
        from_start = north_atlantic.occupied(state)[held.name] == 0  # [DTP 11.31 rule 1]
        return side == game.flags.soviet_side and (
            from_start or game.unit(unit).type in held.occupied_users
        )
    level = int(facts_of(state).base_damage.get(hex_id, 0))
    return _nation_side(game, base.nationality) == side and not bases.airbase_closed_10_44(level)


def _nation_side(game: Game, nationality: str) -> str | None:
    nat = game.module.nationalities.get(nationality)
    return nat.side if nat is not None else None


def readiness_modifier(game: Game, state: GameState, hex_id: str) -> int:
    """Soviet air at an occupied Keflavik rolls at -1 [DTP 11.3 rule 5, 11.31 rule 2]."""
    held = north_atlantic.occupied_base(game, state, hex_id)
    return held.occupied_readiness if held is not None else 0


def own_base_in_range_9_15(game: Game, state: GameState, unit: str, here: str) -> list[str]:
    """The usable bases of the unit's own nation within its range: while there is one, a NATO
    unit may not land at another NATO nation's base [9.15, kept by DTP 9.1].

    Asked again for each other nation's base a rebasing file names and, in a rebasing
    phase's options, for each of the unit's candidate bases (every base of the map tried
    each time: 17 % of rendering a Westpac rebasing step), so the answers are kept for the
    last position asked about (``game`` and ``state`` by identity: both are immutable)."""
    memo = _IN_RANGE_MEMO
    if memo[0] is not game or memo[1] is not state:
        memo[:] = [game, state, {}]
    known: dict[tuple[str, str], list[str]] = memo[2]  # type: ignore[assignment]
    got = known.get((unit, here))
    if got is None:
        got = known[(unit, here)] = _own_base_in_range(game, state, unit, here)
    return list(got)


_IN_RANGE_MEMO: list[object] = [None, None, {}]


def _own_base_in_range(game: Game, state: GameState, unit: str, here: str) -> list[str]:
    rng = game.movement_allowance(unit)
    return sorted(
        b.hex
        for b in game.module.map.airbases()
        if not westpac_bases.other_base_11_5083(game, unit, b.hex)
        and usable_base(game, state, unit, b.hex)
        and game.board.distance(here, b.hex) <= rng
    )


def _air_at(game: Game, state: GameState, hex_id: str) -> int:
    return sum(1 for u in state.stacks.get(hex_id, ()) if game.category(u) == "air")


def check_rebasing(
    game: Game, state: GameState, side: str, orders: Sequence[Order]
) -> list[Violation]:
    """Each ``rebase``: the side's own air unit, not on a closed airbase or aboard a D2 carrier
    [DTP 10.44, 9.27], to a usable airbase or (carrier air) a carrier of its nationality
    within range, with room [DTP 9.22, 9.25, 9.26, 10.44] (``landing``)."""
    probs: list[Violation] = []
    landing: dict[str, int] = {}
    on_decks: dict[str, int] = {}
    for o in orders:
        if o.verb != "rebase":
            continue
        u, to = o.units[0], o.hexes[0]
        if u not in state.units or state.units[u].side != side or game.category(u) != "air":
            probs.append(
                Violation("DTP 9.22", f"{u} is not one of your air units", code="not-own", word=u)
            )
            continue
        here = decks.where(state, u)
        if here is None:
            probs.append(Violation("DTP 9.22", f"{u} is not on the map", code="not-on-map", word=u))
            continue
        if here != to and (
            still := westpac_hostilities.taiwan_move_problem_11_51022(game, state, u)
        ):
            probs.append(still)  # no Taiwanese unit moves before the PRC enters [DTP 11.51022]
        grounded = air.grounded_problem(game, state, u)
        if grounded is not None:  # a closed airbase's or D2 carrier's air [DTP 10.44, 9.27]
            probs.append(grounded._replace(hint="it stays where it is, without a roll"))
            continue
        aboard = carrier_of(state.units[u].box) if here == to else None
        deck = aboard or decks.deck_with_room(game, state, u, to, on_decks)
        off = special_bases.off_map_base(game.module, to)
        if deck is not None:  # below decks on a carrier [DTP 9.22, 9.26; 9.62B]
            on_decks[deck] = on_decks.get(deck, 0) + (0 if aboard else 1)
            open_, room = True, True
        else:  # an airbase; a hex with none is refused below, with the deck's case if any
            is_base = off is not None or game.board.airbase(to) is not None
            landing[to] = landing.get(to, 0) + (0 if here == to else 1)
            room = (
                off is not None
                or _air_at(game, state, to) + landing[to] <= AIR_PER_HEX_9_4
                or not is_base
            )
            open_ = usable_base(game, state, u, to) or not is_base
        probs += [
            p._replace(word=to)
            for p in air.rebase_problems_9_22(
                u,
                special_bases.distance_11_3_2(game, here, to),
                game.movement_allowance(u),
                open_,
                room,
            )
        ]
        if deck is None and off is None and game.board.airbase(to) is None:
            probs.append(
                decks.deck_refusal(game, state, u, to, on_decks)
                or Violation(
                    "DTP 9.22",
                    f"{to} is neither an airbase nor a carrier of {u}",
                    code="not-a-base",
                    word=to,
                    hint="an air unit rebases to a friendly airbase's hex or onto a carrier "
                    "of its side",
                )
            )
        elif (
            deck is None and off is None and (bad := westpac_bases.unfriendly_11_5083(game, u, to))
        ):
            probs.append(bad)  # a PRC base for the other East Block nations, and the reverse
        elif deck is None and off is None and westpac_bases.other_base_11_5083(game, u, to):
            own = own_base_in_range_9_15(game, state, u, here)
            if own:
                probs.append(
                    Violation(
                        westpac_bases.diversion_rule(game),
                        f"{u} can reach a base of its own nation ({', '.join(own)}); it may land "
                        f"at {westpac_bases.other_words(game)} only if it cannot [DTP 9.15]",
                        code="own-base-reachable",
                        word=to,
                        hint="land at one of those bases",
                    )
                )
    return probs


def carry_out_rebasing(
    game: Game,
    state: GameState,
    side: str,
    orders: Sequence[Order],
    dice: Dice,
    events: list[Event],
    cap_over_own_base: frozenset[str] = frozenset(),
) -> GameState:
    """Land each rebased unit and roll its readiness [DTP 9.22, 9.23]; units of ``side`` left
    in the air (not rebased, not CAP over their own base [DTP 9.24]) are eliminated and
    recycle [DTP 8.51]."""
    rebased = {o.units[0]: o.hexes[0] for o in orders if o.verb == "rebase"}
    recycle = dict(facts_of(state).recycle)
    for u in sorted(state.units):
        st = state.units[u]
        if st.side != side or game.category(u) != "air" or decks.where(state, u) is None:
            continue
        down = air.INACTIVE_9_23 in st.status
        if st.location is None and u not in rebased and not down:
            continue  # below decks and flew nowhere: not picked up [DTP 9.22, 9.24]
        if u in cap_over_own_base and not down:
            continue  # [DTP 9.24]: no landing, no roll
        if down and u not in rebased and air.grounded_problem(game, state, u) is not None:
            continue  # face down on a closed base or a D2 carrier: it cannot operate [10.44]
        if down and u not in rebased and st.location is None:
            rebased[u] = decks.where(state, u) or ""  # face down aboard: rolls again [9.23]
        if down and u not in rebased and usable_base(game, state, u, st.location or ""):
            # a face-down unit on its own base flew nowhere: it is placed back where it is and
            # rolls again, or it could never pass "a later phase 6" [DTP 9.23] (not CAP [9.24])
            rebased[u] = st.location or ""
        if u not in rebased:
            state = decks.leave_9_28a(game, state, u)
            r = air.recycle_8_51(
                state.turn,
                dice.roll(6, f"recycle {u}", "DTP 8.51") + dice.roll(6, f"recycle {u}", "DTP 8.51"),
                air.rating_9_23(game.module, game.unit(u).nationality, game.unit(u).type),
            )
            recycle[u] = r.return_turn
            state = state.with_unit(UnitState(u, st.side, None, "recycle", frozenset()))
            events.append(
                Event(
                    "recycle",
                    "DTP 8.51",
                    f"{u} cannot land: back on turn {r.return_turn}",
                    {"unit": u},
                )
            )
            continue
        to = rebased[u]
        on_deck = (carrier_of(st.box) is not None and decks.where(state, u) == to) or (
            decks.deck_with_room(game, state, u, to, {}) is not None
        )
        if not on_deck and westpac_bases.other_base_11_5083(game, u, to):
            state = _diverted_9_15(game, state, u, to, dice, recycle, events)
            continue
        if special_bases.off_map_base(game.module, to) is not None:  # [DTP 11.3 rule 2]
            state = state.with_unit(UnitState(u, st.side, None, to, st.status))
        else:
            state = decks.land(game, state, u, to)
            state = air.based_at_9_28b(game, state, u, to)
        if westpac_z5.is_z5(game, u):  # no readiness rating: no roll [DTP 11.50954]
            continue
        rating = air.rating_9_23(
            game.module,
            game.unit(u).nationality,
            game.unit(u).type,
            readiness_modifier(game, state, to),
        )
        roll = dice.roll(6, f"readiness {u}", "DTP 9.23")
        ok = air.readiness_9_23(roll, rating)
        st = state.units[u]
        status = st.status - {"inactive"} if ok else st.status | {"inactive"}
        state = state.with_unit(UnitState(u, st.side, st.location, st.box, status))
        events.append(
            Event(
                "readiness",
                "DTP 9.23",
                f"{u} lands at {rebased[u]}: rolled {roll} against readiness {rating}: "
                + ("active" if ok else "face down (inactive)"),
                {"unit": u, "roll": roll},
            )
        )
    return DtpFacts.put(state, recycle=recycle)


def _diverted_9_15(
    game: Game,
    state: GameState,
    unit: str,
    to: str,
    dice: Dice,
    recycle: dict[str, int],
    events: list[Event],
) -> GameState:
    """A NATO unit landing at another NATO nation's base goes through 8.51 with the 9.15
    extra, and counts as eliminated while off the map [DTP 9.15, 8.51, 8.57]."""
    st = state.units[unit]
    extra = other_nato_base_extra_9_15(flags_of(state))
    roll = dice.roll(6, f"recycle {unit}", "DTP 9.15") + dice.roll(6, f"recycle {unit}", "DTP 9.15")
    rating = air.rating_9_23(game.module, game.unit(unit).nationality, game.unit(unit).type)
    r = air.recycle_8_51(state.turn, roll, rating, extra)
    recycle[unit] = r.return_turn
    events.append(
        Event(
            "recycle",
            westpac_bases.diversion_event_rule(game),
            f"{unit} lands at {to}, {westpac_bases.other_words(game)}: 2d6 {roll} - readiness "
            f"{rating} {extra:+d} = {r.delay} turns [DTP 8.51]; back on turn {r.return_turn}",
            {"unit": unit, "roll": roll},
        )
    )
    return state.with_unit(UnitState(unit, st.side, None, "recycle", frozenset()))


def night_phase_4_1(game: Game, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    """Phase 7 of a Night turn: surface Detected markers off [DTP 6.62], then each damaged
    base's repair roll [DTP 10.44]."""
    state = night_removal_6_62(game, state, events)
    damage = dict(facts_of(state).base_damage)
    for hex_id in sorted(damage):
        level = int(damage[hex_id])
        if level <= 0 or level >= bases.DESTROYED or game.board.airbase(hex_id) is None:
            continue
        if north_atlantic.occupied_base(game, state, hex_id) is not None:
            continue  # an occupied Keflavik cannot be repaired [DTP 11.3 rule 5]
        roll = dice.roll(6, f"repair {hex_id}", "DTP 10.44")
        damage[hex_id] = bases.repair_10_44(level, True, roll)
        events.append(
            Event(
                "repair",
                "DTP 10.44",
                f"base {hex_id} rolls {roll}: D{damage[hex_id]}",
                {"hex": hex_id, "roll": roll},
            )
        )
        state = north_atlantic.reinforce_11_31_6(
            game, state, hex_id, level, damage[hex_id], events
        )  # [DTP 11.31 rule 6]
    return DtpFacts.put(state, base_damage=damage)
