"""Real VASSAL 3.7.26 loads the Westpac module [DTP 11.5] cleanly.

The map is new (60 x 73, pointy-topped, ids column then row growing south), so this checks that
VASSAL's own grid numbering names each hex the text names as the module source does, and that
every set-up piece lands in the hex the scenario gives it (the players' choices [DTP 11.5052,
11.5053] wait in the set-up area, each in the box of its choice).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.source.loader import load_module
from tests.conftest import bundled_vmod
from tests.vassal.vassal_jvm import vcheck

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "module_src" / "dtp_westpac"
# the variable air table's units, waiting in the variable air box [DTP 11.5052, 11.507]
AIR = ("SO-M23V.1", "SO-M23V.2", "SO-T16V.1", "SO-T16V.2", "SO-S24V")
VCHECK = ROOT.parent / "shared" / "tools" / "vassal-check" / "vcheck"
NAMED = (
    "3033", "1850", "1855", "1460", "3945", "3546", "3147", "0573", "4473", "1771", "1672",
    "2557", "3047", "4137", "3845", "2543", "2644", "2444", "5916", "4227", "4730", "2746",
    "4129", "4034", "2744", "2646", "2346", "2342", "1858", "1862", "1671", "1772", "2558",
    "4036", "2748", "2850", "3346", "3136", "5823", "3354", "4338", "3251", "4146", "2072",
    "6037", "3119", "6019", "0101", "6073",
)  # fmt: skip

pytestmark = pytest.mark.vassal


def _reason() -> str | None:
    if not VCHECK.is_file():
        return f"the real-VASSAL checker is not at {VCHECK}"
    if shutil.which("java") is None and not list(Path("/usr/lib/jvm").glob("java-17-*/bin/java")):
        return "Java is not installed (run ../shared/tools/vassal-check/setup)"
    return None


@pytest.mark.skipif(_reason() is not None, reason=str(_reason()))
def test_real_vassal_loads_the_module_and_names_the_hexes(tmp_path: Path) -> None:
    module, diags = load_module(SOURCE)
    assert module is not None, [str(d) for d in diags.items]
    vmod = bundled_vmod("dtp_westpac")
    out = tmp_path / "vcheck.txt"
    run = vcheck([vmod], out, args=" ".join(f"--hex {h}" for h in NAMED))
    if run.returncode == 2 and "missing" in run.stderr:
        pytest.skip("vcheck's prerequisites are missing: " + run.stderr.strip())
    lines = [ln.split("\t") for ln in out.read_text(encoding="utf-8").splitlines()]
    assert run.returncode == 0, run.stderr
    assert [ln for ln in lines if ln[0] in ("PROBLEM", "WARN", "ERROR")] == []

    named = {ln[1]: ln[5] for ln in lines if ln[0] == "HEX"}
    assert named == {h: h for h in NAMED}

    placed: dict[tuple[str, str], str] = {}
    for ln in lines:
        if ln[0] == "PIECE" and ln[1].startswith("setup:"):
            placed[(ln[1][len("setup:") :], ln[6].split(" ")[0])] = ln[5]

    expected = {(s.name, f.unit): f.hex for s in module.scenarios.values() for f in s.fixed}
    assert {k: v for k, v in placed.items() if k in expected} == expected
    # the players' own placements [DTP 11.505-11.5053] wait in the set-up area, each in the
    # box of its choice or group, whose label cites the rule
    chosen = {
        (s.name, u): rule
        for s in module.scenarios.values()
        for u, rule in [
            *((u, p.rule) for p in s.pools for u in p.units),
            *((c.unit, c.rule) for c in s.choices),
        ]
    }
    # the reinforcement track [DTP 11.506]: each unit in the box of the Game-Turn it enters
    # on; the variable air units in their box [DTP 11.5052, 11.507]
    arriving = {
        (s.name, u): f"Arrives Game-Turn {r.after_turn + 1}"
        for s in module.scenarios.values()
        for r in s.reinforcements
        for u in r.units
    }
    variable = {(s.name, u): "Variable air units" for s in module.scenarios.values() for u in AIR}
    assert set(placed) == set(expected) | set(chosen) | set(arriving) | set(variable)
    for k, rule in chosen.items():
        assert placed[k].startswith(f"{k[0]}: ") and f"[{rule}]" in placed[k], (k, placed[k])
    assert {k: placed[k] for k in arriving} == arriving
    assert {k: placed[k] for k in variable} == variable
