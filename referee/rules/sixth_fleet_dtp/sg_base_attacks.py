"""Soviet SGs attacking coastal bases in the North Atlantic scenarios [DTP 11.3 rule 4]:
"Soviet SGs may attack coastal bases with their AS strength. Suggested limit: one such attack
per SG per game." (11.31 plays "as Denmark Strait", so Iceland too.)

The attack itself is the [DTP 10.44] base attack of ``base_combat.py`` (AS against the
intrinsic DEF on the CRT, then the Hit Table at 2 x ECM). What rule 4 adds, read as
``docs/interpretations.md`` DTP-50 and DTP-51 say:

* which subs may attack a base at all is scenario data: the players table's optional column
  ``base_attack_subs`` lists, per side, the sub types that may (Denmark Strait: ``SG`` for the
  Soviet side, none for NATO, whose Los Angeles boats had no Tomahawks yet, as the kit's note
  to rule 4 says). A module without the column (the Med under DTP) keeps SPI 10.44: every
  unit with AS above 0 may attack a base, subs included;
* such a sub attacks only a *coastal* base: the base's hex is of terrain ``coastal``;
* with the rule flag ``DtpFlags.one_sg_base_attack`` (on by default, the kit's "suggested
  limit") each such sub makes one base attack per game; the subs that have made theirs are
  ``state.data["sg_base_attacks"]`` (sorted ids); a refused order uses none.

Pure functions: the combat phase's base-attack check and resolution call in.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.core import Event, GameState, Violation
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.flags import DtpFlags
from referee.source.model import Module
from referee.source.tablemodel import TableMiss

RULE = "DTP 11.3 rule 4"
COLUMN = "base_attack_subs"
COASTAL = "coastal"


def base_attack_subs_11_3_4(module: Module, side: str) -> frozenset[str] | None:
    """The sub types of ``side`` that may attack bases [DTP 11.3 rule 4]; ``None`` when the
    module does not say (no ``base_attack_subs`` column: SPI 10.44, every sub with AS)."""
    t = module.tables.get("players")
    if t is None or COLUMN not in {c.text for c in t.column_keys}:
        return None
    try:
        return frozenset(str(t.lookup(row=side, col=COLUMN).value).split())
    except TableMiss:  # a side without a row: no sub of it may
        return frozenset()


def used_11_3_4(state: GameState) -> frozenset[str]:
    """The subs that have made their one base attack this game [DTP 11.3 rule 4]."""
    return frozenset(facts_of(state).sg_base_attacks)


def sub_base_attack_problems_11_3_4(
    game: Game,
    state: GameState,
    side: str,
    attackers: Sequence[str],
    hex_id: str,
    flags: DtpFlags,
    word: str,
) -> list[Violation]:
    """The problems of subs among ``attackers`` attacking the base in ``hex_id`` where the
    scenario limits them [DTP 11.3 rule 4, 10.44]: only the listed types, a coastal base,
    and (flag ``one_sg_base_attack``) once per sub per game. Empty for a module that does not
    limit them, and for surface and air attackers."""
    allowed = base_attack_subs_11_3_4(game.module, side)
    subs = [a for a in attackers if game.category(a) == "submarine"]
    if allowed is None or not subs:
        return []
    probs: list[Violation] = []
    for a in subs:
        kind = game.unit(a).type
        if kind not in allowed:
            types = ", ".join(sorted(allowed))
            which = f"only {side} subs of type {types}" if allowed else f"no {side} sub"
            probs.append(
                Violation(
                    RULE,
                    f"{a} ({kind}) may not attack a base: in this scenario {which} may attack "
                    "coastal bases (the base attack of [DTP 10.44])",
                    code="sub-base-attack",
                    word=a,
                    hint="attack the base with surface or air units",
                )
            )
    if len(probs) < len(subs) and game.board.terrain(hex_id) != COASTAL:
        probs.append(
            Violation(
                RULE,
                f"subs attack only coastal bases; {hex_id} is {game.board.terrain(hex_id)}",
                code="not-coastal-base",
                word=word,
            )
        )
    if flags.one_sg_base_attack:
        for a in sorted(set(subs) & used_11_3_4(state)):
            probs.append(
                Violation(
                    RULE,
                    f"{a} has already made its one attack on a coastal base this game "
                    "(rule flag one_sg_base_attack)",
                    code="sg-base-attack-used",
                    word=a,
                    hint="each SG attacks a base once per game; attack ships or subs with it",
                )
            )
    return probs


def record_11_3_4(
    game: Game,
    state: GameState,
    attackers: Sequence[str],
    hex_id: str,
    flags: DtpFlags,
    events: list[Event],
) -> GameState:
    """After a base attack, the subs that made it under rule 4 have used their one attack
    (a CRT miss too: the missiles are fired) [DTP 11.3 rule 4]; nothing where the module does
    not limit subs."""
    subs = [a for a in attackers if game.category(a) == "submarine"]
    if not subs or base_attack_subs_11_3_4(game.module, state.units[subs[0]].side) is None:
        return state
    events.append(
        Event(
            "sg-base-attack",
            RULE,
            f"{', '.join(subs)} attack the coastal base in {hex_id} with their AS strength"
            + (": their one such attack this game" if flags.one_sg_base_attack else "")
            + " [DTP 11.3 rule 4, 10.44]",
            {"units": list(subs), "hex": hex_id},
        )
    )
    return DtpFacts.put(state, sg_base_attacks=sorted(used_11_3_4(state) | set(subs)))
