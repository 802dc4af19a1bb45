"""``referee validate`` refuses, at its line, an order a further [8.5.4] combat file cannot
carry: the referee would never carry it out, so it must not be accepted and dropped."""

from __future__ import annotations

import json
from pathlib import Path

from referee.cli import app
from tests.clirun import Runner
from tests.conformance.harness import load_case
from tests.conformance.rulesets.sixth_fleet_1975 import FIXTURES, build_state, fixture_module

CASE = Path(__file__).resolve().parents[1] / "conformance" / "sixth_fleet_1975"
RUN = Runner()


def _validate(tmp_path: Path, body: str, *fmt: str) -> tuple[int, str]:
    position = load_case(next(CASE.glob("169-*.json")))["position"]
    state = build_state(fixture_module("sf75ex"), position)
    st = tmp_path / "state.json"
    st.write_text(state.canonical())
    orders = tmp_path / "soviet.txt"
    orders.write_text(f"game: {state.game_id}\nturn: {state.turn}\nside: Soviet\n[combat]\n{body}")
    module = str(FIXTURES / "sf75ex")
    r = RUN.invoke(app, ["validate", str(orders), "--state", str(st), "--module", module, *fmt])
    return r.exit_code, r.stdout


def test_validate_refuses_an_8_24_retreat_in_a_further_file(tmp_path: Path) -> None:
    body = "attack SO-SG-1 -> US-CV-1\nretreat SO-SN-1 -> 1523\n"
    code, out = _validate(tmp_path, body, "--json")
    assert code == 1, out
    (v,) = json.loads(out)["violations"]
    assert (v["rule"], v["line"], v["col"]) == ("8.5.4", 6, 1)
    assert v["message"].startswith("retreat SO-SN-1 -> 1523: the 8.24 retreats were made")
    assert v["hint"].startswith("a further [8.5.4] file may only attack the units that advanced")
    code, out = _validate(tmp_path, body)
    assert code == 1 and "soviet.txt:6:1: " in out and "[8.5.4]" in out, out


def test_validate_accepts_the_further_file_attack_and_its_advance(tmp_path: Path) -> None:
    """``advance`` lines serve the further file's own attacks [8.5]; a standing retreat
    preference is no order of the phase and stays allowed [8.71]."""
    body = "attack SO-SG-1 -> US-CV-1\nadvance SO-SG-1 -> 1422\n"
    code, out = _validate(tmp_path, body + "[standing]\nretreat SO-SN-1 prefer 1523\n")
    assert code == 0, out
