"""Answers to pending decisions, pointed at in a real headless Chromium (issue 28, deliverable 2:
"answers to pending decisions (retreat hex, displacement)").

Sixth Fleet (1975) is the one hex ruleset whose pending decisions the demos leave unreached
here: the retreat hex's answer is pointed in ``test_orders_browser.py`` (the demo's
``07-gt2-nato-answer.txt``, decision D2-1 [8.71]) and the phasing player's 8.24 retreat in
``test_orders_sf1975_browser.py``; the non-phasing player's advance after an 8.24 retreat
[8.5] and the owner's choice of hex for a displaced unit [8.71] are played here from small
prepared positions of the real module (``module_src/sixth_fleet``), made into signed game
archives whose opening step is the position (:func:`tests.viewer.drafting.prepared_game`;
fixed keys and dice seeds, so every run plays the same):

* the advance: a Soviet DD alone in 1422 next to the US CV in 1423 cannot attack at 0 or
  better and must retreat [8.24]; the Soviet combat file retreats it (typed, signed,
  adjudicated); NATO is then asked which unit advances into 1422, or none [8.5];
* the displacement: the US CV and SN in 1620 attack the Soviet SS in 1520 at column 40
  against ECM 1, where every die retreats [8.9]; the SS's only way out is 1420, held by a US
  F4 that cannot attack it, so the F4 is displaced and NATO is asked where [8.71]; and the
  same attack pointed at with a standing ``displace UNIT prefer`` composed beside it, which
  then decides without asking.

Each test opens the deciding side's viewer (``referee viewer``), points the answer (its
button, or its mark on the map when the option is a hex), downloads the draft, and shows
that ``referee validate`` accepts it and ``referee adjudicate`` carries it out (the report
tells it); the choice the rules refuse is not offered, and the same answer typed by hand is
refused by ``validate`` with the decision's rule case.

Sixth Fleet (2019), DTP and Carrier Battlegroup have no test here: their rulesets never make
a decision pending (``state.pending`` is only ever filled by Sixth Fleet (1975) and the naval
module), so no step of theirs awaits an ``answer`` (``browser_coverage.md``).

Screenshots at 1280 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.viewer.drafting import (
    body_lines,
    choices,
    compose,
    download,
    downloads_dir,
    no_errors,
    open_page,
    opening,
    page_options,
    point,
    point_line,
    prepared_game,
    refused,
    reported,
    signed_and_carried_out,
    snap,
    typed_step,
    viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def _sixth_fleet_1975(root: Path, side: str, units: list[list[str]]) -> Path:
    """A prepared game of the real Sixth Fleet (1975) module at ``root``: Game-Turn 2,
    ``side``'s Combat Phase, ``units`` at their hexes (top of stack first), the rulings of a
    new game in force (the advance after an 8.24 retreat is asked [8.5])."""
    from referee.rules.sixth_fleet_1975.flags import NEW_GAME_FLAGS
    from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module

    module = fixture_module("sixth_fleet")
    position = {
        "scenario": "short",
        "turn": 2,
        "phase": "combat",
        "side": side,
        "units": units,
        "data": {"flags": dict(NEW_GAME_FLAGS)},
    }
    prepared_game(root, module, build_state(module, position))
    return root


def _answers_offered(browser: Any) -> list[str]:
    """Every answer the page offers: its buttons and its marks on the map, as order lines."""
    return sorted(
        browser.execute_script(
            """const out = new Set();
            document.querySelectorAll('button.choice.answer').forEach(
              b => out.add(b.dataset.order));
            document.querySelectorAll('#optmarks .opt.answer').forEach(
              m => out.add('answer ' + m.dataset.answer + ' ' + m.dataset.option));
            return Array.from(out);"""
        )
    )


# ---- the advance after an 8.24 retreat [8.5] -------------------------------------------------

ADVANCE_UNITS = [["SO-DD-1", "1422"], ["US-CV-1", "1423"], ["US-DD-1", "1424"]]
"""The Soviet DD next to the US CV, in its zone of control with no attack at 0 or better
[8.24]; a US DD in 1424, two hexes from 1422, too far to advance into it [8.5]. 1422, 1423,
1424 and 1322 (where the DD retreats) are restricted water."""


@pytest.fixture(scope="module")
def sf_advance(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The Soviet combat file sent (``retreat SO-DD-1 -> 1322``, typed [8.24]); NATO's answer
    to the advance into 1422 is awaited: the game and that step's name."""
    root = _sixth_fleet_1975(tmp_path_factory.mktemp("sf1975-advance"), "Soviet", ADVANCE_UNITS)
    return root, typed_step(root, "Soviet", ["retreat SO-DD-1 -> 1322"])


def test_sixth_fleet_1975_advance_answered_by_pointing_is_carried_out(
    browser: Any, sf_advance: tuple[Path, str], tmp_path: Path, shots: Path
) -> None:
    """``answer D2-1 US-CV-1``: the CV next to the emptied hex advances [8.5]; the US DD out
    of reach is not offered and, typed, refused [8.5]."""
    root, last = sf_advance
    game, page = viewer(root, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    (pending,) = page_options(browser)["answers"]
    assert pending["rule"] == "8.5" and "1422" in pending["prompt"], pending
    assert _answers_offered(browser) == ["answer D2-1 US-CV-1", "answer D2-1 none"]
    point_line(browser, "answer D2-1 US-CV-1")
    snap(browser, shots / "orders-answers-1975-advance-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[answer]", "answer D2-1 US-CV-1"]
    refused(game, tmp_path, text.replace("D2-1 US-CV-1", "D2-1 US-DD-1"), "NATO", "8.5")
    signed_and_carried_out(root, game, tmp_path, text, "NATO", last)
    assert "US-CV-1 advances 1423 -> 1422" in reported(game)


# ---- displacement [8.71] ---------------------------------------------------------------------

DISPLACE_UNITS = [
    ["US-SN-1", "1620"],
    ["US-CV-1", "1620"],
    ["SO-SS-3", "1520"],
    ["US-F4.1", "1420"],
]
"""The US SN and CV (ASW 15 + 36) in 1620 (restricted water) next to the Soviet SS (DEF 5,
ECM 1) in the coastal hex 1520: column 40, where every die retreats [8.9]; 1420 (coastal),
the SS's only way out, held by a US F4 that cannot attack a submarine [8.71]."""

ATTACK = "attack US-SN-1 US-CV-1 -> SO-SS-3"

DISPLACED_TO = ["1320", "1321", "1419", "1421", "1521"]
"""The hexes the referee offers the displaced F4: next to 1420, not the hex the retreating
SS comes from (1520) [8.71]."""


@pytest.fixture(scope="module")
def sf_displace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """NATO's Combat Phase awaited, the attack not yet sent: the prepared game."""
    return _sixth_fleet_1975(tmp_path_factory.mktemp("sf1975-displace"), "NATO", DISPLACE_UNITS)


@pytest.fixture(scope="module")
def sf_displaced(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The NATO attack sent (typed) with no standing order for the F4: the SS retreats into
    1420 and NATO's answer to the F4's displacement is awaited: the game and that step."""
    root = _sixth_fleet_1975(tmp_path_factory.mktemp("sf1975-displaced"), "NATO", DISPLACE_UNITS)
    return root, typed_step(root, "NATO", [ATTACK])


def test_sixth_fleet_1975_displacement_answered_by_pointing_is_carried_out(
    browser: Any, sf_displaced: tuple[Path, str], tmp_path: Path, shots: Path
) -> None:
    """``answer D2-1 1419``, its mark on the map clicked: the F4 is displaced there [8.71];
    1520 (where the retreating SS comes from) is not offered and, typed, refused [8.71]."""
    root, last = sf_displaced
    game, page = viewer(root, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    (pending,) = page_options(browser)["answers"]
    assert pending["rule"] == "8.71" and "US-F4.1" in pending["prompt"], pending
    assert _answers_offered(browser) == [f"answer D2-1 {h}" for h in DISPLACED_TO]
    marks = browser.find_elements("css selector", "#optmarks .opt.answer")
    assert sorted(m.get_attribute("data-option") for m in marks) == DISPLACED_TO  # on the map
    point_line(browser, "answer D2-1 1419")
    snap(browser, shots / "orders-answers-1975-displace-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[answer]", "answer D2-1 1419"]
    refused(game, tmp_path, text.replace("D2-1 1419", "D2-1 1520"), "NATO", "8.71")
    signed_and_carried_out(root, game, tmp_path, text, "NATO", last)
    told = reported(game)
    assert "US-F4.1 displaced 1420 -> 1419" in told, told
    assert not json.loads((sorted((game / "turns").iterdir())[-1] / "state.json").read_text())[
        "pending"
    ]


def test_sixth_fleet_1975_displace_prefer_composed_decides_without_asking(
    browser: Any, sf_displace: Path, tmp_path: Path, shots: Path
) -> None:
    """The attack pointed at and ``displace US-F4.1 prefer 1521 1419`` composed beside it (a
    standing order: the F4's button, then the hexes marked on the map, first choice first
    [8.71]): adjudicated, the F4 goes to 1521 and no decision is asked. The enemy SS has no
    such choice on NATO's page and, typed, is refused (a side orders only its own units)."""
    root = sf_displace
    last = opening(root)
    game, page = viewer(root, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    assert "SO-SS-3" not in page_options(browser)["units"]  # NATO composes only its own units
    attack = next(c for c in choices(browser, "US-SN-1") if c["order"] == ATTACK)
    point(browser, "US-SN-1", attack)
    compose(browser, ["displace", "US-F4.1", "prefer", "1521", "1419"])
    snap(browser, shots / "orders-answers-1975-displace-prefer-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == [
        "[combat]",
        ATTACK,
        "[standing]",
        "displace US-F4.1 prefer 1521 1419",
    ]
    enemy = text.replace("displace US-F4.1 prefer", "displace SO-SS-3 prefer")
    refused(game, tmp_path, enemy, "NATO", "orders")  # the owner decides [8.71]
    signed_and_carried_out(root, game, tmp_path, text, "NATO", last)
    told = reported(game)
    assert "US-F4.1 displaced 1420 -> 1521" in told, told
    kept = sorted((game / "turns").iterdir())[-1] / "state.json"
    assert not json.loads(kept.read_text())["pending"]
