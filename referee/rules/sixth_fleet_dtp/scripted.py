"""The scripted random player of the DTP rules (``RULESET.scripted_orders``): seeded, always
legal, for whole-game property tests, the DTP benchmark and the demo.

It decides nothing for a real player: it stands in for both players in tests. Every choice is
random but seeded by the game id and the position (turn, phase, impulse record, waiting
strike), so the same game replays byte for byte; every candidate order is kept only if the
phase's own check (``flow.check``: the same check ``validate`` runs) still accepts the file
with it, so the files are legal by construction:

* **set-up** [11.0, DTP 11.0 kept]: SPI's scripted set-up (``sixth_fleet_1975.scripted``);
  in Iceland the players' choices [DTP 11.31 rules 3-5] are drawn at random: the Kiev TF's
  hex, the Saipan TF's west-edge hex, which Adams DD joins it (the other stays with a CV),
  and, one time in two, one CV TF 2 to 4 hexes from the Saipan TF, and 0 to 6 Murmansk air
  units at Keflavik [DTP 11.31 rule 1] (``iceland_lines``);
* **movement** [DTP 4.1 phases 1-4, 5.0]: each ship and sub (ship phases) or air unit (air
  phases, about one in three) walks a random path of one to its allowance in hexes, each step
  toward the nearest enemy (a fighter: the nearest enemy air unit, else its own ships, as
  CAP) seven times in ten, and keeps the longest prefix the path check [DTP 5.24, 5.25, 8.55,
  7.21] accepts; detection attempts [DTP 6.2] by the units before anyone moves and by each
  unit right after its move, on every enemy unit within one hex the attempt rules [DTP 6.21,
  6.2a/b] allow;
* **combat** [DTP 8.2]: an impulse is one attack (ships and subs) or strike (air) on a random
  enemy within reach the attack check accepts (first strike when it is accepted [DTP 8.231])
  -- or, one time in five and whenever nothing is accepted, a pass; while a strike waits,
  the defender bounces it with every fighter allowed [DTP 8.232] nine times in ten;
* **rebasing** [DTP 9.22]: every air unit on the map lands at the nearest airbase, or for
  carrier air carrier of its nationality [DTP 9.26], the rebasing check accepts (its own hex
  first), except CAP over its own base that never left it, which stays up [DTP 9.24].
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence

from referee.engine.core import GameState
from referee.engine.orders import Order, OrdersSyntaxError, parse_orders
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.movement import start_hex
from referee.rules.sixth_fleet_1975.scripted import reinforcement_orders, setup_orders
from referee.rules.sixth_fleet_dtp import (
    base_combat,
    bases,
    flow,
    iceland_setup,
    landing,
    sg_base_attacks,
    special_bases,
    westpac_hostilities,
    westpac_overstack,
    westpac_reinforcement,
    westpac_setup,
)
from referee.rules.sixth_fleet_dtp.decks import is_deck
from referee.rules.sixth_fleet_dtp.facts import facts_of
from referee.rules.sixth_fleet_dtp.sequence import BY_ID, INTERPHASE_12_2
from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY
from referee.rules.sixth_fleet_dtp.westpac_command_ships import to_sea_lines_11_5091
from referee.source.model import Module

SHIPS = ("surface", "submarine")
PASS_CHANCE_8_2 = 0.2
BOUNCE_CHANCE_8_232 = 0.9
AIR_MOVE_CHANCE = 1 / 3
CLOSE_IN = 0.7
REACH = 6  # hexes within which combat candidates are tried (the check decides range)


def seed_of(state: GameState) -> int:
    """A seed from the game id and the position's step, so a game replays exactly."""
    key = json.dumps(
        [
            state.game_id,
            state.turn,
            state.phase,
            state.active_side,
            facts_of(state).impulses,
            facts_of(state).strike,
            sorted(facts_of(state).rebased),
        ],
        sort_keys=True,
        default=str,
    )
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def header(state: GameState, side: str) -> str:
    return f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\nphase: {state.phase}\n\n"


def scripted_orders(module: Module, state: GameState) -> str | None:
    """The orders text for the step ``state`` awaits; ``None`` when the game is over."""
    game = Game.of(module, state)
    due = flow.due_sides(game, state)
    if not due:
        return None
    side = due[0]
    rng = random.Random(seed_of(state))
    section = flow.section_of(state)
    if state.phase == flow.SETUP:
        held = westpac_setup.held_back_11_505(game, state)  # SG #36 after SEATO [DTP 11.505]
        lines = iceland_lines(game, state, side, setup_orders(game, held, side), rng)
    else:
        p = BY_ID[state.phase]
        if p.section == "movement":
            kind = "ship" if p.id.startswith("ship") else "air"
            lines = movement_lines(game, state, side, kind, rng)
        elif p.section == "combat":
            lines = impulse_lines(game, state, side, rng)
        elif p.section == "hostilities":  # [DTP 11.5101]
            lines = westpac_hostilities.scripted_lines(game, state)
        elif p.id == INTERPHASE_12_2.id:  # SPI's, in the Med Campaign [12.2]
            lines = reinforcement_orders(game, state, side)
        elif p.section == "reinforcement":  # [DTP 11.506]
            then = westpac_reinforcement.owed_11_506(state)["then"]
            lines = westpac_reinforcement.scripted_lines(game, state, side, then)
        else:
            lines = rebasing_lines(game, state, side)
    body = "\n".join(lines)
    return header(state, side) + f"[{section}]\n" + (body + "\n" if body else "")


def iceland_lines(
    game: Game, state: GameState, side: str, lines: list[str], rng: random.Random
) -> list[str]:
    """SPI's scripted set-up ``lines`` with the Iceland choices [DTP 11.31 rules 3-5] drawn
    at random, kept if the set-up check accepts them; else each on its first listed hex (the
    Denmark Strait place of each CV, the first Adams DD with the Saipan TF, the other with
    the second CV)."""
    kiev = iceland_setup.pool_units(game, side, iceland_setup.RULE_3)
    r4 = iceland_setup.pool_units(game, side, iceland_setup.RULE_4)
    if not kiev and not r4:
        return lines
    out: list[str] = []
    for pick in (rng, None):
        where = _iceland_where(game, side, kiev, r4, pick)
        if pick is not None:
            where.update(_keflavik_11_31_1(game, state, side, pick))
        out = [ln for ln in lines if ln.split()[1] not in where]
        out += [f"place {u} {h}" for u, h in where.items()]
        if orders_ok(game, state, side, out):
            break
    return out


def _keflavik_11_31_1(
    game: Game, state: GameState, side: str, rng: random.Random
) -> dict[str, str]:
    """0 to 6 of ``side``'s air units in an off-map box, drawn at random, based at the place
    held from the start instead [DTP 11.31 rule 1]."""
    held = sorted(iceland_setup.held_hexes(game))
    boxes = special_bases.off_map_names(game.module)
    air = sorted(
        u for u, s in state.units.items() if s.side == side and s.box in boxes and game.is_air(u)
    )
    if not held or not air:
        return {}
    k = rng.randint(0, min(iceland_setup.KEFLAVIK_LIMIT, len(air)))
    return dict.fromkeys(rng.sample(air, k), held[0])


def _iceland_where(
    game: Game, side: str, kiev: list[str], r4: list[str], rng: random.Random | None
) -> dict[str, str]:
    """Unit -> hex for the Iceland choices: random with ``rng``, the first listed without."""

    def pick(xs: Sequence[str]) -> str:
        return rng.choice(list(xs)) if rng is not None else xs[0]

    where: dict[str, str] = {}
    pools = {u: p for p in game.scenario.pools for u in p.units}
    if kiev:
        h = pick(pools[kiev[0]].hexes)
        where.update({u: h for u in kiev})
    if not r4:
        return where
    adams = [u for u in r4 if game.unit(u).type == "DD"]
    tf = [u for u in r4 if u not in adams]
    saipan = pick(pools[tf[0]].hexes)
    where.update({u: saipan for u in tf})
    cvs = [c for c in game.scenario.choices if c.rule == iceland_setup.RULE_5]
    for c in cvs:
        where[c.unit] = c.hexes[0]
    if cvs and rng is not None and rng.random() < 0.5:
        c = rng.choice(cvs)
        near = [h for h in c.hexes[1:] if 2 <= game.board.distance(h, saipan) <= 4]
        if near:
            where[c.unit] = rng.choice(near)
    if rng is not None:
        rng.shuffle(adams)
    for i, u in enumerate(adams):
        where[u] = saipan if i == 0 or not cvs else where[cvs[i % len(cvs)].unit]
    return where


def _orders(state: GameState, side: str, lines: Sequence[str]) -> tuple[Order, ...]:
    text = header(state, side) + f"[{flow.section_of(state)}]\n" + "\n".join(lines) + "\n"
    return parse_orders(text, "scripted.txt", VOCABULARY).orders


def orders_ok(game: Game, state: GameState, side: str, lines: Sequence[str]) -> bool:
    """The phase's own check accepts the file (the words are the module's by construction)."""
    try:
        orders = _orders(state, side, lines)
    except OrdersSyntaxError:  # a candidate the parser refuses is simply not kept
        return False
    if len(orders) != len(lines):
        return False
    return not [p for p in flow.check(game, state, side, orders) if p.severity == "error"]


def _mine(state: GameState, side: str) -> list[str]:
    return sorted(u for u, s in state.units.items() if s.side == side)


def _enemies_near(game: Game, state: GameState, side: str, hex_id: str, radius: int) -> list[str]:
    return sorted(
        u
        for u, s in state.units.items()
        if s.side != side
        and s.location is not None
        and game.board.distance(s.location, hex_id) <= radius
    )


def _walk(
    game: Game, start: str, steps: int, goals: Sequence[str], rng: random.Random
) -> list[str]:
    """A random path, each step toward the nearest enemy (``goals``) with chance
    :data:`CLOSE_IN`, so that the sides meet and detect and fight."""
    path = [start]
    for _ in range(steps):
        nxt = [h for h in game.board.neighbours(path[-1]) if h not in path]
        if not nxt:
            break
        if goals and rng.random() < CLOSE_IN:
            nxt = [min(nxt, key=lambda h: (min(game.board.distance(h, g) for g in goals), h))]
        path.append(rng.choice(nxt))
    return path


def _detections(game: Game, state: GameState, side: str, unit: str, where: str) -> list[str]:
    return [f"detect {unit} -> {t}" for t in _enemies_near(game, state, side, where, 1)]


def movement_lines(
    game: Game, state: GameState, side: str, kind: str, rng: random.Random
) -> list[str]:
    """Random paths and every detection the rules allow [DTP 5.0, 6.2]."""
    cats = SHIPS if kind == "ship" else ("air",)
    goals = sorted(
        {s.location for s in state.units.values() if s.side != side and s.location is not None}
    )
    enemy_air = sorted(
        {
            s.location
            for u, s in state.units.items()
            if s.side != side and s.location is not None and game.category(u) == "air"
        }
    )
    own_ships = sorted(
        {
            s.location
            for u, s in state.units.items()
            if s.side == side and s.location is not None and game.category(u) in SHIPS
        }
    )
    # the command ships out of port first: every file must leave them at sea [DTP 11.5091]
    lines = to_sea_lines_11_5091(game, state, side) if kind == "ship" else []
    fixed = _over_limit_lines_11_5063(game, state, side, lines) if kind == "ship" else []
    lines += fixed
    for u in _mine(state, side):  # detection before anyone moves [DTP 6.2a]
        here = state.units[u].location
        if here is not None:
            for cand in _detections(game, state, side, u, here):
                if orders_ok(game, state, side, [*lines, cand]):
                    lines.append(cand)
    done = {ln.split()[1] for ln in fixed}
    for u in _mine(state, side):
        if game.category(u) not in cats or u in done:
            continue
        if kind == "air" and rng.random() >= AIR_MOVE_CHANCE:
            continue
        start = start_hex(game, state, u)
        if start is None:
            continue
        mp = max(1, game.movement_allowance(u))
        aim = goals
        if kind == "ship" and _base_attacker_11_3_4(game, state, side, u):
            aim = _enemy_bases(game, state, side) or goals  # its one base attack [11.3 rule 4]
        if kind == "air" and game.value(u, "AA") > 0 and (enemy_air or own_ships):
            # fighters close on the enemy's air, or fly CAP over their own ships, to be within
            # reach of a strike to bounce [DTP 8.232]
            aim = enemy_air or own_ships
        path = _walk(game, start, rng.randint(1, mp), aim, rng)
        for end in range(len(path), 1, -1):
            cand = f"move {u} {' '.join(path[1:end])}"
            if orders_ok(game, state, side, [*lines, cand]):
                lines.append(cand)
                for det in _detections(game, state, side, u, path[end - 1]):
                    if orders_ok(game, state, side, [*lines, det]):
                        lines.append(det)
                break
    return lines


def _over_limit_lines_11_5063(
    game: Game, state: GameState, side: str, before: Sequence[str]
) -> list[str]:
    """The excess of over-limit ship reinforcements moved out, or, where the moves are not
    accepted, eliminated [DTP 11.5063] (``westpac_overstack``)."""
    lines = westpac_overstack.scripted_lines(game, state, side)
    if not lines or orders_ok(game, state, side, [*before, *lines]):
        return lines
    return [
        f"{westpac_overstack.VERB} {ln.split()[1]}" if ln.startswith("move ") else ln
        for ln in lines
    ]


def impulse_lines(game: Game, state: GameState, side: str, rng: random.Random) -> list[str]:
    """One impulse [DTP 8.2], or the defender's bounces while a strike waits [DTP 8.232]."""
    strike = facts_of(state).strike
    if strike:
        if rng.random() >= BOUNCE_CHANCE_8_232:
            return []
        lines: list[str] = []
        targets = " ".join(strike["units"])
        for u in _mine(state, side):
            if game.category(u) == "air" and state.units[u].location is not None:
                cand = f"bounce {u} -> {targets}"
                if orders_ok(game, state, side, [*lines, cand]):
                    lines.append(cand)
        return lines
    if rng.random() < PASS_CHANCE_8_2:
        return ["pass"]
    cands: list[str] = []
    for u in _mine(state, side):
        here = state.units[u].location
        if here is None:
            continue
        verb = "strike" if game.category(u) == "air" else "attack"
        for t in _enemies_near(game, state, side, here, REACH):
            cands.append(f"{verb} {u} -> {t}")
            if verb == "attack":
                cands.append(f"attack {u} -> {t} first-strike")
        cands += _sub_base_attacks_11_3_4(game, state, side, u, here)
    rng.shuffle(cands)
    for cand in cands:
        if orders_ok(game, state, side, [cand]):
            return [cand]
    return ["pass"]


def _base_attacker_11_3_4(game: Game, state: GameState, side: str, unit: str) -> bool:
    """A sub the scenario lets attack coastal bases (a Soviet SG in the North Atlantic) that
    has not made its one attack yet [DTP 11.3 rule 4]; never in the Med (no such list)."""
    allowed = sg_base_attacks.base_attack_subs_11_3_4(game.module, side)
    return (
        bool(allowed)
        and game.category(unit) == "submarine"
        and game.unit(unit).type in (allowed or ())
        and unit not in sg_base_attacks.used_11_3_4(state)
    )


def _enemy_bases(game: Game, state: GameState, side: str) -> list[str]:
    """The enemy bases and Defended hexes not yet destroyed [DTP 10.44]: an SG's goals."""
    out = []
    for h in sorted(game.module.map.hexes):
        base = base_combat.base_at(game, state, h)
        if base is not None and base.side not in ("", side) and base.level < bases.DESTROYED:
            out.append(h)
    return out


def _sub_base_attacks_11_3_4(
    game: Game, state: GameState, side: str, unit: str, here: str
) -> list[str]:
    """Such a sub may try the bases next to it [DTP 11.3 rule 4, 10.44]; the phase's check
    keeps only the legal ones. None elsewhere, so the Med's games are unchanged."""
    if not _base_attacker_11_3_4(game, state, side, unit):
        return []
    return [
        f"attack {unit} -> hex:{h}"
        for h in sorted(game.board.within(here, 1))
        if game.board.airbase(h) is not None or game.board.defended(h) is not None
    ]


def rebasing_lines(game: Game, state: GameState, side: str) -> list[str]:
    """Every air unit on the map to the nearest airbase, or for carrier air carrier of its
    nationality, it may use [DTP 9.22-9.26]."""
    lines: list[str] = []
    airbases = set(game.board.airbase_hexes())
    deck_hexes = {
        st.location
        for d, st in state.units.items()
        if st.location is not None and game.category(d) == "surface" and is_deck(game, d)
    }
    moved = set(facts_of(state).moved_air)
    for u in _mine(state, side):
        here = state.units[u].location
        if game.category(u) != "air" or here is None:
            continue
        if u not in moved and flow.own_base_here(game, state, u, here):
            continue  # CAP over its own base that never left it stays up, no roll [DTP 9.24]
        decks = {h for h in deck_hexes if landing.decks_in(game, state, u, h)}
        for b in sorted(airbases | decks, key=lambda h: (game.board.distance(here, h), h)):
            cand = f"rebase {u} {b}"
            if orders_ok(game, state, side, [*lines, cand]):
                lines.append(cand)
                break
    return lines
