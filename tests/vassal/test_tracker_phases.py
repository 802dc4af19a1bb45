"""The turn trackers of Carrier Battlegroup and the naval module carry their rulesets'
phases, and the positions the referee writes set the tracker to the game's step.

Carrier Battlegroup: set-up [4.0] (two once-steps) then the ten phases of [5.0]. The naval
module: each player turn's Naval Readiness [25.32], Air Interdiction [31.1], Movement
[26.12a] (the Motorized Movement Phase within its entry), Reaction [31.22] and Combat [29.0]
Phases, named by player turn (the scenario's first player, Axis, first). Each entry is the
title of the referee's own phase (``tests/rules/test_sequence_declared.py``). A referee step
inside a phase (the host game's air combat [31.13], the coast artillery [27.12], the
Motorized Movement Phase) stands on that phase, of the phasing player.

The ``vassal``-marked test loads a referee ``position.vsav`` of each module in real VASSAL
3.7.26 and has VASSAL write its live state back out (vcheck's ``--write-vlog``): the
tracker stands exactly where the referee put it.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.codec.commands import SetTurn, iter_leaves
from referee.vassal.codec.savefile import SaveGame, read_save_bytes
from referee.vassal.codec.sequence import decode_sequence
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import position_vsav_bytes
from referee.vassal.position.setups import build_module_with_setups
from tests.vassal.vassal_jvm import vcheck
from tests.vassal.vcheck_run import VCHECK, unavailable

pytestmark = pytest.mark.shared_cache  # its module builds are a means, not what it tests

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {"cbg": ROOT / "module_src" / "carrier_battlegroup",
           "naval": ROOT / "module_src" / "naval_module"}  # fmt: skip
SCENARIO = {"cbg": "mission", "naval": "kerch_feodosia"}
M = "VASSAL.build.module."

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


def _round_trip(name: str, state: GameState, to: str, tmp_path: Path) -> tuple[str, str]:
    """(the tracker state the referee wrote, the one VASSAL holds after loading it). The
    harness moves one piece to ``to`` (a place name of one word) after the load; the log
    it writes starts with VASSAL's own restore command of the loaded game."""
    module = _module(name)
    # the harness names the piece it moves by its VASSAL name, one word: a unit of the
    # first player, never masked, is given an empty name (its piece name is then its id)
    unit = next(
        u for _, u in sorted(state.units.items()) if u.location and u.side == state.active_side
    )
    module = replace(
        module, units=tuple(replace(u, name="") if u.id == unit.id else u for u in module.units)
    )
    vmod = build_module_with_setups(module, tmp_path / "vassal", workers=1).path
    save, vlog = tmp_path / "position.vsav", tmp_path / "out.vlog"
    save.write_bytes(position_vsav_bytes(table_for(module), state))
    args = f"--no-slots --no-setups --write-vlog {save} {unit.id} {to} {vlog}"
    if not VCHECK.is_file():
        unavailable(f"the real-VASSAL checker is not here ({VCHECK})")
    run = vcheck([vmod], tmp_path / "vcheck.txt", args=args)
    if run.returncode == 2 and "missing" in run.stderr:
        unavailable("vcheck's prerequisites are missing: " + run.stderr.strip())
    assert run.returncode == 0, run.stderr

    def turns(s: SaveGame) -> list[str]:
        return [c.state for c, _ in iter_leaves(s.commands) if isinstance(c, SetTurn)]

    ours, theirs = (
        turns(read_save_bytes(save.read_bytes())),
        turns(read_save_bytes(vlog.read_bytes())),
    )
    assert len(ours) == 1
    return ours[0], theirs[0] if len(theirs) == 1 else repr(theirs)


@pytest.mark.vassal
@pytest.mark.parametrize(
    ("name", "phase", "turn", "phasing", "to", "expected"),
    [
        ("cbg", "outfit", 0, None, "Iceland", (0, 1)),
        ("cbg", "turn", 5, None, "Iceland", (4, 2)),
        ("naval", "coast", 4, "Soviet", "3620", (3, 9)),
    ],
)
def test_real_vassal_holds_the_tracker_where_the_referee_put_it(
    name: str,
    phase: str,
    turn: int,
    phasing: str | None,
    to: str,
    expected: tuple[int, int],
    tmp_path: Path,
) -> None:
    ours, theirs = _round_trip(name, _state(name, phase, turn, phasing), to, tmp_path)
    assert _where(ours) == expected
    assert theirs == ours
    levels = [ln.split("\t") for ln in (tmp_path / "vcheck.txt").read_text().splitlines()]
    classes = [ln[2] for ln in levels if ln[0] == "COMP"]
    assert classes.count(M + "turn.TurnTracker") == 1
    assert classes.count(M + "turn.ListTurnLevel") == 2  # Game-Turn, then Phase
