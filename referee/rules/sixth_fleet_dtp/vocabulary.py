"""The orders vocabulary of the DTP revised rules: SPI's words where DTP keeps the case, and the
words of the cases DTP adds (detection [DTP 6.x], impulses [DTP 8.2], first strikes [DTP
8.231], bounces [DTP 8.232], rebasing [DTP 9.22]).

The kept verbs (``place``, ``move``, ``stack``, ``base``, ``cap``, ``box``, ``option``) are
SPI's declarations, taken from its vocabulary by name rather than copied; ``attack`` is
redeclared because DTP's combat phase is one attack per impulse. Players decide, the referee
never does: every choice of the kit (attempt detection, attack, pass, first strike, bounce)
is an order, and ``[standing]`` orders cover what a player wants done without an email per
impulse [DTP 6.2, 8.2, 8.232].
"""

from __future__ import annotations

from referee.engine.vocabulary import (
    LocationSyntax,
    Part,
    Verb,
    Vocabulary,
    form,
    keyword,
    location,
    targets,
    unit,
    units,
)
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY as SPI

SETUP, MOVEMENT, COMBAT, REBASING, REINFORCEMENT, STANDING, HOSTILITIES = (
    "setup",
    "movement",
    "combat",
    "rebasing",
    "reinforcement",
    "standing",
    "hostilities",
)
KEPT_FROM_SPI = ("place", "move", "stack", "base", "cap", "box", "option")
"""[DTP 101.1] SPI cases kept unchanged: set-up [11.0], movement [5.1-5.23], stacking [7.0],
basing [9.1], the carrier options [9.61, 9.62]; the Campaign's reinforcements [12.2] stay
("all other SPI scenario rules apply" [DTP 11.0])."""

ARROW = keyword("->")


def _kept(name: str) -> Verb:
    return next(v for v in SPI.verbs if v.name == name)


VOCABULARY = Vocabulary(
    ruleset="sixth_fleet_dtp",
    sections=(SETUP, MOVEMENT, COMBAT, REBASING, REINFORCEMENT, HOSTILITIES),
    # hexes, and an off-map base by name (Murmansk [DTP 11.3 rule 2])
    locations=(LocationSyntax.hex(4), LocationSyntax.name("base")),
    verbs=(
        *(_kept(n) for n in KEPT_FROM_SPI),
        Verb(
            "detect",
            (MOVEMENT, STANDING),
            (
                form(
                    units(),
                    ARROW,
                    targets(),
                    sections=(MOVEMENT,),
                    meaning="a detection attempt by your units in one hex on enemy units of one "
                    "category in a hex within one hex of them, made when 6.2a or 6.2b allows, "
                    "in either player's movement phase [DTP 6.2][DTP 6.3]",
                ),
                form(
                    keyword("whenever-allowed", sets_mode=True),
                    sections=(STANDING,),
                    meaning="attempt every detection 6.2 allows, with the best eligible units "
                    "of each hex [DTP 6.2][DTP 6.23]",
                ),
            ),
            expect="UNIT ... -> TARGET ...",
        ),
        Verb(
            "attack",
            (COMBAT,),
            (
                form(
                    units(),
                    ARROW,
                    targets(prefix="hex:", alone="a base or Defended hex attacked on its own"),
                    keyword("first-strike", sets_mode=True, optional=True),
                    meaning="this impulse's one attack by one unit or stack; `first-strike` for "
                    "an undetected ship or sub on Detected enemy ships or subs [DTP 8.2]"
                    "[DTP 8.231]",
                ),
            ),
            expect="one '->' between the units and the target(s)",
        ),
        Verb(
            "strike",
            (COMBAT,),
            (
                form(
                    units(),
                    ARROW,
                    targets(prefix="hex:", alone="a base attacked on its own"),
                    meaning="this impulse's air strike on ships, subs or a base: Strike Contact "
                    "first [DTP 8.15][DTP 8.2]",
                ),
            ),
            expect="one '->' between the air units and the target(s)",
        ),
        Verb(
            "bounce",
            (COMBAT, STANDING),
            (
                form(
                    units(),
                    ARROW,
                    targets(),
                    sections=(COMBAT,),
                    meaning="fighters attack an enemy strike that made contact, before it "
                    "resolves [DTP 8.232]",
                ),
                form(
                    keyword("min-aa"),
                    Part("number", "min_aa", label="AA"),
                    sections=(STANDING,),
                    mode="min-aa",
                    meaning="bounce every strike within reach with the fighters of at least "
                    "this AA [DTP 8.232]",
                ),
            ),
            expect="UNIT ... -> TARGET ...",
        ),
        Verb(
            "pass",
            (COMBAT, STANDING),
            (
                form(sections=(COMBAT,), meaning="no more impulses this phase [DTP 8.2]"),
                form(
                    keyword("below"),
                    Part("number", "differential", label="DIFFERENTIAL"),
                    sections=(STANDING,),
                    mode="below",
                    meaning="pass when no attack reaches this differential [DTP 8.2]",
                ),
            ),
            expect="nothing, or (standing) below N",
        ),
        Verb(
            "exit",
            (MOVEMENT,),
            (form(unit(), sections=(MOVEMENT,)),),
            meaning="a ship or sub leaves the map from the edge hex it is in: a damaged one by "
            "its side's retreat edge, an undamaged one where the scenario scores its exit "
            "[DTP 5.24][DTP 11.3]",
            expect="UNIT",
        ),
        Verb(  # Westpac [DTP 11.5101, 11.51021]
            "commence",
            (HOSTILITIES,),
            (
                form(
                    sections=(HOSTILITIES,),
                    meaning="hostilities commence this Game-Turn [DTP 11.5101]",
                ),
                form(
                    keyword("prc"),
                    sections=(HOSTILITIES,),
                    mode="prc",
                    meaning="the PRC, and with it Taiwan, enters hostilities this Game-Turn "
                    "[DTP 11.51021, 11.51022]",
                ),
            ),
            expect="nothing, or prc",
        ),
        Verb(  # Westpac [DTP 11.5063]
            "remove",
            (MOVEMENT,),
            (form(unit(), sections=(MOVEMENT,)),),
            meaning="Westpac: your ship or sub in a hex that your ship and sub reinforcements "
            "left over the stacking limit, removed (eliminated for all purposes) at the end of "
            "this ship and sub movement phase: one line for each unit still over the limit, "
            "your choice [DTP 11.5063]",
            expect="UNIT",
        ),
        Verb(
            "capture",
            (MOVEMENT,),
            (form(location(), sections=(MOVEMENT,)),),
            meaning="Westpac's optional Korean land war: the East Block takes a South Korean "
            "hex next to two North Korean or captured hexes, in its ship and sub movement of "
            "an even-numbered AM turn [DTP 11.5134]",
            expect="HEX",
        ),
        Verb(
            "rebase",
            (REBASING,),
            (form(unit(), location()),),
            meaning="an air unit lands on a base (an airbase, or for carrier air its carrier, "
            "below decks) within its range; it then rolls readiness "
            "[DTP 9.22][DTP 9.23]",
            expect="UNIT HEX",
        ),
    ),
)
