"""[DTP 11.5082, 11.5083] Westpac's bases by nationality, and the diversion to a friendly base.

"The air units of the various combatants may only be operated from, or placed as
reinforcements, at the following bases" [DTP 11.5082]: a nation's own bases (the map's
``[[airbase]]`` nationality) and those the module's ``base_rules`` table shares with it (the
US-marked bases are also Japan's, South Korea's or the Philippines' where they stand, four of
them Australia's; Cam Ranh Bay is Soviet and Vietnamese). Soviet *reinforcements* are placed
only on mainland or Sakhalin bases unless the track names the base: the table marks the others
``reinforcement = track`` (Petropavlovsk, Burevestnik, Cam Ranh Bay).

"If ... an air unit cannot land at a base available to its nationality, but can land at some
other 'friendly' base, then it undergoes the modified damage procedure set out in rule case
[9.1]" [DTP 11.5083]: SPI's 9.15 landing at another NATO nation's base, with the kit's extra
on the 2d6 [DTP 9.15], here for both sides. "All bases on each side are generally considered
'friendly' ... except for PRC bases": a PRC unit may never land at another nation's base nor
another East Block unit at a PRC base; the landing is refused.

The rules apply in a module with national co-operation (:func:`national_11_508`: the PRC is
one of its nationalities, which only Westpac has); in every other module
:func:`other_base_11_5083` is SPI's NATO-only 9.15 and nothing here refuses anything.
"""

from __future__ import annotations

from referee.engine.core import Violation
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp import special_bases
from referee.rules.sixth_fleet_dtp.westpac_national import PRC, national_11_508

RULE_BASES, RULE_DIVERT = "DTP 11.5082", "DTP 11.5083"
SOVIET = "So"
TRACK_ONLY = "track"  # base_rules ``reinforcement``: placed there only when the track says so


def _side_of(game: Game, nationality: str) -> str | None:
    nat = game.module.nationalities.get(nationality)
    return nat.side if nat is not None else None


def may_use_11_5082(game: Game, unit: str, hex_id: str) -> bool:
    """The base in ``hex_id`` is one the unit's nationality may operate from [DTP 11.5082]."""
    return game.unit(unit).nationality in special_bases.nationalities_11_3_3(game, hex_id)


def may_place_11_5082(game: Game, unit: str, hex_id: str, named: bool = False) -> bool:
    """A reinforcement of ``unit`` may be placed at the base in ``hex_id``: one its nationality
    may use, and for a Soviet unit a mainland or Sakhalin base unless the track names this one
    (``named``) [DTP 11.5082]. Always true in a module without national co-operation."""
    if not national_11_508(game.module):
        return True
    if game.board.airbase(hex_id) is None or not may_use_11_5082(game, unit, hex_id):
        return False
    if named or game.unit(unit).nationality != SOVIET:
        return True
    rule = special_bases.rule_at(game.module, hex_id)
    row = _reinforcement_of(game, rule.name) if rule is not None else ""
    return row != TRACK_ONLY


def _reinforcement_of(game: Game, base: str) -> str:
    t = game.module.tables.get("base_rules")
    if t is None or "reinforcement" not in {c.text for c in t.column_keys}:
        return ""
    col = t.column("reinforcement")
    row = next(r for r, k in enumerate(t.row_keys) if k.text == base)
    return str(t.cells[row][col]).strip()


def _prc_base(game: Game, hex_id: str) -> bool:
    return PRC in special_bases.nationalities_11_3_3(game, hex_id)


def friendly_11_5083(game: Game, unit: str, hex_id: str) -> bool:
    """A base of the unit's side that is 'friendly' to it: not a PRC base for another East
    Block nation's unit, nor another nation's base for a PRC unit [DTP 11.5083]."""
    base = game.board.airbase(hex_id)
    if base is None or _side_of(game, base.nationality) != game.unit(unit).side:
        return False
    if not national_11_508(game.module):
        return True
    return (game.unit(unit).nationality == PRC) == _prc_base(game, hex_id)


def other_base_11_5083(game: Game, unit: str, hex_id: str) -> bool:
    """Landing at ``hex_id`` is a landing at another nation's base, which goes through the
    modified damage procedure [9.15; DTP 9.15]: SPI's NATO-only case [9.15] in every module
    but Westpac, where it is any air unit at a base its nationality may not use
    [DTP 11.5082, 11.5083]."""
    if not national_11_508(game.module):
        return special_bases.other_nato_base_9_15(game, unit, hex_id)
    return game.board.airbase(hex_id) is not None and not may_use_11_5082(game, unit, hex_id)


def diversion_rule(game: Game) -> str:
    """The case a landing at another nation's base is refused or diverted under."""
    return RULE_DIVERT if national_11_508(game.module) else "9.15"


def returning_rule(game: Game) -> str:
    """The case a recycled air unit returning to another nation's base is refused under: the
    kit's 9.15, or in Westpac the bases of the correct nationality [DTP 11.5061, 11.5082]."""
    return "DTP 11.5061" if national_11_508(game.module) else "DTP 9.15"


def diversion_event_rule(game: Game) -> str:
    """The case the diversion's 8.51 roll cites: the kit's 9.15, or Westpac's 11.5083."""
    return RULE_DIVERT if national_11_508(game.module) else "DTP 9.15"


def other_words(game: Game) -> str:
    """How a refusal names the other base: NATO's in SPI's words, a nation's in Westpac's."""
    if national_11_508(game.module):
        return "another nation's base [DTP 11.5082] [DTP 11.5083]"
    return "another NATO nation's base"


def unfriendly_11_5083(game: Game, unit: str, hex_id: str) -> Violation | None:
    """A landing the PRC rule forbids outright: a PRC unit at another nation's base, or
    another East Block unit at a PRC base [DTP 11.5083]."""
    if not national_11_508(game.module) or game.board.airbase(hex_id) is None:
        return None
    base = game.board.airbase(hex_id)
    assert base is not None
    if _side_of(game, base.nationality) != game.unit(unit).side:
        return None  # an enemy base: the side's own check refuses it
    if friendly_11_5083(game, unit, hex_id):
        return None
    whose = "a PRC base" if _prc_base(game, hex_id) else "another nation's base"
    return Violation(
        RULE_DIVERT,
        f"{unit} may not land at {hex_id}, {whose}: PRC bases are not friendly to the other East "
        "Block nations, nor theirs to the PRC",
        code="unfriendly-base",
        word=hex_id,
        unit=unit,
        hint="land at a base of the unit's own nation (or, if none is in range, another "
        "friendly one)",
    )


def placement_problem_11_5082(game: Game, unit: str, hex_id: str) -> Violation | None:
    """An air unit set up or placed on a base its nationality may not use [DTP 11.5082]."""
    if not national_11_508(game.module) or game.category(unit) != "air":
        return None
    if game.board.airbase(hex_id) is None or may_use_11_5082(game, unit, hex_id):
        return None
    nat = game.unit(unit).nationality
    name = game.module.nationalities[nat].name if nat in game.module.nationalities else nat
    return Violation(
        RULE_BASES,
        f"{unit} ({name}) may not be placed at {hex_id}: not a base its nationality may use",
        code="not-national-base",
        word=hex_id,
        unit=unit,
        hint="bases by nationality: the map's nationality of each base and base_rules.csv",
    )
