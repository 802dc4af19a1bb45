"""DTP rule flags: each interpretation of an unclear DTP case that a group may want to play
the other way, as a switch with the documented default (``docs/interpretations.md``, DTP-2
and DTP-13; digest 9.2 and 9.13 recommend a flag for each; DTP-50: the kit's "suggested
limit" on SG base attacks [DTP 11.3 rule 4]; DTP-6: bases attacking air units [DTP 10.41],
whose strength the kit does not give).

A game may override a flag in ``state.data["dtp_flags"]`` (field name -> value), as SPI
games do with ``state.data["flags"]`` (the SPI flags stay SPI's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from referee.engine.core import GameState
from referee.rules.sixth_fleet_dtp.facts import facts_of


@dataclass(frozen=True, slots=True)
class DtpFlags:
    # digest 9.2: an attacker may also skip stacked units that cannot attack it (zero strength
    # against its category), as the combat example's Tu22 skips the S3s [DTP 8.233, 7.45]
    skip_harmless_units: bool = True
    # digest 9.13: [DTP 9.15] "deduct 3 from the 2D6 roll" read literally (-3, a shorter
    # delay); False takes the evident intent (+3, a longer one)
    other_nato_base_literal: bool = True
    # [DTP 11.3 rule 4] "Suggested limit: one such attack per SG per game" taken as a rule
    # (DTP-50): each sub the scenario lets attack coastal bases does so once per game
    one_sg_base_attack: bool = True
    # [12.2] the Campaign's Reinforcement Interphase after Game-Turn 10 in the Med ("all other
    # SPI scenario rules apply" [DTP 11.0]); False is the reading of games created before it
    # was built (no interphase, the reinforcements never arrive). ``new_game`` records True
    # for a Med scenario with reinforcements, so an older archive replays as it was played
    reinforcement_interphase_12_2: bool = False
    # [DTP 10.41] bases attack air units: the kit states no strength (digest 9.6, DTP-6).
    # False (the default): no such attack; True: a base answers each air strike on it with an
    # estimated AA of 2 x ECM (``base_air_defence.py``)
    bases_attack_air: bool = False
    # [DTP 11.5063] Westpac's ship and sub reinforcements still over the stacking limit at the
    # end of their owner's next ship and sub movement phase: the owner eliminates the excess.
    # False is the reading of games created before it was played (an over-limit entry hex
    # could stay so); ``new_game`` records True for a scenario with the DTP reinforcement
    # track, so an older archive replays as it was played
    eliminate_overstacked_11_5063: bool = False
    # [DTP 11.5126] "fractions are kept": how the score's words and report tables write them.
    # True: as people read them, "81 3/4" (the score says ``"fractions": "mixed"``, the result
    # and the game-over event are worded so); False: as the exact "327/4", the wording of games
    # created before (their signed reports keep it). ``new_game`` records True for Westpac.
    # A way of writing, not a reading of the rules: the points are the same either way
    mixed_fractions_11_5126: bool = False

    def with_overrides(self, raw: Mapping[str, Any] | None) -> DtpFlags:
        """These flags with a game's overrides; unknown names and wrong types are refused."""
        if not raw:
            return self
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for name, value in raw.items():
            if name not in known:
                raise ValueError(f"unknown DTP rule flag {name!r}; flags: {', '.join(known)}")
            if type(value) is not type(getattr(self, name)):
                raise ValueError(f"DTP rule flag {name!r} must be {type(getattr(self, name))}")
            changes[name] = value
        return replace(self, **changes)


DEFAULT_FLAGS = DtpFlags()

NEW_GAME_FLAGS: dict[str, Any] = {"reinforcement_interphase_12_2": True}
"""Flags ``new_game`` records in ``state.data["dtp_flags"]`` where they matter (a Med
scenario with SPI reinforcements [12.2]): rulings adopted after DTP games were already being
played, oldest first, whose default stays the old reading (``earlier_starts``)."""

WESTPAC_NEW_GAME_FLAGS: dict[str, Any] = {
    "eliminate_overstacked_11_5063": True,
    "mixed_fractions_11_5126": True,
}
"""Flags ``new_game`` records for a scenario with the DTP reinforcement track (Westpac
[DTP 11.506]), adopted after Westpac games could be played, oldest first; same reading as
:data:`NEW_GAME_FLAGS`."""

LATER_FLAGS: dict[str, Any] = {**NEW_GAME_FLAGS, **WESTPAC_NEW_GAME_FLAGS}
"""Every ruling a new game may record, oldest first (``earlier_starts`` drops them)."""


def flags_of(state: GameState) -> DtpFlags:
    """The DTP flags of a game: the defaults with its ``dtp_flags`` overrides."""
    return DEFAULT_FLAGS.with_overrides(facts_of(state).dtp_flags)


def other_nato_base_extra_9_15(flags: DtpFlags) -> int:
    """The extra on the 2d6 of [DTP 9.15]: -3 as written, or +3 (digest 9.13)."""
    return -3 if flags.other_nato_base_literal else 3
