"""Multiple-unit combat [8.3]: every attack one hex's units could make now, groups included.

Stacked units may attack together [8.33], and stacked enemy units may be attacked singly or as
groups [7.31][8.31], one unit type per group [8.36], from the top of the stack down [7.44]
unless no attacker could attack a unit above [7.45], and only by attackers that all have the
right strength [8.41]. This module lists the combinations; whether each one is legal, and what
it computes to, is decided by :func:`combat.analyse_attack`, the validator's own check, so
``referee options`` can never promise an attack the validator would refuse.

The search is bounded. A hex holds at most 3 naval and 6 air units of a side [7.11][9.41], so
one hex has at most 2^9 - 1 attacker groups. Defender groups are only those closed towards
the top of the stack within their type: a group that leaves out an unattacked unit of its own
type above one of its members always breaks [7.44] (every attacker of the group can attack
that unit, so [7.45] cannot excuse it), so such groups are never tried. At most
:data:`MAX_COMBINATIONS` pairs are analysed per call; the answer says how many were left.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.combat import (
    AttackCalc,
    analyse_attack,
    hex_target,
    phase_record,
)
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.strengths import can_attack_6_41
from referee.source.model import CrtCell

# pairs (attacker group, defender group) analysed per call: 9 able attackers against the
# groups of a full enemy hex stay well inside it; a bigger search is cut short and reported
MAX_COMBINATIONS = 4096


@dataclass(frozen=True, slots=True)
class GroupAttacks:
    """The legal attacks found, and how many combinations the cap left unexamined."""

    attacks: tuple[AttackCalc, ...]
    tried: int
    untried: int


def die_range_8_9(cell: CrtCell | None) -> str | None:
    """The die rolls that make the defenders retreat [8.9]: ``1-4`` for an entry of 4 or
    ``1-4``; ``None`` for ``*`` (no effect, no roll) or no entry."""
    if cell is None or cell.hi is None:
        return None
    return "1" if cell.hi == 1 else f"1-{cell.hi}"


def attackers_now(game: Game, state: GameState, side: str, hex_id: str) -> list[str]:
    """The side's units in ``hex_id`` that may still attack this Combat Phase, top first: not
    used [8.13], not retreated under 8.24 [8.74], not advanced [8.5]."""
    rec = phase_record(state)
    out_of_it = set(rec["used"]) | set(rec["retreated_824"]) | set(rec["advanced"])
    return [
        u
        for u in state.stacks.get(hex_id, ())
        if state.units[u].side == side and u not in out_of_it
    ]


def attacker_groups_8_33(
    units: list[str], including: str | None = None
) -> Iterator[tuple[str, ...]]:
    """Every non-empty group of ``units`` (containing ``including`` when given), largest
    first, each in stack order [8.33]."""
    if including is not None and including not in units:
        return
    for size in range(len(units), 0, -1):
        for group in combinations(units, size):
            if including is None or including in group:
                yield group


def defender_groups_7_44(
    game: Game, state: GameState, hex_id: str, side: str, category: str
) -> list[tuple[str, ...]]:
    """Groups of the enemy units of one type in ``hex_id`` [8.36] that are closed towards the
    top [7.44]: every unattacked unit of the type above a member is in the group. Units
    already attacked this phase may be left out or added. Smallest groups first."""
    rec = phase_record(state)
    attacked = set(rec["attacked"])
    mine = [
        e
        for e in state.stacks.get(hex_id, ())
        if state.units[e].side != side and game.category(e) == category
    ]
    out: list[tuple[str, ...]] = []
    for size in range(1, len(mine) + 1):
        for group in combinations(mine, size):
            chosen = set(group)
            ok = all(
                above in chosen or above in attacked
                for t in group
                for above in mine[: mine.index(t)]
            )
            if ok:
                out.append(group)
    return out


def group_attacks_8_3(
    game: Game,
    state: GameState,
    side: str,
    hex_id: str,
    *,
    including: str | None = None,
    groups_only: bool = False,
    cap: int = MAX_COMBINATIONS,
) -> GroupAttacks:
    """Every legal attack from ``hex_id`` by ``side`` (with ``including`` among the
    attackers when given; only those with two or more attackers or defenders when
    ``groups_only``), each checked and computed by :func:`analyse_attack`; sorted by target
    hex, type, defenders, best differential first."""
    units = attackers_now(game, state, side, hex_id)
    pairs: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for n in game.board.neighbours(hex_id):
        enemies = [e for e in state.stacks.get(n, ()) if state.units[e].side != side]
        for cat in sorted({game.category(e) for e in enemies}):
            able = [u for u in units if can_attack_6_41(game, u, cat)]
            targets = defender_groups_7_44(game, state, n, side, cat)
            for att in attacker_groups_8_33(able, including):
                pairs.extend((att, t) for t in targets)
        if not enemies and game.enemy_defended(state, n, side):
            able = [u for u in units if game.value(u, "AS") > 0]
            pairs.extend((att, (hex_target(n),)) for att in attacker_groups_8_33(able, including))
    if groups_only:
        pairs = [(a, t) for a, t in pairs if len(a) > 1 or len(t) > 1]
    found: list[AttackCalc] = []
    for att, tgt in pairs[:cap]:
        calc, probs = analyse_attack(game, state, side, att, tgt)
        if calc is not None and not probs:
            found.append(calc)
    found.sort(key=_listing_order)
    tried = min(len(pairs), cap)
    return GroupAttacks(tuple(found), tried, len(pairs) - tried)


def _listing_order(c: AttackCalc) -> tuple[object, ...]:
    """Target hex, type, smaller defender groups first, best differential first."""
    return (
        c.target_hex,
        c.category,
        len(c.targets),
        c.targets,
        -c.differential,
        -len(c.attackers),
        c.attackers,
    )
