"""Naval AA fire against a Shipping Attack mission [31.25], handed to the host game.

The AA die roll and its table are the host series' ([14.4], not in the text). What the naval
rules decide is *who* fires and with what DRM cap, and the referee records that as a hand-off
for every declared target before any Shipping Attack roll [31.24]: the target fires for itself
unless it is a Transport [31.25a]; a Transport in port is covered by one warship stacked with it
that is not itself a target this phase [31.25b]; a Transport at sea has no AA; in-range ground
AA or HQ fire adds up to +2, and only in port [31.25a]; ships never add together [31.25a]. The
``shipping`` order lists the air units left after the host game's air combat and AA fire, as
the ``interdict`` order does (docs/interpretations.md, NM-15, NM-18).
"""

from __future__ import annotations

from referee.rules.naval_module.combat import handoff
from referee.rules.naval_module.work import Work

PORT_AA_MAX = 2  # [31.25a]


def aa_firer_31_25(w: Work, sid: str, targets: set[str]) -> tuple[str | None, str]:
    """The naval unit that fires AA for ``sid`` and the case that says so."""
    g = w.game
    u = w.state.units[sid]
    if g.unit(sid).type != "T":
        return sid, "31.25a"
    if u.location not in g.ports:
        return None, "31.25b"
    cover = [
        o.id
        for o in sorted(w.state.units.values(), key=lambda x: x.id)
        if o.side == u.side
        and o.location == u.location
        and o.id != sid
        and g.is_ship(o.id)
        and g.unit(o.id).type != "T"
        and not g.ship(w.state, o.id).is_flotilla
        and o.id not in targets
    ]
    return (cover[0] if cover else None), "31.25b"


def aa_handoffs(w: Work, queue: list[dict]) -> None:
    """One AA hand-off per declared target naval unit [31.25]."""
    targets = {str(e["target"]) for e in queue}
    for sid in sorted(targets):
        air = [p for e in queue if e["target"] == sid for p in e["air"]]
        firer, rule = aa_firer_31_25(w, sid, targets)
        in_port = w.state.units[sid].location in w.game.ports
        cap = PORT_AA_MAX if in_port else 0
        if firer is None:
            text = f"no AA fire for the Transport {sid}: " + (
                "no warship in its port that is not itself attacked" if in_port else "at sea"
            )
        else:
            text = (
                f"{firer} fires AA against {', '.join(air)} attacking {sid}"
                + (" (covering the Transport)" if firer != sid else "")
                + (
                    f"; in-range ground AA or HQ fire adds up to +{cap} in port"
                    if cap
                    else "; no ground AA at sea"
                )
            )
        handoff(w, "aa", rule, text, ship=sid, firer=firer, air=air, port_aa_max=cap)
