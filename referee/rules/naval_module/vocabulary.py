"""The orders vocabulary of the naval module: sections, verbs and their argument shapes.

Locations are sea zones and ports by name (a name with spaces in double quotes) and hexes by
their four digits (an all-sea hex at sea, a coastal target hex). ``docs/orders/naval_module.md``
holds the verb table made from this declaration (a test keeps them equal). What each order
means and when it is legal is checked by ``steps.py``.
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

READINESS, INTERDICTION, MOVEMENT, COMBAT, COAST, HOST = (
    "readiness",
    "interdiction",
    "movement",
    "combat",
    "coast",
    "host",
)
AIRCOMBAT, REACTION, SHIPPING = "aircombat", "reaction", "shipping"
MOTORIZED = "motorized"  # the Motorized Movement Phase: naval movement as in MOVEMENT [26.12a]
STANDING = "standing"
ARROW = keyword("->")
SHIP = unit(role="carrier", label="SHIP")

VOCABULARY = Vocabulary(
    ruleset="naval_module",
    sections=(
        READINESS,
        INTERDICTION,
        AIRCOMBAT,
        MOTORIZED,
        MOVEMENT,
        REACTION,
        COMBAT,
        SHIPPING,
        COAST,
        HOST,
    ),
    locations=(LocationSyntax.hex(4), LocationSyntax.name("zone or port")),
    unit_noun="unit",
    verbs=(
        Verb(
            "ready",
            (READINESS,),
            (form(units()),),
            meaning="roll Readiness for Sailed naval units: d6 + DRM at or below Recovery [25.32]",
            expect="one or more Sailed naval units",
        ),
        Verb(
            "repair",
            (READINESS,),
            (form(units()),),
            meaning="roll Damage Repair for damaged naval units (not Readiness too) [27.41]",
            expect="one or more damaged naval units",
        ),
        Verb(
            "weather",
            (READINESS,),
            (form(keyword("storm", "clear", sets_mode=True)),),
            meaning="the host game's weather this Game-Turn: Storm gives the Naval Movement "
            "Loss DRM and its damage limit [26.12b note], [27.32a]",
            expect="storm|clear",
        ),
        Verb(
            "interdict",
            (INTERDICTION,),
            (form(units()),),
            meaning="air units allocated to the Naval Movement Interdiction Box, at most 3 "
            "(mission and escort); Soviet naval fighters may oppose them [31.11]-[31.13]",
            expect="one to three air units",
        ),
        Verb(
            "oppose",
            (STANDING,),
            (form(keyword("none", sets_mode=True)), form(units())),
            meaning="the Soviet naval fighters (at most 3) that oppose every Naval Movement "
            "Interdiction mission, or none; without it the Soviet player is asked [31.13]",
            expect="none|FIGHTER [FIGHTER ...]",
        ),
        Verb(
            "survivors",
            (AIRCOMBAT, SHIPPING),
            (
                form(Part("word", "handoff", label="HANDOFF"), ARROW, units()),
                form(Part("word", "handoff", label="HANDOFF"), keyword("none", sets_mode=True)),
            ),
            meaning="the host game's air combat result in the Naval Movement Interdiction Box "
            "[31.13], or its air combat and AA fire against a Shipping Attack mission [31.23], "
            "[31.25]: the mission units that survived, signed by both players in turn",
            expect="HANDOFF -> AIR [AIR ...] | HANDOFF none",
        ),
        Verb(
            "load",
            (MOTORIZED, MOVEMENT),
            (form(units(), ARROW, SHIP),),
            meaning="ground units board a naval unit in their port, within its capacity and "
            "the port's [28.13], [28.14a], [26.25]",
            expect="UNIT [UNIT ...] -> SHIP",
        ),
        Verb(
            "move",
            (MOTORIZED, MOVEMENT),
            (form(units(), ARROW, path()),),
            meaning="naval movement zone by zone, ending in a port, a zone (at sea) or an "
            "all-sea hex of the last zone; Axis ships that start together may move as a group "
            "[26.1x], [26.12a]; a flotilla moves alone hex by hex, naming each hex entered "
            "[32.11]",
            expect="SHIP [SHIP ...] -> ZONE-OR-PORT [...] [HEX]",
        ),
        Verb(
            "unload",
            (MOTORIZED, MOVEMENT),
            (form(units()),),
            meaning="ground units go ashore from a naval unit in a port, within its capacity "
            "[28.14e], [26.25]",
            expect="one or more units aboard a ship in port",
        ),
        Verb(
            "capture",
            (
                READINESS,
                INTERDICTION,
                AIRCOMBAT,
                MOTORIZED,
                MOVEMENT,
                REACTION,
                COMBAT,
                SHIPPING,
                COAST,
                HOST,
            ),
            (form(location()),),
            meaning="the host game's ground movement, reaction movement or advance after "
            "combat took an enemy port (report it in your next file): enemy ships there "
            "sortie at once with a loss roll [26.12b]; the port is usable from the next turn "
            "[26.28]",
            expect="a port name",
        ),
        Verb(
            "evacuate",
            (MOTORIZED, MOVEMENT),
            (form(location()),),
            meaning="declare Evacuation of a friendly port: loading doubled, no unloading "
            "[28.21]-[28.23]",
            expect="a port name",
        ),
        Verb(
            "abort",
            (MOTORIZED, MOVEMENT, STANDING),
            (form(units(), keyword("return", "damage", sets_mode=True)),),
            meaning="the choice on an Abort result made in advance: return to the departure "
            "port, or take one more damage point and stay [27.32b]",
            expect="SHIP [SHIP ...] return|damage",
        ),
        Verb(
            "support",
            (COMBAT,),
            (form(units(), ARROW, location()),),
            meaning="naval artillery support for a Declared Attack on a hex: its value goes to "
            "the host game [29.1x], [29.2x]",
            expect="SHIP [SHIP ...] -> HEX",
        ),
        Verb(
            "attack",
            (COMBAT,),
            (form(path()),),
            meaning="Declared Attacks of the host game on these Defender hexes with no naval "
            "part, named so the other player may support them from port [29.25]",
            expect="HEX [HEX ...]",
        ),
        Verb(
            "assault",
            (COMBAT,),
            (form(units(), ARROW, location()),),
            meaning="amphibious assault (or special transport) from the all-sea hex the "
            "carrying ship holds against an adjacent coastal hex, with any adjacent flotilla "
            "named; the combat goes to the host game [30.1x], [30.16e], [30.3]",
            expect="UNIT [UNIT ...] -> HEX",
        ),
        Verb(
            "shipping",
            (COMBAT, REACTION),
            (form(units(), ARROW, unit(role="target", label="SHIP")),),
            meaning="a Shipping Attack by Ready interdiction-rated air units (at most 3) on one "
            "declared naval unit (in the Axis Reaction Phase one at sea): one Shipping Attack "
            "Table roll each [31.2x]",
            expect="AIR [AIR ...] -> SHIP",
        ),
        Verb(
            "coastfire",
            (COAST,),
            (form(units(), ARROW, unit(role="target", label="SHIP")),),
            meaning="in the enemy's Combat Phase, a Shipping Attack by CD units on one enemy "
            "naval or flotilla unit in range; one roll per target, the CD points totalled "
            "into its DRM [27.12], [27.31], [30.23]",
            expect="CD [CD ...] -> SHIP",
        ),
        Verb(
            "coastsupport",
            (COAST,),
            (form(units(), ARROW, location()),),
            meaning="in the enemy's Combat Phase, CD support strength for one Defender hex, "
            "undoubled; its value goes to the host game [30.25]",
            expect="CD [CD ...] -> HEX",
        ),
        Verb(
            "defend",
            (COAST,),
            (form(units(), ARROW, location()),),
            meaning="in the enemy's Combat Phase, defensive naval artillery support from port "
            "for one attacked Defender hex: one ship, or two (or one and a ground artillery "
            "unit) within an HQ's command range; its value goes to the host game [29.12], "
            "[29.2x], [29.25]",
            expect="SHIP [SHIP|ARTILLERY] -> HEX",
        ),
        Verb(
            "host",
            (HOST,),
            (
                form(
                    Part("word", "handoff", label="HANDOFF"),
                    keyword("cleared", "held", sets_mode=True),
                ),
            ),
            meaning="the host game's result of a handed-off combat, signed by both players in "
            "turn: `cleared` (the assaulters land) or `held` (they stay at sea) [30.16]",
            expect="HANDOFF cleared|held",
        ),
    ),
)
