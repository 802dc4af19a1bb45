"""[DTP 11.505-11.5053] the Westpac set-up choices that depend on one another.

The scenario gives the players their placements as ``[[choice]]``s (``scenarios/westpac.toml``):
each unit's own list of hexes, the first its default. SPI's set-up check (kept by DTP [11.0])
checks each unit against its list; what a list cannot say is checked here, against the other
choices of the same file:

* the submarines set up "1 each in [hex numbers]" go one per hex, never two in one of the hexes
  [DTP 11.5052], and the 3 SEATO SSNs one per hex, not stacked with any other unit
  [DTP 11.5053];
* the two Soviet surface TFs "of three stacked units" set up one TF each in 3136 and 5823, and
  one escort of each (never its flagship, the first unit of the group) starts in Vladivostok
  instead [DTP 11.5052];
* the JMSDF ASW group (#119 and #121) takes one of 3251 and 4146, SS #125 the other
  [DTP 11.5053].

The groups are found by the words of the rule each choice cites (the module's data), so a
scenario without them (the Med, Denmark Strait, Iceland) is unaffected. The three steps of the
set-up, East Block (all but SG #36), SEATO, then SG #36 [DTP 11.505], are
:func:`setup_steps_11_505`, played in a module with national co-operation whose scenario has SG
#36 (Westpac): the step reached is ``state.data["setup_step"]``; while a step holds a unit back
its file is checked on a position where that unit is not yet to be placed
(:func:`held_back_11_505`), and a line placing it is refused with [DTP 11.505].
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from referee.engine.core import GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp import westpac_bases
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.iceland_setup import placements
from referee.rules.sixth_fleet_dtp.sequence import players_11_0
from referee.rules.sixth_fleet_dtp.westpac_national import national_11_508

ONE_EACH = ("1 each in", "one per hex")  # [DTP 11.5052, 11.5053]
SOVIET_TF = "Soviet surface TF"  # [DTP 11.5052]
TF_SIZE = 3  # "of three stacked units"
TF_HEXES = ("3136", "5823")
TF_PORT = "3033"  # Vladivostok
JMSDF_GROUP, JMSDF_SS = "JMSDF ASW group", "SS #125"  # [DTP 11.5053]
LAST_UNIT = "SO-SG-36"  # [DTP 11.505]
RULE_ORDER = "DTP 11.505"
UNPLACED, HELD = "unplaced", "held back"

Where = dict[str, tuple[str, Order | None]]


def case_of(rule: str) -> str:
    """The case a choice's rule cites, without its note: ``DTP 11.5052 (1 each ...)`` ->
    ``DTP 11.5052``."""
    return rule.split(" (", 1)[0]


@dataclass(frozen=True, slots=True)
class SetupStep:
    """One step of the Westpac set-up [DTP 11.505]: ``side`` places its units, all but
    ``but`` or only ``only``."""

    side: str
    but: tuple[str, ...] = ()
    only: tuple[str, ...] = ()


def setup_steps_11_505(east_block: str, seato: str) -> tuple[SetupStep, ...]:
    """ "The East Block player sets up first, with the exception of SG unit #36. This is
    followed by the SEATO player. The East Block player then sets up SG #36" [DTP 11.505];
    each may adjust within the set-up chart's limits before finishing [DTP 11.5051]."""
    return (
        SetupStep(east_block, but=(LAST_UNIT,)),
        SetupStep(seato),
        SetupStep(east_block, only=(LAST_UNIT,)),
    )


def _groups(game: Game, side: str) -> dict[str, list[tuple[str, str]]]:
    """Rule -> [(unit, default hex)] of ``side``'s choices, in source order."""
    out: dict[str, list[tuple[str, str]]] = {}
    for c in game.scenario.choices:
        if game.unit(c.unit).side == side and c.hexes:
            out.setdefault(c.rule, []).append((c.unit, c.hexes[0]))
    return out


def _where(units: list[tuple[str, str]], at: dict[str, tuple[str, Order]]) -> Where:
    """Each unit's hex: where the file places it, else its choice's default."""
    return {u: at.get(u, (default, None)) for u, default in units}


def _one_per_hex(rule: str, where: Where) -> list[Violation]:
    counts = Counter(h for h, _ in where.values())
    out: list[Violation] = []
    for u, (h, order) in where.items():
        if counts[h] > 1:
            others = ", ".join(x for x, (g, _) in where.items() if g == h and x != u)
            out.append(
                Violation(
                    case_of(rule),
                    f"{u} and {others} set up in {h}: one per hex",
                    code="setup-stacked",
                    word=h,
                    unit=u,
                    hint="place each of them in another of its hexes",
                ).at(order)
            )
            counts[h] = 0  # one problem per hex
    return out


def _soviet_tf(rule: str, where: Where) -> tuple[str | None, list[Violation]]:
    """The hex of one Soviet TF, or its problems: three at sea in one hex, one escort (not the
    flagship, the first of the group) in Vladivostok [DTP 11.5052]."""
    flagship = next(iter(where))
    at_sea = {u: h for u, (h, _) in where.items() if h != TF_PORT}
    in_port = [u for u in where if u not in at_sea]
    sea_hexes = sorted(set(at_sea.values()))
    last_order = next((o for _, o in reversed(list(where.values())) if o is not None), None)
    if len(sea_hexes) == 1 and len(at_sea) == TF_SIZE and flagship in at_sea:
        return sea_hexes[0], []
    got = ", ".join(f"{u} in {h}" for u, (h, _) in where.items())
    p = Violation(
        case_of(rule),
        f"a Soviet surface TF sets up as three stacked units at sea and one escort in "
        f"Vladivostok {TF_PORT}: {got}",
        code="tf-setup",
        word=sea_hexes[0] if sea_hexes else TF_PORT,
        unit=in_port[0] if in_port else flagship,
        hint=f"place {flagship} and two escorts in one of {' or '.join(TF_HEXES)}, "
        f"the third escort in {TF_PORT}",
    ).at(last_order)
    return None, [p]


def _tfs_apart(tf_hexes: dict[str, str], where_of: dict[str, Where]) -> list[Violation]:
    """One TF each in 3136 and 5823 [DTP 11.5052]."""
    if sorted(tf_hexes.values()) == sorted(TF_HEXES) or len(tf_hexes) < len(TF_HEXES):
        return []
    rule = sorted(tf_hexes)[-1]
    where = where_of[rule]
    order = next((o for _, o in where.values() if o is not None), None)
    return [
        Violation(
            case_of(rule),
            f"the two Soviet surface TFs set up one each in {' and '.join(TF_HEXES)}, "
            f"not both in {tf_hexes[rule]}",
            code="tf-same-hex",
            word=tf_hexes[rule],
            hint="swap one TF to the other hex",
        ).at(order)
    ]


def _jmsdf(groups: dict[str, Where]) -> list[Violation]:
    """The JMSDF ASW group in one of 3251/4146, SS #125 in the other [DTP 11.5053]."""
    group = next((w for r, w in groups.items() if JMSDF_GROUP in r), None)
    ss = next((w for r, w in groups.items() if JMSDF_SS in r), None)
    if not group or not ss:
        return []
    out: list[Violation] = []
    group_hexes = {h for h, _ in group.values()}
    rule = next(r for r in groups if JMSDF_GROUP in r)
    if len(group_hexes) > 1:
        u, (h, o) = list(group.items())[-1]
        out.append(
            Violation(
                case_of(rule),
                f"the JMSDF ASW group sets up together: {u} in {h}",
                code="jmsdf-split",
                word=h,
                unit=u,
            ).at(o)
        )
    for u, (h, o) in ss.items():
        if h in group_hexes:
            out.append(
                Violation(
                    case_of(next(r for r in groups if JMSDF_SS in r)),
                    f"{u} sets up in the hex the JMSDF ASW group does not take, not in {h}",
                    code="jmsdf-ss",
                    word=h,
                    unit=u,
                    hint="place it in the other of 3251 and 4146",
                ).at(o)
            )
    return out


def check_setup_11_5052(
    game: Game, state: GameState, side: str, orders: Sequence[Order]
) -> list[Violation]:
    """The problems of ``side``'s set-up file with the Westpac choices [DTP 11.5052, 11.5053];
    none for a scenario whose choices cite none of them."""
    del state  # the choices are the scenario's; the file is checked as written
    at = placements(orders)
    groups = {rule: _where(units, at) for rule, units in _groups(game, side).items()}
    probs: list[Violation] = []
    tf_hexes: dict[str, str] = {}
    for rule, where in groups.items():
        if any(mark in rule for mark in ONE_EACH):
            probs += _one_per_hex(rule, where)
        if SOVIET_TF in rule:
            hex_id, problems = _soviet_tf(rule, where)
            probs += problems
            if hex_id is not None:
                tf_hexes[rule] = hex_id
    return probs + _tfs_apart(tf_hexes, groups) + _jmsdf(groups) + _national_bases(game, orders)


def _national_bases(game: Game, orders: Sequence[Order]) -> list[Violation]:
    """An air unit set up on a base its nationality may not use [DTP 11.5082]."""
    out: list[Violation] = []
    for o in orders:
        if o.verb == "place" and o.hexes and o.units[0] in game.pieces:
            bad = westpac_bases.placement_problem_11_5082(game, o.units[0], o.hexes[0])
            out += [bad.at(o)] if bad is not None else []
    return out


def steps_of(game: Game, state: GameState) -> tuple[SetupStep, ...]:
    """The set-up steps [DTP 11.505], or none: a module without national co-operation, or a
    scenario without SG #36 (every other set-up is SPI's, one file a side in order)."""
    if not national_11_508(game.module) or LAST_UNIT not in state.units:
        return ()
    players = players_11_0(game.module)
    return setup_steps_11_505(players["A"], players["B"])


def step_11_505(game: Game, state: GameState) -> SetupStep | None:
    """The set-up step the game is at, if the scenario has steps."""
    steps = steps_of(game, state)
    i = int(facts_of(state).setup_step or 0)
    return steps[i] if i < len(steps) else None


def held_back_11_505(game: Game, state: GameState) -> GameState:
    """The position a set-up file is checked and carried out on: the units the step holds
    back (SG #36 in the East Block's first file) are not among those to place now."""
    step = step_11_505(game, state)
    for u in step.but if step is not None else ():
        st = state.units.get(u)
        if st is not None and st.box == UNPLACED:
            state = state.with_unit(UnitState(u, st.side, None, HELD))
    return state


def released_11_505(state: GameState) -> GameState:
    """The units held back, to place in a later step."""
    for u, st in state.units.items():
        if st.box == HELD:
            state = state.with_unit(UnitState(u, st.side, None, UNPLACED))
    return state


def held_problems_11_505(game: Game, state: GameState, orders: Sequence[Order]) -> list[Violation]:
    """A line placing a unit this step holds back: SG #36 is set up after SEATO [DTP 11.505]."""
    step = step_11_505(game, state)
    if step is None or not step.but:
        return []
    return [
        Violation(
            RULE_ORDER,
            f"{o.units[0]} is set up after the SEATO player's set-up, not now",
            code="set-up-later",
            word=o.units[0],
            unit=o.units[0],
            hint=f"leave out the line; the East Block places {o.units[0]} in a set-up file "
            "of its own once SEATO has set up",
        ).at(o)
        for o in orders
        if o.verb == "place" and o.units and o.units[0] in step.but
    ]


def next_side_11_505(game: Game, state: GameState) -> tuple[GameState, str | None]:
    """After a set-up file: ``state`` (the position it leaves) with the next step recorded,
    and the side that sets up next (``None``: the set-up is over) [DTP 11.505]."""
    steps = steps_of(game, state)
    if not steps:
        return state, None
    i = int(facts_of(state).setup_step or 0) + 1
    return DtpFacts.put(state, setup_step=i), (steps[i].side if i < len(steps) else None)


def not_held_11_505(game: Game, state: GameState, orders: Sequence[Order]) -> list[Order]:
    """The orders but those placing a unit the step holds back (refused with [DTP 11.505]
    alone, not SPI's 'not to be placed now' as well)."""
    step = step_11_505(game, state)
    held = set(step.but) if step is not None else set()
    return [o for o in orders if not (o.verb == "place" and o.units and o.units[0] in held)]
