"""Every summary a report prints agrees with the events and the state it was made from, in
every ruleset (issue 31): the score table's losses are the units the events removed, its VP
add up, "No unit has been destroyed" only where none was, and each view's unit table is the
position of the view it renders.

The games are the finished demo games (one per ruleset or more: the DTP rules have two, the
Denmark Strait and Westpac), made once per test session.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from referee.engine.core import GameState
from referee.pbem.scoreboard import scoreboard, shown_value
from referee.resources import example_path
from referee.source.loader import load_module
from referee.source.model import Module

if TYPE_CHECKING:
    from tests.conftest import DemoRun

pytestmark = pytest.mark.slow

# demo name -> the bundled module it plays
DEMOS = {
    "sixth_fleet": "sixth_fleet",
    "dtp_denmark_strait": "dtp_denmark_strait",
    "dtp_westpac": "dtp_westpac",
    "sixth_fleet_2019": "sixth_fleet_2019",
    "carrier_battlegroup": "carrier_battlegroup",
    "naval_module": "naval_module",
}


def _module(name: str) -> Module:
    path = example_path(name)
    assert path is not None
    module, diags = load_module(path)
    assert module is not None, [str(d) for d in diags.items]
    return module


def _reports(game: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    for turn in sorted((game / "turns").iterdir()):
        if (turn / "report.json").is_file():
            yield turn, json.loads((turn / "report.json").read_text("utf-8"))


def _units_of(event: dict[str, Any]) -> set[str]:
    data = event.get("data") or {}
    out = {str(data["unit"])} if isinstance(data.get("unit"), str) else set()
    if isinstance(data.get("units"), list):
        out |= {str(u) for u in data["units"]}
    return out


def _lost_by_events(ruleset: str, events: list[dict[str, Any]]) -> set[str]:
    """The units the events so far say are lost and not back: each ruleset's own words."""
    lost: set[str] = set()
    for e in events:
        kind, data, units = e["kind"], e.get("data") or {}, _units_of(e)
        # 1975, DTP [8.8], [13.0]; 2019 [9.0], [7.2]; naval [27.31]
        if (kind == "eliminate" and data.get("scores", True)) or kind in ("eliminated", "sunk"):
            lost |= units
        elif kind in ("refit", "returned") and ruleset == "sixth_fleet_2019":
            lost -= units  # back from the Refit Box [6.4]
        elif kind == "hit" and ruleset == "carrier_battlegroup":
            if e["text"].endswith((": sunk", ": crippled", ": damaged")):
                lost |= units  # [22.3]-[22.6]
        elif kind == "lost" and ruleset == "carrier_battlegroup":
            lost |= set(re.findall(r"US-[A-Z0-9.-]+", e["text"]))  # [15.2] no room aboard
    return lost


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_score_tables_agree_with_the_events(
    name: str, finished_demo: Callable[[str], DemoRun]
) -> None:
    out = finished_demo(name).out
    module = _module(DEMOS[name])
    events: list[dict[str, Any]] = []
    seen_losses = 0
    start: set[str] | None = None
    for turn, rep in _reports(out / "game"):
        events += rep.get("events") or []
        score = rep.get("score")
        if not score:
            continue
        board = scoreboard(module, score, rep["scenario"])
        table = {row["unit"] for row in board["losses"]}
        seen_losses += len(table)
        named = set().union(*(_units_of(e) for e in events)) if events else set()
        texts = " ".join(e["text"] for e in events)
        if start is None:  # losses the scenario starts with ([DTP 11.31 rule 1]'s dead pile)
            start = set(table)
        for unit in table - start:  # a unit in the table is one the events removed or damaged
            assert unit in named or unit in texts, f"{turn.name}: {unit} lost without an event"
        missing = _lost_by_events(rep["ruleset"], events) - table
        assert not missing, f"{turn.name}: events lose {sorted(missing)}, the table does not"
        # the totals add up: side rows, or the one VP track, or the net
        for s in board["sides"]:
            assert shown_value(s["units"]) + s["bonus"] == shown_value(s["total"]), s
        vp = score.get("vp")
        if isinstance(vp, dict) and board["sides"]:
            totals = {s["name"]: shown_value(s["total"]) for s in board["sides"]}
            assert sorted(totals.values()) == sorted(
                Fraction(str(v)) + (0 if score.get("bonuses_in_vp") else bonus)
                for v, bonus in _with_bonuses(module, score)
            )
        if board["track"] is not None:  # [CBG 24.1] the VP track is the scored losses
            vp_events = [e["data"]["vp"] for e in events if e["kind"] == "vp"]
            assert board["track"] == (vp_events[-1] if vp_events else 0), turn.name
            scored = [row["vp"] for row in board["losses"] if row["vp"] != ""]
            assert board["track"] == sum(scored), (turn.name, board["losses"])
        md = (turn / "report.md").read_text("utf-8")
        section = md[md.index("## Score") :].split("\n## ", 1)[0] if "## Score" in md else ""
        if table:
            assert "No unit has been destroyed" not in section, turn.name
            for unit in table:
                assert f"| {unit} |" in section, (turn.name, unit)
        if board["track"] is not None:
            assert f"Victory points: **{board['track']}**" in section
    if name in ("carrier_battlegroup", "sixth_fleet_2019"):
        assert seen_losses, "the demo game loses units: the check above must have run on some"


def _with_bonuses(module: Module, score: dict[str, Any]) -> list[tuple[Any, int]]:
    bonus: dict[str, int] = {}
    for b in score.get("bonuses") or ():
        bonus[b["side"]] = bonus.get(b["side"], 0) + int(b.get("vp") or 0)
    return [(score["vp"].get(s.id, 0), bonus.get(s.id, 0)) for s in module.sides]


def _table_units(md: str) -> dict[str, str]:
    """unit -> location of each row of a view's position tables, and unit -> box of its
    "Off the map" lines."""
    out: dict[str, str] = {}
    position = md.split("## Position after", 1)[1].split("\n## ", 1)[0]
    for line in position.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 4 and cells[0] not in ("Unit", "---"):
            out[cells[0]] = cells[2]
        if line.startswith("Off the map: "):
            for unit, box in re.findall(r"([^ ,]+) \(([^)]*)\)", line[len("Off the map: ") :]):
                out[unit] = box
    return out


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_each_view_lists_the_units_of_its_state(
    name: str, finished_demo: Callable[[str], DemoRun]
) -> None:
    from tests.pbem.cliflow import opened_copy

    out = finished_demo(name).out
    game = out / "game"
    if any(game.glob("turns/*/side-*.age")):  # the views are in each side's encrypted part
        game = opened_copy(game, f"{name}-opened-views", sorted((out / "keys").glob("*.key")))
    checked = 0
    for turn, _rep in _reports(game):
        for view in sorted(turn.glob("view-*.json")):
            state = GameState.from_json(json.loads(view.read_text("utf-8"))["state"])
            shown = _table_units(view.with_suffix(".md").read_text("utf-8"))
            on_map = {u: h for h, ids in state.stacks.items() for u in ids}
            for unit, where in on_map.items():
                assert shown.get(unit) is not None, f"{view}: {unit} at {where} not listed"
            for unit, u in state.units.items():
                if u.location is None and u.box and unit in shown:
                    assert shown[unit] == u.box, (view.name, unit, shown[unit], u.box)
            assert set(shown) <= set(state.units), f"{view}: units not in its state"
            checked += 1
    assert checked, "no view was checked"


# ---- every command a player runs, on a fresh game and on the finished demo game ----------

FRESH = {
    "sixth_fleet": "short",
    "dtp_denmark_strait": "iceland",
    "sixth_fleet_2019": "s1970",
    "carrier_battlegroup": "mission",
    "naval_module": "kerch_feodosia",
}


def _cli(*args: str) -> tuple[int, str]:
    from referee.cli import app
    from referee.errors import UserError
    from tests.clirun import Runner

    try:
        r = Runner().invoke(app, list(args), catch_exceptions=False)
    except UserError as exc:
        return exc.exit_code, str(exc)
    return r.exit_code, r.output


def _first_unit(state_json: Path, side: str) -> str:
    data = json.loads(state_json.read_text("utf-8"))
    data = data.get("state", data)
    units = sorted(u["id"] for u in data["units"] if u["side"] == side and u.get("location"))
    return units[0] if units else "USN"


@pytest.mark.parametrize("name", sorted(FRESH))  # Westpac's: its demo test and benchmark
def test_every_command_runs_on_a_fresh_and_a_finished_game(
    name: str, finished_demo: Callable[[str], DemoRun], tmp_path: Path
) -> None:
    """`state show`, `options`, `validate`, `adjudicate`, `verify` and `viewer` on a fresh game
    and on the finished demo game of every ruleset: no internal error, and what `state show`
    says of the score is the score of the latest report (issue 31)."""
    from referee.demos.base import Game, create_demo_game
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.scoreboard import score_line

    module = _module(DEMOS[name])
    rs = get_ruleset(module.ruleset)
    side = sorted(s.id for s in module.sides)[0] if name != "carrier_battlegroup" else "USN"
    # a fresh position: show, options, validate the scripted player's first orders
    state = tmp_path / "state.json"
    assert (
        _cli(
            "state",
            "new",
            "--example",
            name,
            "--scenario",
            FRESH[name],
            "-o",
            str(state),
            "--game-id",
            "g",
        )[0]
        == 0
    )
    code, out = _cli("state", "show", str(state))
    assert code == 0 and "None" not in out.splitlines()[-1], out
    st = GameState.from_json(json.loads(state.read_text("utf-8")))
    aw_side, _what = rs.awaiting(module, st)
    code, out = _cli("options", _first_unit(state, aw_side or side), "--state", str(state))
    assert code in (0, 2) and "internal error" not in out, out
    text = rs.scripted_orders(module, st)
    if text is not None:
        orders = tmp_path / "first.txt"
        orders.write_text(text)
        code, out = _cli("validate", str(orders), "--state", str(state))
        assert code == 0, out
    # a fresh game by email: adjudicate the first orders, verify, viewer
    demo = finished_demo(name).out
    players = {
        s.id: s.id.lower()
        for s in module.sides
        if (demo / "keys" / f"{s.id.lower()}.pub").is_file()
    }
    fresh = Game("fresh", example_path(DEMOS[name]), FRESH[name], "fresh", "fresh", players)
    create_demo_game(tmp_path, demo / "keys", fresh)
    game = tmp_path / "game"
    if text is not None and aw_side in players:
        doc = rs.parse_orders(text, "x")
        assert doc is not None
        orders = tmp_path / "mine.txt"
        body = "\n".join(
            ln for ln in text.splitlines() if not ln.startswith(("game:", "turn:", "side:"))
        )
        orders.write_text(body + "\n")
        key = demo / "keys" / f"{players[aw_side]}.key"
        assert _cli("sign", str(orders), "--key", str(key), "--game-dir", str(game), "-q")[0] == 0
        code, out = _cli(
            "adjudicate",
            str(game),
            str(orders),
            "--key",
            str(demo / "keys" / "referee.key"),
            "--referee-dir",
            str(tmp_path / "referee"),
        )
        assert code == 0, out
    # `verify` of the finished game: the demo's own run (its verdict printed, so the whole
    # replay is not paid twice), of the fresh one here
    reports = len(list((demo / "game" / "turns").iterdir()))
    assert re.search(rf"ok: game \S+, {reports} report\(s\)", finished_demo(name).printed)
    for g in (game, demo / "game"):
        if g == game:
            code, out = _cli("verify", str(g))
            assert code == 0, out
        # a side's views are in its encrypted part where the game hides information
        mine = demo / "keys" / f"{side.lower()}.key"
        key = ["--key", str(mine)] if any(g.glob("turns/*/side-*.age")) else []
        code, out = _cli("viewer", str(g), "--side", side, *key, "-o", str(tmp_path / "v.html"))
        assert code == 0, out
        code, out = _cli("state", "show", str(g), "--side", side, *key)
        assert code == 0 and "internal error" not in out, out
    # the finished game's summary is its last report's score
    last = list(_reports(demo / "game"))[-1][1]
    if last.get("score"):
        shown = out.strip().splitlines()[-1]
        assert shown == score_line(module, last["score"], last["scenario"]), shown
