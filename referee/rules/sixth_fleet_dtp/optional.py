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

from referee.engine.optional_rules import OptionalRule
from referee.rules.sixth_fleet_dtp import westpac_options
from referee.source.model import Module


def med_11_0(module: Module) -> bool:
    """A module of SPI's Mediterranean scenarios [DTP 11.0]: it scores on SPI's Level of
    Victory table [13.2]; the North Atlantic and Westpac modules give their own bands
    (``victory_levels``) [DTP 11.3 victory 3, 11.512]."""
    return "victory_levels" not in module.tables


PLAYED: tuple[OptionalRule, ...] = (*westpac_options.OPTIONS,)  # [DTP 11.5131-11.5134]
"""The optional rules the DTP ruleset plays, each with the scenarios it applies to."""
