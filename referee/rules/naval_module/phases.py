"""The Naval Readiness Phase [25.3x], [27.4x]: each order checked and carried out by the same
code. (The Naval Movement Interdiction Box [31.1x] is ``air.py``'s.)"""

from __future__ import annotations

from referee.engine.core import Violation
from referee.engine.orders import Order
from referee.rules.naval_module.context import place, set_ship
from referee.rules.naval_module.readiness import check_25_32, readiness_drm, repair_drm
from referee.rules.naval_module.ships import READY, SAILED
from referee.rules.naval_module.work import Work


def readiness_phase(w: Work, orders: list[Order]) -> None:
    """``ready`` and ``repair`` orders; a unit does one or the other [25.35], [27.41]."""
    named: dict[str, str] = {}
    for o in orders:
        if o.verb == "weather":
            _weather(w, o)
            continue
        for sid in o.units:
            if sid in named:
                w.refuse(
                    Violation(
                        "25.35",
                        f"{sid} is named for {named[sid]} already: Readiness or Repair, "
                        "not both, one roll each",
                        o.pos_of(sid),
                        sid,
                    )
                )
                continue
            named[sid] = o.verb
            if o.verb == "ready":
                _ready(w, o, sid)
            else:
                _repair(w, o, sid)
    _flotillas_27_43(w)


def _weather(w: Work, o: Order) -> None:
    """The host game's weather for this Game-Turn, written by the phasing player: Storm is
    the only weather that modifies the Naval Movement Loss Table [26.12b note], [27.32a]."""
    storm = o.mode == "storm"
    weather = dict(w.facts.weather)
    weather[str(w.state.turn)] = "storm" if storm else "clear"
    w.put(weather=weather)
    w.note(
        "weather",
        "27.32a" if storm else "26.12b",
        f"Game-Turn {w.state.turn}: "
        + ("Storm: the Storm DRM on every Naval Movement Loss roll" if storm else "no Storm"),
        storm=storm,
    )


def _mine(w: Work, o: Order, sid: str) -> bool:
    u = w.state.units.get(sid)
    if u is None or not w.game.is_ship(sid) or u.side != w.side:
        w.not_own_ship("25.1", sid, o.pos_of(sid))
        return False
    return True


def _level(w: Work) -> int:
    return int(w.facts.interdiction.get(w.side, 0))


def _ready(w: Work, o: Order, sid: str) -> None:
    if not _mine(w, o, sid):
        return
    u = w.state.units[sid]
    s = w.game.ship(w.state, sid)
    if u.location is None:
        w.refuse(Violation("25.34", f"{sid} is sunk: no Readiness roll", o.pos_of(sid), sid))
        return
    if s.status != SAILED:
        w.refuse(
            Violation(
                "25.31", f"{sid} is Ready already: only Sailed units roll", o.pos_of(sid), sid
            )
        )
        return
    if not w.live:
        return
    drm, why = readiness_drm(w.game.module, damaged=s.damage > 0, interdiction_level=_level(w))
    roll = w.dice.roll(6, f"Readiness of {sid}", "25.32")
    c = check_25_32(roll, drm, s.recovery, why)
    text = (
        f"{sid} Readiness: d6 {roll}"
        + (f" {drm:+d}" if drm else "")
        + (
            f" = {c.modified} vs Recovery {s.recovery}: "
            + ("Ready" if c.passed else "stays Sailed")
        )
    )
    w.note("readiness", "25.32", text, ship=sid, roll=roll, drm=drm, passed=c.passed)
    if c.passed:
        w.state = set_ship(w.state, sid, status=READY)


def _repair(w: Work, o: Order, sid: str) -> None:
    if not _mine(w, o, sid):
        return
    u = w.state.units[sid]
    s = w.game.ship(w.state, sid)
    cadre = u.box == "cadre"
    if u.location is None and not cadre:
        w.refuse(Violation("25.23", f"{sid} is sunk for good: no repair", o.pos_of(sid), sid))
        return
    if s.damage <= 0:
        w.refuse(Violation("27.41", f"{sid} has no damage to repair", o.pos_of(sid), sid))
        return
    if not cadre and u.location not in w.game.ports:
        w.refuse(
            Violation(
                "26.32", f"{sid} is at sea: repair only in a friendly port", o.pos_of(sid), sid
            )
        )
        return
    if not w.live:
        return
    drm, why = repair_drm(w.game.module, interdiction_level=_level(w))
    roll = w.dice.roll(6, f"Damage Repair of {sid}", "27.42")
    c = check_25_32(roll, drm, s.recovery, why)
    w.note(
        "repair",
        "27.42",
        f"{sid} Repair: d6 {roll}"
        + (f" {drm:+d}" if drm else "")
        + f" = {c.modified} vs Recovery {s.recovery}: "
        + ("one damage point removed" if c.passed else "no repair"),
        ship=sid,
        roll=roll,
        drm=drm,
        passed=c.passed,
    )
    if not c.passed:
        return
    w.state = set_ship(w.state, sid, damage=s.damage - 1)
    if cadre:
        _cadre_returns_27_44(w, sid)


def _cadre_returns_27_44(w: Work, sid: str) -> None:
    """A transport leaves the Cadre Box after one repair: Sailed, 2 damage, at a friendly
    major port [27.44]."""
    control = w.facts.control
    majors = sorted(
        p for p, sp in w.game.ports.items() if sp.type == "major_port" and control.get(p) == w.side
    )
    if not majors:
        w.note("cadre_waits", "27.44", f"{sid} stays in the Cadre Box: no friendly major port")
        return
    w.state = place(w.state, sid, majors[0])
    w.state = set_ship(w.state, sid, status=SAILED, damage=2, cargo=[])
    w.note(
        "cadre_returns",
        "27.44",
        f"{sid} returns from the Cadre Box, Sailed with 2 damage, at {majors[0]}",
        ship=sid,
        port=majors[0],
    )


def _flotillas_27_43(w: Work) -> None:
    if not w.live:
        return
    for u in sorted(w.state.units.values(), key=lambda x: x.id):
        if u.side != w.side or u.location is None or not w.game.is_ship(u.id):
            continue
        s = w.game.ship(w.state, u.id)
        if s.is_flotilla and s.damage:
            w.state = set_ship(w.state, u.id, damage=0)
            w.note("flotilla_repair", "27.43", f"{u.id} recovers fully", ship=u.id)
