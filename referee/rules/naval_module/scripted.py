"""The scripted player of the naval module: simple, deterministic and always legal.

For whatever step a position awaits it writes the orders a plain player would send:

* **readiness** [25.32], [27.42]: Readiness for every undamaged Sailed ship, Repair for every
  damaged ship in port and every transport in the Cadre Box [27.44];
* **interdiction** [31.11]: up to three Ready interdiction-rated air units in the box, all but
  the last when there are two or more (kept back for a Reaction Phase strike); the
  Soviet player, asked, opposes with up to three naval fighters on odd Game-Turns and with none
  on even ones [31.13]; the host's air combat (``aircombat``) loses the first box unit, and the
  Soviet player signs the same;
* **reaction** [31.22]: the first Ready interdiction-rated Axis air unit attacks the first
  Soviet ship at sea; the host's air combat and AA fire against a Shipping Attack
  (``reaction_air``, ``combat_air``) leave every mission unit alive, and the target's side
  signs the same [31.23], [31.25];
* **movement** [26.1x], [28.1x], [30.11]: transports load the ground units of their port
  (evacuating a port an enemy unit stands next to [28.21]); a transport carrying an assault
  unit sails to an all-sea hex next to an enemy-held coastal hex when one is in reach, other
  ships to the nearest other friendly port (alternating by Game-Turn; a ship that supported
  from the sea always, all such returns in one candidate [29.13]), and carried units are
  unloaded on arrival; a flotilla puts out from port to the nearest all-sea hex, and back to
  the nearest friendly port [32.11];
* **combat** [29.11], [30.15], [31.2x]: every ship on an all-sea hex supports an attack on an
  enemy hex in range, every assault unit at sea assaults its adjacent target, a Ready
  interdiction-rated air unit attacks the first enemy ship at sea;
* **coast** [27.12], [29.25], [30.25]: CD units fire at enemy ships they reach or support an
  attacked hex; ships in port give defensive support to an attacked hex in Range;
* **host** [30.16]: the phasing player signs "cleared" on odd Game-Turns and "held" on even
  ones; the other player signs the same;
* **answers** [27.32b], [31.13]: an Abort is taken as damage when the ship survives it, else a
  return; the opposition as above.

Each candidate order is kept only if the file still validates (the ruleset's own
``validate``), so the orders are legal by construction: the validator is the referee's own.
"""

from __future__ import annotations

from collections import deque

from referee.engine.core import GameState
from referee.engine.orders import OrdersSyntaxError
from referee.engine.ruleset import Ruleset
from referee.numerals import is_digits
from referee.rules.naval_module import flotilla
from referee.rules.naval_module import ports as P
from referee.rules.naval_module import sequence as seq
from referee.rules.naval_module.context import Game
from referee.rules.naval_module.defence import attacked_hexes
from referee.rules.naval_module.facts import facts_of
from referee.rules.naval_module.ships import SAILED, sinks_at
from referee.source.model import Module

SECTION = seq.SECTION


def _q(name: str) -> str:
    return f'"{name}"' if " " in name else name


def scripted_orders(rs: Ruleset, module: Module, state: GameState) -> str | None:
    """The orders text of ``rs`` (the naval ruleset object, which calls this with itself) for
    the step ``state`` awaits, or ``None`` when the game is over."""
    if state.phase == seq.GAME_OVER:
        return None
    game = Game.of(module)
    side, _ = rs.awaiting(module, state)
    head = f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n"
    if state.pending:
        pd = state.pending[0]
        if pd.kind == "oppose":  # [31.13]: every fighter able, on odd Game-Turns
            return head + f"[answer]\nanswer {pd.id} {pd.options[-1 if state.turn % 2 else 0]}\n"
        sid = str(pd.context.get("ship"))
        s = game.ship(state, sid)
        choice = "damage" if s.damage + 1 < sinks_at(s) else "return"
        return head + f"[answer]\nanswer {pd.id} {choice}\n"
    section = SECTION.get(state.phase, state.phase)
    lines = _candidates(game, state, side)
    kept: list[str] = []
    if state.phase.startswith("host"):  # every open hand-off's result, all in one file
        lines = [] if not _valid(rs, module, state, _text(head, section, lines)) else lines
        return _text(head, section, lines)
    for line in lines:
        trial = head + f"[{section}]\n" + "".join(x + "\n" for x in [*kept, line])
        if _valid(rs, module, state, trial):
            kept.append(line)
    return _text(head, section, kept)


def _text(head: str, section: str, lines: list[str]) -> str:
    return head + f"[{section}]\n" + "".join(x + "\n" for x in lines)


def _valid(rs: Ruleset, module: Module, state: GameState, text: str) -> bool:
    try:
        doc = rs.parse_orders(text, "scripted.txt")
    except OrdersSyntaxError:
        return False
    return not rs.validate(module, state, doc)


def _candidates(game: Game, state: GameState, side: str) -> list[str]:
    phase = state.phase
    if phase == "readiness":
        return _readiness(game, state, side)
    if phase == "interdiction":
        air = _ready_air(game, state, side)  # the last one kept back for the Reaction Phase
        box = air[: min(3, len(air) - 1)] if len(air) > 1 else air
        return [f"interdict {' '.join(box)}"] if box else []
    if phase == "aircombat":  # the host's air combat: the first box unit is lost
        bc = facts_of(state).box_combat
        alive = bc["units"][1:]
        return [f"survivors {bc['handoff']} " + (f"-> {' '.join(alive)}" if alive else "none")]
    if phase == "aircombat_confirm":
        bc = facts_of(state).box_combat
        alive = facts_of(state).box_signed
        return [f"survivors {bc['handoff']} " + (f"-> {' '.join(alive)}" if alive else "none")]
    if phase in ("reaction_air", "combat_air"):  # the host's air combat and AA: all survive
        sc = facts_of(state).shipping_combat
        return [f"survivors {sc['handoff']} -> {' '.join(sc['units'])}"]
    if phase in ("reaction_air_confirm", "combat_air_confirm"):
        sc = facts_of(state).shipping_combat
        alive = facts_of(state).shipping_signed
        return [f"survivors {sc['handoff']} " + (f"-> {' '.join(alive)}" if alive else "none")]
    if phase == "reaction":
        return _shipping(game, state, side)
    if phase == "movement":
        return _movement(game, state, side)
    if phase == "combat":
        return _combat(game, state, side)
    if phase == "coast":
        return _coast(game, state, side)
    if phase == "host":
        res = "cleared" if state.turn % 2 else "held"
        return [f"host {h['id']} {res}" for h in facts_of(state).handoffs if h["kind"] == "assault"]
    if phase == "host_confirm":
        signed = facts_of(state).host_signed
        return [f"host {k} {v}" for k, v in sorted(signed.items())]
    return []


def _coast(game: Game, state: GameState, side: str) -> list[str]:
    """Each CD unit fires at the first enemy ship it reaches, else supports an attacked hex
    [27.12], [30.25]; each ship in port supports the first attacked hex of his it reaches
    [29.25]; candidates the validator refuses are dropped."""
    cds = [u.id for u in _mine(state, side) if game.unit(u.id).type == "CD"]
    ships = [
        u.id
        for u in sorted(state.units.values(), key=lambda x: x.id)
        if u.side != side and u.location is not None and game.is_ship(u.id)
    ]
    hexes = attacked_hexes(state)
    out = [f"coastfire {c} -> {s}" for c in cds for s in ships]
    out += [f"coastsupport {c} -> {h}" for c in cds for h in hexes]
    in_port = [
        u.id
        for u in _mine(state, side)
        if game.is_ship(u.id) and u.location in game.ports and game.ship(state, u.id).artillery
    ]
    return out + [f"defend {s} -> {h}" for h in attacked_hexes(state) for s in in_port]


def _mine(state: GameState, side: str) -> list:
    return sorted((u for u in state.units.values() if u.side == side), key=lambda u: u.id)


def _readiness(game: Game, state: GameState, side: str) -> list[str]:
    out: list[str] = []
    for u in _mine(state, side):
        if not game.is_ship(u.id):
            continue
        s = game.ship(state, u.id)
        if u.box == "cadre" or (s.damage and u.location in game.ports):
            out.append(f"repair {u.id}")
        elif s.status == SAILED and u.location is not None:
            out.append(f"ready {u.id}")
    return out


def _zone_steps(game: Game, start: str) -> dict[str, list[str]]:
    """Shortest zone paths from a zone."""
    paths = {start: [start]}
    todo = deque([start])
    while todo:
        z = todo.popleft()
        for n in game.zones[z].adjacent:
            if n not in paths:
                paths[n] = [*paths[z], n]
                todo.append(n)
    return paths


def _movement(game: Game, state: GameState, side: str) -> list[str]:
    out: list[str] = []
    enemy = next(s for s in game.sides if s != side)
    control = facts_of(state).control
    ships = [u for u in _mine(state, side) if game.is_ship(u.id) and u.location is not None]
    due = set(facts_of(state).return_to_port)
    returns: list[str] = []  # the 29.13 returns, one candidate: a file validates only whole
    for u in ships:
        s = game.ship(state, u.id)
        if s.is_flotilla:
            out.extend(_flotilla(game, state, u.id, control, side))
            continue
        if s.status == SAILED:
            continue
        here = str(u.location)
        if s.is_transport and s.capacity > 0 and here in game.ports:
            hex_id = game.hex_of(here) or ""
            if any(game.ground_at(state, n, enemy) for n in game.hexes.neighbours(hex_id)):
                out.append(f"evacuate {_q(here)}")
            for g in game.ground_at(state, hex_id, side):
                out.append(f"load {g} -> {u.id}")
        start_zone = P.port_zone(game.module, here) if here in game.ports else game.zone_of(here)
        if start_zone is None:
            continue
        paths = _zone_steps(game, start_zone)
        budget = s.nmp - (1 if here in game.ports else 0)  # zones entered after the first
        plan = None
        if s.is_transport and (game.cargo(state, u.id) or s.capacity):
            plan = _assault_spot(game, state, enemy, paths, budget)
        elif s.artillery and state.turn % 2 == 0 and u.id not in due:
            plan = _bombard_spot(game, state, enemy, paths, budget, s.range)
        if plan is None:
            plan = _port_plan(game, control, side, here, paths, budget, state.turn, s.type)
        if plan is None:
            continue
        first = 0 if here in game.ports else 1  # at sea the path starts after its zone
        words = " ".join(_q(x) for x in plan[first:] if x != here)
        if words and u.id in due:
            returns.append(f"move {u.id} -> {words}")
        elif words:
            out.append(f"move {u.id} -> {words}")
            out.extend(f"unload {c}" for c in game.cargo(state, u.id))
    return (["\n".join(returns)] if returns else []) + out


def _flotilla(game: Game, state: GameState, sid: str, control: dict, side: str) -> list[str]:
    """A flotilla in port puts out to the nearest all-sea hex; at sea or on the coast it
    makes for the nearest friendly port it reaches [32.11]."""
    reach = sorted((c, h, p) for h, (c, p) in flotilla.reachable(game, state, sid).items())
    in_port = state.units[sid].location in game.ports
    ports = {sp.hex: n for n, sp in game.ports.items() if control.get(n) == side}
    for _, h, path in reach:
        if (in_port and game.terrain(h) == "sea") or (not in_port and h in ports):
            return [f"move {sid} -> {' '.join(path)}"]
    return []


def _assault_spot(game: Game, state: GameState, enemy: str, paths: dict, budget: int):
    for zone, path in sorted(paths.items(), key=lambda kv: (len(kv[1]), kv[0])):
        if len(path) - 1 > budget:
            continue
        for h in sorted(game.zones[zone].hexes):
            if game.terrain(h) != "sea":
                continue
            if any(
                game.terrain(n) == "coastal" and game.ground_at(state, n, enemy)
                for n in game.hexes.neighbours(h)
            ):
                return [*path, h]
    return None


def _bombard_spot(game: Game, state: GameState, enemy: str, paths: dict, budget: int, rng: int):
    """An all-sea hex from which an enemy-held hex is in range [29.11]."""
    held = sorted({game.hex_of(u.location) for u in _mine(state, enemy) if u.location} - {None})
    for zone, path in sorted(paths.items(), key=lambda kv: (len(kv[1]), kv[0])):
        if len(path) - 1 > budget:
            continue
        for h in sorted(game.zones[zone].hexes):
            if game.terrain(h) == "sea" and any(
                game.hexes.distance(h, str(t)) <= rng for t in held
            ):
                return [*path, h]
    return None


def _port_plan(game, control, side, here, paths, budget, turn, ship_type):
    options = []
    for name, sp in sorted(game.ports.items()):
        if name == here or control.get(name) != side or sp.zone not in paths:
            continue
        if not P.admits(game.module, name, ship_type):
            continue
        path = paths[sp.zone]
        if len(path) - 1 <= budget:
            options.append((len(path), name, [*path, name]))
    if not options:
        return None
    options.sort()
    return options[turn % len(options)][2]


def _combat(game: Game, state: GameState, side: str) -> list[str]:
    out: list[str] = []
    enemy = next(s for s in game.sides if s != side)
    targets = sorted({game.hex_of(u.location) for u in _mine(state, enemy) if u.location} - {None})
    for u in _mine(state, side):
        if not game.is_ship(u.id) or u.location is None or not is_digits(u.location):
            continue
        for t in targets:
            if game.hexes.distance(str(u.location), str(t)) <= game.ship(state, u.id).range:
                out.append(f"support {u.id} -> {t}")
                break
        for c in game.cargo(state, u.id):
            for n in game.hexes.neighbours(str(u.location)):
                if game.terrain(n) == "coastal" and game.ground_at(state, n, enemy):
                    out.append(f"assault {c} -> {n}")
                    break
    return out + _shipping(game, state, side)


def _ready_air(game: Game, state: GameState, side: str) -> list[str]:
    """The side's interdiction-rated air units not in the Flown Box [31.22]."""
    gone = set(facts_of(state).flown.get(side, []))
    return [
        u.id
        for u in _mine(state, side)
        if game.unit(u.id).category == "air"
        and game.unit(u.id).values.get("INT", 0) > 0
        and u.id not in gone
    ]


def _shipping(game: Game, state: GameState, side: str) -> list[str]:
    """The first Ready interdiction-rated air unit attacks the first enemy ship at sea
    [31.22]; the validator drops it where the rules do not allow it."""
    enemy = next(s for s in game.sides if s != side)
    air = _ready_air(game, state, side)
    at_sea = [
        u.id
        for u in _mine(state, enemy)
        if game.is_ship(u.id)
        and u.location is not None
        and u.location not in game.ports
        and not game.ship(state, u.id).is_flotilla
    ]
    return [f"shipping {air[0]} -> {at_sea[0]}"] if air and at_sea else []
