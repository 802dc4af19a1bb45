"""The module's one turn tracker: Game-Turn, day/night and the ruleset's sequence of play.

VASSAL's ``TurnTracker`` holds nested levels; ours has two. The **Game-Turn** level lists
every scenario's turns with their day/night state (``GT 3 Night`` [8.45, 9.52]); scenarios
with the same turn record share their items. A scenario's set-up save (and every
``position.vsav``) marks only that scenario's items active, so the one tracker counts that
scenario's turns and wraps after its last one (``ListTurnLevel`` skips inactive items). The
**Phase** level lists the steps of the ruleset's sequence of play, read as data from
:attr:`referee.source.schema.RulesetSchema.sequence` (the same declaration the referee's
sequence is held to), named by side when every scenario has the same first player
(``NATO Combat Phase``), else ``First Player Combat Phase``. A step declared ``once`` (set-up)
is an inactive item: a save may put the tracker there, and the first *Next* leaves it for
good.

When a step ends, the markers it ends are cleared: a ``TurnGlobalHotkey`` fires on the step
after it and a module ``GlobalKeyCommand`` sends the marker layer's own key to every counter
whose layer is on (only the phasing side's, for a marker declared ``phasing``): "Attacked"
at the end of each Combat Phase [7.44], "Returning" at the end of its side's Movement Phase,
when air units have landed [9.22].

The tracker's saved state (``TURNTurnTracker0<TAB>state``) is written by
:func:`tracker_state` in the format of VASSAL 3.7's ``TurnTracker.getState``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from referee.source.model import Module, Scenario
from referee.source.schema import PhaseDecl
from referee.vassal.codec.sequence import encode_sequence, encode_string_array

__all__ = [
    "PHASE_PROPERTY",
    "TRACKER_ID",
    "TURN_PROPERTY",
    "ClearDef",
    "TrackerPlan",
    "plan_tracker",
    "tracker_state",
    "turn_list",
]

TRACKER_ID: Final = "TurnTracker0"
"""VASSAL numbers trackers ``TurnTracker<n>`` in module order; the module has one."""
TURN_PROPERTY: Final = "GameTurn"
PHASE_PROPERTY: Final = "Phase"
CTRL_SHIFT: Final = 195
"""``InputEvent`` CTRL_MASK | CTRL_DOWN_MASK | SHIFT_MASK | SHIFT_DOWN_MASK."""
F1: Final = 112
"""Java ``KeyEvent.VK_F1``: the clearing commands listen on Ctrl+Shift+F1, F2..."""


@dataclass(frozen=True, slots=True)
class ClearDef:
    """One clearing command: when the tracker reaches ``phase``, counters whose ``layer`` is
    on (and, if ``side`` is set, whose ``Side`` is that side) get the layer's ``key``."""

    name: str
    phase: str  # the Phase item that starts when the ending step is over
    layer: str
    side: str
    hotkey: str  # the global key the TurnGlobalHotkey fires and the GlobalKeyCommand hears
    rule: str

    @property
    def match(self) -> str:
        """The TurnGlobalHotkey's condition (a BeanShell expression)."""
        return "{" + f'{PHASE_PROPERTY}=="{self.phase}"' + "}"

    @property
    def filter(self) -> str:
        """The GlobalKeyCommand's piece filter (a property match)."""
        text = f"{self.layer}_Active = true"
        return text + (f" && Side = {self.side}" if self.side else "")


@dataclass(frozen=True, slots=True)
class TrackerPlan:
    """The tracker's levels, each scenario's range of Game-Turn items and the clearings."""

    turns: tuple[str, ...]
    ranges: Mapping[str, tuple[int, int]]  # scenario id -> (first item, number of items)
    phases: tuple[str, ...]
    steps: tuple[PhaseDecl, ...]
    players: Mapping[str, str]  # "first"/"second" -> side id, when every scenario agrees
    clears: tuple[ClearDef, ...]

    def phase_index(self, scenario: Scenario | None, phase: str, side: str | None) -> int:
        """The Phase item of an engine step (``state.phase`` and the phasing side): the
        step with that id (or with it ``within``) whose player is ``side`` (or of both),
        else the first step."""
        role = ""
        if scenario is not None and side:
            if side == scenario.first_player:
                role = "first"
            elif side in _sides(scenario):
                role = "second"
        wanted = phase.replace("-", "")  # "set-up" and "setup" are one step
        candidates = [
            i
            for i, s in enumerate(self.steps)
            if wanted in (s.id.replace("-", ""), *(w.replace("-", "") for w in s.within))
        ]
        for i in candidates:
            if self.steps[i].player in ("", role):
                return i
        if candidates:
            return candidates[0]
        return next((i for i, s in enumerate(self.steps) if not s.once), 0)


def turn_list(scenario: Scenario) -> list[str]:
    """The turn record of a scenario: ``GT 1 AM``, ``GT 2 PM``, ``GT 3 Night``..."""
    states = list(scenario.turn_states) + [""] * (scenario.turns - len(scenario.turn_states))
    return [f"GT {i} {state}".strip() for i, state in enumerate(states, start=1)]


def _sides(scenario: Scenario) -> list[str]:
    """The scenario's sides: its set-up order, then any other side with forces."""
    sides = list(scenario.setup_order)
    sides += [s for s in sorted(scenario.forces) if s not in sides]
    return sides


def _players(module: Module) -> dict[str, str]:
    """First and second player side ids when every scenario has the same ones."""
    pairs = set()
    for scn in module.scenarios.values():
        others = [s for s in _sides(scn) if s != scn.first_player]
        pairs.add((scn.first_player, others[0] if len(others) == 1 else ""))
    if len(pairs) != 1:
        return {}
    first, second = pairs.pop()
    return {"first": first, "second": second} if first and second else {}


def _step_name(module: Module, step: PhaseDecl, players: Mapping[str, str]) -> str:
    """``NATO Combat Phase``, ``First Player Combat Phase`` or, for a step named by its
    player turn, ``Soviet Player Turn: Reaction Phase``."""
    if not step.player:
        return step.name
    side = players.get(step.player)
    if side is None:
        who = f"{step.player.capitalize()} Player"
        return f"{who} Turn: {step.name}" if step.player_turn else f"{who} {step.name}"
    names = {s.id: s.name for s in module.sides}
    turn = " Player Turn:" if step.player_turn else ""
    return f"{names.get(side, side)}{turn} {step.name}"


def plan_tracker(module: Module, layers: Mapping[str, str]) -> TrackerPlan:
    """The tracker of ``module``. ``layers`` maps a marker id (``attacked``) to the name of
    the counter Layer that shows it (``Attacked``); a marker without a layer is not cleared."""
    turns: list[str] = []
    ranges: dict[str, tuple[int, int]] = {}
    seen: dict[tuple[str, ...], tuple[int, int]] = {}
    for scn in module.scenarios.values():
        items = tuple(turn_list(scn))
        if items not in seen:
            seen[items] = (len(turns), len(items))
            turns.extend(items)
        ranges[scn.id] = seen[items]
    schema = module.schema
    steps = tuple(schema.sequence) if schema is not None else ()
    players = _players(module)
    markers = {m.id: m for m in schema.markers} if schema is not None else {}
    phasing = {m.id for m in markers.values() if m.phasing}
    phases = tuple(_step_name(module, s, players) for s in steps)
    clears: list[ClearDef] = []
    for i, step in enumerate(steps):
        if not step.ends:
            continue
        after = next(
            (phases[(i + k) % len(steps)] for k in range(1, len(steps) + 1)
             if not steps[(i + k) % len(steps)].once),
            phases[i],
        )  # fmt: skip
        for marker in step.ends:
            layer = layers.get(marker)
            if layer is None:
                continue
            side = players.get(step.player, "") if marker in phasing else ""
            clears.append(
                ClearDef(
                    name=f"Clear {layer}: end of {phases[i]}",
                    phase=after,
                    layer=layer,
                    side=side,
                    hotkey=f"{F1 + len(clears)},{CTRL_SHIFT}",
                    rule=markers[marker].rule if marker in markers else step.rule,
                )
            )
    return TrackerPlan(tuple(turns), ranges, phases, steps, players, tuple(clears[:12]))


def _se(tokens: list[str | int | bool | None], delimiter: str) -> str:
    return encode_sequence(tokens, delimiter) or ""


def tracker_state(
    plan: TrackerPlan,
    scenario: Scenario | None,
    turn: int,
    phase: str,
    side: str | None = None,
) -> str:
    """``TurnTracker.getState`` for the step ``(turn, phase, side)`` of ``scenario``: only the
    scenario's Game-Turn items active, the Game-Turn at ``turn`` (1 for set-up, the last for
    a finished game) and the Phase at the engine's step."""
    first, count = (0, len(plan.turns))
    if scenario is not None and scenario.id in plan.ranges:
        first, count = plan.ranges[scenario.id]
    current = first + min(max(turn, 1), max(count, 1)) - 1
    active = [first <= i < first + count for i in range(len(plan.turns))]
    turn_tokens: list[str | int | bool | None] = [
        current,
        0,
        first,
        encode_string_array(["true" if a else "false" for a in active]),
    ]
    if plan.phases:
        index = plan.phase_index(scenario, phase, side)
        phase_active = ["false" if s.once else "true" for s in plan.steps]
        turn_tokens.append(_se([index, 0, 0, encode_string_array(phase_active)], ";"))
    return _se([0, _se(turn_tokens, ";")], "|")
