"""What the player may see [2.2 "Unrevealed"], [17.0]: every face-down Soviet unit, every
pool's contents and every SBG's or coastal group's contents stay out of his view until the
rules reveal them; counts and SBG markers are public (they are on the table)."""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of


def hidden_ids(state: GameState) -> set[str]:
    """Soviet pieces the player may not see: face down, or in a pool."""
    revealed = set(facts_of(state).revealed)
    out = set()
    for u in state.units.values():
        if u.side != "Soviet" or u.id.startswith("SO-SBG"):
            continue
        if u.id not in revealed and u.box not in ("sunk", "damaged"):
            out.add(u.id)
    return out


def is_player_view(state: GameState) -> bool:
    """Whether ``state`` is :func:`player_view` of a position rather than the position: the
    view keeps only the number of units in each pool. ``validate`` on it must not refuse
    what the units it leaves out could allow ([19.1], ``launch.strike_target_19_1``)."""
    counts = facts_of(state).pools or {}
    return bool(counts) and all(isinstance(v, int) for v in counts.values())


def player_view(state: GameState) -> GameState:
    hidden = hidden_ids(state)
    units = {k: v for k, v in state.units.items() if k not in hidden}
    stacks = {h: tuple(x for x in ids if x not in hidden) for h, ids in state.stacks.items()}
    stacks = {h: ids for h, ids in stacks.items() if ids}
    d: dict[str, Any] = {}
    d["pools"] = {k: len(v) for k, v in facts_of(state).pools.items()}
    d["sbgs"] = {
        n: {**g, "units": g["units"] if g["revealed"] else len(g["units"])}
        for n, g in facts_of(state).sbgs.items()
    }
    c = facts_of(state).coastal
    d["coastal"] = {**c, "units": c["units"] if c["revealed"] else len(c["units"])}
    inc = facts_of(state).incident
    if inc:
        d["incident"] = {**inc, "generated": len(inc["generated"])}
    seen = CbgFacts.drop(state.evolve(units=units, stacks=stacks), "chit_order")
    return CbgFacts.put(seen, **d)


SBG_BACK = "warship_back"
"""An SBG's ships are warships drawn face down from their pool [4.0 step 4]: each shows the
warship back."""
COASTAL_BACK = "coastal_back"
"""The coastal defense units are drawn face down onto the Objective [4.0 step 5]."""


def face_down(state: GameState) -> dict[str, list[str]]:
    """[2.2 "Unrevealed"], [17.0]: what the player's view ``state`` knows lies face down on
    the map, by space: the ships of each unrevealed SBG under its marker, the unrevealed
    coastal defense units, and the units an incident generated [16.2] waiting in the CVBG's
    space for the Combat Phase, as many backs of each kind as the view counts (never which
    counters they are). The incident's units are there only between the Incident and the
    Combat Phase: at the end of a turn they have fought (and are face up [17.0]) or left
    unseen [18.1 step 4]. A full position (the units themselves, not counts) has none."""
    out: dict[str, list[str]] = {}
    for g in facts_of(state).sbgs.values():
        if not g.get("revealed") and isinstance(g.get("units"), int) and g.get("space"):
            out.setdefault(str(g["space"]), []).extend([SBG_BACK] * g["units"])
    c = facts_of(state).coastal or {}
    if not c.get("revealed") and isinstance(c.get("units"), int) and c.get("space"):
        out.setdefault(str(c["space"]), []).extend([COASTAL_BACK] * c["units"])
    inc = facts_of(state).incident or {}
    if isinstance(inc.get("generated"), int) and inc.get("space"):
        backs = [str(b) for b in inc.get("backs") or ()]
        out.setdefault(str(inc["space"]), []).extend(backs[: inc["generated"]])
    return out
