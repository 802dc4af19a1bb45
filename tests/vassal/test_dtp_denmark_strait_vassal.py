"""Real VASSAL 3.7.26 loads the Denmark Strait / Iceland module [DTP 11.3, 11.31] cleanly.

The map is new (30 x 24, flat-topped, ids column then row growing south), so this checks that
VASSAL's own grid numbering names each hex the text names as the module source does, and that
every set-up piece of both scenarios lands in the hex the scenario gives it. The check is the
session's one vcheck run of the bundled module, shared with the marker tests' saves
(``tests/vassal/vcheck_run.py``, ``checked``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.source.loader import load_module
from referee.source.model import FixedPlacement
from tests.vassal.vcheck_run import checked, checks

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "module_src" / "dtp_denmark_strait"
VCHECK = ROOT.parent / "shared" / "tools" / "vassal-check" / "vcheck"
NAMED = (
    "2806",
    "2814",
    "0918",
    "2224",
    "3003",
    "3001",
    "3002",
    "2603",
    "1023",
    "0110",
    "2010",
    "3005",
    "0121",
    "0101",
    "3024",
)

pytestmark = pytest.mark.vassal


def _reason() -> str | None:
    if not VCHECK.is_file():
        return f"the real-VASSAL checker is not at {VCHECK}"
    if shutil.which("java") is None and not list(Path("/usr/lib/jvm").glob("java-17-*/bin/java")):
        return "Java is not installed (run ../shared/tools/vassal-check/setup)"
    return None


@checks("dtp_denmark_strait", request="hexes")
def _named_hexes(folder: Path) -> tuple[list[Path], list[str]]:
    """No save of its own (the module's set-ups are loaded in every run): the named hexes
    asked of VASSAL's grid."""
    return [], [a for h in NAMED for a in ("--hex", h)]


@pytest.mark.skipif(_reason() is not None, reason=str(_reason()))
def test_real_vassal_loads_the_module_and_names_the_hexes() -> None:
    module, diags = load_module(SOURCE)
    assert module is not None, [str(d) for d in diags.items]
    _folder, out = checked("dtp_denmark_strait", "hexes")  # exit 0, no problem
    lines = [ln.split("\t") for ln in out.splitlines()]
    assert [ln for ln in lines if ln[0] in ("PROBLEM", "WARN", "ERROR")] == []

    named = {ln[1]: ln[5] for ln in lines if ln[0] == "HEX"}
    assert named == {h: h for h in NAMED}

    placed: dict[tuple[str, str], str] = {}
    for ln in lines:
        if ln[0] == "PIECE" and ln[1].startswith("setup:"):
            placed[(ln[1][len("setup:") :], ln[6].split(" ")[0])] = ln[5]
    from referee.rules.sixth_fleet_dtp.special_bases import off_map_names
    from referee.source.boxes import carrier_of

    # the Nimitz's air group starts below decks, in its holding box [DTP 11.3 rule 1][9.62B];
    # the Soviet air at Murmansk in the off-map box of that name [DTP 11.3 rule 2]; units
    # that start eliminated [DTP 11.31 rule 1] are left out, as every eliminated unit
    off = off_map_names(module)

    def where(f: FixedPlacement) -> str:
        if carrier_of(f.status):
            return f"Holding box {carrier_of(f.status)}"
        return str(f.status) if f.status in off else f.hex

    expected = {
        (s.name, f.unit): where(f)
        for s in module.scenarios.values()
        for f in s.fixed
        if f.status != "eliminated"
    }
    assert off == {"Murmansk"}
    assert {k: v for k, v in placed.items() if k in expected} == expected
    # the players' own placements [DTP 11.31 rules 3-5] wait in the set-up area, each in the
    # box of its pool or choice, whose label cites the rule
    chosen = {
        (s.name, u): rule
        for s in module.scenarios.values()
        for u, rule in [
            *((u, p.rule) for p in s.pools for u in p.units),
            *((c.unit, c.rule) for c in s.choices),
        ]
    }
    assert set(placed) == set(expected) | set(chosen)
    for k, rule in chosen.items():
        assert placed[k].startswith(f"{k[0]}: ") and f"[{rule}]" in placed[k], (k, placed[k])
