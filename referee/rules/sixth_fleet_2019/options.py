"""What a unit may do now (``referee options``), computed by the validator itself: every
candidate one-unit action (move, attack, refit, reinforce) is written as an orders line and
kept only if the validator accepts it as a one-action file, so what ``options`` lists is what
``validate`` accepts [6.0]-[9.0].

**Cheap enough for every step** (issue 25: the options are published at each step and
``verify`` computes them again). A one-action file in its side's own Action Phase, with no
``[standing]`` section, is refused by ``steps.validate`` exactly when the check of its one
order refuses it: the header is right and one action is available by construction, and after
a clean check the walk only carries the order out, which adds no violation. So a candidate is
judged by the same check ``steps.one_order`` runs (:data:`CHECKS`), without carrying it out
(the carry-out, the over-stacking and track markers after it cost five times the check), and
each line is parsed once per process (:func:`_parsed`). ``tests/rules/test_sixth_fleet_2019_
options_cost.py`` holds both verdicts equal on every candidate of a played game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from referee.engine.core import GameState, Violation, refusals
from referee.engine.orders import Order, parse_orders
from referee.engine.ruleset import OptionsReport
from referee.errors import UserError
from referee.rules.sixth_fleet_2019 import steps
from referee.rules.sixth_fleet_2019.amphibious import check_embark, check_land
from referee.rules.sixth_fleet_2019.combat import BASE, check_attack, target_kind
from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts
from referee.rules.sixth_fleet_2019.forces import never_joins, room
from referee.rules.sixth_fleet_2019.game import HOLDING, NEUTRAL, REFIT, Game, other, zone_of
from referee.rules.sixth_fleet_2019.movement import check_move
from referee.rules.sixth_fleet_2019.patrol import check_patrol
from referee.rules.sixth_fleet_2019.refit import check_refit
from referee.rules.sixth_fleet_2019.reinforce import WAITING, check_reinforce, group_of
from referee.rules.sixth_fleet_2019.sequence import BY_ID
from referee.rules.sixth_fleet_2019.strike import check_play, marker
from referee.rules.sixth_fleet_2019.vocabulary import VOCABULARY


def q(zone: str) -> str:
    return f'"{zone}"' if " " in zone else zone


Check = Callable[[Game, GameState, str, Order], tuple[list[Violation], Any]]
CHECKS: dict[str, Check] = {
    "move": check_move,
    "attack": check_attack,
    "refit": check_refit,
    "reinforce": check_reinforce,
    "land": check_land,
    "embark": check_embark,
    "patrol": check_patrol,
    "play": check_play,
}
"""The check ``steps.one_order`` runs first for each verb a candidate line uses."""


def _one_action(state: GameState) -> GameState:
    """The position a one-action file is judged in: one action available [6.1]."""
    return SixthFleet2019Facts.put(state, actions_left=1)


def _legal(game: Game, ready: GameState, side: str, line: str) -> bool:
    """Whether ``validate`` accepts ``line`` as a one-action file of ``side`` in ``ready``
    (:func:`_one_action` of the position; the module docstring says why the check of its
    one order decides it)."""
    order = _parsed(line)
    bad, _ = CHECKS[order.verb](game, ready, side, order)
    return not refusals(bad)


def accepted(game: Game, state: GameState, side: str, line: str) -> bool:
    """Whether ``validate`` accepts ``line`` as a one-action file of ``side`` in ``state``
    (a force's line: the viewer's forces, options format 5)."""
    return _legal(game, _one_action(state), side, line)


def joins(game: Game, state: GameState, side: str, line: str) -> bool:
    """Whether the units of a force's ``line`` may act as one force at all (options format 6:
    :func:`referee.rules.sixth_fleet_2019.forces.never_joins`)."""
    return not never_joins(game, _one_action(state), side, _parsed(line))


def force_room(
    game: Game, state: GameState, side: str, verb: str, rest: str, units: list[str]
) -> list[tuple[int, list[str]]]:
    """The counts that cap a force of ``units`` on ``VERB UNIT REST`` where it ends (options
    format 6: :func:`referee.rules.sixth_fleet_2019.forces.room`)."""
    line = f"{verb} {units[0]} {rest}"
    return room(game, _one_action(state), side, _parsed(line), units)


def validated(game: Game, state: GameState, side: str, line: str) -> bool:
    """The same verdict through the whole of ``steps.validate`` (a one-action file of
    ``side``): what :func:`_legal` must always agree with (the test holds them equal)."""
    text = f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n[actions]\n{line}\n"
    return not steps.validate(game, _one_action(state), parse_orders(text, "o", VOCABULARY))


@lru_cache(maxsize=1 << 16)
def _parsed(line: str) -> Order:
    """``line`` read as the one order of an ``[actions]`` section (pure: a line means the
    same in every position, so it is parsed once per process; a line that does not parse
    raises each time, as the parser does)."""
    (order,) = parse_orders(f"[actions]\n{line}\n", "o", VOCABULARY).orders
    return order


def _paths(game: Game, state: GameState, side: str, uid: str, start: str) -> dict[str, list[str]]:
    """A shortest path to every zone, for the unit's kind of movement: breadth first over the
    zones the validator's own entry rules let it pass [2.1.2], [3.3.1], [8.4]."""
    from referee.rules.sixth_fleet_2019.movement import entry_problem

    kind = game.kind(uid)
    parent = {start: start}
    frontier = [start]
    while frontier:
        nxt = []
        for z in frontier:
            for n in sorted(game.board.neighbours(z)):
                if n in parent or game.board.boundary_blocked(z, n, kind):
                    continue
                parent[n] = z
                if entry_problem(game, state, side, kind, n, last=False, mission=True) is None:
                    nxt.append(n)
        frontier = nxt
    out = {}
    for z in parent:
        if z == start:
            continue
        path = [z]
        while parent[path[-1]] != start:
            path.append(parent[path[-1]])
        out[z] = path[::-1]
    return out


def options_report(module: Any, state: GameState, subject: str, limit: int) -> OptionsReport:
    """Every one-unit action ``subject`` may take now, each a ready orders line that
    ``validate`` accepts [6.0]-[9.0]; the head line says where the unit is and the phase."""
    game = Game.of(module)
    if subject not in state.units:
        from referee.source.diagnostics import did_you_mean

        raise UserError(
            f"unknown unit {subject!r}",
            hint=did_you_mean(subject, list(state.units)) or "name a unit id",
        )
    u = state.units[subject]
    phase = BY_ID[state.phase].title if state.phase in BY_ID else "the game is over"
    where = "waiting off the map (a reinforcement)" if u.box == WAITING else f"at {u.location}"
    head = f"{subject} ({u.side}) {where}; {phase} of turn {state.turn}"
    moves, attacks = _moves_and_attacks(game, state, subject)
    refits = _refits(game, state, subject)
    arrivals = _arrivals(game, state, subject)
    more = _landings_and_patrols(game, state, subject)
    lines = [head, *_option_lines(moves, attacks, refits, arrivals, limit)]
    lines += [f"  {c['order']}  ({c['label']})" for c in more]
    if more and lines[1] == "  no action now":
        del lines[1]
    marks = {r["zone"]: "move" for r in [*refits, *arrivals]}
    marks.update({m["zone"]: "move" for m in moves})
    marks.update({a["zone"]: "attack" for a in attacks})
    data = {
        "unit": subject,
        "side": u.side,
        "location": u.location,
        "moves": moves,
        "attacks": attacks,
        "refits": refits,
        "reinforcements": arrivals,
        "section": "actions",
        "orders": _choices(moves, attacks, refits, arrivals) + more,
    }
    notes = (
        "each line is one action [6.1]; combat, refit and reinforcement are provisional: not "
        "from the rulebook",
    )
    data["orders"] += diverts_8_3_2(game, state, subject)
    return OptionsReport(subject, tuple(lines), data, marks or None, notes)


Options = list[dict[str, Any]]


def _choices(moves: Options, attacks: Options, refits: Options, arrivals: Options) -> Options:
    """The same lines as choices the viewer's orders mode points at (issue 28): where each
    points (``at``), a move's zones (``path``)."""
    out: Options = [
        {"order": r["order"], "kind": "refit", "at": r["zone"], "label": "refit"} for r in refits
    ]
    out += [
        {"order": r["order"], "kind": "reinforce", "at": r["zone"], "label": "reinforce"}
        for r in arrivals
    ]
    out += [
        {"order": m["order"], "kind": "move", "at": m["zone"], "path": m["path"]} for m in moves
    ]
    out += [
        {"order": a["order"], "kind": "attack", "at": a["zone"], "label": a["target"]}
        for a in attacks
    ]
    return out


def alike_targets(game: Game, state: GameState, side: str) -> list[list[str]]:
    """The enemy units one attack may name together: those of one kind in one zone [9.0]
    (provisional: one kind of target an attack), as the side's own view shows them, each
    group of two or more in id order (options format 5: the viewer adds them to an attack's
    line where every unit of the force may attack each)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for t, tu in sorted(state.units.items()):
        if tu.side == other(side) and tu.location is not None and game.board.contains(tu.location):
            groups.setdefault((tu.location, target_kind(game, t)), []).append(t)
    return [ts for _, ts in sorted(groups.items()) if len(ts) > 1]


def _acting(state: GameState, side: str) -> bool:
    """Whether it is ``side``'s Action Phase [5.2]."""
    return state.phase.endswith("_actions") and BY_ID[state.phase].side == side


def _moves_and_attacks(game: Game, state: GameState, subject: str) -> tuple[Options, Options]:
    """The moves along a shortest path to each zone [8.0] and the attacks on each enemy unit
    on the map [9.0] the validator accepts, for a unit on the map in its side's phase."""
    u = state.units[subject]
    start = zone_of(game, state, subject)
    moves: Options = []
    attacks: Options = []
    if start is None or u.side == NEUTRAL or not _acting(state, u.side):
        return moves, attacks
    paths = _paths(game, state, u.side, subject, start)
    ready = _one_action(state)
    for z, path in sorted(paths.items(), key=lambda kv: (len(kv[1]), kv[0])):
        line = f"move {subject} -> " + " ".join(q(p) for p in path)
        if _legal(game, ready, u.side, line):
            moves.append({"zone": z, "path": path, "order": line})
    for t, tu in sorted(state.units.items()):
        if (
            tu.side != other(u.side)
            or tu.location is None
            or zone_of(game, state, t) != tu.location
        ):
            continue
        line = f"attack {subject} -> {q(tu.location)} hitting {t}"
        if _legal(game, ready, u.side, line):
            attacks.append({"target": t, "zone": tu.location, "order": line})
    return moves, attacks


def _refits(game: Game, state: GameState, subject: str) -> Options:
    """A unit in the Refit box returns to any zone with a base the validator accepts
    (provisional refit)."""
    u = state.units[subject]
    if u.location != REFIT or not _acting(state, u.side):
        return []
    out: Options = []
    ready = _one_action(state)
    for z in game.map_zones():
        line = f"refit {subject} -> {q(z)}"
        if game.has_base(z) and _legal(game, ready, u.side, line):
            out.append({"zone": z, "order": line})
    return out


def _arrivals(game: Game, state: GameState, subject: str) -> Options:
    """A waiting reinforcement enters in a zone of its group (provisional reinforcement)."""
    u = state.units[subject]
    if u.box != WAITING or not _acting(state, u.side):
        return []
    group = group_of(game, state, subject)
    out: Options = []
    ready = _one_action(state)
    for z in group.hexes if group is not None else ():
        line = f"reinforce {subject} -> {q(z)}"
        if _legal(game, ready, u.side, line):
            out.append({"zone": z, "order": line})
    return out


MORE_VERBS = 4
"""The options format from which the lines below are published (``since``): a file of an
older format is written again without them, byte for byte."""


def _landings_and_patrols(game: Game, state: GameState, subject: str) -> Options:
    """A unit's one-unit ``land``, ``embark`` and ``patrol`` actions the validator accepts
    (provisional 8.5.1, 15.0): a ground unit aboard an amphibian lands in each land zone next
    to its sea zone [7.1.2]; a ground or air unit boards each of its side's ships with a
    holding box in its zone [8.5.1]; a naval unit patrols its own sea zone [8.4], an air unit
    flies a patrol to each sea zone in its range [8.3.1]."""
    u = state.units[subject]
    zone = zone_of(game, state, subject)
    if zone is None or u.side == NEUTRAL or not _acting(state, u.side):
        return []
    ready = _one_action(state)
    kind = game.category(subject)
    lines: list[tuple[str, str, str]] = []
    if (u.location or "").startswith(HOLDING):
        lines += [(f"land {subject} -> {q(z)}", z, "amphibious assault [7.1.2]")
                  for z in sorted(game.board.neighbours(zone))]  # fmt: skip
    elif kind in ("ground", "air"):
        lines += [
            (f"embark {subject} -> {s}", zone, f"board {s} [8.5.1]")
            for s, su in sorted(state.units.items())
            if su.side == u.side and su.location == zone and game.holding_box(s) is not None
        ]
    if u.location == zone and kind == "air":
        lines += [(f"patrol {subject} -> {q(z)}", z, "air patrol [8.3]")
                  for z in game.map_zones() if game.is_sea(z)]  # fmt: skip
    elif u.location == zone and game.is_sea(zone):
        lines.append((f"patrol {subject} -> {q(zone)}", zone, "naval patrol [8.4]"))
    return [
        {"order": line, "kind": line.split()[0], "at": at, "label": label, "since": MORE_VERBS}
        for line, at, label in lines
        if _legal(game, ready, u.side, line)
    ]


def _plays(game: Game, state: GameState, side: str) -> Options:
    """The strike markers ``side`` holds (its own view holds only its own), each played as
    the validator accepts it (provisional 17.0): an EW marker alone, one more action [6.1];
    an attack marker on each kind of enemy target in each zone holding one, every target of
    that kind there named, or on the zone's enemy ``base`` [6.4]."""
    cups = SixthFleet2019Facts.of(state).strike
    held = cups["held"].get(side) if cups else None
    if not isinstance(held, list):
        return []
    ready = _one_action(state)
    by_zone: dict[str, dict[str, list[str]]] = {}
    for t, tu in sorted(state.units.items()):
        if tu.side == other(side) and tu.location is not None and game.board.contains(tu.location):
            kinds = by_zone.setdefault(tu.location, {})
            kinds.setdefault(target_kind(game, t), []).append(t)
    out: Options = []
    for mid in sorted(held):
        if marker(game, mid).effect == "action":
            cands = [(f"play {mid}", None, "one more action [6.1]")]
        else:
            cands = [
                (f"play {mid} -> {q(z)} hitting {' '.join(ts)}", z, f"strike {kind} in {z}")
                for z, kinds in sorted(by_zone.items())
                for kind, ts in sorted(kinds.items())
            ]
            cands += [(f"play {mid} -> {q(z)} hitting {BASE}", z, f"strike the base of {z}")
                      for z in sorted(by_zone)]  # fmt: skip
        for line, at, label in cands:
            if _legal(game, ready, side, line):
                c = {"order": line, "kind": "play", "label": label, "section": "actions"}
                c["group"] = mid  # one line a marker: a later choice replaces the earlier
                out.append({**c, "since": MORE_VERBS, **({"at": at} if at else {})})
        if marker(game, mid).effect != "action":
            out += _some_targets(game, ready, side, mid, by_zone)
    return out


SOME_TARGETS = 5
"""The options format from which a strike on some of the targets of one kind is offered."""


def _some_targets(
    game: Game, ready: GameState, side: str, mid: str, by_zone: dict[str, dict[str, list[str]]]
) -> Options:
    """An attack marker's strike on some of the targets of one kind in a zone, composed
    target by target in the viewer (``compose`` ``words``) from those whose one-target line
    the validator accepts (provisional 17.0; one kind of target an attack [9.0]), where
    there are two or more of them to choose from [6.4]."""
    out: Options = []
    for z, kinds in sorted(by_zone.items()):
        for kind, ts in sorted(kinds.items()):
            head = f"play {mid} -> {q(z)} hitting"
            ok = [t for t in ts if _legal(game, ready, side, f"{head} {t}")]
            if len(ok) < 2:
                continue
            out.append({"order": head, "kind": "play", "compose": "words", "from": ok,
                        "label": f"strike some {kind} in {z}", "section": "actions",
                        "group": mid, "at": z, "since": SOME_TARGETS})  # fmt: skip
    return out


def _option_lines(
    moves: Options, attacks: Options, refits: Options, arrivals: Options, limit: int
) -> list[str]:
    """The listed orders lines, moves and attacks cut at ``limit`` (0: all) with a count of
    the rest; "no action now" when there is none."""
    lines = [f"  {r['order']}  (provisional refit)" for r in refits]
    lines += [f"  {r['order']}  (provisional reinforcement)" for r in arrivals]
    shown = moves if not limit else moves[:limit]
    lines += [f"  {m['order']}" for m in shown]
    if limit and len(moves) > limit:
        lines.append(f"  ... and {len(moves) - limit} more moves")
    shown_a = attacks if not limit else attacks[:limit]
    lines += [f"  {a['order']}  (provisional combat)" for a in shown_a]
    if limit and len(attacks) > limit:
        lines.append(f"  ... and {len(attacks) - limit} more attacks")
    return lines or ["  no action now"]


SIDE_LINES = {
    "events": ("roll", "roll one die on your Random Events Table [5.1]"),
    "actions": ("pass", "take no (more) actions; unused actions are lost [6.0]"),
}
"""The one order of the whole side each section takes, with what it does."""


def side_orders(module: Any, state: GameState, side: str) -> Options:
    """The orders of ``side`` that no unit gives, for the viewer's orders mode: ``roll`` in
    its Random Events Phase [5.1], ``pass`` in its Action Phase [6.0]; each kept only if
    ``validate`` accepts it as the file's one order (none in another side's phase)."""
    p = BY_ID.get(state.phase)
    if p is None or p.side != side or not p.sections or state.pending:
        return []
    section = p.sections[0]
    if section not in SIDE_LINES:
        return []
    line, label = SIDE_LINES[section]
    text = f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n[{section}]\n{line}\n"
    plays = _plays(Game.of(module), state, side) if section == "actions" else []
    if steps.validate(Game.of(module), state, parse_orders(text, "o", VOCABULARY)):
        return plays
    return [{"order": line, "kind": line, "label": label, "section": section}, *plays]


DIVERTS = 5
"""The options format from which the standing ``divert`` is offered (a file of format 4 leaves
it out, as it was written)."""


def diverts_8_3_2(game: Game, state: GameState, subject: str) -> Options:
    """An air unit's standing ``divert UNIT -> PLACE ...`` [8.3.2], composed place by place in
    the viewer, first choice first (``compose`` ``hexes``: the zones marked on the map, the
    holding boxes listed): where it lands when it cannot return to its base or carrier,
    "another base or carrier": each zone where its side may base air units [3.2.1][7.1.3]
    and each holding box of its side's ships [8.3.4]. Range and room are judged when it
    lands, from where it is then (a standing order outlives this position); the first of
    its places that is legal then is taken. Offered in its side's own phases."""
    from referee.rules.sixth_fleet_2019.stacking import air_capacity_7_1_3

    u = state.units[subject]
    p = BY_ID.get(state.phase)
    if game.category(subject) != "air" or p is None or p.side != u.side or state.pending:
        return []
    bases = [
        z
        for z in game.map_zones()
        if (game.is_land(z) or game.zone_type(z) == "off_map")
        and air_capacity_7_1_3(game, state, z, u.side) != 0
    ]
    boxes = sorted(
        HOLDING + s
        for s, su in state.units.items()
        if su.side == u.side and su.location is not None and game.holding_box(s) is not None
    )
    if not bases and not boxes:
        return []
    line = f"divert {subject} ->"
    label = "standing: where it lands if it cannot return, first choice first [8.3.2]"
    return [{"order": line, "kind": "divert", "compose": "hexes", "from": [*bases, *boxes],
             "label": label, "section": "standing", "since": DIVERTS}]  # fmt: skip
