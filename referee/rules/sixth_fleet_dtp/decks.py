"""What a deck is and how much it holds [9.61, 9.62B; DTP 9.24, 11.3 rule 1]: the ships carrier air
may use as a base and the number of air units each carries below decks. The carrier orders
(``carriers.py``) and landing (``landing.py``) both read it."""

from __future__ import annotations

from referee.rules.sixth_fleet_1975.air import HOLDING_BOX_LIMIT
from referee.rules.sixth_fleet_1975.context import Game
from referee.source.boxes import holding_box

FLIGHT_DECK = "flight_deck"
"""The roster flag of a ship other than a CV whose carrier air uses it (interpretation DTP-40:
the Kiev, drawn as type CH in the Denmark Strait module)."""


def is_deck(game: Game, ship: str) -> bool:
    """A ship carrier air may use as its base [9.61, 9.62; DTP 9.24 "land or CV"]: a CV, or a
    ship flagged ``flight_deck`` (the Kiev: her Forgers fly CAP over her [DTP 8.233] and rebase
    "from Kiev" [DTP 11.3 rule 5])."""
    ud = game.unit(ship)
    return ud.category == "surface" and (ud.type == "CV" or ud.has(FLIGHT_DECK))


def capacity_9_62(game: Game, cv: str) -> int:
    """How many air units ``cv`` carries below decks: SPI's six [9.62B], or the number the
    scenario's set-up puts aboard where that is more (Nimitz: 7 [DTP 11.3 rule 1])."""
    box = holding_box(cv)
    aboard = sum(1 for f in game.scenario.fixed if f.status == box)
    return max(HOLDING_BOX_LIMIT, aboard)
