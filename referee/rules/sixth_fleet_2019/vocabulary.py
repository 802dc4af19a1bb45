"""The orders vocabulary of Sixth Fleet (2019): how orders are written.

Zones are written by name, in double quotes when the name has spaces ("Western Med"); each
line of ``[actions]`` is one action [6.5], [6.6]. ``docs/orders/sixth_fleet_2019.md`` holds the
verb table made from this declaration. What each order may do is checked by ``steps.py``.
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

EVENTS, ACTIONS, STANDING = "events", "actions", "standing"
ARROW = keyword("->")

VOCABULARY = Vocabulary(
    ruleset="sixth_fleet_2019",
    sections=(EVENTS, ACTIONS),
    locations=(LocationSyntax.name("zone"),),
    verbs=(
        Verb(
            "roll",
            (EVENTS,),
            (form(meaning="roll one die on your Random Events Table [5.1]"),),
        ),
        Verb(
            "move",
            (ACTIONS,),
            (
                form(
                    units(),
                    ARROW,
                    path(label="ZONE"),
                    meaning="one action: a force moves zone by zone; air may end in a carrier's "
                    "holding box [8.0]-[8.4]",
                ),
            ),
        ),
        Verb(
            "attack",
            (ACTIONS,),
            (
                form(
                    units(),
                    ARROW,
                    location(label="ZONE"),
                    keyword("hitting"),
                    Part("word", "targets", many=True, label="TARGET"),
                    meaning="one action: a force attacks units of one kind, or `base`, in a zone "
                    "(provisional: not from the rulebook) [9.0]",
                ),
            ),
        ),
        Verb(
            "land",
            (ACTIONS,),
            (
                form(
                    units(),
                    ARROW,
                    location(label="ZONE"),
                    meaning="one action: amphibious assault of up to two ground units "
                    "[7.1.2] (provisional 8.5.1)",
                ),
            ),
        ),
        Verb(
            "embark",
            (ACTIONS,),
            (
                form(
                    units(),
                    ARROW,
                    unit(role="carrier", label="SHIP"),
                    meaning="one action: units board a ship in their zone (provisional 8.5.1)",
                ),
            ),
        ),
        Verb(
            "patrol",
            (ACTIONS,),
            (
                form(
                    units(),
                    ARROW,
                    location(label="ZONE"),
                    meaning="one action: naval units patrol their sea zone, air units fly to "
                    "one; a naval force entering it must stop [8.4] (provisional 15.0)",
                ),
            ),
        ),
        Verb(
            "refit",
            (ACTIONS,),
            (
                form(
                    units(),
                    ARROW,
                    location(label="ZONE"),
                    meaning="one action: units of one nationality leave the Refit Box for a "
                    "base their side may use [6.4], [7.2] (provisional 11.0)",
                ),
            ),
        ),
        Verb(
            "reinforce",
            (ACTIONS,),
            (
                form(
                    units(),
                    ARROW,
                    location(label="ZONE"),
                    meaning="one action: due reinforcements of one nationality arrive at one of "
                    "their entry zones' bases [6.4] (provisional 10.0)",
                ),
            ),
        ),
        Verb(
            "play",
            (ACTIONS,),
            (
                form(
                    unit(role="marker", label="MARKER"),
                    meaning="play an EW strike marker you hold: one more action now, using "
                    "none [6.1] (provisional 17.0: not from the rulebook)",
                ),
                form(
                    unit(role="marker", label="MARKER"),
                    ARROW,
                    location(label="ZONE"),
                    keyword("hitting"),
                    Part("word", "targets", many=True, label="TARGET"),
                    meaning="one GS action: a Cruise Missile or Special Forces marker you hold "
                    "strikes enemy units of one kind, or `base`, in a zone [6.4] "
                    "(provisional 17.0: not from the rulebook)",
                ),
            ),
        ),
        Verb(
            "divert",
            (STANDING,),
            (
                form(
                    units(),
                    ARROW,
                    path(label="PLACE"),
                    meaning="where these air units land, in this order of preference, when "
                    "they cannot return to their base or carrier [8.3.2]; a carrier is its "
                    'holding box ("Holding SHIP")',
                ),
            ),
        ),
        Verb(
            "eliminate",
            (STANDING,),
            (
                form(
                    units(),
                    meaning="the units you give up first, in this order, when a zone of yours "
                    "is over-stacked [7.2]",
                ),
            ),
        ),
        Verb(
            "pass",
            (ACTIONS,),
            (form(meaning="take no (more) actions; unused actions are lost [6.0]"),),
        ),
    ),
)
