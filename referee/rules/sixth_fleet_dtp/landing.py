"""[DTP 9.22, 9.24, 9.26, 9.28a; 9.61/9.62 kept] carrier decks as bases in phase 6.

DTP's phase 6 places every air unit "back on appropriate air bases" within range [DTP 9.22];
SPI's carrier options stay in force [9.61, 9.62], and [DTP 9.24] speaks of "their own base
(land or CV)", so a carrier is a base for its own nationality's carrier air:

* a deck is a CV, or a ship whose roster carries the flag ``flight_deck`` (the Kiev, drawn as
  type CH in the Denmark Strait module: ``carriers.is_deck``, interpretation DTP-40);
* a unit landing on a deck goes below decks into its holding box, subject to its capacity
  (``carriers.capacity_9_62``) counting the deck's own air recycling on the turn track
  [DTP 9.26]; a deck at D2 or sunk takes no landing [DTP 8.55, 9.27];
* the deck a carrier air unit belongs to (its "home") is the one it last landed on in phase 6
  or below decks, else the one the scenario's set-up puts it with; landing on an airbase
  ends that [DTP 9.26 "CV based air units"]; one that could not land because its home deck
  was at D2 or sunk is not subject to [DTP 9.26] afterwards [DTP 9.28a].

``rebasing`` calls it: the reading functions are pure, ``land`` and ``leave_9_28a`` return the
new position.
"""

from __future__ import annotations

from referee.engine.core import GameState, UnitState, Violation
from referee.rules.sixth_fleet_1975.air import box_contents
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import move_piece, to_box
from referee.rules.sixth_fleet_dtp import air
from referee.rules.sixth_fleet_dtp.decks import capacity_9_62, is_deck
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.source.boxes import carrier_of


def deck_level(state: GameState, ship: str) -> int:
    return int(facts_of(state).damage.get(ship, 0))


def operating(state: GameState, ship: str) -> bool:
    """On the map and below D2: a D2 carrier conducts no air operations, a sunk one none
    [DTP 8.55, 9.27]."""
    st = state.units.get(ship)
    return (
        st is not None
        and st.location is not None
        and air.carrier_air_9_27(deck_level(state, ship)) == "aboard"
    )


def decks_in(game: Game, state: GameState, unit: str, hex_id: str) -> list[str]:
    """The decks in ``hex_id`` that may take ``unit``: it is carrier air, the deck is of its
    side and nationality [9.61] and still operating [DTP 8.55, 9.27]."""
    ud = game.unit(unit)
    side = state.units[unit].side
    if not ud.has("carrier"):
        return []
    return sorted(
        s
        for s in state.stacks.get(hex_id, ())
        if state.units[s].side == side
        and is_deck(game, s)
        and game.unit(s).nationality == ud.nationality
        and operating(state, s)
    )


def home_deck(game: Game, state: GameState, unit: str) -> str | None:
    """The deck ``unit`` belongs to [DTP 9.26]: aboard one, the one recorded by its last
    landing, else the one the set-up puts it in or with; ``None`` once land-based."""
    aboard = carrier_of(state.units[unit].box) if unit in state.units else None
    if aboard is not None:
        return aboard
    rec = facts_of(state).home_deck
    if unit in rec:
        return rec[unit] or None
    if not game.unit(unit).has("carrier"):
        return None
    placed = {f.unit: f for f in game.scenario.fixed}
    f = placed.get(unit)
    if f is None:
        return None
    on = carrier_of(f.status)
    if on is not None:
        return on
    with_it = sorted(
        o
        for o, g in placed.items()
        if g.hex is not None
        and g.hex == f.hex
        and o in game.pieces
        and is_deck(game, o)
        and game.unit(o).nationality == game.unit(unit).nationality
    )
    return with_it[0] if with_it else None


def recycling_against(game: Game, state: GameState, deck: str) -> list[str]:
    """The deck's carrier air on the turn track, which counts against its stacking and
    returns aboard [DTP 9.26], less those [DTP 9.28a] frees."""
    free = set(facts_of(state).not_9_26)
    return sorted(
        u
        for u in facts_of(state).recycle
        if u in state.units
        and state.units[u].box == "recycle"
        and u not in free
        and home_deck(game, state, u) == deck
    )


def occupancy(game: Game, state: GameState, deck: str) -> int:
    """Air units below decks plus its recycling air [9.62B, DTP 9.26]."""
    return len(box_contents(state, deck)) + len(recycling_against(game, state, deck))


def room_on(game: Game, state: GameState, deck: str, landing: int) -> bool:
    """``landing`` more units fit below decks [9.62B, DTP 9.26, 11.3 rule 1]."""
    return occupancy(game, state, deck) + landing <= capacity_9_62(game, deck)


def not_9_26_after_failed_landing(game: Game, state: GameState, unit: str) -> bool:
    """A carrier air unit that could not land because its home deck is at D2 or sunk goes
    through [DTP 8.51] outside [DTP 9.26] [DTP 9.28a]."""
    home = home_deck(game, state, unit)
    return home is not None and not operating(state, home)


def deck_with_room(
    game: Game, state: GameState, unit: str, hex_id: str, landing: dict[str, int]
) -> str | None:
    """The first deck in ``hex_id`` that takes ``unit`` and has room for it after the
    ``landing`` already counted on each deck; ``None`` if there is none."""
    for d in decks_in(game, state, unit, hex_id):
        if room_on(game, state, d, landing.get(d, 0) + 1):
            return d
    return None


def where(state: GameState, unit: str) -> str | None:
    """The hex a unit is in, or, below decks, its carrier's hex [9.62B]; ``None`` off the map."""
    st = state.units[unit]
    if st.location is not None:
        return st.location
    deck = carrier_of(st.box)
    return state.units[deck].location if deck is not None and deck in state.units else None


def deck_refusal(
    game: Game, state: GameState, unit: str, hex_id: str, landing: dict[str, int]
) -> Violation | None:
    """Why carrier air cannot land on a deck of its side and nationality in ``hex_id``: every
    one is at D2 or sunk [DTP 9.27, 8.55], or full after the ``landing`` already counted
    [9.62B, DTP 9.26]; ``None`` if no such deck is there (or one takes it)."""
    ud = game.unit(unit)
    side = state.units[unit].side
    mine = [
        s
        for s in state.stacks.get(hex_id, ())
        if state.units[s].side == side
        and is_deck(game, s)
        and game.unit(s).nationality == ud.nationality
    ]
    if not ud.has("carrier") or not mine:
        return None
    if not decks_in(game, state, unit, hex_id):
        levels = ", ".join(f"{s} D{deck_level(state, s)}" for s in sorted(mine))
        return Violation(
            "DTP 9.27",
            f"{unit} cannot land on {levels}: a D2 carrier conducts no air operations, nothing "
            "lands on it [DTP 8.55]",
            code="carrier-d2",
            word=hex_id,
            unit=unit,
            hint="land on an airbase of its side within range, or the unit recycles [DTP 8.51]",
        )
    if deck_with_room(game, state, unit, hex_id, landing) is None:
        return full_problem(game, state, unit, hex_id)
    return None


def full_problem(game: Game, state: GameState, unit: str, hex_id: str) -> Violation:
    """No deck in ``hex_id`` has room for ``unit`` [9.62B, DTP 9.26]."""
    ds = decks_in(game, state, unit, hex_id)
    held = ", ".join(
        f"{d} {occupancy(game, state, d)}/{capacity_9_62(game, d)}"
        + (f" with {len(r)} recycling" if (r := recycling_against(game, state, d)) else "")
        for d in ds
    )
    return Violation(
        "DTP 9.26" if any(recycling_against(game, state, d) for d in ds) else "9.62B",
        f"{unit} cannot land on a carrier in {hex_id}: full ({held}); the deck's air recycling "
        "on the turn track counts against it [DTP 9.26]",
        code="deck-full",
        word=hex_id,
        unit=unit,
        hint="land on an airbase of its side within range, or the unit recycles [DTP 8.51]",
    )


def land(game: Game, state: GameState, unit: str, hex_id: str) -> GameState:
    """Place a checked phase 6 landing [DTP 9.22]: below decks on a deck in ``hex_id`` with
    room (it stays aboard if it already is), recording its home deck [DTP 9.26]; otherwise on
    the airbase, which makes carrier air land-based."""
    st = state.units[unit]
    aboard = carrier_of(st.box)
    if aboard is not None and where(state, unit) == hex_id:
        return DtpFacts.put(state, home_deck={**facts_of(state).home_deck, unit: aboard})
    deck = deck_with_room(game, state, unit, hex_id, {})
    homes = dict(facts_of(state).home_deck)
    if deck is not None:
        homes[unit] = deck
        return DtpFacts.put(to_box(state, unit, deck), home_deck=homes)
    if game.unit(unit).has("carrier"):
        homes[unit] = ""
        state = DtpFacts.put(state, home_deck=homes)
    return move_piece(game, state, unit, hex_id)


def leave_9_28a(game: Game, state: GameState, unit: str) -> GameState:
    """Mark a unit that cannot land as outside [DTP 9.26] when its home deck is at D2 or sunk
    [DTP 9.28a]."""
    if not not_9_26_after_failed_landing(game, state, unit):
        return state
    free = sorted(set(facts_of(state).not_9_26) | {unit})
    return DtpFacts.put(state, not_9_26=free)


def returns_aboard_9_26(game: Game, state: GameState, unit: str) -> str | None:
    """The deck a unit coming back from the turn track returns on [DTP 9.26]: the home deck
    it counted against, while that deck still operates; ``None`` for any other unit (it is
    based on an airbase [DTP 8.51], interpretation DTP-41)."""
    if unit in set(facts_of(state).not_9_26):
        return None
    home = home_deck(game, state, unit)
    if home is None or unit not in recycling_against(game, state, home):
        return None
    return home if operating(state, home) else None


def return_problem_9_26(game: Game, state: GameState, unit: str, hex_id: str) -> Violation | None:
    """A ``base`` order for a unit that must return aboard its carrier names that carrier's hex
    [DTP 9.26]."""
    deck = returns_aboard_9_26(game, state, unit)
    if deck is None or where(state, deck) == hex_id:
        return None
    return Violation(
        "DTP 9.26",
        f"{unit} recycled against {deck}'s stacking and returns on the carrier, in "
        f"{where(state, deck)}, not in {hex_id}",
        code="returns-aboard",
        word=hex_id,
        unit=unit,
        hint=f"base {unit} {where(state, deck)}",
    )


def arrive_8_51(game: Game, state: GameState, unit: str, hex_id: str) -> GameState:
    """A checked returning unit arrives [DTP 8.51]: below decks on its carrier [DTP 9.26], or
    on the airbase in ``hex_id`` (carrier air is then land-based)."""
    deck = returns_aboard_9_26(game, state, unit)
    st = state.units[unit]
    if deck is not None:
        return to_box(state.with_unit(UnitState(unit, st.side, None, None)), unit, deck)
    if game.unit(unit).has("carrier"):
        homes = {**facts_of(state).home_deck, unit: ""}
        free = sorted(set(facts_of(state).not_9_26) - {unit})
        state = DtpFacts.put(state, home_deck=homes, not_9_26=free)
    return move_piece(game, state.with_unit(UnitState(unit, st.side, None, None)), unit, hex_id)
