"""Sixth Fleet (1975)'s ``retreat UNIT -> HEX`` [8.24] (options format 4), pointed at in a
real headless Chromium (issue 28, "How it is checked").

The demo never leaves a unit in an enemy zone of control with no attack at 0 or better, so
the real pipeline makes the position from the demo game: cut back to the Soviet Movement
Phase of Game-Turn 1, the Soviet viewer points at a move of the bomber SO-T22 next to the
destroyer US-DE-1 (a bomber the destroyer cannot attack at 0 or better), the draft is signed
and adjudicated; in NATO's Combat Phase that follows, NATO's viewer offers the destroyer's
retreat into each hex it may retreat into [8.71] and none other. The draft (the retreat, and
the attacks the validator says NATO owes elsewhere [8.21], each pointed at) is downloaded,
``validate`` accepts it and ``adjudicate`` carries it out; a retreat into an enemy-controlled
hex typed by hand is refused [6.5], [8.71]. Screenshots at 1280 and 390 px go to
``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import cli
from tests.viewer.drafting import (
    body_lines,
    choices,
    download,
    downloads_dir,
    draft_text,
    no_errors,
    open_page,
    point,
    point_line,
    refused,
    signed_and_carried_out,
    snap,
    validate,
    viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

BOMBER, TO, DESTROYER = "SO-T22", "1122", "US-DE-1"
"""The Soviet bomber's move, and the NATO destroyer next to its end hex."""


def _owed(game: Path, text: str, tmp_path: Path) -> list[str]:
    """The attacks ``validate`` says the draft still owes [8.21], from its hints."""
    code, out = validate(text, game, "NATO", tmp_path, name="draft")
    owed = re.findall(r"\[8\.21\].*?\(hint: (attack [^)]*)\)", out)
    assert code == (1 if owed else 0), out
    return owed


def test_an_8_24_retreat_is_pointed_at_and_carried_out(
    browser: Any, demo_game: Path, tmp_path: Path, shots: Path
) -> None:
    last = "002-Soviet-setup"
    game, page = viewer(demo_game, last, "Soviet", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    move = next(c for c in choices(browser, BOMBER) if c["kind"] == "move" and c["at"] == TO)
    point(browser, BOMBER, move)
    text = download(browser, downloads)
    signed_and_carried_out(demo_game, game, tmp_path, text, "Soviet", last)
    # NATO's Combat Phase: the destroyer cannot attack the bomber at 0 or better [8.24]
    nxt = sorted(p.name for p in (game / "turns").iterdir())[-1]
    doc = json.loads((game / "turns" / nxt / "options-NATO.json").read_bytes())
    assert doc["section"] == "combat"
    page = tmp_path / "viewer-NATO.html"
    assert cli("viewer", game, "--side", "NATO", "-o", page)[0] == 0
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        cs = choices(browser, DESTROYER)
        retreats = [c for c in cs if c["kind"] == "retreat_to"]
        near = next(c["from"] for c in cs if c["kind"] == "retreat")  # the hexes next to it
        assert retreats and {c["at"] for c in retreats} < set(near)
        point(browser, DESTROYER, retreats[0])
        snap(browser, shots / f"orders-sf1975-retreat-{width}.png")
    offered = {c["at"] for c in retreats}
    owed = _owed(game, draft_text(browser), tmp_path)
    for line in owed:  # the attacks owed elsewhere [8.21], pointed at too
        point_line(browser, line)
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[combat]", retreats[0]["order"], *owed]
    # not offered, and typed by hand refused: a hex next to it the rules close [6.5], [8.71]
    closed = sorted(set(near) - offered)
    assert closed
    hand = text.replace(retreats[0]["order"], f"retreat {DESTROYER} -> {closed[0]}")
    out = refused(game, tmp_path, hand, "NATO", "8.71")
    assert f"may not retreat into {closed[0]}" in out, out
    signed_and_carried_out(demo_game, game, tmp_path, text, "NATO", nxt)
