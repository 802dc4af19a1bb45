"""The Westpac displays of the VASSAL module: the reinforcement track and the variable air box
[DTP 11.506, 11.507] (``RulesetSchema.module_displays``).

* **Reinforcement track**: one box per Game-Turn a reinforcement arrives on (the AM turns 4
  to 43 [DTP 11.5041]), each holding the units that arrive in that turn's reinforcement
  phase [DTP 11.506]; a unit delayed for want of room [DTP 11.5063, 11.5064] waits in the box
  of the Game-Turn being played, a variable air unit that has left its box [DTP 11.507] in
  the box of its arrival.
* **Variable air box**: the East Block air units still to be rolled for on the variable air
  reinforcement table [DTP 11.507, 11.5052]; a unit leaves the box when a roll brings it.

Only a module whose scenario has a reinforcement track (an ``entry = "hex"`` reinforcement)
and a ``variable_air`` table has them: the Mediterranean and Denmark Strait modules are
unchanged. Every position the referee writes shows the units waiting in them.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import ceil
from typing import Any

from referee.rules.sixth_fleet_dtp.facts import facts_of
from referee.source.model import Module
from referee.source.schema import BoxUnits, DisplayDecl, DisplayRow

TRACK, AIR_BOX = "Reinforcement track", "Variable air box"
TRACK_BOX, AIR = "Arrives Game-Turn {}", "Variable air units"
PER_ROW, ACROSS = 5, 4  # boxes per row of the track; counters across a box
WAITING = "reinforcements"  # the engine's box of a unit still to arrive


def _arrivals(module: Module) -> dict[int, list[str]]:
    """Game-Turn -> the units the scenarios' track brings on it (``after_turn`` + 1)."""
    out: dict[int, list[str]] = {}
    for scn in module.scenarios.values():
        if not any(r.entry == "hex" for r in scn.reinforcements):
            continue
        for r in scn.reinforcements:
            out.setdefault(r.after_turn + 1, []).extend(r.units)
    return out


def _variable_air(module: Module) -> list[str]:
    """The units the variable air table lists, in order, once each [DTP 11.507]."""
    table = module.tables.get("variable_air")
    if table is None:
        return []
    col = table.column("units")
    seen: dict[str, None] = {}
    for r in range(len(table.row_keys)):
        seen.update(dict.fromkeys(table.texts[r][col].split()))
    return list(seen)


def _rows(boxes: list[str], most: int) -> tuple[DisplayRow, ...]:
    down = max(1, ceil(most / ACROSS))
    return tuple(
        DisplayRow(tuple(boxes[i : i + PER_ROW]), ACROSS, down)
        for i in range(0, len(boxes), PER_ROW)
    )


def on_track_11_506(module: Module, state: Any) -> Mapping[str, int]:
    """Each unit still to arrive -> the Game-Turn box it waits in: its track turn, the turn
    being played when it was delayed [DTP 11.5063], its roll's turn for a variable air unit
    [DTP 11.507]."""
    scn = module.scenarios.get(state.scenario)
    if scn is None:
        return {}
    turn_of = {u: r.after_turn + 1 for r in scn.reinforcements for u in r.units}
    arrived = (facts_of(state).variable_air or {}).get("arrived") or {}
    turn_of.update({str(u): int(t) for u, t in arrived.items()})
    delayed = facts_of(state).delayed or {}
    out: dict[str, int] = {}
    for u, turn in turn_of.items():
        st = state.units.get(u)
        if st is None or st.location is not None or st.box != WAITING:
            continue
        out[u] = max(turn, state.turn) if u in delayed else turn
    return out


def in_air_box_11_5052(module: Module, state: Any) -> Mapping[str, int]:
    """The variable air units still in their box: listed in the table, not yet in the game
    [DTP 11.5052, 11.507]."""
    return {u: 0 for u in _variable_air(module) if u not in state.units}


def displays_11_506(module: Module) -> tuple[DisplayDecl, ...]:
    """The reinforcement track and the variable air box of a Westpac module; none for a
    module without a track and a variable air table."""
    arrivals, air = _arrivals(module), _variable_air(module)
    if not arrivals or not air:
        return ()
    turns = sorted(arrivals)
    track = DisplayDecl(
        TRACK,
        "Reinforcements: each box holds the units that arrive in the reinforcement phase of "
        "its Game-Turn [DTP 11.506]",
        _rows([TRACK_BOX.format(t) for t in turns], max(len(v) for v in arrivals.values())),
        rule="DTP 11.506",
        holds=(BoxUnits(TRACK_BOX, "reinforcement track", on_track_11_506),),
    )
    box = DisplayDecl(
        AIR_BOX,
        "Variable air: an AM die from turn 4 brings one [DTP 11.507]",
        (DisplayRow((AIR,), min(len(air), 6), ceil(len(air) / 6)),),
        rule="DTP 11.507",
        holds=(BoxUnits(AIR, "variable air box", in_air_box_11_5052),),
    )
    return (track, box)
