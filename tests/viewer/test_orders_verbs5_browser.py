"""The verbs the viewer's orders mode offers since options format 5, pointed at in a real
headless Chromium (issue 28): each drafted by pointing in the awaited side's viewer of a
shared demo game, downloaded, accepted by ``referee validate`` and carried out by ``referee
adjudicate`` (signed with the side's demo key).

DTP, Denmark Strait: NATO's first air movement launches carrier air from the holding box onto
CAP over its carrier (``cap UNIT CV`` [9.62A]); the Soviet one relocates a Be-12 from Murmansk
to occupied Keflavik (``base UNIT HEX`` [DTP 11.3 rule 5]) and lands a Forger below decks on
the Kiev (``box UNIT CV`` [9.62B]). Screenshots at 1280 and 390 px go to
``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.viewer.test_orders_browser import _download, _open, _order_lines
from tests.viewer.test_orders_hex_browser import (
    _awaiting,
    _choices,
    _point,
    _signed_and_carried_out,
    _viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def _draft(
    browser: Any, demo: Path, kinds: tuple[str, ...], tmp_path: Path, shots: Path, name: str
) -> None:
    """The first step offering ``kinds[0]``: one choice of each kind pointed at (a unit each),
    at both widths; the download is the section's header and exactly those lines, and the
    referee takes it."""
    last, side, doc = _awaiting(demo, kinds[0])
    game, page = _viewer(demo, last, side, tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width in (390, 1280):
        _open(browser, page, width, downloads)
        chosen, units = [], set()
        for kind in kinds:
            unit, c = next(
                (u, c)
                for u in sorted(doc["units"])
                if u not in units
                for c in _choices(browser, u)
                if c.get("kind") == kind
            )
            units.add(unit)
            _point(browser, unit, c)
            chosen.append(c["order"])
        browser.save_screenshot(str(shots / f"orders-{name}-{width}.png"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = _download(browser, downloads)
    lines = _order_lines(text)
    assert lines[lines.index(f"[{doc['section']}]") + 1 :] == chosen, lines
    _signed_and_carried_out(demo, game, tmp_path, text, side, last)


def test_dtp_carrier_air_launched_on_cap_is_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("dtp_denmark_strait").out
    _draft(browser, demo, ("cap",), tmp_path, shots, "dtp-cap")


def test_dtp_relocation_to_keflavik_and_a_landing_below_decks_are_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("dtp_denmark_strait").out
    _draft(browser, demo, ("base", "box"), tmp_path, shots, "dtp-base-box")


def test_sixth_fleet_reinforcements_placed_by_pointing_validate_and_are_carried_out(
    browser: Any, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (1975), the Campaign's Reinforcement Interphase after Game-Turn 10, NATO's
    part (a small prepared position, the conformance case 161's): the French CV arrives on
    an entry hex [12.2] (its marked place on the map) and its Crusaders on Combat Air Patrol
    over it [12.22] (the button: the line goes below the carrier's); ``validate`` takes the
    download and the Interphase carries it out."""
    import json

    from referee.engine.core import ScriptedDice
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.draft_options import draft_options
    from referee.viewer.data import StepDoc
    from referee.viewer.page import render_viewer
    from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module
    from tests.pbem.cliflow import cli

    src = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet"
    case = json.loads(
        (
            Path(__file__).resolve().parents[1]
            / "conformance"
            / "sixth_fleet_1975"
            / "161-12.22-french-carrier-air-on-cap.json"
        ).read_text()
    )
    module = fixture_module("sixth_fleet")
    state = build_state(module, case["position"])
    rs = get_ruleset(module.ruleset)
    view = rs.view(module, state, "NATO")
    report = {
        "sequence": 0,
        "title": "Reinforcement Interphase",
        "game_id": state.game_id,
        "scenario": state.scenario,
        "after": {"turn": state.turn, "phase": state.phase},
        "awaiting": {"side": "NATO", "due": [{"side": "NATO"}]},
    }
    doc = draft_options(module, rs, report, "0" * 64, view, "NATO")
    assert doc["format"].endswith("/5")
    html = render_viewer(
        module, [StepDoc(report, "0" * 64, view.to_json())], side="NATO", referee="0" * 64,
        draft=doc,
    )  # fmt: skip
    page = tmp_path / "viewer-NATO.html"
    page.write_text(html)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width in (390, 1280):
        _open(browser, page, width, downloads)
        cv = next(c for c in _choices(browser, "FR-CV-1") if c["order"] == "place FR-CV-1 1401")
        _point(browser, "FR-CV-1", cv)
        air = next(
            c for c in _choices(browser, "FR-F8") if c["order"].startswith("place FR-F8 cap")
        )
        assert "at" not in air  # the carrier arrives now: no hex yet
        _point(browser, "FR-F8", air)
        browser.save_screenshot(str(shots / f"orders-1975-reinforcement-{width}.png"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = _download(browser, downloads)
    lines = _order_lines(text)
    assert lines[lines.index("[reinforcement]") + 1 :] == [cv["order"], air["order"]], lines
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    position = tmp_path / "state.json"
    position.write_text(json.dumps(state.to_json()))
    code, out = cli("validate", draft, "--state", position, "--module", src)
    assert code == 0, out
    out = rs.resolve(module, state, rs.parse_orders(text, "orders.txt"), ScriptedDice([]))
    assert out.ok, out.violations
    assert out.state.units["FR-F8"].location == out.state.units["FR-CV-1"].location == "1401"
