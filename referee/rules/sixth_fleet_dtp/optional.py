"""The optional rules a DTP game may be played with (``referee new --option CASE``), and where
each applies (:mod:`referee.engine.optional_rules` checks the choice and keeps it in
``state.options``).

The kit amends SPI case by case and leaves what it does not name as SPI wrote it [DTP 101.1]:
SPI's optional rules [14.1]-[14.4] stay in force in the Mediterranean scenarios [DTP 11.0],
played by SPI's own code (``sixth_fleet_1975.optional``, ``middle_east``, ``blacksea``). The
other scenarios are not SPI's: the Denmark Strait, Iceland and Westpac scenarios have their own
special rules [DTP 11.3, 11.31, 11.5], and Westpac its own options [DTP 11.513].
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.optional_rules import OptionalRule
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp import westpac_options
from referee.rules.sixth_fleet_dtp.facts import facts_of
from referee.source.model import Module


def med_11_0(module: Module) -> bool:
    """A module of SPI's Mediterranean scenarios [DTP 11.0]: it scores on SPI's Level of
    Victory table [13.2]; the North Atlantic and Westpac modules give their own bands
    (``victory_levels``) [DTP 11.3 victory 3, 11.512]."""
    return "victory_levels" not in module.tables


def not_med_14_0(module: Module, scenario: str) -> str | None:
    """SPI's optional rules are the Mediterranean's [14.0, DTP 11.0]."""
    if med_11_0(module):
        return None
    return "SPI's optional rules 14.1-14.4 apply to the Mediterranean scenarios only [DTP 11.0]"


PLAYED: tuple[OptionalRule, ...] = (
    OptionalRule("14.1", "Soviet First Strike", not_med_14_0),
    OptionalRule("14.2", "Violation of Neutral Air Space", not_med_14_0),
    OptionalRule("14.3", "Middle East Air Force Participation", not_med_14_0),
    # rolled in the Campaign's Reinforcement Interphase [12.2] (``reinforcement.py``); the
    # 10 Game-Turn scenario has none, so there, as in SPI, it changes nothing
    OptionalRule("14.4", "Delay of the Soviet Black Sea Fleet", not_med_14_0),
    *westpac_options.OPTIONS,  # Westpac's own [DTP 11.5131-11.5134]
)
"""The optional rules the DTP ruleset plays, each with the scenarios it applies to."""


def first_strike_due_14_1(game: Game, state: GameState, side: str | None) -> bool:
    """SPI's First Strike comes before the first Soviet Movement Phase [14.1]: under DTP the
    Soviet player's first ship and sub movement phase [DTP 4.1, 11.0]."""
    return (
        "14.1" in state.options
        and side == game.flags.soviet_side
        and not facts_of(state).first_strike_done
    )
