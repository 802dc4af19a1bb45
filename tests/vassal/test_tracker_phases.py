"""The turn trackers of Carrier Battlegroup and the naval module carry their rulesets'
phases, and the positions the referee writes set the tracker to the game's step.

Carrier Battlegroup: set-up [4.0] (two once-steps) then the ten phases of [5.0]. The naval
module: each player turn's Naval Readiness [25.32], Air Interdiction [31.1], Movement
[26.12a] (the Motorized Movement Phase within its entry), Reaction [31.22] and Combat [29.0]
Phases, named by player turn (the scenario's first player, Axis, first). Each entry is the
title of the referee's own phase (``tests/rules/test_sequence_declared.py``). A referee step
inside a phase (the host game's air combat [31.13], the coast artillery [27.12], the
Motorized Movement Phase) stands on that phase, of the phasing player.

The ``vassal``-marked test loads referee ``position.vsav`` files of each bundled module in
real VASSAL 3.7.26 (all of a module's in one VPlay run, shared with the module's other VPlay
tests: ``tests/vassal/vplay_run.py``) and reads back the state VASSAL holds: the tracker
stands exactly where the referee put it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.codec.commands import SetTurn, iter_leaves
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.codec.sequence import decode_sequence
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import position_vsav_bytes
from tests.vassal.vplay_run import Stage, played, plays, records

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {"cbg": ROOT / "module_src" / "carrier_battlegroup",
           "naval": ROOT / "module_src" / "naval_module"}  # fmt: skip
SCENARIO = {"cbg": "mission", "naval": "kerch_feodosia"}

CBG_PHASES = [
    "Set-up steps 1-7",
    "Escorts, purchases and placement",
    "Intelligence Phase",
    "Logistics Phase",
    "Movement Phase",
    "Incident Phase",
    "USN Launch Phase",
    "Combat Phase",
    "Objective Phase",
    "Recovery Phase",
    "Victory Phase",
    "End of Turn",
]
NAVAL_STEPS = [
    "Naval Readiness Phase",
    "Air Interdiction Phase (Naval Movement Interdiction)",
    "Movement Phase",
    "Reaction Phase (Axis air against ships at sea)",
    "Combat Phase",
]
NAVAL_PHASES = [f"{side} Player Turn: {s}" for side in ("Axis", "Soviet") for s in NAVAL_STEPS]


@cache
def _module(name: str) -> Module:
    module, diags = load_module(SOURCES[name])
    assert module is not None, [str(d) for d in diags.items]
    return module


def _state(name: str, phase: str, turn: int, phasing: str | None = None) -> GameState:
    module = _module(name)
    state = get_ruleset(module.ruleset).new_game(module, SCENARIO[name], "g", ())
    state = state.evolve(phase=phase, turn=turn)
    return state.with_data(phasing=phasing) if phasing else state


def _tracker(data: bytes) -> str:
    save = read_save_bytes(data)
    turns = [c.state for c, _ in iter_leaves(save.commands) if isinstance(c, SetTurn)]
    assert len(turns) == 1
    return turns[0]


def _where(state_text: str) -> tuple[int, int]:
    """(Game-Turn item, Phase item) of a ``TurnTracker.getState``."""
    _, levels = decode_sequence(state_text, "|")
    turn = decode_sequence(levels, ";")
    phase = decode_sequence(turn[4], ";")
    return int(turn[0]), int(phase[0])


@pytest.mark.parametrize(("name", "phases"), [("cbg", CBG_PHASES), ("naval", NAVAL_PHASES)])
def test_the_tracker_lists_the_rulesets_phases(name: str, phases: list[str]) -> None:
    root = table_for(_module(name)).plan.tracker
    assert root is not None and list(root.phases) == phases
    once = [s.once for s in root.steps]
    assert once == [i < 2 for i in range(len(phases))] if name == "cbg" else not any(once)


@pytest.mark.parametrize(
    ("name", "phase", "turn", "phasing", "expected"),
    [
        ("cbg", "setup", 0, None, (0, 0)),
        ("cbg", "outfit", 0, None, (0, 1)),
        ("cbg", "turn", 3, None, (2, 2)),  # a turn's orders start at the Intelligence Phase
        ("naval", "readiness", 1, "Axis", (0, 0)),
        ("naval", "aircombat", 2, "Axis", (1, 1)),  # host air combat [31.13]: Air Interdiction
        ("naval", "motorized", 2, "Soviet", (1, 7)),  # [26.12a]: the Movement entry
        ("naval", "movement", 2, "Soviet", (1, 7)),
        ("naval", "coast", 4, "Soviet", (3, 9)),  # enemy coast artillery [27.12]: Combat
        ("naval", "host_confirm", 4, "Axis", (3, 4)),  # the assault's host result [30.16]
    ],
)
def test_the_position_sets_the_tracker_to_the_games_step(
    name: str, phase: str, turn: int, phasing: str | None, expected: tuple[int, int]
) -> None:
    """A step where the enemy writes the orders (the coast artillery, a second signature)
    still stands on the phasing player's phase."""
    state = _state(name, phase, turn, phasing)
    if phasing:  # the enemy writes these orders: the tracker follows the phasing side
        other = next(s.id for s in _module(name).sides if s.id != phasing)
        state = state.evolve(active_side=other)
    text = _tracker(position_vsav_bytes(table_for(_module(name)), state))
    assert _where(text) == expected


# the positions real VASSAL loads: (module, phase, turn, phasing side, where the tracker stands)
HELD = [
    ("cbg", "outfit", 0, None, (0, 1)),
    ("cbg", "turn", 5, None, (4, 2)),
    ("naval", "coast", 4, "Soviet", (3, 9)),
]
BUNDLED = {"cbg": "carrier_battlegroup", "naval": "naval_module"}  # module_src/<name>


def _held(phase: str, turn: int) -> str:
    """The file name of the ``position.vsav`` of a :data:`HELD` case in the shared run."""
    return f"tracker-{phase}-{turn}.vsav"


def _position(name: str, phase: str, turn: int, phasing: str | None) -> bytes:
    return position_vsav_bytes(table_for(_module(name)), _state(name, phase, turn, phasing))


@plays(*BUNDLED.values(), request="tracker")
def _trackers(stage: Stage) -> list[str]:
    """Each :data:`HELD` position of the module loaded in the session's VPlay run of it, its
    Turn Tracker read back (``--turns``, one part a save)."""
    args = []
    for name, phase, turn, phasing, _ in HELD:
        if BUNDLED[name] == stage.name:
            save = stage.folder / _held(phase, turn)
            save.write_bytes(_position(name, phase, turn, phasing))
            args += ["--turns", str(save)]
    return args


@pytest.mark.vassal
@pytest.mark.parametrize(("name", "phase", "turn", "phasing", "expected"), HELD)
def test_real_vassal_holds_the_tracker_where_the_referee_put_it(
    name: str, phase: str, turn: int, phasing: str | None, expected: tuple[int, int]
) -> None:
    """VASSAL loads the referee's ``position.vsav`` of the bundled module and holds its one
    Turn Tracker, of two levels (Game-Turn, then Phase), exactly where the save put it: the
    state it holds (``TurnTracker.getState``, what its own restore command writes) is ours."""
    ours = _tracker(_position(name, phase, turn, phasing))
    assert _where(ours) == expected
    out = played(BUNDLED[name], "tracker")
    held = [f for f in records(out, "TURN") if Path(f[0]).name == _held(phase, turn)]
    assert len(held) == 1, out  # the module's one tracker, read once the save was loaded
    _save, _name, levels, theirs = held[0]
    assert [lv.split(":")[0] for lv in levels.split(",")] == ["ListTurnLevel"] * 2, levels
    assert theirs == ours
