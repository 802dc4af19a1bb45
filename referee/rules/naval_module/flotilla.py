"""Flotilla movement and its Naval Movement Loss roll [32.11], [22.41].

Flotillas are not naval units [25.1 note]: they move hex by hex by the host series' flotilla
movement [22.41], which the text does not give. This referee plays it as the data set gives it
(docs/interpretations.md, NM-41): ``move FLOTILLA -> HEX HEX ...`` names every hex entered,
each adjacent to the one before; a hex costs its terrain's ``flotilla`` movement cost (the
Terrain Effects Chart; land is closed) against the flotilla's printed movement allowance (its
NMP value); no hex holding an enemy ground unit; a path ending on a port's hex ends in the
port. A flotilla needs no Readiness and never turns Sailed (it has no Ready/Sailed status).

It rolls on the Naval Movement Loss Table once per Movement Phase when its path (the hex it
leaves or any it enters) holds an all-sea hex, however many, or is within Range of an enemy
coast artillery unit [32.11]; the column and DRMs are those of any naval movement [27.2x]:
the interdiction level, the CD points of every CD unit reaching a hex of the path (each once)
[27.22], [27.23]. An Abort is the owner's choice [27.32b]: back to the hex or port it left,
or one more damage point; one that began on an all-sea hex takes the damage [27.32c]. Three
damage points sink it [32.12].
"""

from __future__ import annotations

import heapq

from referee.engine.core import GameState, Violation
from referee.engine.orders import Order
from referee.rules.naval_module.context import Game, enemy_of, place, set_ship
from referee.rules.naval_module.ranges import cd_units_reaching
from referee.rules.naval_module.work import Work

FLOTILLA = "flotilla"


def step_cost(game: Game, hex_id: str) -> int | None:
    """The flotilla movement cost of entering ``hex_id`` (``None``: closed)."""
    t = game.module.map.terrain.get(game.terrain(hex_id))
    return None if t is None else t.costs.get(FLOTILLA)


def allowance(game: Game, sid: str) -> int:
    """The flotilla's movement allowance: its printed NMP value (NM-41); 27.36 is for naval
    units, so damage does not lower it."""
    return game.unit(sid).values.get("NMP", 0)


def start_hex(game: Game, state: GameState, sid: str) -> str | None:
    return game.hex_of(state.units[sid].location)


def reachable(game: Game, state: GameState, sid: str) -> dict[str, tuple[int, list[str]]]:
    """Every hex the flotilla may end on now: ``hex -> (cost, hexes entered)``, cheapest
    first (``referee options``)."""
    start = start_hex(game, state, sid)
    if start is None:
        return {}
    enemy = enemy_of(game, state.units[sid].side)
    budget = allowance(game, sid)
    best: dict[str, tuple[int, list[str]]] = {start: (0, [])}
    todo: list[tuple[int, str]] = [(0, start)]
    while todo:
        cost, here = heapq.heappop(todo)
        if cost > best[here][0]:
            continue
        for n in sorted(game.hexes.neighbours(here)):
            c = step_cost(game, n)
            if c is None or cost + c > budget or game.ground_at(state, n, enemy):
                continue
            if n not in best or cost + c < best[n][0]:
                best[n] = (cost + c, [*best[here][1], n])
                heapq.heappush(todo, (cost + c, n))
    best.pop(start)
    return best


def move_flotilla(w: Work, o: Order, sid: str) -> None:
    """``move FLOTILLA -> HEX [HEX ...]``: flotilla movement hex by hex [22.41], its loss
    roll queued when due [32.11]."""
    g, st = w.game, w.state
    u = st.units[sid]
    start = g.hex_of(u.location)
    if start is None:
        w.refuse(
            Violation(
                "32.11", f"{sid} is on no hex: a flotilla moves hex by hex", o.pos_of(sid), sid
            )
        )
        return
    if sid in w.facts.moved:
        w.refuse(Violation("26.12a", f"{sid} has already moved this phase", o.pos_of(sid), sid))
        return
    written = list(o.hexes)
    if written and g.hex_of(g.name_of(written[0])[0]) == start:
        written = written[1:]
    if not written:
        w.refuse(Violation("32.11", "the path names no hex to move to", o.pos))
        return
    enemy = enemy_of(g, w.side)
    here, spent, path = start, 0, [start]
    for h in written:
        pos = o.pos_of(h)
        hex_id = h if h in g.module.map.hexes else g.hex_of(g.name_of(h)[0] or "")
        if hex_id is None or h in g.zones:
            w.refuse(
                Violation(
                    "32.11",
                    f"{h!r} is not a hex or a port: a flotilla moves hex by hex [22.41]",
                    pos,
                    sid,
                    "name each hex entered, e.g. move SU-FL-AZ -> 4421 4322",
                )
            )
            return
        if not g.hexes.adjacent(here, hex_id):
            w.refuse(Violation("32.11", f"{hex_id} is not adjacent to {here}", pos, sid))
            return
        cost = step_cost(g, hex_id)
        if cost is None:
            w.refuse(
                Violation(
                    "32.11",
                    f"{hex_id} is {g.terrain(hex_id)}: flotillas keep to water and coastal hexes",
                    pos,
                    sid,
                )
            )
            return
        if g.ground_at(st, hex_id, enemy):
            w.refuse(
                Violation(
                    "32.11",
                    f"{hex_id} holds enemy ground units: a flotilla may not enter",
                    pos,
                    sid,
                )
            )
            return
        spent += cost
        here = hex_id
        path.append(hex_id)
    budget = allowance(g, sid)
    if spent > budget:
        w.refuse(
            Violation(
                "32.11",
                f"the flotilla move costs {spent} movement points; {sid}'s allowance is {budget}",
                o.pos,
                sid,
            )
        )
        return
    dest = _port_on(g, here) or here
    departure = str(u.location)
    w.state = place(w.state, sid, dest)
    w.state = set_ship(
        w.state,
        sid,
        departure=departure,
        nmp_spent=spent,
        started_at_sea=g.terrain(start) == "sea",
        passed=[],
        path=path,
    )
    w.put(moved=[*w.facts.moved, sid])
    w.note(
        "flotilla_move",
        "32.11",
        f"{sid}: {departure} -> {dest} by flotilla movement, {spent} MP ({' '.join(path[1:])})",
        ships=[sid],
        start=departure,
        to=dest,
        mp=spent,
        path=path,
    )
    why = loss_roll_due(w.game, w.state, sid, path)
    if why:
        w.note("flotilla_loss_due", "32.11", f"{sid} rolls on the loss table: {why}", ship=sid)
        rolls = list(w.facts.loss_rolls)
        rolls.append({"ships": [sid], "order": o.to_json()})
        w.put(loss_rolls=rolls)


def _port_on(game: Game, hex_id: str) -> str | None:
    return next((name for name, sp in sorted(game.ports.items()) if sp.hex == hex_id), None)


def loss_roll_due(game: Game, state: GameState, sid: str, path: list[str]) -> str:
    """Why the flotilla rolls on the loss table this phase, or "" [32.11]: a hex of its path
    is all-sea (one roll for any number), or an enemy CD unit reaches a hex of it."""
    sea = [h for h in path if game.terrain(h) == "sea"]
    cd = cd_units_reaching(game, state, enemy_of(game, state.units[sid].side), path)
    reasons = []
    if sea:
        reasons.append(f"flotilla movement in all-sea hex(es) {' '.join(sea)}")
    if cd:
        reasons.append("within Range of enemy coast artillery " + " ".join(p for p, _, _ in cd))
    return "; ".join(reasons)


def cd_points_on_path(game: Game, state: GameState, cd_side: str, path: list[str]) -> int:
    """The CD support points reaching the flotilla's path, each CD unit once [27.22], [27.23]."""
    return sum(p for _, p, _ in cd_units_reaching(game, state, cd_side, path))
