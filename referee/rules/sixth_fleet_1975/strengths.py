"""Which strength counts, and how much it is worth now [8.41]-[8.45], [9.52], [10.31].

Strengths are exact :class:`~fractions.Fraction` values: a daylight air unit's halved strength
keeps its fraction at night [9.52], so a 5 becomes 5/2, not 2.
"""

from __future__ import annotations

from fractions import Fraction

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.context import Game

ATTACK_KEY = {"air": "AA", "surface": "AS", "submarine": "ASW"}


def attack_key_8_43(target_category: str) -> str:
    """The attacker's strength used against a target: AA vs air, AS vs surface, ASW vs
    submarines [8.43]; a Defended hex is attacked with AS [10.44] (category ``defended``)."""
    return "AS" if target_category == "defended" else ATTACK_KEY[target_category]


def can_attack_6_41(game: Game, attacker: str, target_category: str) -> bool:
    """CanAttack: the printed strength of the right type is above zero [6.41][8.41]. Halving
    at night never makes a positive strength zero [9.52], so the printed value decides."""
    return game.value(attacker, attack_key_8_43(target_category)) > 0


def can_attack_unit(game: Game, attacker: str, target: str) -> bool:
    return can_attack_6_41(game, attacker, game.category(target))


def attack_strength_8_45(
    game: Game, state: GameState, attacker: str, target_category: str
) -> Fraction:
    """The modified attack strength: the printed value, halved (fractions kept) for a daylight
    air unit on a night Game-Turn [8.45][9.52]."""
    v = Fraction(game.value(attacker, attack_key_8_43(target_category)))
    if game.is_air(attacker) and game.unit(attacker).has("daylight") and game.is_night(state):
        v /= 2
    return v


def defense_strength_8_44(game: Game, state: GameState, defender: str, hex_id: str) -> Fraction:
    """The modified Defense: naval units in Restricted Water are doubled [8.44][10.31] (the
    multiplier is terrain data); air units never are."""
    v = Fraction(game.value(defender, "DEF"))
    if game.is_naval(defender):
        v *= game.board.defense_multiplier(hex_id, game.category(defender))
    return v


def fmt(x: Fraction) -> str:
    """A strength as players write it: ``12``, ``5/2``."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
