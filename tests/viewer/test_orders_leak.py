"""Hidden stays hidden in the options a side's viewer drafts from (issue 28 item 3).

In the Carrier Battlegroup demo, a game that hides the undetected Soviet units from the USN
player, every step that awaits the USN seals ``options-usn.json`` into its part. Opened with
the side's key, the file must name no unit the side's view of that step does not show
(searched as text: every id of the full position hidden from the side), and every place an
attack points at must hold an enemy unit the side sees (or the coastal defense units its view
shows as a count [17.0]); since format 3 the side's own orders too. The Sixth Fleet (2019)
demo (hidden strike markers) checks that the viewer a side makes embeds exactly its own file.
DTP is an open game (its view hides only the other side's standing orders, which no options
name).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from tests.viewer.drafting import sealed_options

if TYPE_CHECKING:
    from tests.conftest import DemoRun

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2] / "module_src"


@pytest.fixture(scope="module")
def demo_2019(finished_demo: Callable[[str], DemoRun]) -> Path:
    return finished_demo("sixth_fleet_2019").out


LEAK_CASES = [
    ("carrier_battlegroup", "carrier_battlegroup", "USN"),  # Soviet chits face down [17.0]
]
"""Rulesets whose views hide unit ids. Sixth Fleet (2019)'s views hide none (its hidden
facts, the strike markers in the cups, are not units of the view): its markers are searched
by :func:`test_no_hidden_strike_marker_reaches_a_sides_options`; DTP is an open game
(:func:`test_dtp_hides_nothing_the_options_could_leak`)."""


def _hidden_markers(full: GameState, view: GameState) -> set[str]:
    """Sixth Fleet (2019)'s strike markers [2.0] in a cup or a hand the view shows only as a
    count (provisional 17.0): the other side's."""
    whole, seen = full.data.get("strike") or {}, view.data.get("strike") or {}
    out: set[str] = set()
    for part in ("cups", "held"):
        for k, v in (whole.get(part) or {}).items():
            if isinstance(v, list) and not isinstance((seen.get(part) or {}).get(k), list):
                out |= set(v)
    return out


@pytest.mark.parametrize("side", ["NATO", "Soviet"])
def test_no_hidden_strike_marker_reaches_a_sides_options(
    finished_demo: Callable[[str], DemoRun], side: str
) -> None:
    """Sixth Fleet (2019): at every step of the demo that awaits ``side``, its options file
    (opened from its part) names none of the other side's strike markers, in its cups or in
    its hand [2.0], [2.12] (provisional 17.0), and is the file computed on the side's view
    alone (its units, their moves and the side's own orders the same, the full position not
    consulted, its forces too: each unit's mates and an attack's further targets, options
    format 5)."""
    from referee.pbem.draft_options import draft_options

    demo = finished_demo("sixth_fleet_2019").out
    module = load_module(ROOT / "sixth_fleet_2019")[0]
    assert module is not None
    rs = get_ruleset(module.ruleset)
    steps = sealed_options(demo, side)
    assert any(doc["units"] for _, doc, _ in steps), "no step offered the side anything"
    searched = forces = 0
    for name, doc, full in steps:
        view = rs.view(module, full, side)
        hidden = _hidden_markers(full, view)
        searched += len(hidden)
        text = json.dumps(doc)
        for mid in sorted(hidden):
            assert f'"{mid}"' not in text and f" {mid}" not in text, (name, mid)
        again = draft_options(module, rs, {}, doc["report_sha256"], view, side)
        for key in ("units", "trees", "side_choices", "answers"):
            assert again[key] == doc[key], (name, key)
        for key in ("force_most", "alike"):  # format 5: the forces, the targets alike
            assert again.get(key) == doc.get(key), (name, key)
        forces += sum(bool(e.get("force")) for e in doc["units"].values())
    assert searched, "the demo hid no marker from this side: the test proves nothing"
    assert forces, "no step offered a force (format 5): its units and targets went unsearched"


def test_dtp_hides_nothing_the_options_could_leak(
    finished_demo: Callable[[str], DemoRun],
) -> None:
    """DTP is an open game: the ruleset hides nothing (not ``HiddenInformation``), each
    step's full position is published beside the views, and each side's view shows every
    unit of the position at every step of the demo, so no unit id or hex is hidden from a
    side and none can leak through its options. Should DTP ever hide a unit, this fails
    and the unit search above must cover it."""
    from referee.engine.ruleset import hides_information
    from referee.rules.sixth_fleet_1975.context import Game

    demo = finished_demo("dtp_denmark_strait").out
    module = load_module(ROOT / "dtp_denmark_strait")[0]
    assert module is not None
    rs = get_ruleset(module.ruleset)
    assert not hides_information(rs)
    checked = afters = 0
    for t in sorted((demo / "game" / "turns").iterdir()):
        assert (t / "state.json").is_file(), t.name  # the full position, published
        files = sorted(t.glob("options-*.json"))
        if not files:
            continue
        full = GameState.from_json(json.loads((t / "state.json").read_bytes()))
        for f in files:
            side = json.loads(f.read_bytes())["side"]
            view = rs.view(module, full, side)
            assert set(view.units) == set(full.units), (t.name, side)
            assert all(view.units[u] == full.units[u] for u in full.units), (t.name, side)
            checked += 1
            doc = json.loads(f.read_bytes())
            afters += _detects_after_are_of_the_view(doc, view, side, Game.of(module, view).board)
    assert checked
    assert afters, "no step offered a detection after a move (format 8): none was checked"


def _detects_after_are_of_the_view(
    doc: dict[str, Any], view: GameState, side: str, board: Any
) -> int:
    """Each ``detect`` a DTP options file offers behind a move (format 8 ``after`` [DTP
    6.2a]) names an enemy unit of the side's view, at the hex the view shows it in, within one
    hex of where the move ends: the count of them."""
    from referee.pbem.draft_options import choice_after

    n = 0
    for uid, e in doc["units"].items():
        for c in e["choices"]:
            after = choice_after(doc, uid, c)
            if c.get("kind") != "detect" or after is None:
                continue
            target = view.units[c["order"].split(" -> ")[1]]
            assert target.side != side and target.location == c["at"], c
            assert board.distance(after.split()[-1], c["at"]) <= 1, c
            n += 1
    return n


@pytest.mark.parametrize(("demo_name", "src", "side"), LEAK_CASES)
def test_no_hidden_unit_reaches_a_sides_options(
    finished_demo: Callable[[str], DemoRun], demo_name: str, src: str, side: str
) -> None:
    """Each ruleset whose views hide units (Carrier Battlegroup's chits):
    every options file of the side (its units' choices and, since format 3, its side's own
    orders) names no unit its view of that step hides, and every attack points at a place
    where it sees an enemy."""
    demo = finished_demo(demo_name).out
    module = load_module(ROOT / src)[0]
    assert module is not None
    rs = get_ruleset(module.ruleset)
    steps = sealed_options(demo, side)
    assert any(doc["units"] for _, doc, _ in steps), "no step offered the side anything"
    hidden_somewhere = allowances = 0
    for name, doc, full in steps:
        view = rs.view(module, full, side)
        hidden = sorted(u for u in full.units if u not in view.units)
        hidden_somewhere += len(hidden)
        text = json.dumps(doc)
        for uid in hidden:
            assert f'"{uid}"' not in text and f" {uid}" not in text, (name, uid)
        seen_enemy = {u.location for u in view.units.values() if u.side != side}
        coastal = view.data.get("coastal") or {}  # shown as a count at its space [17.0]
        n = coastal.get("units")
        if n if isinstance(n, int) else len(n or ()):
            seen_enemy.add(coastal["space"])
        for uid, entry in doc["units"].items():
            assert view.units[uid].side == side
            for c in entry["choices"]:
                if c.get("kind") == "attack":
                    assert c["at"] in seen_enemy, (name, c)
        for c in doc.get("side_choices", []):
            assert not set(c.get("from", [])) & set(hidden), (name, c)
        if "allowances" in doc:  # format 8: what the side has to spend, from its view alone
            assert doc["allowances"] == rs.allowances(module, view, side), name
            allowances += 1
    assert hidden_somewhere, "the demo hid nothing from this side: the test proves nothing"
    assert allowances, "no step listed the side's allowances (format 8): they went unchecked"


def test_the_viewer_embeds_the_sides_own_options(demo_2019: Path, tmp_path: Path) -> None:
    from tests.pbem.cliflow import cli

    page = tmp_path / "v.html"
    key = demo_2019 / "keys" / "nato.key"
    code, out = cli("viewer", demo_2019 / "game", "--side", "NATO", "--key", key, "-o", page)
    assert code == 0, out
    html = page.read_text()
    data = json.loads(html.split('id="viewer-data">', 1)[1].split("</script>", 1)[0])
    last = sealed_options(demo_2019, "NATO")[-1]
    awaited = last[0] == sorted(p.name for p in (demo_2019 / "game" / "turns").iterdir())[-1]
    if awaited:
        assert data["draft"]["units"] == last[1]["units"]
    else:
        assert data["draft"] is None
