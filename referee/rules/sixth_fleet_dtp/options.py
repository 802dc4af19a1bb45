"""What a unit may do now under the DTP rules (``referee options``), computed by the rules'
own checks, so what ``options`` lists is what ``validate`` accepts:

* in its side's movement phase for its kind [DTP 4.1]: every hex it can end in, with the MP
  the cheapest path costs [5.12][5.23][DTP 8.55] -- the paths are searched cheapest first
  over the hexes the path check [DTP 5.24, 5.25] lets it pass (through an enemy hex where
  5.25 allows, never ending there), each destination kept only if the phase's check accepts
  the ``move`` line (so also the stacking limit [7.21]): the path checked hex by hex as the
  search grows it, the line judged by ``movement_phase.LoneMove``, the phase's end-of-file
  checks from the position's facts counted once (a Westpac air phase tries some 13,000);
* in any movement phase its side files: the detection attempts it may make now, on the
  enemy units within one hex [DTP 6.1, 6.2, 6.21, 6.22];
* in its side's impulse [DTP 8.2]: the attacks (ships and subs, with ``first-strike`` where
  [DTP 8.231] allows it) or strikes (air) the impulse check accepts, with the distance, on
  units and on bases and Defended hexes (``hex:NNNN`` [DTP 10.44]); while a strike that
  made contact waits, the defender's bounces [DTP 8.232];
* in the rebasing phase: the bases an air unit may land on [DTP 9.22].

Each is also an order line the viewer's orders mode points at (``data["orders"]``,
:mod:`referee.rules.sixth_fleet_dtp.draft`).

The functions compute; no I/O.
"""

from __future__ import annotations

import heapq
from collections import Counter
from typing import Any

from referee.engine.core import Event, GameState, Violation
from referee.engine.orders import MAX_LINE_CHARS
from referee.engine.ruleset import OptionsReport
from referee.errors import UserError
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12, start_hex
from referee.rules.sixth_fleet_dtp import air, flow, landing, special_bases, strikes
from referee.rules.sixth_fleet_dtp.facts import facts_of
from referee.rules.sixth_fleet_dtp.movement_phase import LoneMove
from referee.rules.sixth_fleet_dtp.path import allowance_8_55, step_5_0
from referee.rules.sixth_fleet_dtp.scripted import orders_ok
from referee.rules.sixth_fleet_dtp.sequence import BY_ID
from referee.source.model import Module

PASSABLE = ("", "ends-in-enemy-hex")  # a path may go on from a hex it may not end in [5.25]
ATTACK_RADIUS = 12  # hexes searched; reach [8.1] prunes, the impulse check decides


def moves_5_0(game: Game, state: GameState, side: str, unit: str) -> list[dict[str, Any]]:
    """Every hex ``unit`` may end in this phase, cheapest path first [5.12][5.23][DTP 5.25].

    The search checks each path one hex at a time (``path.step_5_0``, the walk of
    ``check_path_5_0``): a path carries the first problem it meets going on through its
    hexes, so a longer one costs one more hex, not its whole length again. Each hex it
    reaches is kept when the phase's check accepts the lone ``move`` line, judged by
    ``movement_phase.LoneMove`` from the position's facts counted once (issue 26)."""
    start, mp0, first = start_hex(game, state, unit), 0, ()
    entry = special_bases.entry_11_3_2(game, state.units[unit].box) if start is None else None
    if entry is not None:  # from an off-map base: onto its anchor hex [DTP 11.3 rule 2]
        start, mp0 = entry
        first = (start,)
    if start is None:
        return []
    damage = int(facts_of(state).damage.get(unit, 0))
    allowance = allowance_8_55(game, unit, damage)
    if mp0 > allowance:  # every path's check refuses the entry itself [DTP 11.3 rule 2]
        return []
    phase = BY_ID[state.phase]
    judge = LoneMove.of(game, state, side, "ship" if phase.id.startswith("ship") else "air")
    owner = state.units[unit].side
    best: dict[str, int] = {start: mp0}
    # (MP, hex, path, the path's problem ending here, its problem going on through here)
    heap: list[tuple[int, str, tuple[str, ...], Violation | None, Violation | None]] = [
        (mp0, start, first, None, None)
    ]
    found: dict[str, dict[str, Any]] = {}
    costs: dict[str, int | None] = {}  # each hex's entry cost for this unit [5.12], asked once
    while heap:
        mp, here, path, ending, through = heapq.heappop(heap)
        if mp > best.get(here, mp):
            continue
        if path and here not in found:
            line = f"move {unit} {' '.join(path)}"
            if len(line) <= MAX_LINE_CHARS and judge.accepts(unit, path, _listed(ending)):
                found[here] = {"hex": here, "mp": mp, "path": list(path), "order": line}
        for to in game.board.adjacent_sorted(here):
            if to not in costs:
                costs[to] = entry_cost_5_12(game, state, unit, to)
            cost = costs[to]
            if cost is None or mp + cost >= best.get(to, 1 << 30) or to in path or to == start:
                continue  # no cheaper way to ``to``: its step need not be checked
            # a problem met on the way is the whole path's: the check stops at the first
            if through is None:
                step = step_5_0(game, state, unit, owner, allowance, here, to, mp)
                ends, goes = step.ending, step.through
            else:
                ends, goes = through, through
            if ends is not None and ends.code not in PASSABLE:
                continue
            best[to] = mp + cost
            heapq.heappush(heap, (mp + cost, to, (*path, to), ends, goes))
    return sorted(found.values(), key=lambda m: (m["mp"], m["hex"]))


def _listed(problem: Violation | None) -> list[Violation]:
    return [problem] if problem is not None else []


def detections_6_2(game: Game, state: GameState, side: str, unit: str) -> list[dict[str, Any]]:
    """The attempts ``unit`` may make now, before any move of the file [DTP 6.2]."""
    here = state.units[unit].location
    if here is None:
        return []
    out = []
    for t, ts in sorted(state.units.items()):
        if ts.side == side or ts.location is None:
            continue
        if game.board.distance(here, ts.location) > 1:
            continue
        line = f"detect {unit} -> {t}"
        if orders_ok(game, state, side, [line]):
            out.append({"target": t, "hex": ts.location, "order": line})
    return out


def attacks_8_2(game: Game, state: GameState, side: str, unit: str) -> list[dict[str, Any]]:
    """The impulse's attacks or strikes ``unit`` may make now [DTP 8.1, 8.2, 8.231]."""
    here = state.units[unit].location
    if here is None or facts_of(state).strike:
        return []
    verb = "strike" if game.category(unit) == "air" else "attack"
    out = []
    for t, ts in sorted(state.units.items()):
        if ts.side == side or ts.location is None:
            continue
        d = game.board.distance(here, ts.location)
        if d > ATTACK_RADIUS or strikes.reach_problems_8_1([(unit, d)], ts.location):
            continue  # beyond reach: the impulse check refuses it whatever else holds [8.1]
        forms = [f"{verb} {unit} -> {t}"]
        if verb == "attack":
            forms.append(f"attack {unit} -> {t} first-strike")
        for line in forms:
            if orders_ok(game, state, side, [line]):
                out.append({"target": t, "hex": ts.location, "distance": d, "order": line})
    for h in game.board.base_hexes():  # bases and Defended hexes [DTP 10.44]
        d = game.board.distance(here, h)
        if d > ATTACK_RADIUS:
            continue
        if strikes.reach_problems_8_1([(unit, d)], h):
            continue  # beyond reach: the base attack's check refuses it [8.1, DTP 10.44]
        line = f"{verb} {unit} -> hex:{h}"
        if orders_ok(game, state, side, [line]):
            out.append({"target": f"hex:{h}", "hex": h, "distance": d, "order": line})
    return out


def stack_attacks_8_2(
    game: Game, state: GameState, side: str, unit: str, alone: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The impulse's attack or strike by ``unit``'s whole stack (its side's units in its hex
    that attack the same way, air striking, ships and subs attacking) on each target one of
    them may attack alone, when the impulse check accepts it [DTP 8.2]: "one attack by one
    unit or stack". Kept out of the text lines (which format-1 options files hold)."""
    here = state.units[unit].location
    if here is None or not alone:
        return []
    air = game.category(unit) == "air"
    stack = sorted(
        u
        for u in state.stacks.get(here, ())
        if state.units[u].side == side and (game.category(u) == "air") == air
    )
    if len(stack) < 2:
        return []
    verb = "strike" if air else "attack"
    out = []
    for a in alone:
        if a["order"].endswith(" first-strike"):
            continue
        line = f"{verb} {' '.join(stack)} -> {a['target']}"
        if orders_ok(game, state, side, [line]):
            out.append({**a, "order": line})
    return out


def bounces_8_232(game: Game, state: GameState, side: str, unit: str) -> list[dict[str, Any]]:
    """While a strike that made contact waits: ``unit``'s bounce of it, when the impulse
    check accepts it [DTP 8.232]."""
    strike = facts_of(state).strike or {}
    strikers = [str(s) for s in strike.get("units") or ()]
    if not strikers or state.units[unit].location is None:
        return []
    line = f"bounce {unit} -> {' '.join(strikers)}"
    if not orders_ok(game, state, side, [line]):
        return []
    seen = state.units.get(strikers[0])
    return [{"target": strikers[0], "hex": seen.location if seen else None, "order": line}]


def rebases_9_22(game: Game, state: GameState, side: str, unit: str) -> list[dict[str, Any]]:
    """The bases ``unit`` may land on in phase 6: airbases, its side's carriers' hexes and
    the off-map bases (at their anchor hex), each kept when the phase's check accepts the
    ``rebase`` line [DTP 9.22], [DTP 11.3 rule 2]. A base beyond the unit's range is not
    tried: ``air.rebase_problems_9_22``, which the check adds for every ``rebase`` from where
    the unit is (``landing.where``), refuses it [DTP 9.22]."""
    if game.category(unit) != "air":
        return []
    here, reach = landing.where(state, unit), game.movement_allowance(unit)
    out = []
    for to, at in sorted(_landing_places(game, state, side).items()):
        if here is not None and air.rebase_problems_9_22(
            unit, special_bases.distance_11_3_2(game, here, to), reach, True, True
        ):
            continue  # beyond its range: the phase's check refuses it whatever else holds
        line = f"rebase {unit} {to}"
        if orders_ok(game, state, side, [line]):
            out.append({"base": to, "hex": at, "order": line})
    return out


def _pointing(
    game: Game, state: GameState, unit: str, found: dict[str, list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The order lines the viewer points at (:mod:`referee.rules.sixth_fleet_dtp.draft`);
    a unit that moves in this phase also opens its hex's ``stack`` line [7.42]."""
    from referee.rules.sixth_fleet_dtp import draft

    stack = draft.stack_choices(game.is_air(unit)) if found["moves"] else []
    return [
        *stack,
        *draft.move_choices(unit, found["moves"]),
        *draft.detect_choices(found["detections"]),
        *draft.attack_choices(found["attacks"]),
        *draft.attack_choices(found["stack_attacks"]),
        *draft.bounce_choices(found["bounces"]),
        *draft.rebase_choices(found["rebases"]),
    ]


def _found(game: Game, state: GameState, subject: str) -> dict[str, list[dict[str, Any]]]:
    """What ``subject`` may do in this phase, by kind (nothing when its side is not due)."""
    u = state.units[subject]
    p = BY_ID.get(state.phase)
    found: dict[str, list[dict[str, Any]]] = {
        k: [] for k in ("moves", "detections", "attacks", "stack_attacks", "bounces", "rebases")
    }
    if p is None or u.side not in flow.due_sides(game, state):
        return found
    if p.section == "movement":
        kinds = ("surface", "submarine") if p.id.startswith("ship") else ("air",)
        if game.category(subject) in kinds:
            found["moves"] = moves_5_0(game, state, u.side, subject)
        found["detections"] = detections_6_2(game, state, u.side, subject)
    elif p.section == "combat" and facts_of(state).strike:
        found["bounces"] = bounces_8_232(game, state, u.side, subject)
    elif p.section == "combat":
        found["attacks"] = attacks_8_2(game, state, u.side, subject)
        found["stack_attacks"] = stack_attacks_8_2(game, state, u.side, subject, found["attacks"])
    elif p.id == "rebasing":
        found["rebases"] = rebases_9_22(game, state, u.side, subject)
    return found


def options_report(module: Module, state: GameState, subject: str, limit: int) -> OptionsReport:
    game = Game.of(module, state)
    if subject not in state.units:
        from referee.source.diagnostics import did_you_mean

        raise UserError(
            f"unknown unit {subject!r}",
            hint=did_you_mean(subject, list(state.units)) or "name a unit id",
        )
    if state.phase == "setup":  # only placing is allowed [11.0]: SPI's set-up pools
        from referee.rules.sixth_fleet_1975.options_report import setup_options

        return setup_options(game, state, subject, standing=False)
    u = state.units[subject]
    p = BY_ID.get(state.phase)
    phase = p.title if p else state.phase
    where = u.location or u.box or "off the map"
    head = f"{subject} ({u.side}) at {where}; Game-Turn {state.turn}, {phase}"
    due = u.side in flow.due_sides(game, state)
    found = _found(game, state, subject)
    moves, detections, attacks = found["moves"], found["detections"], found["attacks"]
    lines = [head]
    for title, items, fmt in (
        ("moves", moves, lambda m: f"  {m['order']}  ({m['mp']} MP)"),
        ("detection attempts", detections, lambda d: f"  {d['order']}  (in {d['hex']})"),
        ("attacks", attacks, lambda a: f"  {a['order']}  ({a['distance']} hexes)"),
        ("bounces", found["bounces"], lambda b: f"  {b['order']}  [DTP 8.232]"),
        ("rebases", found["rebases"], lambda r: f"  {r['order']}  [DTP 9.22]"),
    ):
        shown = items if not limit else items[:limit]
        lines += [fmt(x) for x in shown]
        if limit and len(items) > limit:
            lines.append(f"  ... and {len(items) - limit} more {title}")
    more = more_choices(module, state, subject)
    lines += [f"  {c['order']}  ({c['label']})" for c in more if not c.get("compose")]
    if len(lines) == 1:
        lines.append("  nothing now" + ("" if due else ": the game waits for another side"))
    marks = {m["hex"]: "move" for m in moves}
    marks.update({d["hex"]: "detect" for d in detections})
    marks.update({a["hex"]: "attack" for a in attacks})
    data = {
        "unit": subject,
        "side": u.side,
        "location": u.location,
        "phase": state.phase,
        "moves": moves,
        "detections": detections,
        "attacks": attacks,
        "stack_attacks": found["stack_attacks"],
        "bounces": found["bounces"],
        "rebases": found["rebases"],
        "orders": [
            *_pointing(game, state, subject, found),
            *more,
            *detects_after_6_2a(game, state, subject, moves),
        ],
        "orders_since": 2,  # options files of format 1 had no DTP order lines
        "section": p.sections[0] if p is not None and p.sections else state.phase,  # [DTP 4.1]
    }
    notes = (
        "each line is accepted by the phase's own check; detection attempts are those allowed "
        "before any move of the file (a move opens more [DTP 6.2a])",
    )
    return OptionsReport(subject, tuple(lines), data, marks or None, notes)


def side_orders(module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
    """The orders of ``side`` that no unit gives, each one the phase's own check accepts
    (:func:`referee.rules.sixth_fleet_dtp.draft.side_choices`); none when the side is not due
    or a strike waits for its bounces [DTP 8.232]."""
    from referee.rules.sixth_fleet_dtp import draft

    game = Game.of(module, state)
    if state.phase == "setup" or side not in flow.due_sides(game, state):
        return []
    if facts_of(state).strike:
        return []
    section = flow.section_of(state)
    lines = list(draft.SIDE_LINES.get(section or "", ()))
    offered = draft.side_choices(lines, section, lambda line: orders_ok(game, state, side, [line]))
    later = prc_after_11_51021(game, state, side)
    return [*offered, *more_side_orders(module, state, side), *later]


# ---- the verbs made pointable in options format 5 ---------------------------------------------
STILL_MORE_VERBS = 5
"""The options format from which the lines below are published (``since``): a file of an
older format (an older game's archive, which ``verify`` renders again in the format it names)
is written without them, byte for byte (:mod:`referee.pbem.draft_options`)."""


def _errors_of(
    game: Game, state: GameState, side: str, lines: list[str]
) -> Counter[tuple[str, str]]:
    """The phase's check of the file ``lines``: its errors, counted by rule and fault."""
    from referee.engine.orders import OrdersSyntaxError, parse_orders
    from referee.rules.sixth_fleet_dtp.scripted import header
    from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY

    text = header(state, side) + f"[{flow.section_of(state)}]\n" + "".join(f"{x}\n" for x in lines)
    try:
        orders = parse_orders(text, "options.txt", VOCABULARY).orders
    except OrdersSyntaxError:
        return Counter({("syntax", "syntax"): 1})
    if len(orders) != len(lines):
        return Counter({("syntax", "syntax"): 1})
    return Counter(
        (p.rule, p.code) for p in flow.check(game, state, side, orders) if p.severity == "error"
    )


class _Alone:
    """Judges a one-line file of the phase: a line is offered when the phase's own check of
    the file holding it alone finds no error the empty file does not (the position's own
    faults, a command ship still in port [DTP 11.5091] or a hex over the limit since a
    reinforcement [DTP 11.5063], are the file's to mend, not this line's; ``validate``
    judges the whole file)."""

    def __init__(self, game: Game, state: GameState, side: str) -> None:
        self.game, self.state, self.side = game, state, side
        self.base: Counter[tuple[str, str]] | None = None  # checked once, when first asked

    def accepts(self, line: str) -> bool:
        if self.base is None:
            self.base = _errors_of(self.game, self.state, self.side, [])
        return not (_errors_of(self.game, self.state, self.side, [line]) - self.base)


def _choice_5(line: str, kind: str, at: str | None, label: str) -> dict[str, Any]:
    c: dict[str, Any] = {"order": line, "kind": kind, "label": label, "since": STILL_MORE_VERBS}
    if at:
        c["at"] = at
    return c


def _landing_places(game: Game, state: GameState, side: str) -> dict[str, str]:
    """Where an air unit of ``side`` may come down, each at its hex on the map: the airbases,
    its side's carriers' hexes, the off-map bases at their anchor hex [DTP 9.22, 11.3 rule 2]."""
    where: dict[str, str] = {h: h for h in game.board.airbase_hexes()}
    for cv, s in state.units.items():
        if s.side == side and s.location is not None and game.unit(cv).has("carrier"):
            where.setdefault(s.location, s.location)
    for name in sorted(special_bases.off_map_names(game.module)):
        entry = special_bases.entry_11_3_2(game, name)
        if entry is not None:
            where[name] = entry[0]
    return where


def bases_8_51(
    game: Game, state: GameState, side: str, unit: str, judge: _Alone
) -> list[dict[str, Any]]:
    """``base UNIT HEX|BASE`` in an air movement phase, where it is a choice: an aborted air
    unit whose turn on the track has come, on each base it may return to [DTP 8.51, 9.26];
    a unit at an off-map base that may relocate to an occupied base [DTP 11.3 rule 5]. (As a
    claim about a unit that moves, the move's end decides it [9.1]: not offered.)"""
    st = state.units[unit]
    off_map = special_bases.off_map_base(game.module, st.box) is not None
    if game.category(unit) != "air" or not (st.box == "recycle" or off_map):
        return []
    out = []
    for to, at in sorted(_landing_places(game, state, side).items()):
        if to == st.box:
            continue
        line = f"base {unit} {to}"
        if judge.accepts(line):
            rule = "DTP 11.3 rule 5" if off_map else "DTP 8.51"
            out.append(_choice_5(line, "base", at, f"base at {to} [{rule}]"))
    return out


def carrier_air_9_62(
    game: Game, state: GameState, side: str, unit: str, judge: _Alone
) -> list[dict[str, Any]]:
    """``cap UNIT CV`` (launch from the holding box onto CAP, or a claim that it ends over
    the carrier) and ``box UNIT CV`` (land below decks) for carrier air, on each carrier of
    its side the phase's check accepts [9.62, DTP 9.27]; not ``box`` onto the carrier whose
    holding box it is in already."""
    from referee.rules.sixth_fleet_dtp.decks import is_deck
    from referee.source.boxes import carrier_of

    if game.category(unit) != "air" or not game.unit(unit).has("carrier"):
        return []
    out = []
    for cv, s in sorted(state.units.items()):
        if s.side != side or s.location is None or not is_deck(game, cv):
            continue
        for verb, label in (
            ("cap", f"CAP over {cv} [9.62A]"),
            ("box", f"below decks on {cv} [9.62B]"),
        ):
            line = f"{verb} {unit} {cv}"
            if verb == "box" and carrier_of(state.units[unit].box) == cv:
                continue
            if judge.accepts(line):
                out.append(_choice_5(line, verb, s.location, label))
    return out


def exits_5_24(
    game: Game, state: GameState, side: str, unit: str, judge: _Alone
) -> list[dict[str, Any]]:
    """``exit UNIT``: a ship or sub off the map from the edge hex (or removal port) it is in,
    where the rules let it [DTP 5.24, 11.3, 11.503]."""
    from referee.rules.sixth_fleet_dtp.exits import carry_out_exit, exit_problems

    st = state.units[unit]
    if st.location is None or game.category(unit) == "air":
        return []
    if exit_problems(game, state, side, unit):
        return []
    line = f"exit {unit}"
    if not judge.accepts(line):
        return []
    said: list[Event] = []  # the way out the rules give it, as the referee will say it
    carry_out_exit(game, state, unit, said)
    rule = said[0].rule if said else "DTP 5.24"
    return [_choice_5(line, "exit", st.location, f"leaves the map [{rule}]")]


def removals_11_5063(
    game: Game, state: GameState, side: str, unit: str, judge: _Alone
) -> list[dict[str, Any]]:
    """Westpac: ``remove UNIT`` for a ship or sub of a hex its side's reinforcements left
    over the stacking limit, still over it [DTP 11.5063]."""
    from referee.rules.sixth_fleet_dtp import westpac_overstack

    st = state.units[unit]
    if not westpac_overstack.in_play_11_5063(state) or game.category(unit) == "air":
        return []
    if st.location not in westpac_overstack.excess_11_5063(game, state, side):
        return []
    line = f"remove {unit}"
    if not judge.accepts(line):
        return []
    return [_choice_5(line, "remove", st.location, "removed: over the limit [DTP 11.5063]")]


def more_choices(module: Module, state: GameState, unit: str) -> list[dict[str, Any]]:
    """The unit's lines given since options format 5 in its side's movement phase: ``base``,
    ``cap``/``box``, ``exit``, ``remove``; in the Med Campaign's Reinforcement Interphase,
    SPI's ``place`` lines [12.2] (none when its side is not due)."""
    from referee.rules.sixth_fleet_dtp.sequence import INTERPHASE_12_2

    game = Game.of(module, state)
    u = state.units[unit]
    p = BY_ID.get(state.phase)
    if p is None or u.side not in flow.due_sides(game, state):
        return []
    if p.id == INTERPHASE_12_2.id:  # the Med Campaign's: SPI's own places [12.2, DTP 11.0]
        from referee.rules.sixth_fleet_1975.draft import reinforcement_choices

        return reinforcement_choices(game, state, unit)
    if p.section == "reinforcement":  # Westpac's [DTP 11.506]
        return westpac_places_11_506(game, state, u.side, unit)
    if p.section != "movement":
        return []
    if facts_of(state).strike:
        return []
    judge = _Alone(game, state, u.side)
    if p.id.startswith("air"):
        return [
            *bases_8_51(game, state, u.side, unit, judge),
            *carrier_air_9_62(game, state, u.side, unit, judge),
        ]
    return [
        *exits_5_24(game, state, u.side, unit, judge),
        *removals_11_5063(game, state, u.side, unit, judge),
    ]


def westpac_places_11_506(
    game: Game, state: GameState, side: str, unit: str
) -> list[dict[str, Any]]:
    """Westpac's reinforcement phase: ``place UNIT HEX`` for a unit due now, on each hex it
    may enter (the check's own ``entry_hexes_11_506``: a ship's entry hexes or port, an air
    unit's bases its nation may use with room [DTP 11.506, 11.5061, 11.5082]), each the
    phase's check accepts in a file of that line alone, apart from the units it leaves
    unplaced (every unit that can be placed must be [DTP 11.5062]: the file's other lines)."""
    from referee.rules.sixth_fleet_dtp import westpac_reinforcement as wr

    then = wr.owed_11_506(state)["then"]
    if unit not in wr.due_11_506(game, state, side, then):
        return []
    judge = _Alone(game, state, side)
    out = []
    for h in wr.entry_hexes_11_506(game, state, unit):
        line = f"place {unit} {h}"
        if judge.accepts(line):
            out.append(_choice_5(line, "place", h, "arrives [DTP 11.506]"))
    return out


def captures_11_5134(
    game: Game, state: GameState, side: str, judge: _Alone
) -> list[dict[str, Any]]:
    """Westpac's optional Korean land war: ``capture HEX`` on each South Korean hex the East
    Block may take this turn [DTP 11.5134]."""
    from referee.rules.sixth_fleet_dtp import westpac_korea as korea

    grid = game.module.map.grid
    if korea.OPTION not in state.options or side != game.flags.soviet_side or grid is None:
        return []
    if not korea.capture_turn_11_5134(state.turn):
        return []
    held = korea.captured_11_5134(state)
    out = []
    for h in sorted(game.module.map.hexes):
        if korea.capture_problem_11_5134(game.module.map, grid, h, state.turn, held) is not None:
            continue
        line = f"capture {h}"
        if judge.accepts(line):
            c = _choice_5(line, "capture", h, "the East Block takes it [DTP 11.5134]")
            out.append({**c, "section": "movement"})
    return out


def more_side_orders(module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
    """The side's lines given since options format 5 in its movement phase: ``option 14.2``
    (the Soviet player violates neutral air space, once a game [14.2]) and Westpac's
    ``capture HEX`` [DTP 11.5134], each where the phase's check accepts it."""
    game = Game.of(module, state)
    p = BY_ID.get(state.phase)
    if p is None or p.section != "movement" or side not in flow.due_sides(game, state):
        return []
    judge = _Alone(game, state, side)
    out = []
    if "14.2" in state.options and judge.accepts("option 14.2"):
        c = _choice_5("option 14.2", "option", None, "violate neutral air space [14.2]")
        out.append({**c, "section": "movement"})  # its section, also where no unit moves
    if p.id.startswith("ship"):
        out += captures_11_5134(game, state, side, judge)
    return out


# ---- the lines offered once an earlier line is in the draft (options format 8) -------------
AFTER_A_LINE = 8
"""The options format from which a line that is legal only after another line of the same
file is published, with that line as its ``after`` (:mod:`referee.pbem.draft_options`): a
file of an older format is written without them, byte for byte."""


def detects_after_6_2a(
    game: Game, state: GameState, unit: str, moves: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The detection attempts ``unit`` may make right after one of its ``moves`` [DTP 6.2a]:
    where the move's last hex brings enemy units within one hex (the detection moment of the
    path's last step, as :func:`~referee.rules.sixth_fleet_dtp.path.detection_moments_6_2`
    finds it), ``detect UNIT -> TARGET`` on each of them, offered once that move is in the
    draft (``after``: the viewer puts it right after the move) and kept when the phase's
    check of the file ``move``, ``detect`` accepts it
    (:func:`~referee.rules.sixth_fleet_dtp.movement_phase.detects_after_move_6_2a`: each
    move offered is one the check accepts alone). The enemies are those of the position the
    options are computed on, the side's own view: nothing hidden is named. A moment on the
    way, not at the move's end, is opened by a move the player writes to that hex. The cost:
    one check of the attempt for each enemy unit a move's last step brings within one hex,
    no walk of the move again."""
    from referee.rules.sixth_fleet_dtp.movement_phase import detects_after_move_6_2a
    from referee.rules.sixth_fleet_dtp.path import Moment, move_start

    if not moves:  # a unit that does not move in this phase, or a phase without moves
        return []
    side = state.units[unit].side
    enemies: dict[str, list[str]] = {}
    for e in sorted(state.units):
        s = state.units[e]
        if s.side != side and s.location is not None and e != unit:
            enemies.setdefault(s.location, []).append(e)
    near: dict[str, set[str]] = {}  # each hex: the enemy hexes within one hex of it [DTP 6.1]
    for z in enemies:
        for h in (z, *game.board.adjacent_hexes(z)):
            near.setdefault(h, set()).add(z)
    start = move_start(game, state, unit)
    out: list[dict[str, Any]] = []
    for m in moves:
        path = [str(h) for h in m["path"]]
        if start is None or path[-1] not in near:
            continue
        hexes = [start, *(path[1:] if path[0] == start else path)]
        if len(hexes) < 2:  # no step taken: no moment [DTP 6.2]
            continue
        opened = [  # the moments of the last step, as detection_moments_6_2 finds them
            Moment(len(hexes) - 1, path[-1], z, tuple(enemies[z]))
            for z in sorted(near[path[-1]] - near.get(hexes[-2], set()))
        ]
        targets = {t: x.their_hex for x in opened for t in x.enemies}
        if not targets:
            continue
        judged = detects_after_move_6_2a(game, state, side, unit, hexes, opened, sorted(targets))
        for t in sorted(targets):
            if judged[t]:
                c = _choice_5(f"detect {unit} -> {t}", "detect", targets[t], "[DTP 6.2a]")
                out.append({**c, "after": m["order"], "since": AFTER_A_LINE})
    return out


def prc_after_11_51021(game: Game, state: GameState, side: str) -> list[dict[str, Any]]:
    """``commence prc`` once ``commence`` is in the draft, on the Game-Turn hostilities begin
    [DTP 11.51021]: "PRC entry is announced at the very beginning of any turn", with or after
    the other East Block nations, so alone it is refused until hostilities have begun
    [DTP 11.5101] and is offered after ``commence`` where the check accepts the two."""
    from referee.rules.sixth_fleet_dtp import draft

    if flow.section_of(state) != "hostilities":
        return []
    prc = next(x for x in draft.SIDE_LINES["hostilities"] if x[0] == "commence prc")
    if orders_ok(game, state, side, [prc[0]]) or not orders_ok(
        game, state, side, ["commence", prc[0]]
    ):
        return []
    c = {"order": prc[0], "kind": prc[1], "label": prc[2], "after": "commence"}
    return [{**c, "since": AFTER_A_LINE}]
