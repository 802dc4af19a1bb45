"""After the battle [22.8]: what each unit's condition at the end of a Tactical Routine does
to the position, USN and Soviet (the result and its fruits [20.2 step 5], [20.3] follow in
``combat_phase``).

USN [22.8]: a cruise missile that flew is spent [22.8 USN 1]; a sunk ship or aircraft leaves
play, a crippled ship leaves the CVBG [22.8 USN 2], a damaged one keeps its damage; an
aircraft keeps its Damaged or Crippled marker [22.8 USN 3], [10.3]; cruise missiles carried
by a ship go with its sinking or crippling and with the damage it took [15.1], [22.3].
Soviet [22.8]: a fired cruise missile is used up [21.6]; sunk units leave play, damaged
warships leave play; the rest go back to their SBG [22.8 Soviet 3] or their pool
[22.8 Soviet 1, 5]; coastal defense units stay, repaired [22.8 Soviet 4].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.core import Event, GameState, UnitState
from referee.rules.carrier_battlegroup import soviet
from referee.rules.carrier_battlegroup.battle import Battle, Fighter
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.source.model import Module


@dataclass
class _Records:
    """The position facts a battle's end changes, copied so they change together."""

    state: GameState
    conds: dict[str, Any]
    ships: list[str]
    missiles: dict[str, str]
    air: dict[str, Any]
    pools: dict[str, list[str]]
    sbgs: dict[str, dict[str, Any]]
    losses: list[dict[str, Any]]
    coastal: dict[str, Any]

    @classmethod
    def of(cls, state: GameState) -> _Records:
        d = facts_of(state)
        return cls(
            state,
            dict(d.conditions),
            list(d.cvbg["ships"]),
            dict(d.missiles),
            dict(d.air),
            {k: list(v) for k, v in d.pools.items()},
            {k: dict(v) for k, v in d.sbgs.items()},
            list(d.losses),
            dict(d.coastal),
        )

    def put(self, pid: str, side: str, box: str) -> None:
        self.state = self.state.with_unit(UnitState(pid, side, None, box))

    def lose(self, pid: str, what: str) -> None:
        self.losses.append({"unit": pid, "what": what, "turn": self.state.turn, "rule": "22.8"})

    def leave_sbg(self, pid: str, sbg: str | None) -> None:
        if sbg is not None:
            self.sbgs[sbg]["units"] = [x for x in self.sbgs[sbg]["units"] if x != pid]


def _usn_missiles_lost(r: _Records, f: Fighter) -> None:
    """[15.1], [22.3]: the cruise missiles under a ship that sank, was crippled or lost some
    to damage go back to the available Cargo."""
    for m, s in list(r.missiles.items()):
        if s == f.id and (
            f.cond.sunk
            or f.cond.crippled
            or sum(1 for x in r.missiles.values() if x == f.id) > f.cond.missiles
        ):
            r.missiles.pop(m)
            r.put(m, "USN", "available")


def _usn(r: _Records, f: Fighter) -> None:
    """[22.8 USN 1-3] one USN unit."""
    if f.category == "missile":
        r.put(f.id, "USN", "available")  # [22.8 USN 1]
        r.missiles.pop(f.id, None)
        return
    if f.carrier:
        if f.cond.sunk:
            r.lose(f.id, "sunk")
        return
    _usn_missiles_lost(r, f)
    kept = {"damage": f.cond.damage, "crippled": f.cond.crippled}
    if f.cond.sunk:
        r.put(f.id, "USN", "sunk")
        r.ships = [s for s in r.ships if s != f.id]
        r.air.pop(f.id, None)
        r.conds.pop(f.id, None)
        r.lose(f.id, "sunk" if f.category != "air" else "aircraft")
    elif f.category == "air":
        if f.cond.damage or f.cond.crippled:
            r.conds[f.id] = kept  # its Damaged or Crippled marker stays [22.8 USN 3], [10.3]
    elif f.cond.crippled:
        r.put(f.id, "USN", "crippled")  # [22.8 USN 2]
        r.ships = [s for s in r.ships if s != f.id]
        r.conds[f.id] = {"damage": f.cond.damage, "crippled": True}
        r.lose(f.id, "crippled")
    elif f.cond.damage:
        r.conds[f.id] = kept
        r.lose(f.id, "damaged")


def _soviet_missile_spent(r: _Records, f: Fighter, sbg: str | None, events: list[Event]) -> None:
    """[21.6] a Soviet missile that fired is used up: out of play, not shot down (no VP)."""
    r.put(f.id, "Soviet", "expended")
    events.append(
        Event(
            "expended",
            "21.6",
            f"{f.id} fired: the cruise missile is eliminated automatically",
            {"unit": f.id},
        )
    )
    r.leave_sbg(f.id, sbg)


def _soviet_coastal(r: _Records, f: Fighter) -> None:
    """[22.8 Soviet 4] a coastal defense unit is eliminated or repaired in place."""
    if f.cond.sunk:
        r.put(f.id, "Soviet", "sunk")
        r.coastal = {**r.coastal, "units": [x for x in r.coastal["units"] if x != f.id]}
        r.lose(f.id, "coastal")


def _soviet(module: Module, r: _Records, f: Fighter, events: list[Event]) -> None:
    """[22.8 Soviet 1-5] one Soviet unit."""
    sbg = next((n for n, g in r.sbgs.items() if f.id in g["units"]), None)
    if f.category == "missile" and f.zone == "expended":
        _soviet_missile_spent(r, f, sbg, events)
        return
    if f.category == "coastal":
        _soviet_coastal(r, f)
        return
    if f.cond.sunk:
        r.put(f.id, "Soviet", "sunk")
        r.lose(f.id, "soviet_air" if f.category in ("air", "missile") else "soviet_sunk")
    elif f.category in ("surface", "submarine") and (f.cond.damage or f.cond.crippled):
        r.put(f.id, "Soviet", "damaged")  # out of play
        r.lose(f.id, "soviet_damaged")
    elif sbg is not None:
        return  # [22.8 Soviet 3] back to its SBG, revealed
    else:
        if "carrier" in module.piece(f.id).unit.flags:
            return  # the CVL-1 aircraft stay with CVL-1 [15.0]
        pool = "standoff" if f.category in ("air", "missile") else "warships"
        r.pools[pool].append(f.id)
        r.put(f.id, "Soviet", "pool")  # [22.8 Soviet 1, 5]
        return
    r.leave_sbg(f.id, sbg)


def losses_22_8(module: Module, state: GameState, b: Battle, events: list[Event]) -> GameState:
    """[22.8] every unit of the battle ``b`` as its condition leaves it; the carrier's
    systems as the battle left them [22.2]; SBGs left empty leave the map."""
    r = _Records.of(state)
    for f in b.fighters:
        if f.side == "USN":
            _usn(r, f)
        else:
            _soviet(module, r, f, events)
    before = facts_of(state)
    out = r.state
    out = CbgFacts.put(
        out,
        carrier=b.systems,
        conditions=r.conds,
        missiles=r.missiles,
        air=r.air,
        pools=r.pools,
        sbgs=r.sbgs,
        losses=r.losses,
        coastal=r.coastal,
        cvbg={**before.cvbg, "ships": r.ships},
        revealed=sorted(p for p in before.revealed if out.units[p].location is not None),
    )
    return soviet.drop_empty_sbgs(out, events)
