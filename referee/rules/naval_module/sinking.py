"""Damage on the board: a ship's damage, and where a sunk ship and its passengers go
[27.31]-[27.33], [32.12]."""

from __future__ import annotations

from referee.rules.naval_module.context import place, set_ship
from referee.rules.naval_module.damage import apply_damage
from referee.rules.naval_module.work import Work


def damage_ship(w: Work, sid: str, points: int, rule: str) -> None:
    if points <= 0 or w.state.units[sid].location is None:
        return
    s = w.game.ship(w.state, sid)
    cargo = tuple(w.game.cargo(w.state, sid))
    r = apply_damage(s, points, cargo)
    for kind, case, text in r.events:
        w.note(kind, case, text, ship=sid, cause=rule)
    w.state = set_ship(w.state, sid, damage=r.damage)
    if not r.sunk:
        return
    w.state = place(w.state, sid, None, r.destination)
    w.state = set_ship(
        w.state, sid, cargo=[], status="sunk" if r.destination != "cadre" else "cadre"
    )
    for pid in r.passengers_eliminated:
        w.state = place(w.state, pid, None, "eliminated")
    sunk = list(w.facts.sunk)
    sunk.append(sid)
    w.put(sunk=sorted(set(sunk)))
