"""Defensive naval artillery support in the enemy's Combat Phase [29.12], [29.2x], [29.25].

Ground combat is the host series'; the referee learns which hexes the phasing player attacks
from his Combat Phase file: the Defender hexes of his naval support and amphibious assault
hand-offs, and those he names with ``attack HEX [HEX ...]`` (a Declared Attack with no naval
part). In the other player's step of that Combat Phase (the ``coast`` step, which his coast
artillery also uses) he may write ``defend SHIP [SHIP | ARTILLERY] -> HEX``: naval units in
port, Ready or Sailed [29.24], give their artillery support to one of his attacked Defender
hexes in Range, counting the Defender hex but not the ship's [25.12e]. A ship at sea never
supports in defence [29.12]. In port one ship supports alone [29.21]; two ships [29.23], or one
ship and one ground artillery unit [29.22], combine only within one HQ's command range, which
the host game checks (the hand-off says so). The value goes to the host game as a hand-off,
as the offensive support does (docs/interpretations.md, NM-40).
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState, Violation
from referee.engine.orders import Order
from referee.rules.naval_module.combat import ground_artillery_29_22
from referee.rules.naval_module.context import Game, enemy_of
from referee.rules.naval_module.facts import facts_of
from referee.rules.naval_module.host import handoff
from referee.rules.naval_module.work import Work

ATTACK_KINDS = ("support", "assault")


def attacked_hexes(state: GameState) -> list[str]:
    """The Defender hexes of this Combat Phase: the targets of the phasing player's naval
    support and assault hand-offs and the hexes he declared with ``attack`` [29.25]."""
    hexes = {str(h["target"]) for h in facts_of(state).handoffs if h["kind"] in ATTACK_KINDS}
    hexes.update(str(h) for h in facts_of(state).declared_attacks)
    return sorted(hexes)


def declare_attack(w: Work, o: Order) -> None:
    """``attack HEX [HEX ...]``: Declared Attacks of the host game on these Defender hexes,
    named so that the other player may support them from port [29.25]. Each hex must hold an
    enemy ground unit (a Defender hex)."""
    g = w.game
    enemy = enemy_of(g, w.side)
    declared = list(w.facts.declared_attacks)
    for written in o.hexes:
        pos = o.pos_of(written)
        if written not in g.module.map.hexes:
            w.refuse(
                Violation("29.25", f"{written!r} is not a hex: a Declared Attack is on a hex", pos)
            )
            return
        if not g.ground_at(w.state, written, enemy):
            w.refuse(
                Violation(
                    "29.25",
                    f"{written} holds no enemy ground unit: it is no Defender hex",
                    pos,
                    hint="declare attacks on hexes the enemy holds",
                )
            )
            return
        if written in declared:
            w.refuse(
                Violation("29.25", f"{written} is already declared attacked this Combat Phase", pos)
            )
            return
        declared.append(written)
    w.put(declared_attacks=declared)
    w.note(
        "declared_attack",
        "29.25",
        f"Declared Attacks of the host game on {', '.join(o.hexes)}: the Defender may support "
        "them with naval units in port",
        hexes=list(o.hexes),
    )


def defend(w: Work, o: Order) -> None:
    """``defend SHIP [SHIP | ARTILLERY] -> HEX``: defensive naval artillery support from port
    for one attacked Defender hex of the writing side [29.12], [29.21]-[29.25]."""
    g = w.game
    target = o.hexes[0] if o.hexes else ""
    if target not in g.module.map.hexes:
        w.refuse(
            Violation(
                "29.25", f"{target!r} is not a hex: defensive support goes to a Defender hex", o.pos
            )
        )
        return
    if not g.ground_at(w.state, target, w.side):
        w.refuse(
            Violation(
                "29.25",
                f"{target} holds none of your ground units: it is not your Defender hex",
                o.pos,
            )
        )
        return
    if target not in attacked_hexes(w.state):
        attacked = [h for h in attacked_hexes(w.state) if g.ground_at(w.state, h, w.side)]
        w.refuse(
            Violation(
                "29.25",
                f"{target} is not attacked this Combat Phase: defensive support goes to a "
                "Declared Attack",
                o.pos,
                hint="attacked Defender hexes: " + (", ".join(attacked) or "none"),
            )
        )
        return
    done = dict(w.facts.defended)
    if target in done.values():
        w.refuse(
            Violation(
                "29.2",
                f"{target} already has defensive naval support: the naval units of one Declared "
                "Attack combine in one order",
                o.pos,
                hint="name every ship (and the ground artillery unit) in one defend order",
            )
        )
        return
    guns = [u for u in o.units if not g.is_ship(u) and u in g.pieces]
    ships = [u for u in o.units if u not in guns]
    for sid in ships:
        if not _ship_may_defend(w, o, sid, target, done):
            return
    if not ships:
        w.refuse(Violation("29.25", "name a naval unit of yours in port", o.pos))
        return
    if len(ships) > 2:
        w.refuse(
            Violation("29.23", "at most two naval units combine for one Declared Attack", o.pos)
        )
        return
    if guns:
        if guns[0] in done:
            w.refuse(
                Violation("29.22", f"{guns[0]} already supports {done[guns[0]]}", o.pos_of(guns[0]))
            )
            return
        if not ground_artillery_29_22(w, o, guns, ships, target):
            return
    value = sum(g.ship(w.state, s).artillery for s in ships)
    rule, needs, extra = "29.21", "", {}
    if len(ships) == 2:
        rule, needs = "29.23", f"that {ships[0]} and {ships[1]} are in one HQ's command range"
    if guns:
        rule, needs = "29.22", f"that {ships[0]} and {guns[0]} are in one HQ's command range"
        extra = {"artillery": guns[0]}
    handoff(
        w,
        "defensive_support",
        "29.25",
        f"{' + '.join(ships)} give {value} defensive artillery support points to the Defender "
        f"hex {target} from port"
        + (f", combined with {guns[0]}" if guns else "")
        + (f" (the host checks {needs} [{rule}])" if needs else f" [{rule}]"),
        ships=ships,
        target=target,
        value=value,
        **extra,
    )
    for u in [*ships, *guns[:1]]:
        done[u] = target
    w.put(defended=done)


def _ship_may_defend(w: Work, o: Order, sid: str, target: str, done: dict[str, Any]) -> bool:
    g = w.game
    u = w.state.units.get(sid)
    pos = o.pos_of(sid)
    if u is None or not g.is_ship(sid) or u.side != w.side or u.location is None:
        w.refuse(Violation("29.25", f"{sid} is not a naval unit of yours in play", pos, sid))
        return False
    s = g.ship(w.state, sid)
    if s.artillery <= 0:
        w.refuse(Violation("29.11", f"{sid} has no artillery support value", pos, sid))
        return False
    if u.location not in g.ports:
        w.refuse(
            Violation(
                "29.12",
                f"{sid} is at sea: naval units at sea give no defensive artillery support",
                pos,
                sid,
                "only naval units in port support a Defender hex [29.25]",
            )
        )
        return False
    if sid in done:
        w.refuse(
            Violation(
                "29.25",
                f"{sid} already supports {done[sid]}: a naval unit supports one Declared Attack "
                "per Combat Phase",
                pos,
                sid,
            )
        )
        return False
    here = g.hex_of(u.location) or ""
    dist = g.hexes.distance(here, target)
    if dist > s.range:
        w.refuse(
            Violation(
                "25.12e",
                f"{sid} in {u.location} is {dist} hexes from {target} (counting the Defender hex, "
                f"not its own); its Range is {s.range}",
                pos,
                sid,
            )
        )
        return False
    return True


def defence_due(game: Game, state: GameState, phasing: str) -> bool:
    """The other player has something to decide: one of his naval units with an artillery
    value is in a port within Range of an attacked hex he holds [29.25]."""
    defender = enemy_of(game, phasing)
    held = [h for h in attacked_hexes(state) if game.ground_at(state, h, defender)]
    if not held:
        return False
    for u in state.units.values():
        if u.side != defender or u.location not in game.ports or not game.is_ship(u.id):
            continue
        s = game.ship(state, u.id)
        here = game.hex_of(u.location)
        if s.artillery <= 0 or here is None:
            continue
        if any(game.hexes.distance(here, h) <= s.range for h in held):
            return True
    return False
