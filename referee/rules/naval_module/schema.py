"""What the naval module ruleset needs from a module source.

Naval units carry the values of [25.12]: Artillery Support (ART), Protection Rating (PROT),
Transport Capacity (TC), Naval Movement Point allowance (NMP), Range (RNG) and, on the Sailed
side, the Recovery value (REC) [25.12f]. Ground units give their stacking points (STK) [28.13b],
air units their Interdiction rating (INT) [31.11]; a unit prints 0 for values it has not.
The types are those of [25.11] (BB CL DL DD T), the flotilla [32.1], the ground units the
transport and amphibious rules name [28.13, 30.13a, 30.3, 32.2], and any aircraft.
"""

from referee.source.schema import RulesetSchema

NAVAL_TYPES = ("BB", "CL", "DL", "DD", "T")
GROUND_TYPES = (
    "INF",  # infantry [30.13a]
    "MTN",  # mountain infantry [30.13a]
    "ABN",  # airborne / parachute [30.13a]
    "ENG",  # engineer, non-motorized [30.13a]
    "ENGM",  # motorized engineer (may not assault) [30.13a]
    "MOT",  # motorized infantry [28.13c]
    "ARM",  # armour [28.13c]
    "ART",  # artillery (orange MA artillery is flagged motorized) [28.13c]
    "HQ",  # headquarters [28.13b, 28.25, 30.3]
    "MSU",  # mobile supply unit [30.3]
    "ASP",  # attack supply point [28.13b]
    "CD",  # coast artillery [27.12, 28.13d, 30.2]
    "RRA",  # railroad artillery [28.13d]
    "SHA",  # super-heavy artillery [28.13d]
    "AT",  # armoured train [28.13d]
    "NB",  # naval base [32.2]
)

SCHEMA = RulesetSchema(
    id="naval_module",
    name="Naval units module (rules 25.0-32.0)",
    values=("ART", "PROT", "TC", "NMP", "RNG", "REC", "STK", "INT"),
    categories=("naval", "flotilla", "ground", "air"),
    unit_types={
        "naval": NAVAL_TYPES,
        "flotilla": ("FL",),
        "ground": GROUND_TYPES,
        "air": (),  # any aircraft designation
    },
    flags=("motorized", "naval_fighter"),
    tables=("terrain",),
    terrain=("sea", "coastal", "shallow", "land"),
    victory_conditions=(),
    setup_kinds=("hexes",),
    optional_rules=(),
    map_kinds=("hex+area+point",),
)
