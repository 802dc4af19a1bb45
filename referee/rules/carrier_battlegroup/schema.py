"""What the Carrier Battlegroup ruleset needs from a module source.

Units print Anti-Air, Anti-Surface, Anti-Submarine, Defense, Speed (Range for standoff units)
and Electronic Warfare [3.2]. Categories follow [2.2]/[3.2]-[3.4]: warships (surface,
submarine), standoff weapons (air, missile), coastal defense units, and the markers and chits
[3.5]-[3.7] that are not combat units. The map is point-to-point [3.1], [12.4].
"""

from referee.source.schema import RulesetSchema

SCHEMA = RulesetSchema(
    id="carrier_battlegroup",
    name="Carrier Battlegroup",
    values=("AA", "AS", "ASW", "DEF", "SPD", "EW"),
    categories=("surface", "submarine", "air", "missile", "coastal", "marker"),
    unit_types={
        "surface": ("CVN", "CV", "CVL", "BBG", "BC", "CGN", "CG", "DDG", "DD", "FFG", "FF", "AO"),
        "submarine": ("SSBN", "SSGN", "SSN", "SS"),
        "air": (),  # any aircraft designation (F-14, Tu-22M, ...)
        "missile": (),
        "coastal": ("CDM", "MINE", "PTG"),
        "marker": (),
    },
    # nuclear [12.2]; carrier: carrier-based air (USN) or the CVL-1 group [15.0];
    # refueler [19.2]; aegis [4.0 step 7]; land: land-based air [9.2]; glitch [11.4];
    # chit: an incident chit [3.7]; cod [9.3]; standoff: a Soviet standoff pool unit [4.0 4b]
    flags=("nuclear", "carrier", "refueler", "aegis", "land", "glitch", "chit", "cod", "optional"),
    tables=("terrain",),
    terrain=("high_seas", "chokepoint", "transit", "nato_base", "objective", "soviet_base"),
    victory_conditions=("occupy_objective", "sink_ssbn"),
    setup_kinds=("hexes",),
    map_kinds=("point",),
)
