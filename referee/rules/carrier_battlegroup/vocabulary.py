"""The orders vocabulary of Carrier Battlegroup: the player's (USN) words only.

Spaces are names, written in double quotes when they hold spaces (``"Norwegian Sea 3"``).
The Soviet side has no words: the ruleset plays it [1.0]. ``docs/orders/carrier_battlegroup.md``
holds the verb table made from this declaration.
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
    path,
    unit,
    units,
)

SETUP, OUTFIT, INTELLIGENCE, LOGISTICS, MOVEMENT, LAUNCH, OBJECTIVE = (
    "setup",
    "outfit",
    "intelligence",
    "logistics",
    "movement",
    "launch",
    "objective",
)
STANDING = "standing"

VOCABULARY = Vocabulary(
    ruleset="carrier_battlegroup",
    sections=(SETUP, OUTFIT, INTELLIGENCE, LOGISTICS, MOVEMENT, LAUNCH, OBJECTIVE),
    locations=(LocationSyntax.name("space"),),
    verbs=(
        Verb(
            "begin",
            (SETUP,),
            (form(meaning="roll set-up steps 1-7: Orders, Alert, SBGs, carrier, escorts [4.0]"),),
        ),
        Verb(
            "escort",
            (OUTFIT,),
            (form(units(), meaning="the escorts picked within the rolled classes [4.0 step 7]"),),
        ),
        Verb(
            "buy",
            (OUTFIT, LOGISTICS),
            (
                form(
                    Part("number", "count"),
                    Part(
                        "word",
                        "item",
                        choices=("fuel", "ammunition", "ew_enhancement", "air_defense"),
                    ),
                    meaning="track cargo for LP [9.1], [9.2]",
                ),
                form(units(), meaning="aircraft, crews or cruise missiles for LP [9.1], [9.2]"),
            ),
            expect="COUNT ITEM | UNIT [UNIT ...]",
        ),
        Verb(
            "intel",
            (INTELLIGENCE,),
            (form(units(), meaning="one Intelligence attempt by a ship of the CVBG [11.1]"),),
        ),
        Verb(
            "repair",
            (LOGISTICS,),
            (
                form(
                    Part("text", "system"),
                    meaning="a carrier system or a Damaged escort (both skip Movement "
                    "[10.1]), or a damaged aircraft [10.3]",
                ),
            ),
        ),
        Verb(
            "trade",
            (LOGISTICS,),
            (
                form(
                    units(),
                    keyword("->"),
                    unit(role="carrier", label="SHIP"),
                    meaning="Trade Cargo: these cruise missiles go under another ship of the "
                    "CVBG that can carry them (skips Movement) [5.0 step 2c], [15.1]",
                ),
            ),
        ),
        Verb(
            "move",
            (MOVEMENT,),
            (
                form(
                    keyword("max", sets_mode=True, optional=True),
                    path(),
                    meaning="the CVBG space by space; `max` spends Fuel for +2 [12.1], [12.2]",
                ),
            ),
            expect="[max] SPACE [SPACE ...]",
        ),
        Verb(
            "strike",
            (LAUNCH,),
            (
                form(
                    units(),
                    keyword("->"),
                    location(),
                    meaning="launch aircraft and missiles at a space [19.0]",
                ),
            ),
            expect="UNIT [UNIT ...] -> SPACE",
        ),
        Verb(
            "bombard",
            (OBJECTIVE,),
            (form(meaning="shore bombardment of the coastal defense units here [23.1]"),),
        ),
        Verb(
            "land",
            (OBJECTIVE,),
            (form(units(), meaning="amphibious landing of Marines or SEALs [23.2]"),),
        ),
        Verb(
            "embark",
            (OBJECTIVE,),
            (
                form(
                    units(),
                    meaning="Marines or SEALs landed on an earlier turn go back aboard the "
                    "CVBG in their space [23.2]",
                ),
            ),
        ),
        Verb(
            "breakoff",
            (STANDING,),
            (
                form(
                    keyword("yes", "all", sets_mode=True),
                    keyword("->"),
                    path(),
                    meaning="break off with the Tactical Edge [18.2] (`yes` the CVBG, `all` "
                    "the CVBG and the air strikes), the CVBG to the first of these spaces "
                    "that is legal",
                ),
                form(
                    keyword("yes", "no", "strikes", "all", sets_mode=True),
                    meaning="break off with the Tactical Edge [18.2]: `yes` the CVBG (one "
                    "space toward the nearest NATO base), `strikes` the air strikes (they "
                    "land), `all` both, `no` never",
                ),
            ),
            expect="yes|no|strikes|all [-> SPACE [SPACE ...]]",
        ),
        Verb(
            "lose",
            (STANDING,),
            (
                form(
                    units(),
                    meaning="the aircraft you give up first, in this order, when the carrier "
                    "has no room for them [14.1]",
                ),
            ),
        ),
        Verb(
            "deploy",
            (STANDING,),
            (
                form(
                    keyword("outer", "inner", sets_mode=True),
                    units(),
                    meaning="the zone of USN units in battle [20.2]",
                ),
            ),
        ),
    ),
)
