"""The orders vocabulary of Sixth Fleet (1975): sections, verbs and their argument shapes.

Hexes are the four printed digits (RRCC); a vacant Defended hex is attacked as ``hex:NNNN``
[10.44]. ``docs/orders/sixth_fleet_1975.md`` holds the verb table made from this declaration
(a test keeps them equal). The meaning of each order (who may give it, when it is legal) is
checked by ``steps.py``; this module says only how it is written.
"""

from __future__ import annotations

from referee.engine.vocabulary import (
    Part,
    Verb,
    Vocabulary,
    form,
    keyword,
    location,
    path,
    targets,
    unit,
    units,
)

SETUP, COMBAT, MOVEMENT, REINFORCEMENT, STANDING = (
    "setup",
    "combat",
    "movement",
    "reinforcement",
    "standing",
)

ARROW = keyword("->")
PREFER = keyword("prefer")
CARRIER = unit(role="carrier", label="CARRIER")

VOCABULARY = Vocabulary(
    ruleset="sixth_fleet_1975",
    sections=(SETUP, COMBAT, MOVEMENT, REINFORCEMENT),
    verbs=(
        Verb(
            "place",
            (SETUP, REINFORCEMENT),
            (
                form(unit(), location(), meaning="set up or bring in a unit [11.0][12.2]"),
                form(
                    unit(),
                    keyword("cap", "box", sets_mode=True),
                    CARRIER,
                    meaning="carrier air on CAP over, or in the holding box of, its CV "
                    "[11.1][12.22]",
                ),
            ),
            expect="UNIT HEX",
        ),
        Verb(
            "move",
            (MOVEMENT,),
            (form(unit(), path()),),
            meaning="an explicit path, hex by hex; the starting hex may be written first or "
            "left out; a unit in a holding box starts at its carrier's hex [5.0]",
            expect="a unit id and at least one hex",
        ),
        Verb(
            "stack",
            (SETUP, MOVEMENT, REINFORCEMENT),
            (form(location(), units()),),
            meaning="the stacking order, top first; list every naval unit of yours there [7.42]",
            expect="a hex and the units top first",
        ),
        Verb(
            "base",
            (SETUP, MOVEMENT, REINFORCEMENT),
            (form(unit(), location()),),
            meaning="a checked claim that the unit ends on an airbase it may use [9.1]",
            expect="UNIT HEX",
        ),
        Verb(
            "cap",
            (SETUP, MOVEMENT, REINFORCEMENT),
            (form(unit(), CARRIER),),
            meaning="launch from the holding box onto CAP, or claim CAP at the end of the "
            "phase [9.62A]",
            expect="UNIT CARRIER",
        ),
        Verb(
            "box",
            (SETUP, MOVEMENT, REINFORCEMENT),
            (form(unit(), CARRIER),),
            meaning="land in the holding box (the unit must be in the carrier's hex) [9.62B]",
            expect="UNIT CARRIER",
        ),
        Verb(
            "attack",
            (COMBAT,),
            (
                form(
                    units(),
                    ARROW,
                    targets(
                        prefix="hex:",
                        alone="a Defended hex to be attacked on its own [10.44]",
                    ),
                ),
            ),
            meaning="one attack; targets are enemy units of one type in one hex [8.34][8.36], "
            "or `hex:NNNN` for a vacant enemy Defended hex [10.44]",
            expect="one '->' between the units and the target(s)",
        ),
        Verb(
            "advance",
            (COMBAT, STANDING),
            (
                form(
                    units(),
                    ARROW,
                    location(),
                    sections=(COMBAT,),
                    meaning="advance after combat into a hex emptied by this player's attack "
                    "(at most 3 units, only attackers of that hex) [8.5][10.45]",
                ),
                form(
                    units(),
                    ARROW,
                    location(),
                    keyword("when-vacated"),
                    mode="when-vacated",
                    sections=(STANDING,),
                    meaning="the non-phasing player's advance into a hex emptied by 8.24 "
                    "retreats [8.5]",
                ),
            ),
            expect="one '->' between the units and the target(s)",
        ),
        Verb(
            "retreat",
            (COMBAT, STANDING),
            (
                form(
                    unit(),
                    ARROW,
                    location(),
                    mode="to",
                    sections=(COMBAT,),
                    meaning="the phasing player's own retreat of a unit that cannot make its "
                    "mandatory attack [8.24] (needed only when there is a choice)",
                ),
                form(
                    location(),
                    PREFER,
                    path(),
                    mode="prefer-hex",
                    meaning="retreat choices after a CRT result, for any unit retreating out "
                    "of the hex [8.71]",
                ),
                form(
                    unit(),
                    PREFER,
                    path(),
                    mode="prefer",
                    meaning="retreat choices after a CRT result; the first legal hex wins [8.71]",
                ),
            ),
            expect="UNIT -> HEX",
        ),
        Verb(
            "displace",
            (COMBAT, STANDING),
            (form(unit(not_location=True), PREFER, path(), mode="prefer"),),
            meaning="where a displaced unit goes [8.71]",
            expect="UNIT prefer HEX ...",
        ),
        Verb(
            "eliminate",
            (STANDING,),
            (form(units()),),
            meaning="enemy units to remove first when the enemy over-stacks, first choice "
            "first [7.0]",
            expect="at least one unit id",
        ),
        Verb(
            "option",
            (MOVEMENT, COMBAT, SETUP),
            (form(Part("rule", "value")),),
            meaning="use an optional rule's choice, e.g. `option 14.2`: the Soviet player "
            "violates neutral air space [14.2]",
            expect="a rule number",
        ),
        Verb(
            "stop",
            (REINFORCEMENT,),
            (form(),),
            meaning="agree to stop the Campaign after this Game-Turn and score it; it stops "
            "when both players write it [11.0]",
            expect="nothing after the word",
        ),
    ),
)
