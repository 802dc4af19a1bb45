"""Drafting orders by pointing on the hex maps of DTP and the naval module, in a real headless
Chromium (issue 28 item 2, "How it is checked").

Each case cuts its demo game back to the first step whose awaited side's options offer a
choice of one kind (set-up placing, moves, an impulse's attack, a bounce of a strike that
made contact [DTP 8.232]), makes that side's viewer with
``referee viewer``, points at the choices (the unit in the list, then its marked place on the
map, or the choice's button where several share a place), downloads the draft, and shows that
``referee validate`` accepts it and that, signed with the side's demo key, ``referee
adjudicate`` carries it out. The DTP set-up reproduces the demo's own orders file line for line.
Screenshots at 1280 and 390 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import cli
from tests.viewer.test_orders_browser import _cut, _download, _open, _order_lines

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

KEYS = {"NATO": "nato", "Soviet": "soviet", "Axis": "axis", "USN": "usn"}


def _awaiting(demo: Path, kind: str) -> tuple[str, str, dict[str, Any]]:
    """The first turn folder whose published options offer a choice of ``kind``: its name,
    the awaited side and the options document."""
    for t in sorted((demo / "game" / "turns").iterdir()):
        for f in sorted(t.glob("options-*.json")):
            doc = json.loads(f.read_bytes())
            for e in doc["units"].values():
                kinds = {c.get("kind") for c in e["choices"]} | {e.get("route", {}).get("kind")}
                if kind in kinds:
                    return t.name, doc["side"], doc
    raise AssertionError(f"no step of the demo offers a {kind} choice")


def _choices(browser: Any, unit: str) -> list[dict[str, Any]]:
    return list(browser.execute_script("return window.refereeViewer.choicesOf(arguments[0])", unit))


def _point(browser: Any, unit: str, c: dict[str, Any]) -> None:
    """Pick ``unit`` in the list, click its choice's marked place on the map; where several
    choices share that place the page lists them: click the one wanted."""
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "unitpick")).select_by_value(unit)
    draft = browser.find_element("id", "draft")
    if c.get("at"):
        mark = browser.find_element("css selector", f'#optmarks .opt[data-place="{c["at"]}"]')
        browser.execute_script(
            "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mark
        )
    if c["order"] not in draft.get_attribute("value").split("\n"):
        button = browser.execute_script(
            "return Array.from(document.querySelectorAll('#choices button.choice'))"
            ".find(b => b.dataset.order === arguments[0]) || null",
            c["order"],
        )
        assert button is not None, c
        button.click()
    assert c["order"] in draft.get_attribute("value").split("\n"), c


def _signed_and_carried_out(
    demo: Path, game: Path, tmp_path: Path, text: str, side: str, last: str
) -> None:
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", game, "--side", side)
    assert code == 0, out
    signed = tmp_path / "signed.txt"
    key = demo / "keys" / f"{KEYS[side]}.key"
    code, out = cli("sign", draft, "--key", key, "--game-dir", game, "-o", signed)
    assert code == 0, out
    code, out = cli(
        "adjudicate",
        game,
        signed,
        "--key",
        demo / "keys" / "referee.key",
        "--referee-dir",
        tmp_path / "referee",
    )
    assert code == 0, out
    assert sorted(p.name for p in (game / "turns").iterdir())[-1] > last  # carried out


def _viewer(demo: Path, last: str, side: str, tmp_path: Path) -> tuple[Path, Path]:
    game = _cut(demo, last, tmp_path)
    page = tmp_path / f"viewer-{side}.html"
    code, out = cli("viewer", game, "--side", side, "-o", page)
    assert code == 0, out
    return game, page


CASES = [
    ("dtp_denmark_strait", "place"),
    ("dtp_denmark_strait", "move"),
    ("dtp_denmark_strait", "attack"),
    ("dtp_denmark_strait", "bounce"),  # the defender's reaction in the attacker's impulse
    ("naval_module", "move"),
]


@pytest.mark.parametrize(("demo_name", "kind"), CASES)
def test_pointing_on_a_hex_map_drafts_orders_the_referee_carries_out(
    browser: Any,
    finished_demo: Any,
    tmp_path: Path,
    shots: Path,
    demo_name: str,
    kind: str,
) -> None:
    demo = finished_demo(demo_name).out
    last, side, doc = _awaiting(demo, kind)
    game, page = _viewer(demo, last, side, tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    _open(browser, page, 1280, downloads)
    assert "referee validate" in browser.find_element("id", "judge").text
    chosen: list[str] = []
    if kind == "place":  # the demo's own set-up file, line for line
        k = sorted(p.name for p in (demo / "game" / "turns").iterdir()).index(last) + 1
        own = next((demo / "orders").glob(f"{k:03d}-*.txt"))
        want = [ln for ln in _order_lines(own.read_text()) if ln.startswith("place ")]
        for line in want:
            unit = line.split()[1]
            c = next(c for c in _choices(browser, unit) if c["order"] == line)
            _point(browser, unit, c)
            chosen.append(line)
    else:
        ends: set[str] = set()  # each unit to a place of its own (no stacking question)
        for unit in sorted(doc["units"]):
            cs = [
                c
                for c in _choices(browser, unit)
                if c.get("kind") == kind and c.get("at") and c["at"] not in ends
            ]
            if not cs:
                continue
            _point(browser, unit, cs[0])
            chosen.append(cs[0]["order"])
            ends.add(cs[0]["at"])
            if kind == "attack" or len(chosen) == 3:  # one attack an impulse [DTP 8.2]
                break
    assert chosen
    browser.save_screenshot(str(shots / f"orders-{demo_name}-{kind}-1280.png"))
    text = _download(browser, downloads)
    lines = [ln for ln in _order_lines(text) if ":" not in ln.split()[0]]
    assert lines == [f"[{doc['section']}]", *chosen]
    if kind == "attack":
        _no_second_attack(browser, doc, chosen[0], game, tmp_path, text, side)
    _signed_and_carried_out(demo, game, tmp_path, text, side, last)


def _no_second_attack(
    browser: Any, doc: dict[str, Any], first: str, game: Path, tmp_path: Path, text: str, side: str
) -> None:
    """One attack an impulse [DTP 8.2]: once one is drafted, no other can be pointed at (its
    button is disabled), and a second typed by hand is refused by ``validate``."""
    from selenium.webdriver.support.ui import Select

    others = [
        (u, c)
        for u in sorted(doc["units"])
        for c in _choices(browser, u)
        if c.get("kind") == "attack" and c["order"] != first
    ]
    assert others, "the step offers one attack only: nothing to rule out"
    unit, other = others[0]
    Select(browser.find_element("id", "unitpick")).select_by_value(unit)
    button = browser.execute_script(
        "return Array.from(document.querySelectorAll('#choices button.choice'))"
        ".find(b => b.dataset.order === arguments[0]) || null",
        other["order"],
    )
    assert button is not None and not button.is_enabled()
    hand = tmp_path / "hand.txt"
    hand.write_text(text + other["order"] + "\n")
    code, out = cli("validate", hand, "--state", game, "--side", side)
    assert code != 0, out


def _screenshots(browser: Any, unit: str, shots: Path, name: str) -> None:
    """The unit picked from the list (the map frames it and its options), the map then the
    draft scrolled into view; the page logged no error."""
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "unitpick")).select_by_value(unit)
    assert browser.find_elements("css selector", "#optmarks .opt")
    browser.execute_script("document.getElementById('mapbox').scrollIntoView()")
    browser.save_screenshot(str(shots / f"orders-{name}-map.png"))
    browser.execute_script("document.getElementById('unitpick').scrollIntoView()")
    browser.save_screenshot(str(shots / f"orders-{name}-draft.png"))
    browser.execute_script("window.scrollTo(0, 0)")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


@pytest.mark.parametrize("demo_name", ["dtp_denmark_strait", "naval_module"])
def test_hex_map_screenshots_at_desktop_and_phone_widths(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path, demo_name: str
) -> None:
    demo = finished_demo(demo_name).out
    last, side, doc = _awaiting(demo, "move")
    _, page = _viewer(demo, last, side, tmp_path)
    for width in (1280, 390):
        _open(browser, page, width, tmp_path)
        _screenshots(browser, sorted(doc["units"])[0], shots, f"{demo_name}-{width}")


def test_when_both_sides_act_each_sides_viewer_drafts_only_its_own(
    browser: Any, finished_demo: Any, tmp_path: Path
) -> None:
    """A step that awaits both sides (the DTP rebasing phase, sealed orders [DTP 9.22]):
    each side's viewer offers its own units only, under its own header, and the draft of a
    side's own choices validates as that side's file."""
    demo = finished_demo("dtp_denmark_strait").out
    both = next(
        t
        for t in sorted((demo / "game" / "turns").iterdir())
        if len(list(t.glob("options-*.json"))) > 1
    )
    game = _cut(demo, both.name, tmp_path)
    state = json.loads((game / "state.json").read_bytes())
    side_of = {u["id"]: u["side"] for u in state["units"]}
    sides = sorted(json.loads(f.read_bytes())["side"] for f in both.glob("options-*.json"))
    assert len(sides) == 2
    drafted = 0
    for side in sides:
        page = tmp_path / f"viewer-{side}.html"
        code, out = cli("viewer", game, "--side", side, "-o", page)
        assert code == 0, out
        _open(browser, page, 1280, tmp_path)
        doc = browser.execute_script("return window.refereeViewer.data.draft")
        assert doc["side"] == side and f"side: {side}" in doc["header"]
        assert all(side_of[u] == side for u in doc["units"]), side
        options = [
            o.get_attribute("value")
            for o in browser.find_elements("css selector", "#unitpick option")
        ]
        assert all(side_of[u] == side for u in options if u), side
        for unit in sorted(doc["units"]):
            cs = [c for c in _choices(browser, unit) if c.get("at")]
            if cs:
                _point(browser, unit, cs[0])
                text = browser.find_element("id", "draft").get_attribute("value")
                path = tmp_path / f"orders-{side}.txt"
                path.write_text(text)
                code, out = cli("validate", path, "--state", game, "--side", side)
                assert code == 0, out
                drafted += 1
                break
    assert drafted, "neither side had a choice to point at"


def _cut_hidden(demo: Path, last: str, into: Path) -> Path:
    """:func:`_cut` for a game that hides information: the referee's record cut back too."""
    import shutil

    game = _cut(demo, last, into)
    secret = game / "secret"
    for t in sorted((secret / "turns").iterdir()):
        if t.name > last:
            shutil.rmtree(t)
    shutil.copyfile(secret / "turns" / last / "state.json", secret / "state.json")
    return game


def _hidden_viewer(demo: Path, last: str, side: str, tmp_path: Path) -> tuple[Path, Path, Path]:
    """The game cut back to ``last`` (:func:`_cut_hidden`) and ``side``'s viewer of it, its
    part opened with the side's demo key: the game, the page and the key."""
    game = _cut_hidden(demo, last, tmp_path)
    key = demo / "keys" / f"{side.lower()}.key"
    page = tmp_path / f"viewer-{side}.html"
    code, out = cli("viewer", game, "--side", side, "--key", key, "-o", page)
    assert code == 0, out
    return game, page, key


def test_carrier_battlegroup_pointing_on_the_point_to_point_map(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Carrier Battlegroup, the USN part opened with the player's key: the CVBG's move to a
    space (clicked on the map), a ship's Intelligence attempt and a strike where one is
    offered, each in its own section of one turn's file [5.0]; downloaded, accepted by
    ``validate`` on the player's view, and carried out by ``adjudicate``."""
    from tests.viewer.test_orders_leak import _files

    demo = finished_demo("carrier_battlegroup").out
    last, doc = next(
        (name, d)
        for name, d, _ in _files(demo, "USN")
        if any(c.get("kind") == "move" for e in d["units"].values() for c in e["choices"])
    )
    game, page, key = _hidden_viewer(demo, last, "USN", tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    ship = next(
        u
        for u in sorted(doc["units"])
        if any(c.get("kind") == "move" for c in doc["units"][u]["choices"])
    )
    for width in (390, 1280):  # the phone's screenshots first, then the desktop's drafting
        _open(browser, page, width, downloads)
        _screenshots(browser, ship, shots, f"cbg-{width}")
    chosen: dict[str, list[str]] = {}
    for kind in ("move", "intel", "attack"):
        for unit in sorted(doc["units"]):
            cs = [c for c in _choices(browser, unit) if c.get("kind") == kind and c.get("at")]
            if cs:
                _point(browser, unit, cs[0])
                chosen.setdefault(cs[0]["section"], []).append(cs[0]["order"])
                break
    assert "movement" in chosen, chosen
    browser.save_screenshot(str(shots / "orders-cbg-1280.png"))
    text = _download(browser, downloads)
    lines = [ln for ln in _order_lines(text) if ":" not in ln.split()[0]]
    for section, orders in chosen.items():
        at = lines.index(f"[{section}]")
        assert lines[at + 1 : at + 1 + len(orders)] == orders, (section, lines)
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", game, "--side", "USN", "--key", key)
    assert code == 0, out
    signed = tmp_path / "signed.txt"
    code, out = cli("sign", draft, "--key", key, "--game-dir", game, "-o", signed)
    assert code == 0, out
    code, out = cli(
        "adjudicate", game, signed, "--key", demo / "keys" / "referee.key",
        "--referee-dir", tmp_path / "referee",
    )  # fmt: skip
    assert code == 0, out
    assert sorted(p.name for p in (game / "turns").iterdir())[-1] > last
