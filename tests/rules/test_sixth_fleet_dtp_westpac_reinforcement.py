"""Westpac's reinforcement phase through the command line (issue 26, "Bad input"): a
reinforcement voluntarily held off map is refused by ``validate`` at its place in the file,
citing [DTP 11.5062]; nothing is written. The rules themselves are the conformance cases
``tests/conformance/dtp_westpac/004-007``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.core import GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.source.loader import load_module
from tests.pbem.cliflow import cli

ROOT = Path(__file__).resolve().parents[2]
WP = ROOT / "module_src" / "dtp_westpac"
DUE = ("US-AK-50", "US-F15.1", "JA-TK-129")  # SEATO's track units of Game-Turn 4


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _position(tmp: Path) -> Path:
    """Game-Turn 4, SEATO's reinforcement placement [DTP 11.5041, 11.506], its track units of
    the turn waiting in the reinforcements box."""
    m, _ = load_module(WP)
    assert m is not None
    game = Game.for_scenario(m, "westpac")
    st = GameState("g", m.id, "sixth_fleet_dtp", "westpac", 4, "reinforcement_b", "SEATO", {}, {})
    for pid in DUE:
        st = st.with_unit(UnitState(pid, game.unit(pid).side, None, "reinforcements"))
    st = st.with_data(
        damage={},
        recycle={},
        base_damage={},
        combat={},
        reinforce={"then": "ship_movement_a", "sides": ["SEATO"]},
    )
    path = tmp / "state.json"
    path.write_text(json.dumps(st.to_json()), encoding="utf-8")
    return path


def _validate(tmp: Path, lines: list[str]) -> tuple[int, str]:
    orders = tmp / "orders.txt"
    body = "".join(f"{x}\n" for x in lines)
    orders.write_text(
        f"game: g\nturn: 4\nside: SEATO\nphase: reinforcement_b\n\n[reinforcement]\n{body}",
        encoding="utf-8",
    )
    state = _position(tmp)
    before = _files(tmp)
    code, out = cli("validate", orders, "--state", state, "--module", WP)
    assert _files(tmp) == before  # nothing written
    return code, out


def test_a_reinforcement_held_off_map_is_refused(tmp_path: Path) -> None:
    code, out = _validate(tmp_path, ["place US-AK-50 6060", "place US-F15.1 1771"])
    assert code == 1, out
    assert "[DTP 11.5062]" in out and "JA-TK-129" in out and "held off map" in out, out
    assert "orders.txt:6:1: [DTP 11.5062]" in out, out  # the section: no line names it
    assert "place JA-TK-129 4473" in out, out  # the hint
    code, out = _validate(
        tmp_path, ["place US-AK-50 6060", "place US-F15.1 1771", "place JA-TK-129 4473"]
    )
    assert code == 0, out


def test_a_reinforcement_off_its_entry_hex_is_refused_at_its_line(tmp_path: Path) -> None:
    code, out = _validate(
        tmp_path, ["place US-AK-50 6060", "place US-F15.1 2543", "place JA-TK-129 4473"]
    )
    assert code == 1, out
    assert "[DTP 11.5065]" in out and "US-F15.1" in out and "2543" in out, out
    assert "orders.txt:8:" in out, out


@pytest.mark.slow
def test_a_scripted_game_places_the_turn_4_track_before_any_movement() -> None:
    """The scripted player plays both sides through Game-Turn 4: every file passes
    ``validate``, the invariants hold after every step, and turn 4 opens with the East Block's
    then SEATO's placements [DTP 11.5041, 11.506] before its first ship movement, every track
    unit of the turn arriving at its entry [DTP 11.5063, 11.5065]."""
    from referee.engine.core import SeededDice
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET
    from tests.rules.test_sixth_fleet_dtp_games import check

    m, _ = load_module(WP)
    assert m is not None
    state = RULESET.new_game(m, "westpac", "wp-reinforce")
    game = Game.of(m, state)
    phases: list[tuple[int, str]] = []
    arrived: dict[str, str] = {}
    k = 0
    while state.turn <= 4:
        k += 1
        text = RULESET.scripted_orders(m, state)
        assert text is not None
        doc = RULESET.parse_orders(text, f"step-{k}.txt")
        assert not RULESET.validate(m, state, doc), (k, text)
        out = RULESET.resolve(m, state, doc, SeededDice(k))
        assert out.ok, (k, out.violations)
        assert not check(game, state, out.state), k
        phases += [  # "Game-Turn N: ...": a file's events may run into the next turn
            (int(e.text.split(":")[0].split()[-1]), e.data["phase"])
            for e in out.events
            if e.kind == "phase" and "phase" in e.data
        ]
        arrived |= {e.data["unit"]: e.data["hex"] for e in out.events if e.kind == "reinforce"}
        state = out.state
    turn_4 = [p for t, p in phases if t == 4]
    assert turn_4[:3] == ["reinforcement_a", "reinforcement_b", "ship_movement_a"], turn_4
    assert not [p for t, p in phases if t in (1, 2, 3) and p.startswith("reinforcement")]
    assert arrived["SO-AK-81"] == "3033" and arrived["JA-TK-129"] == "4473"
    assert arrived["US-AK-50"] == "6060" and arrived["US-F15.1"] in ("1771", "2444", "2557", "4137")
    assert all(state.units[u].box is None for u in arrived)
