"""Rule flags: every interpretation of an unclear case, as a switch with a documented default.

The defaults are the resolutions recommended by the rules digest (§16); each is recorded in
``docs/interpretations.md`` with the case, the options and why. A game may override a flag in
the ``flags`` fact (a JSON object of field name -> value), so one module can host house
rules without code changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class RuleFlags:
    # the side ids the rulebook's "Soviet" and "NATO" rules ([14.1]-[14.4], [9.15]) refer to
    soviet_side: str = "Soviet"
    nato_side: str = "NATO"
    # [8.12] combine attackers from different hexes in one attack (digest §16.1: no)
    allow_multi_hex_attack: bool = False
    # [6.43B] compare MA only with enemy units that are neither air units nor unable to attack
    # the mover (digest §16.3); False compares with every unit exerting the ZOC
    zoc_b_ignores_air_and_harmless: bool = True
    # [7.44] an attack "has been made" on a unit once resolved, even with a '*' entry (§16.6);
    # False: a '*' attack (no effect, no roll) has not been made (combat_phase.py)
    star_counts_as_attacked: bool = True
    # [8.5] the non-phasing player's advance into a hex emptied by 8.24 retreats is his
    # decision ("if he wishes"): with no standing order for the hex he is asked (a pending
    # decision). False is the reading of games created before this ruling (standing orders
    # only, no advance otherwise); ``new_game`` records True in the ``flags`` fact, so a
    # state without the key replays as it was played (docs/interpretations.md [8.5])
    ask_advance_after_824: bool = False
    # [8.5.4] non-phasing units that advanced after an 8.24 retreat "may be subsequently
    # attacked ... during the same Combat Phase": the phasing player, whose attacks were
    # written before the retreats, may send a further [combat] file attacking them. False is
    # the reading of games created before this ruling (the phase ends after the retreats);
    # ``new_game`` records True (docs/interpretations.md [8.5.4])
    attack_advanced_8_5_4: bool = False
    # [8.5]/[10.45] units that may advance after combat; stacking limits still apply (§16.11)
    advance_limit: int = 3
    # [13.0] VP for units lost to over-stacking [7.0] and to [9.22] (§16.13: they score)
    overstack_losses_score: bool = True
    air_return_losses_score: bool = True
    # [14.1] VP for the First Strike losses (§16.13: configurable, default they score)
    first_strike_losses_score: bool = True
    # [14.4] earliest Game-Turn for Soviet naval entry into the gate hex = after_turn + roll
    # (§16.8: the worked example, roll 6 -> turn 16)
    black_sea_delay_adds_roll: bool = True
    # [12.1] the special first Game-Turn: only the second player's Movement Phase
    special_first_turn: bool = True
    # [9.63] air units in a carrier's holding box must move before the carrier moves
    carrier_air_moves_first: bool = True
    # [8.9] a differential above the top column uses the top column (§16.10)
    crt_top_column_caps: bool = True
    # [7.0] over-stacking at the end of movement is refused by the validator (True) or
    # allowed and punished by elimination at the opponent's choice (False, the rule's text)
    refuse_overstack: bool = False
    # [9.15] nationalities whose carrier air may use only their own CVs [9.61]
    carrier_only_nationalities: tuple[str, ...] = ("F", "Fr")
    # [14.4] the hex Black Sea naval units must pass (the Bosporus); "" = none on this map
    black_sea_gate: str = "2025"
    # [14.1] unit types eliminated with the CV: the Soviet submarine type closest to it
    first_strike_sub_types: tuple[str, ...] = ("SN",)
    # [13.0] the optional rule whose use costs the Soviet player VP [14.2]
    neutral_airspace_vp: int = -10
    # [14.2] terrain ids air units may enter once neutral air space is violated
    neutral_airspace_terrain: tuple[str, ...] = ("prohibited_land", "prohibited_coastal")
    # [14.3] countries whose airbases are used only with optional rule 14.3 (by map country
    # code or name); empty on maps without them
    middle_east_countries: tuple[str, ...] = ("Syria", "Egypt", "Israel")
    # [13.12] the country whose coastal hexes must trace a line to the western edge
    israel_country: str = "Israel"

    def with_overrides(self, overrides: Mapping[str, Any] | None) -> RuleFlags:
        if not overrides:
            return self
        known = {f.name for f in fields(self)}
        clean: dict[str, Any] = {}
        for k, v in overrides.items():
            if k in known:
                clean[k] = tuple(v) if isinstance(v, list) else v
        return replace(self, **clean)


DEFAULT_FLAGS = RuleFlags()

NEW_GAME_FLAGS: dict[str, Any] = {"ask_advance_after_824": True, "attack_advanced_8_5_4": True}
"""Flags ``new_game`` records in a new game's ``flags`` fact: rulings adopted after
games were already being played, oldest first, whose dataclass default stays the old reading
so that a state without the key (an older archive) replays unchanged [8.5][8.5.4]."""
