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
