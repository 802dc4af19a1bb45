"""The orders of a declared game: one ``[orders]`` section per step of a side [G1]-[G4].

Locations are hex ids of four digits or names in double quotes (a zone, a box); the ruleset
checks each against the module's map.
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
)

ORDERS = "orders"

VOCABULARY = Vocabulary(
    ruleset="declared",
    sections=(ORDERS,),
    verbs=(
        Verb(
            "place",
            (ORDERS,),
            (form(unit(), location()),),
            meaning="put an own piece on the map (from off the map or anywhere) [G1]",
        ),
        Verb(
            "move",
            (ORDERS,),
            (form(unit(), path()),),
            meaning="move an own piece along the locations given; it ends on the last [G1]",
        ),
        Verb("flip", (ORDERS,), (form(unit()),), meaning="turn an own piece over [G1]"),
        Verb(
            "mark",
            (ORDERS,),
            (form(unit(), Part("word", "mark", label="MARK")),),
            meaning="put a marker (a word: disrupted, spotted...) on an own piece [G1]",
        ),
        Verb(
            "unmark",
            (ORDERS,),
            (form(unit(), Part("word", "mark", label="MARK")),),
            meaning="take a marker off an own piece [G1]",
        ),
        Verb(
            "eliminate",
            (ORDERS,),
            (form(unit()),),
            meaning="take an own piece off the map as eliminated [G1]",
        ),
        Verb(
            "roll",
            (ORDERS,),
            (
                form(
                    Part("word", "dice", label="DICE"),
                    keyword("for", sets_mode=True),
                    Part("text", "purpose", many=True, label="WHAT"),
                    meaning='roll dice and report the total: roll 2d6 for "attack on 1423" [G3]',
                ),
                form(
                    Part("word", "dice", label="DICE"),
                    keyword("on", sets_mode=True),
                    Part("word", "table", label="TABLE"),
                    Part("word", "column", optional=True, label="COLUMN"),
                    meaning="roll dice on a table of the module and report its result [G4]",
                ),
            ),
            meaning="roll dice [G3], [G4]",
            expect='DICE for "WHAT" or DICE on TABLE [COLUMN]',
        ),
    ),
    locations=(LocationSyntax.hex(4), LocationSyntax.name("place")),
    unit_noun="piece",
)
