"""The special crews [3.5] that act outside the fire of a battle: the EW crew's additional
EW and the Camera crew's publicity. (Their additions to fire are the Crew Chart's [21.5],
``combat_phase.crew_bonuses_21_5``; their repair dice [10.4], ``logistics``.)

Both take effect in a game that records ``special_crews_3_5`` (every new game); a game begun
before keeps its older play, the crews doing nothing here (docs/interpretations.md, CBG 3.5).
"""

from __future__ import annotations

from referee.engine.core import Event, GameState
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.readings import readings_of
from referee.source.model import Module

CAMERA = "Camera Crew"
CAMERA_VP = "camera_crew_battle_won"
"""The Victory Point Chart's row for a won battle the Camera crew publicizes (estimate)."""


def _aboard(module: Module, state: GameState) -> list[str]:
    """The names of the special crews aboard the carrier, one per counter."""
    return [module.piece(p).unit.name for p in facts_of(state).crews]


def carrier_ew_3_5(module: Module, state: GameState) -> int:
    """[3.5] "EW: This represents additional EW": the carrier's EW system plus each EW crew's
    EW on the Crew Chart, for contact [18.1] and Intelligence [11.1]. A system at 0 "ceases
    to function for any game purpose" [22.2], so no crew raises it from 0 (as no crew adds
    to a 0 factor [21.5])."""
    ew = int(facts_of(state).carrier["EW"])
    if ew <= 0 or not readings_of(state).special_crews_3_5:
        return max(0, ew)
    table = module.tables["crew"]
    for name in _aboard(module, state):
        found = table.find(row=name, col="EW")
        if found is not None:
            ew += int(table.lookup(row=found.row.text, col="EW").value)
    return ew


def camera_crew_3_5(
    module: Module, state: GameState, winner: str, space: str, events: list[Event]
) -> GameState:
    """[3.5] "Camera Crew: They publicize your heroic deeds": with a Camera crew aboard, each
    battle the USN wins scores the Victory Point Chart's ``camera_crew_battle_won`` VP
    (provisional: the Crew Chart that gives its effect is missing; docs/interpretations.md,
    CBG 3.5)."""
    if winner != "USN" or not readings_of(state).special_crews_3_5:
        return state
    cameras = _aboard(module, state).count(CAMERA)
    if not cameras:
        return state
    per = int(module.tables["victory_points"].lookup(row=CAMERA_VP, col="vp").value)
    vp = facts_of(state).vp + per * cameras
    events.append(
        Event(
            "vp",
            "3.5",
            f"the Camera Crew publicizes the USN win at {space}: VP {facts_of(state).vp} -> {vp} "
            "(provisional: not from the rulebook; docs/interpretations.md CBG 3.5)",
            {"vp": vp},
        )
    )
    return CbgFacts.put(state, vp=vp)
