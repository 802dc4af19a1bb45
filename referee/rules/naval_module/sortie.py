"""A port taken by the host game's ground movement: forced sortie [26.12b], the capture
[26.28], the end of an Evacuation [28.22], the loss of a Naval Base there (NM-26).

Ground movement is the host series'; the moving player reports that a combat unit of his
entered an enemy port with ``capture PORT`` in his Movement Phase orders, or -- a port taken
by reaction movement or by an advance after combat -- in the first file he writes after it,
whatever its step (docs/interpretations.md, NM-44). The enemy ships in
it move at once into the port's sea zone, with their passengers [26.1]; each rolls on the
loss table, an Abort counting as one damage point, and a Sailed ship turns Ready with +3 on
that roll [26.12b].
"""

from __future__ import annotations

from referee.engine.core import Violation
from referee.engine.orders import Order
from referee.rules.naval_module import ports as P
from referee.rules.naval_module.bases import captured_32_2
from referee.rules.naval_module.context import enemy_of, place, set_ship
from referee.rules.naval_module.movement import roll_for
from referee.rules.naval_module.ships import READY, SAILED
from referee.rules.naval_module.work import Work


def capture(w: Work, o: Order) -> None:
    g = w.game
    port, hint = g.name_of(o.hexes[0])
    if port is None or port not in g.ports:
        w.refuse(Violation("26.28", f"{o.hexes[0]!r} is not a port", o.pos, hint=hint))
        return
    control = dict(w.facts.control)
    if control.get(port) == w.side:
        w.refuse(Violation("26.28", f"{port} is already yours", o.pos))
        return
    enemy = enemy_of(g, w.side)
    control[port] = w.side
    captured = dict(w.facts.captured)
    captured[port] = w.state.turn
    evac = {k: v for k, v in w.facts.evacuation.items() if k != port}
    w.put(control=control, captured=captured, evacuation=evac)
    w.note(
        "capture", "26.28", f"{port} is taken: usable from Game-Turn {w.state.turn + 1}", port=port
    )
    captured_32_2(w, port, enemy)
    zone = P.port_zone(g.module, port)
    for u in sorted(w.state.units.values(), key=lambda x: x.id):
        if u.side != enemy or u.location != port or not g.is_ship(u.id):
            continue
        s = g.ship(w.state, u.id)
        sailed = s.status == SAILED
        w.state = place(w.state, u.id, zone)
        w.state = set_ship(
            w.state, u.id, status=READY, departure=port, started_at_sea=False, passed=[]
        )
        w.note(
            "forced_sortie",
            "26.12b",
            f"{u.id} sorties from {port} into the {zone}"
            + (": Sailed, it turns Ready (+3 on the loss roll)" if sailed else ""),
            ship=u.id,
        )
        if not s.is_flotilla:
            roll_for(w, [u.id], forced_sortie=True, sailed=sailed)
