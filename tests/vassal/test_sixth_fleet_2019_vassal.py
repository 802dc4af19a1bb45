"""Real VASSAL loads the Sixth Fleet (2019) module and the position saves of its demo game
with no warning, and every piece reports its zone's name: the set-ups' placements, and in each
position.vsav the zone, holding box or Refit Box the referee's state puts the unit in. The
strike cups are VASSAL decks holding their markers: all of them in a set-up, and in a side's
save his own cups' markers by id and the other side's only as anonymous face-down markers, as
many as the cup holds [2.0], [2.12] (provisional 17.0). Marked
``vassal`` (Java start-up); skipped where the checker or Java is missing, except under CI."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.demos import sixth_fleet_2019 as demo_2019
from referee.rules.sixth_fleet_2019 import strike
from referee.rules.sixth_fleet_2019.game import Game
from referee.source.loader import load_module
from tests.conftest import bundled_vmod
from tests.pbem.cliflow import unsealed
from tests.vassal.vassal_jvm import vcheck

if TYPE_CHECKING:
    from tests.conftest import DemoRun

ROOT = Path(__file__).resolve().parents[2]
VCHECK = ROOT.parent / "shared" / "tools" / "vassal-check" / "vcheck"

pytestmark = pytest.mark.vassal


def _pieces(out: str) -> dict[str, dict[str, str]]:
    """vcheck's ``PIECE`` lines by load source, then unit id: the location name."""
    got: dict[str, dict[str, str]] = {}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] != "PIECE" or f[2] != "Main Map":
            continue
        props = dict(p.split("=", 1) for p in f[-1].split(";") if "=" in p)
        if "UnitId" in props:
            got.setdefault(f[1], {})[props["UnitId"]] = f[5]
    return got


def _anonymous(out: str) -> dict[str, Counter[str]]:
    """How many anonymous face-down markers each load shows, by deck (location)."""
    got: dict[str, Counter[str]] = {}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "PIECE" and f[6] == f"{f[5]}: face-down marker":
            got.setdefault(f[1], Counter())[f[5]] += 1
    return got


def test_real_vassal_reports_every_piece_by_zone(
    tmp_path: Path, finished_demo: Callable[[str], DemoRun]
) -> None:
    if not VCHECK.is_file() or shutil.which("java") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("under CI=true the real-VASSAL check must run")
        pytest.skip("the real-VASSAL checker or Java is missing")
    module, _ = load_module(demo_2019.SRC)
    assert module is not None
    vmod = bundled_vmod("sixth_fleet_2019")
    game = finished_demo("sixth_fleet_2019").game  # the session's demo game, read only
    game = unsealed(game, tmp_path / "unsealed")  # each side's files, from its encrypted parts
    every = sorted(game.glob("turns/*/position-*.vsav"))
    # the saves of steps into each side's Action Phase (its C2 marker off zero), and the last
    saves = [s for s in every if s.parent.name.endswith("_events")][-4:] + every[-2:]
    out = tmp_path / "vcheck.txt"
    run = vcheck([vmod, *saves], out)
    assert run.returncode == 0, run.stderr
    text = out.read_text(encoding="utf-8")
    pieces, anonymous = _pieces(text), _anonymous(text)
    game = Game.of(module)
    for sc in module.scenarios.values():
        want = {f.unit: f.hex for f in sc.fixed}
        for cup, ids in strike.set_up(game, sc.id)["cups"].items():
            want |= dict.fromkeys(ids, cup)  # every marker in its cup [2.0]
        assert pieces[f"setup:{sc.name}"] == want
        assert f"setup:{sc.name}" not in anonymous
    named = 0
    for save in saves:
        side = save.stem.split("-", 1)[1]  # the side's save, from its view (strike markers)
        state = json.loads((save.parent / f"view-{side}.json").read_text("utf-8"))["state"]
        want = {s["id"]: s["location"] for s in state["units"] if s.get("location")}
        counts: Counter[str] = Counter()
        for cup, held in state["data"]["strike"]["cups"].items():
            if isinstance(held, int):  # the other side's cup: only how many [2.12]
                counts[cup] = held
            else:
                want |= dict.fromkeys(held, cup)
                named += len(held)
        assert pieces[str(save.resolve())] == want, save.parent.name
        assert anonymous.get(str(save.resolve()), Counter()) == +counts, save.parent.name
        assert counts, "a side's view keeps the other side's cups hidden"
        # the C2 markers sit on their Action Tracks at the actions left [6.0], the Game Turn
        # markers on the turn [5.3]: worked out from the state's numbers, not its locations
        got = pieces[str(save.resolve())]
        left = int(state["data"]["actions_left"])
        for side, c2 in (("NATO", "NATO-C2"), ("Soviet", "SO-C2")):
            n = min(left, 7) if state["active_side"] == side else 0
            assert got[c2] == f"{side} Actions {n}", (save.parent.name, c2)
        assert got["NATO-TURN"] == got["SO-TURN"] == f"Turn {state['turn']}"
    assert named, "a side's own cups show their markers"
    assert any(
        int(
            json.loads((s.parent / "view-NATO.json").read_text("utf-8"))["state"]["data"][
                "actions_left"
            ]
        )
        > 0
        for s in saves
    )
    assert "WARN" not in run.stderr and "problem" not in run.stderr


def test_the_strike_cups_are_face_down_decks_of_masked_markers() -> None:
    """The four cups [2.0] (provisional 17.0) are VASSAL DrawPiles on the main map, face down
    and shuffled, each holding the strike markers its map box lists, which are those the
    ruleset puts in the cup at set-up; every strike marker has VASSAL's Mask (a drawn marker
    stays face down to the other side). No Java needed."""
    from lxml import etree

    from referee.rules.sixth_fleet_2019 import strike
    from referee.rules.sixth_fleet_2019.game import Game
    from referee.vassal.module.buildfile import buildfile_xml, deck_boxes
    from referee.vassal.position.placement import table_for

    module, _ = load_module(demo_2019.SRC)
    assert module is not None
    plan = table_for(module).plan
    root = etree.fromstring(buildfile_xml(plan))
    piles = {p.get("name"): p for p in root.iter("VASSAL.build.module.map.DrawPile")}
    game = Game.of(module)
    for scenario in ("s1980", "s1970"):
        assert dict(deck_boxes(plan)) == {
            k: tuple(v) for k, v in strike.set_up(game, scenario)["cups"].items()
        }
    assert set(piles) == {c.name for c in strike.cups(game)}
    for name, pieces in deck_boxes(plan):
        pile = piles[name]
        assert pile.get("faceDown") == "Always" and pile.get("shuffle") == "Always"
        x, y = plan.layers.point(name)  # type: ignore[union-attr]
        assert (pile.get("x"), pile.get("y")) == (str(x), str(y))
        slots = pile.findall("VASSAL.build.widget.PieceSlot")
        assert [s.get("entryName") for s in slots] == [
            plan.unit_slots[p].entry_name for p in pieces
        ]
        for pid in pieces:
            assert "obs;" in plan.unit_slots[pid].text, f"{pid} has no Mask trait"
    others = [s for pid, s in plan.unit_slots.items() if game.category(pid) != "strike"]
    assert not any("obs;" in s.text for s in others)
