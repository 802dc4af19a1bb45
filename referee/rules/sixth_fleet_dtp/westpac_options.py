"""[DTP 11.513] Westpac's optional rules, chosen at ``referee new --option CASE`` and read from
``state.options``; and the SG base attacks they change [DTP 11.5093].

* 11.5131 emergency pre-war improvements to old cruisers: "Replace US#13 CG Chicago with US#14
  CG Chicago+. Replace SO#14 CL Alexandr Suvorov, and SO#15 CL Dimitriy Pozharskiy, with SO#16
  CL Alexandr Suvorov bis, and SO#17 CL Dimitriy Pozharskiy bis." The players set up the
  printed cruisers as the set-up chart says; when the set-up is over, each improved unit takes
  its place (:func:`cruisers_11_5131`).
* 11.5132 variable game end: the armistice roll (:mod:`westpac_armistice`).
* 11.5133 Soviet SG attacks against bases: "Allow each soviet SG to make one (only) attack
  against a coastal base, with its surface attack strength." Without it only the Whiskey Long
  Bin SG #51 attacks bases [11.5093]; with it every Soviet SG may, once (the one-attack record
  is ``sg_base_attacks``, DTP-50) (:func:`sg_attack_problems_11_5093`).
* 11.5134 the Korean land war: the East Block's capture (``westpac_korea``).

Each applies only to a scenario that declares it (``optional_rules`` of the scenario: Westpac).
"""

from __future__ import annotations

from collections.abc import Callable

from referee.engine.core import Event, GameState, UnitState, Violation
from referee.engine.optional_rules import OptionalRule
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.detection import STATUS
from referee.rules.sixth_fleet_dtp.facts import facts_of
from referee.source.model import Module

CRUISERS, ARMISTICE, SG_ATTACKS, KOREA = "11.5131", "11.5132", "11.5133", "11.5134"
SWAPS_11_5131 = (("US-CG-13", "US-CG-14"), ("SO-CL-14", "SO-CL-16"), ("SO-CL-15", "SO-CL-17"))
LONG_BIN = "SO-SG-51"  # "the Whiskey 'Long Bin' converted diesel subs" [DTP 11.5093]
SOVIET = "So"
REPLACED = "replaced"


def _declared(option: str) -> Callable[[Module, str], str | None]:
    """The test of where ``option`` applies: a scenario that declares it."""

    def not_here(module: Module, scenario: str) -> str | None:
        if option in module.scenario(scenario).optional_rules:
            return None
        return f"only the Westpac scenario has optional rule {option} [DTP 11.513]"

    return not_here


OPTIONS: tuple[OptionalRule, ...] = (
    OptionalRule(CRUISERS, "Emergency pre-war improvements to old cruisers", _declared(CRUISERS)),
    OptionalRule(ARMISTICE, "Variable game end", _declared(ARMISTICE)),
    OptionalRule(SG_ATTACKS, "Soviet SG attacks against bases", _declared(SG_ATTACKS)),
    OptionalRule(KOREA, "SEATO loss of territory in the Korean ground war", _declared(KOREA)),
)


def cruisers_11_5131(game: Game, state: GameState, events: list[Event]) -> GameState:
    """The end of the set-up with option 11.5131: each improved cruiser takes the place of the
    one it replaces, which leaves the game (box ``replaced``: not a loss) [DTP 11.5131]."""
    if CRUISERS not in state.options:
        return state
    for old, new in SWAPS_11_5131:
        was = state.units.get(old)
        if was is None or (new in state.units and state.units[new].location is not None):
            continue
        state = state.with_unit(UnitState(old, was.side, None, REPLACED, frozenset()))
        state = state.with_unit(UnitState(new, was.side, was.location, was.box, was.status))
        events.append(
            Event(
                "replace",
                "DTP 11.5131",
                f"{new} replaces {old} at {was.location or was.box} (optional rule 11.5131)",
                {"unit": new, "replaces": old, "hex": was.location},
            )
        )
    return state


def _base_attack(o: Order) -> bool:
    return any(t.startswith("hex:") for t in o.targets)


def sg_attack_problems_11_5093(game: Game, state: GameState, o: Order) -> list[Violation]:
    """An ``attack`` by Soviet SGs in Westpac: the Long Bin only on a coastal base
    [DTP 11.5093]; any other Soviet SG on a base only with option 11.5133. Empty elsewhere
    (a module without the Long Bin)."""
    if o.verb != "attack" or LONG_BIN not in state.units:
        return []
    sgs = [u for u in o.units if u in state.units and game.unit(u).type == "SG"]
    out: list[Violation] = []
    if LONG_BIN in sgs and not _base_attack(o):
        out.append(
            Violation(
                "DTP 11.5093",
                f"{LONG_BIN} (the Whiskey Long Bin) may only attack coastal bases",
                code="long-bin-target",
                word=LONG_BIN,
                unit=LONG_BIN,
                hint="attack a coastal base: attack SO-SG-51 -> hex:NNNN",
            )
        )
    others = [u for u in sgs if u != LONG_BIN and game.unit(u).nationality == SOVIET]
    if _base_attack(o) and others and SG_ATTACKS not in state.options:
        out.append(
            Violation(
                "DTP 11.5133",
                f"{', '.join(others)} may attack a base only under optional rule 11.5133 "
                "(each Soviet SG one attack on a coastal base); without it only the Long Bin "
                "SG #51 may [DTP 11.5093]",
                code="sg-base-attack-option",
                word=others[0],
                unit=others[0],
            )
        )
    return out


def long_bin_gone_11_5093(game: Game, state: GameState, events: list[Event]) -> GameState:
    """ "Once it has expended its missiles in this attack, it is removed from the map as soon as
    its detected marker is removed" [DTP 11.5093]: after the marker removal of its owner's
    ship and sub movement phase, the Long Bin that has attacked and is no longer Detected
    leaves the map (box ``expended``; not sunk, no VP)."""
    u = state.units.get(LONG_BIN)
    fired = LONG_BIN in facts_of(state).sg_base_attacks
    if u is None or u.location is None or not fired or STATUS["submarine"] in u.status:
        return state
    events.append(
        Event(
            "expended",
            "DTP 11.5093",
            f"{LONG_BIN} has fired its missiles and is no longer Detected: it leaves the map",
            {"unit": LONG_BIN, "hex": u.location},
        )
    )
    return state.with_unit(UnitState(LONG_BIN, u.side, None, "expended", frozenset()))
