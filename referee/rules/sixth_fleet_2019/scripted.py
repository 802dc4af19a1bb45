"""The scripted player (``RULESET.scripted_orders``): plain, deterministic, always legal.

Events phase: ``roll``. Action phase: candidate actions in a fixed order of preference --
take Istanbul (Soviet ground from Bulgaria, air strikes on its base), clear the Western Med
(NATO), strike the nearest enemy ship or key-zone ground unit in range with a base's air units
or a zone's naval units; refit units from the Refit Box at the first base that takes them
(provisional 11.0): one unit's refit first when the phase has two actions or more, the rest
last; bring in due reinforcements (provisional 10.0): right after the Istanbul move when the
phase has two actions or more, otherwise last -- each kept only if the whole file still
validates, until the phase's actions are used.
Every choice is checked with the validator itself.
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.orders import OrdersDoc, parse_orders
from referee.rules.sixth_fleet_2019 import steps
from referee.rules.sixth_fleet_2019.control import base_owner, controller, functional
from referee.rules.sixth_fleet_2019.facts import facts_of
from referee.rules.sixth_fleet_2019.game import KEY_ZONES, REFIT, SOVIET, Game, other, zone_of
from referee.rules.sixth_fleet_2019.movement import air_distance
from referee.rules.sixth_fleet_2019.reinforce import due, group_of
from referee.rules.sixth_fleet_2019.sequence import BY_ID, OVER
from referee.rules.sixth_fleet_2019.strike import marker, scripted_plays
from referee.rules.sixth_fleet_2019.vocabulary import VOCABULARY


def q(zone: str) -> str:
    return f'"{zone}"' if " " in zone else zone


def scripted_orders(game: Game, state: GameState) -> str | None:
    if state.phase == OVER:
        return None
    side = str(BY_ID[state.phase].side)
    head = f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n"
    if state.phase.endswith("_events"):
        return head + "[events]\nroll\n"
    ew, strikes = scripted_plays(game, state, side)  # strike markers (provisional 17.0)
    chosen: list[str] = []
    left = int(facts_of(state).actions_left)
    if ew and not steps.validate(game, state, _doc(head, ew)):
        chosen, left = list(ew), left + sum(_gain(game, line) for line in ew)
    cands = candidates(game, state, side)
    used = 0
    for cand in [*cands[:1], *strikes, *cands[1:]]:
        if used >= left:
            break
        text = head + "[actions]\n" + "\n".join([*chosen, cand]) + "\n"
        doc = parse_orders(text, "scripted.txt", VOCABULARY)
        if not steps.validate(game, state, doc):
            chosen.append(cand)
            used += 1
    return head + "[actions]\n" + ("\n".join(chosen) if chosen else "pass") + "\n"


def _doc(head: str, lines: list[str]) -> OrdersDoc:
    return parse_orders(head + "[actions]\n" + "\n".join(lines) + "\n", "scripted.txt", VOCABULARY)


def _gain(game: Game, line: str) -> int:
    """The actions an EW ``play`` line adds [6.1] (provisional 17.0)."""
    return marker(game, line.split()[1]).gain


def candidates(game: Game, state: GameState, side: str) -> list[str]:
    out: list[str] = []
    enemy = other(side)
    if side == SOVIET and controller(state, "Istanbul") != SOVIET:
        for uid, u in sorted(state.units.items()):
            if u.side == side and u.location == "Bulgaria" and game.category(uid) == "ground":
                out.append(f"move {uid} -> Istanbul")
                break
    arrivals = _reinforcements(game, state, side)
    if int(facts_of(state).actions_left) >= 2:
        out, arrivals = out + arrivals, []
    # strikes on enemy bases in key zones, then on enemy ground units there
    for z in KEY_ZONES:
        if base_owner(game, state, z) == enemy and functional(game, state, z):
            out += _air_strikes(game, state, side, z, ["base"], "AG")
    if side != SOVIET:
        wm = [
            u
            for u, s in sorted(state.units.items())
            if s.side == enemy
            and s.location == "Western Med"
            and game.category(u) in ("surface", "submarine")
        ]
        for t in wm:
            out += _air_strikes(
                game,
                state,
                side,
                "Western Med",
                [t],
                "ASW" if game.category(t) == "submarine" else "ASU",
            )
    # any enemy ship: nearest first, by each friendly base or naval zone
    targets = sorted(
        (
            u
            for u, s in state.units.items()
            if s.side == enemy
            and game.category(u) in ("surface", "submarine")
            and s.location
            and zone_of(game, state, u) == s.location
        ),
        key=lambda u: (0 if game.is_carrier(u) else 1, u),
    )
    for t in targets:
        key = "ASW" if game.category(t) == "submarine" else "ASU"
        z = str(state.units[t].location)
        out += _air_strikes(game, state, side, z, [t], key)
        navy = [
            u
            for u in _friendly_in(game, state, side, z)
            if game.kind(u) == "naval" and game.unit(u).values[key] > 0
        ]
        for nat in sorted({game.unit(u).nationality for u in navy}):
            force = [u for u in navy if game.unit(u).nationality == nat]
            out.append(f"attack {' '.join(force)} -> {q(z)} hitting {t}")
    refits = _refits(game, state, side)
    if refits and int(facts_of(state).actions_left) >= 2:
        # with actions to spare, the first unit's refit first (provisional 11.0)
        first = refits[0].split()[1]
        mine = [r for r in refits if r.split()[1] == first]
        return mine + out + refits[len(mine) :] + arrivals
    return out + refits + arrivals


def _reinforcements(game: Game, state: GameState, side: str) -> list[str]:
    """Candidates for the due reinforcements (provisional 10.0): each group's units of one
    nationality together, then one by one, at each of their entry zones in scenario order."""
    out: list[str] = []
    waiting = due(game, state, side)
    most = game.param("reinforce_units_per_action")
    seen: set[tuple[str, ...]] = set()
    for uid in waiting:
        group = group_of(game, state, uid)
        assert group is not None
        nat = game.unit(uid).nationality
        same = [u for u in waiting if u in group.units and game.unit(u).nationality == nat]
        for force in (tuple(same[:most]), (uid,)):
            if force in seen:
                continue
            seen.add(force)
            out += [f"reinforce {' '.join(force)} -> {q(z)}" for z in group.hexes]
    return out


def _refits(game: Game, state: GameState, side: str) -> list[str]:
    """One candidate per unit in the Refit Box and base (provisional 11.0), in map order;
    the validator keeps the first that fits."""
    bases = [z for z in game.map_zones() if game.has_base(z)]
    return [
        f"refit {uid} -> {q(z)}"
        for uid, u in sorted(state.units.items())
        if u.side == side and u.location == REFIT
        for z in bases
    ]


def _friendly_in(game: Game, state: GameState, side: str, zone: str) -> list[str]:
    return [u for u, s in sorted(state.units.items()) if s.side == side and s.location == zone]


def _air_strikes(
    game: Game, state: GameState, side: str, zone: str, targets: list[str], key: str
) -> list[str]:
    """One candidate per friendly base (or carrier) in range: its air units of one
    nationality with a factor against the target."""
    out = []
    places: dict[str, list[str]] = {}
    for uid, u in sorted(state.units.items()):
        if (
            u.side != side
            or game.category(uid) != "air"
            or u.location is None
            or "landed_elsewhere" in u.status
        ):
            continue
        home = zone_of(game, state, uid)
        if home is None or game.unit(uid).values[key] <= 0:
            continue
        d = air_distance(game, home, zone)
        rng = game.ma(uid)
        if d is None or (rng is not None and d > rng):
            continue
        places.setdefault(f"{u.location}|{game.unit(uid).nationality}", []).append(uid)
    for _, force in sorted(places.items()):
        out.append(f"attack {' '.join(force[:4])} -> {q(zone)} hitting {' '.join(targets)}")
    return out
