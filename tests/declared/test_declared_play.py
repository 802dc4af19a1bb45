"""A declared game played by email (issue 30, part 2): the ``declared`` ruleset records
place, move, flip, mark and eliminate orders, rolls free and table dice from the committed
seed chain, signs and chains each report, says in every report that it referees the record
and the dice and not the rules, and ``verify`` replays the whole game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.declared.conftest import SRC, orders_lines, reports_of
from tests.pbem.cliflow import Table, cli


def test_every_order_is_recorded_and_every_report_says_what_it_is(played: Table) -> None:
    reports = reports_of(played)
    assert len(reports) == 6  # report 000 and five steps
    for r in reports[1:]:
        notes = [e for e in r["events"] if e["kind"] == "note"]
        assert notes and "not its rules" in notes[0]["text"] and notes[0]["rule"] == "G1"
    texts = [e["text"] for r in reports for e in r["events"]]
    assert "N-DD-1 moves to 0304 by 0302 0303" in texts
    assert "S-DD-2 flipped to its back" in texts
    assert "N-DD-1 marked spotted" in texts and "N-DD-1 unmarked spotted" in texts
    assert "N-SS-1 eliminated" in texts
    state = json.loads((played.game / "state.json").read_text())
    units = {u["id"]: u for u in state["units"]}
    assert units["N-DD-1"]["location"] == "0304" and units["N-DD-1"]["status"] == []
    assert units["S-DD-2"]["status"] == ["flipped"]
    assert units["N-SS-1"]["box"] == "eliminated"
    assert state["turn"] == 2 and state["active_side"] == "South" and state["phase"] == "south"


def test_rolls_come_from_the_committed_dice_and_read_the_declared_table(played: Table) -> None:
    reports = reports_of(played)
    free = [e for e in reports[3]["events"] if e["kind"] == "roll"]
    assert len(free) == 1 and free[0]["rule"] == "G3"
    faces = free[0]["data"]["faces"]
    assert [r["value"] for r in reports[3]["rolls"]] == faces
    assert free[0]["data"]["total"] == sum(faces) and 2 <= sum(faces) <= 12
    table = next(e for e in reports[5]["events"] if e["kind"] == "roll")
    assert table["rule"] == "G4" and table["data"]["table"] == "gunnery"
    total = table["data"]["total"]
    assert total == sum(table["data"]["faces"]) + 1
    expected = {2: "no effect", 3: "disrupted", 4: "disrupted", 5: "disrupted", 6: "damaged",
                7: "damaged", 8: "damaged"}  # fmt: skip
    assert table["data"]["result"] == expected.get(total, "sunk")
    assert all(
        r["rule"] in ("G3", "G4") and r["sides"] == 6 for rep in reports for r in rep["rolls"]
    )


def test_verify_replays_the_signed_chain(played: Table) -> None:
    code, report = played.verify()
    assert code == 0, report


def test_validate_says_what_it_checks_and_what_it_does_not(played: Table, tmp_path: Path) -> None:
    """A clean file: no violation, and the note that the rules are the players' to apply."""
    path = tmp_path / "ok.txt"
    path.write_text("\n".join(orders_lines("South", 2, "move S-DD-1 0405 0504")) + "\n")
    code, out = cli("validate", "--state", played.game / "state.json", "--module", SRC, path)
    assert code == 0 and "ok: no violations" in out, out
    assert "a declared game, refereed for its record and its dice, not its rules" in out
    code, out = cli(
        "validate", "--state", played.game / "state.json", "--module", SRC, path, "--json"
    )
    assert code == 0 and "not its rules" in json.loads(out)["notes"][0], out


@pytest.mark.parametrize(
    ("line", "where", "message", "hint"),
    [
        ("roll 2x6 for test", "7:6", "'2x6' is not a dice expression", "roll 2d6 for"),
        ("move N-DD-1 0305", "7:6", "N-DD-1 is a piece of North, not of South", "only North's"),
        ("move S-DD-1 0399", "7:13", "no location '0399' on the map", "hexes run from 0101"),
        ("roll 2d6 on gunery", "7:13", "no table 'gunery' in this module", "gunnery"),
        ("roll 1d6 on terrain", "7:6", "no row for a total of 1", "the dice the table"),
        ("roll 2d6 on gunnery medium", "7:21", "no column 'medium'", "light, heavy"),
        ("mark S-DD-9 spotted", "7:6", "no piece 'S-DD-9' in this game", "did you mean"),
    ],
)
def test_bad_orders_are_refused_at_their_word(
    played: Table, tmp_path: Path, line: str, where: str, message: str, hint: str
) -> None:
    """Each refusal names file:line:col, what is wrong and a hint; nothing is adjudicated."""
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(orders_lines("South", 2, "# South's second phase", line)) + "\n")
    code, out = cli("validate", "--state", played.game / "state.json", "--module", SRC, path)
    assert code == 1 and out.count("bad.txt:") == 2, out  # the one violation and the count
    assert "note: a declared game, refereed for its record and its dice, not its rules" in out
    assert f"bad.txt:{where}" in out and message in out and hint in out, out


@pytest.mark.vassal
def test_real_vassal_loads_the_module_its_setup_and_the_last_position(
    played: Table, tmp_path: Path
) -> None:
    """The built module, its scenario set-up and the last step's position.vsav load in
    VASSAL 3.7 with no warning, every piece on the map where the referee's state has it."""
    from tests.vassal.vcheck_run import pieces, run_vcheck

    code, out = cli("build", SRC, "-o", tmp_path)
    assert code == 0, out
    last = sorted((played.game / "turns").glob("*/position.vsav"))[-1]
    code, err, listing = run_vcheck(
        tmp_path / "strait_patrol-1.0.vmod", [str(last)], tmp_path / "v.txt"
    )
    assert code == 0, err
    state = json.loads((played.game / "state.json").read_text())
    on_map = {u["id"]: u["location"] for u in state["units"] if u["location"]}
    seen = pieces(listing)
    setup = next(v for k, v in seen.items() if k.startswith("setup:"))
    assert setup["N-CL-1"] == ("Main Map", "0501") and setup["S-CL-1"] == ("Main Map", "0608")
    saved = next(v for k, v in seen.items() if k.endswith("position.vsav"))
    assert {u: loc for u, (m, loc) in saved.items() if m == "Main Map"} == on_map


def viewer_data(html: str) -> dict:
    """The data the game viewer steps through (its ``viewer-data`` script element)."""
    start = html.index('<script type="application/json" id="viewer-data">')
    body = html[html.index(">", start) + 1 : html.index("</script>", start)]
    return json.loads(body)


def test_the_viewer_shows_the_map_the_steps_and_the_dice(played: Table, tmp_path: Path) -> None:
    """``referee viewer`` on a declared game: every step, its events and its dice, on the
    game's own map (issue 30: the PBEM workflow for any game)."""
    out = tmp_path / "viewer.html"
    code, text = cli("viewer", played.game, "--module", SRC, "-o", out)
    assert code == 0, text
    html = out.read_text()
    data = viewer_data(html)
    reports = reports_of(played)
    assert data["ruleset"] == "declared" and len(data["steps"]) == len(reports)
    for step, report in zip(data["steps"], reports, strict=True):
        assert [r["value"] for r in step["rolls"]] == [r["value"] for r in report["rolls"]]
        assert [e["text"] for e in step["events"]] == [e["text"] for e in report["events"]]
    assert any(step["rolls"] for step in data["steps"])  # the free rolls and the Gunnery Table
    assert '<img id="board"' in html and data["board"]["grid"] is not None  # the hex map
