"""Triggers: where one action on a counter implies another under the rules.

An eliminated unit scores its VP (issue 27). The ruleset says what each unit's loss scores at
once (``RulesetSchema.loss_score``: the ECM of a destroyed unit [13.0], the 2019 VP chart's row
[4.3], Carrier Battlegroup's Victory Point table [CBG 24.1]); every unit it scores for gets,
outermost on its counter:

* a **Trigger** (VASSAL's ``TriggerAction``, ``macro;``) watching the check key that every
  command taking a unit out of play fires before the unit moves (Eliminate, Ctrl+E; in Sixth
  Fleet 2019 also Refit Box and Permanently Eliminated Box: each a Trigger of the ``Unit``
  prototype owning the menu entry, :func:`exit_traits`), firing the score key while the unit
  is still in play, so Eliminate on a counter already in a dead pile scores nothing twice;
* a **Set Global Property** (``setprop;``) on that key adding the unit's VP to the track
  (``VP_NATO``), within the track's bounds;
* a **Report Action** on that key: ``2601: SO-CV-2 Kiev scores +5 to the NATO VP [13.0]``.

The score key is Ctrl+Alt+V, on no menu: only the Trigger presses it. Type strings as VASSAL
3.7.26 writes them (``TriggerAction.myGetType``, ``SetGlobalProperty.myGetType``, the
``DynamicKeyCommandListConfigurer`` value ``name:key:changer``, ``I,n`` an increment).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from referee.source.schema import LossScore
from referee.vassal.codec.pieces import Trait, UnknownTrait
from referee.vassal.codec.sequence import encode_sequence
from referee.vassal.module.properties import TrackProperty
from referee.vassal.module.traits import ELIMINATED_MAP, report_trait

__all__ = [
    "CHECK_KEY",
    "CTRL_ALT",
    "SCORE_KEY",
    "exit_traits",
    "loss_traits",
    "lost_at_traits",
    "out_of_play",
]

CTRL_ALT: Final = 650  # InputEvent CTRL_DOWN_MASK | ALT_DOWN_MASK with their old masks
SCORE_KEY: Final = f"{ord('V')},{CTRL_ALT}"
"""Ctrl+Alt+V: the key the Trigger fires to score a unit's loss (on no menu)."""
CHECK_KEY: Final = f"{ord('L')},{CTRL_ALT}"
"""Ctrl+Alt+L: fired by a menu command that takes a unit out of play, before it moves: a
unit whose loss scores answers it with the score key if it was in play."""


def _se(tokens: Sequence[str | int | bool | None], delimiter: str) -> str:
    return encode_sequence(tokens, delimiter) or ""


def out_of_play(lost_zones: Sequence[str]) -> str:
    """The scoring Trigger's condition: the unit is not on the Eliminated map nor in one of
    the map's boxes the rules count as lost (the 2019 Refit and Permanently Eliminated
    Boxes). It is read before the unit moves (:func:`exit_traits`)."""
    tests = [f'CurrentMap != "{ELIMINATED_MAP}"', *(f'CurrentZone != "{z}"' for z in lost_zones)]
    return "{" + " && ".join(tests) + "}"


def trigger_trait(
    watch: Sequence[str],
    fire: Sequence[str],
    condition: str,
    name: str,
    *,
    menu: str = "",
    key: str = "",
) -> Trait:
    """``TriggerAction``: its menu command and key (none by default), the property match, the
    watched keys, the keys fired, no loop (``counted``, 1), no index; the state is empty."""
    fields: list[str | int | bool | None] = [
        name,  # name (the editor's description)
        menu,  # menu command
        key,  # own key
        condition,
        _se(watch, ","),
        _se(fire, ","),
        False,  # loop
        "",  # pre-loop key
        "",  # post-loop key
        "counted",
        "",  # while
        "",  # until
        "1",  # loop count
        False,  # index
        "",  # index property
        "1",
        "1",
    ]
    return UnknownTrait("macro;" + _se(fields, ";"), "")


def set_global_trait(track: TrackProperty, key: str, vp: int, description: str) -> Trait:
    """``SetGlobalProperty`` adding ``vp`` to ``track`` on ``key`` (no menu text), numeric
    within the track's bounds; the property is looked up from the counter's zone and map out
    to the module, where the module's Global Properties are."""
    command = _se(["", key, _se(["I", vp], ",")], ":")
    fields: list[str | int | bool | None] = [
        track.name,
        _se([True, track.minimum, track.maximum, False], ","),
        _se([command], ","),
        description,
        "Current Zone/Current Map/Module",
        "",
    ]
    return UnknownTrait("setprop;" + _se(fields, ";"), "")


def exit_traits(command: str, stroke: str, hidden: str, send: Trait) -> list[Trait]:
    """A menu command that takes a unit out of play (Eliminate, Refit Box...) as a Trigger
    owning the menu entry and key ``stroke``: it fires :data:`CHECK_KEY` (a scoring unit
    scores while it still stands where it was), then ``hidden``, the key of the Send To
    ``send`` (which has no menu entry of its own). A Trigger passes a key inwards before it
    acts, so a Trigger that watched the Send To's own key would see the unit moved already."""
    return [trigger_trait((), [CHECK_KEY, hidden], "", command, menu=command, key=stroke), send]


def loss_traits(score: LossScore, track: TrackProperty, lost_zones: Sequence[str]) -> list[Trait]:
    """The Trigger, its report and its Set Global Property for one unit (outermost first).
    ``lost_zones``: the boxes where a unit already counts as lost."""
    side = track.title
    report = f"$location$: $newPieceName$ scores {score.vp:+d} to the {side} [{score.rule}]"
    return [
        trigger_trait(
            [CHECK_KEY], [SCORE_KEY], out_of_play(lost_zones), f"Eliminated: scores [{score.rule}]"
        ),
        report_trait((), f"Report the VP scored [{score.rule}]", fmt=report, strokes=[SCORE_KEY]),
        set_global_trait(
            track, SCORE_KEY, score.vp, f"{score.vp:+d} to {track.name} [{score.rule}]"
        ),
    ]


def lost_at_traits(layer: str, up_key: str, value: int, eliminate: str, rule: str) -> Trait:
    """A Trigger eliminating a unit whose damage layer ``layer`` reaches ``value`` (a ship
    sunk at D3 [DTP 8.55], past its Protection Rating [27.31]): it watches the layer's
    increase key ``up_key`` and fires ``eliminate`` (Ctrl+E, the Eliminate Trigger, which lets
    a scoring unit score). It acts after the Layer inside it has counted the damage; level
    ``n + 1`` of the layer shows the value ``n`` (:mod:`referee.vassal.module.levels`)."""
    return trigger_trait(
        [up_key], [eliminate], f"{{{layer}_Level > {value}}}", f"Sunk at {layer} {value} [{rule}]"
    )
