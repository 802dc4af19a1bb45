"""The naval module's verbs of options format 4, pointed at in a real headless Chromium
(issue 28, "How it is checked"), each in the awaited side's viewer of a step of the shared
demo game (or of the game the real pipeline makes from it: a draft signed and adjudicated):

* the Naval Movement Interdiction Box, ``interdict AIR ...`` composed from the side's Ready
  air units [31.11];
* the host game's results, signed by both players: an air combat's ``survivors`` [31.13] and
  an amphibious assault's ``host ... cleared|held`` [30.16], the second player offered only
  the first's line;
* a Shipping Attack, ``shipping AIR -> SHIP`` [31.21], and an amphibious ``assault UNIT ->
  HEX`` [30.11];
* ``unload UNIT`` [28.14e] of a unit that stayed aboard its ship in port.

Each draft is downloaded, ``referee validate`` accepts it and ``referee adjudicate`` carries
it out (signed with the side's demo key); a choice the rules refuse is not offered on the
page, and the same line typed by hand is refused by ``validate`` with its rule case.
Screenshots at 1280 and 390 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import cli
from tests.viewer.drafting import (
    awaiting,
    awaiting_side,
    body_lines,
    choices,
    download,
    downloads_dir,
    first_choice,
    latest,
    no_errors,
    offered_words,
    open_page,
    order_lines,
    pick,
    point,
    point_line,
    press,
    refused,
    side_button,
    side_orders,
    signed_and_carried_out,
    snap,
    viewer,
    word,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def test_interdiction_box_composed_from_the_ready_air_units(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """``interdict AIR ...`` [31.11]: the side's button opens the line, each Ready air unit
    is a word to add; no unit of the other side nor a ground or naval unit is offered; four
    units typed by hand are refused, and cannot be pointed (at most three [31.11])."""
    demo = finished_demo("naval_module").out
    last, side, doc = awaiting_side(demo, "interdict")
    game, page = viewer(demo, last, side, tmp_path)
    (choice,) = [c for c in doc["side_choices"] if c["kind"] == "interdict"]
    state = json.loads((game / "turns" / last / "state.json").read_bytes())
    ours = {u["id"] for u in state["units"] if u["side"] == side}
    assert set(choice["from"]) <= ours
    words = next(  # the demo's own line
        ln.split()[1:]
        for f in sorted((demo / "orders").glob("*.txt"))
        for ln in order_lines(f.read_text())
        if ln.startswith("interdict ")
    )
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        side_button(browser, "interdict")
        assert offered_words(browser) == choice["from"]  # the side's Ready air units only
        for w in words:
            press(browser, word(browser, w))
        snap(browser, shots / f"orders-naval-interdict-{width}.png")
    press(browser, "#composedone")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == [f"[{doc['section']}]", "interdict " + " ".join(words)]
    four = "interdict " + " ".join(sorted(choice["from"])[:4])
    without = text.replace("interdict " + " ".join(words), "")
    refused(game, tmp_path, f"{without}{four}\n", side, "31.11")
    signed_and_carried_out(demo, game, tmp_path, text, side, last)
    # a fourth unit cannot be pointed: the line stops at the rule's three [31.11]
    assert choice["most"] == 3 and len(choice["from"]) > 3
    open_page(browser, page, 1280, downloads)
    side_button(browser, "interdict")
    for w in choice["from"][:3]:
        press(browser, word(browser, w))
    assert not offered_words(browser)
    no_errors(browser)


def _sign_host_result(
    browser: Any, demo: Path, kind: str, tmp_path: Path, shots: Path, rule: str
) -> None:
    """A host game's result signed by both players: the first player's step offers each
    result (the last one pointed at replaces the earlier: one result a hand-off), his draft
    is carried out; the game the referee wrote then awaits the other player, whose page
    offers the first player's line only; another line typed by hand is refused [``rule``]."""
    last, side, doc = awaiting_side(demo, kind)
    game, page = viewer(demo, last, side, tmp_path)
    offered = [c["order"] for c in doc["side_choices"] if c["kind"] == kind]
    assert len(offered) > 1, offered
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    assert side_orders(browser) == offered
    first, chosen = offered[-1], offered[0]
    side_button(browser, first)
    side_button(browser, chosen)  # the same hand-off's other result replaces it
    snap(browser, shots / f"orders-naval-{kind}-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == [f"[{doc['section']}]", chosen]
    signed_and_carried_out(demo, game, tmp_path, text, side, last)
    # the other player, in the step the referee just wrote
    nxt, doc2 = latest(game)
    assert doc2["side"] != side
    page2 = tmp_path / f"viewer-{doc2['side']}.html"
    code, out = cli("viewer", game, "--side", doc2["side"], "-o", page2)
    assert code == 0, out
    open_page(browser, page2, 390, downloads)
    assert side_orders(browser) == [chosen]  # only the first signature's line
    side_button(browser, chosen)
    snap(browser, shots / f"orders-naval-{kind}-confirm-390.png")
    no_errors(browser)
    text2 = download(browser, downloads)
    assert body_lines(text2) == [f"[{doc2['section']}]", chosen]
    other = next(o for o in offered if o != chosen)
    without = text2.replace(chosen + "\n", "")
    refused(game, tmp_path, f"{without}{other}\n", doc2["side"], rule)
    signed_and_carried_out(demo, game, tmp_path, text2, doc2["side"], nxt)


def test_air_combat_survivors_signed_by_both_players(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """The host game's air combat in the Interdiction Box [31.13]: ``survivors H -> AIR ...``
    or ``none``, only units of the mission offered."""
    demo = finished_demo("naval_module").out
    last, _, doc = awaiting_side(demo, "survivors")
    state = json.loads((demo / "game" / "turns" / last / "state.json").read_bytes())
    mission = set(state["data"]["box_combat"]["units"])  # the units in the box [31.11]
    offered = [c["order"] for c in doc["side_choices"] if c["kind"] == "survivors"]
    assert len(offered) == 2 ** len(mission)  # each set of them, none included
    assert all(set(o.split(" -> ")[1].split()) <= mission for o in offered if " -> " in o)
    _sign_host_result(browser, demo, "survivors", tmp_path, shots, "31.13")


def test_an_assault_s_host_result_signed_by_both_players(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """An amphibious assault handed to the host game: ``host H cleared|held`` [30.16]."""
    demo = finished_demo("naval_module").out
    _sign_host_result(browser, demo, "host", tmp_path, shots, "30.16")


@pytest.mark.parametrize(
    ("kind", "typed", "rule"),
    [
        # a flotilla may not be attacked from the air [32.14]
        ("shipping", "shipping {unit} -> SU-FL-AZ", "32.14"),
        # an assault goes against a coastal hex [30.14c]; 2522 is inland
        ("assault", "assault {unit} -> 2522", "30.14c"),
        # a Readiness roll is for a Sailed unit [25.31]; the cruiser is Ready already
        ("ready", "ready SU-CL-KK", "25.31"),
    ],
)
def test_a_unit_s_strike_assault_or_readiness_pointed_is_carried_out(
    browser: Any,
    finished_demo: Any,
    tmp_path: Path,
    shots: Path,
    kind: str,
    typed: str,
    rule: str,
) -> None:
    """A Shipping Attack on an enemy ship at sea or in port [31.21], an amphibious assault
    on a hex next to the transport [30.11], a Sailed ship's Readiness roll [25.32]: the
    unit's choices are marked at the target's place; the line the rules refuse is not among
    them; typed by hand, ``validate`` refuses it."""
    demo = finished_demo("naval_module").out
    last, side, doc = awaiting(demo, kind)
    game, page = viewer(demo, last, side, tmp_path)
    downloads = downloads_dir(tmp_path)
    unit = next(u for u in sorted(doc["units"]) if doc["units"][u]["choices"])
    bad = typed.format(unit=unit)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        cs = [c for c in choices(browser, unit) if c.get("kind") == kind]
        assert cs and bad not in [c["order"] for c in cs]
        # the unit's choices as listed once it is picked (pointing a shipping line then
        # lists the units that may join its force, format 5)
        pick(browser, unit)
        shown = browser.execute_script(
            "return Array.from(document.querySelectorAll('#choices button.choice'))"
            ".map(b => b.textContent)"
        )
        point(browser, unit, cs[0])
        # the rule case follows the line, not doubly bracketed: "shipping A -> S [31.21]";
        # a label that repeats a word of the line ("ready") is left out
        order, label = cs[-1]["order"], cs[-1]["label"]
        assert (order if label in order.split() else f"{order} {label}") in shown, shown
        snap(browser, shots / f"orders-naval-{kind}-{width}.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == [f"[{doc['section']}]", cs[0]["order"]]
    refused(game, tmp_path, f"{text}{bad}\n", side, rule)
    signed_and_carried_out(demo, game, tmp_path, text, side, last)


def test_a_unit_loaded_in_port_is_unloaded_by_pointing(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """``unload UNIT`` [28.14e]: the demo never leaves a unit aboard a ship in port, so the
    real pipeline makes it: in the first step offering a ``load`` the ground unit boards a
    ship and the ship stays (the draft carried out); the next step offers its ``unload``
    at the port, and nothing else for it. A unit not aboard typed by hand is refused."""
    demo = finished_demo("naval_module").out
    last, side, doc = awaiting(demo, "load")
    game, page = viewer(demo, last, side, tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    cargo, load = first_choice(browser, doc["units"], "load")
    point(browser, cargo, load)
    text = download(browser, downloads)
    assert body_lines(text) == [f"[{doc['section']}]", load["order"]]
    signed_and_carried_out(demo, game, tmp_path, text, side, last)
    nxt, doc2 = latest(game)
    assert doc2["side"] == side
    page2 = tmp_path / f"viewer-{side}-2.html"
    assert cli("viewer", game, "--side", side, "-o", page2)[0] == 0
    for width in (390, 1280):
        open_page(browser, page2, width, downloads)
        (unload,) = choices(browser, cargo)  # aboard in port: only its unload
        assert unload["order"] == f"unload {cargo}" and unload["kind"] == "unload"
        point(browser, cargo, unload)
        snap(browser, shots / f"orders-naval-unload-{width}.png")
    no_errors(browser)
    text2 = download(browser, downloads)
    assert body_lines(text2) == [f"[{doc2['section']}]", unload["order"]]
    ashore = next(
        u
        for u in sorted(doc2["units"])
        if u != cargo and not any(c["kind"] == "unload" for c in choices(browser, u))
        and any(c["kind"] == "load" for c in choices(browser, u))
    )  # fmt: skip
    refused(game, tmp_path, f"{text2}unload {ashore}\n", side, "28.14e")
    signed_and_carried_out(demo, game, tmp_path, text2, side, nxt)


def test_coast_artillery_supports_an_attacked_hex_by_pointing(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """``coastsupport CD -> HEX`` [30.25]: the demo never attacks a hex a coast-defence
    unit reaches, so the real pipeline makes it: in the Soviet Combat Phase the Soviet
    player declares the host game's attack on the hex of the Axis CD unit DE-CD-1.2
    (``attack HEX``, typed: the host game's own attacks are not the module's to offer
    [29.25]); the Axis coast step that follows offers that CD unit's support of the hex, and
    none to DE-CD-1.1, 6 hexes away (Range 2): typed by hand it is refused [30.25]."""
    demo = finished_demo("naval_module").out
    last, side, _ = awaiting(demo, "assault")
    game, page = viewer(demo, last, side, tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    # typed under the section the page wrote
    browser.find_element("id", "draft").send_keys("attack 3121\n")
    text = download(browser, downloads)
    assert body_lines(text) == ["[combat]", "attack 3121"]
    signed_and_carried_out(demo, game, tmp_path, text, side, last)
    nxt, doc2 = latest(game)
    assert (doc2["side"], doc2["section"]) == ("Axis", "coast")
    page2 = tmp_path / "viewer-Axis.html"
    assert cli("viewer", game, "--side", "Axis", "-o", page2)[0] == 0
    for width in (390, 1280):
        open_page(browser, page2, width, downloads)
        units = browser.execute_script("return window.refereeViewer.data.draft.units")
        assert "DE-CD-1.1" not in units  # out of Range: nothing to offer it
        (support,) = choices(browser, "DE-CD-1.2")
        assert support["order"] == "coastsupport DE-CD-1.2 -> 3121"
        point(browser, "DE-CD-1.2", support)
        snap(browser, shots / f"orders-naval-coastsupport-{width}.png")
    no_errors(browser)
    text2 = download(browser, downloads)
    assert body_lines(text2) == ["[coast]", support["order"]]
    refused(game, tmp_path, f"{text2}coastsupport DE-CD-1.1 -> 3121\n", "Axis", "30.25")
    signed_and_carried_out(demo, game, tmp_path, text2, "Axis", nxt)


def test_an_abort_decision_answered_by_pointing_is_the_demo_s_own_file(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """``answer DECISION OPTION`` [27.32b]: the first step of the demo that asks the awaited
    side a decision (a ship's Abort: return to port, or one more damage point and stay);
    its viewer offers each option, and the option pointed at drafts the demo's own answer
    file line for line; an option the decision does not offer, typed, is refused."""
    demo = finished_demo("naval_module").out
    last, doc = next(
        (f.parent.name, d)
        for f in sorted((demo / "game" / "turns").glob("*/options-*.json"))
        for d in [json.loads(f.read_text())]
        if d.get("answers")
    )
    side, decision = doc["side"], doc["answers"][0]
    own = next(
        lines
        for f in sorted((demo / "orders").glob("*.txt"))
        for lines in [body_lines(f.read_text().split("-----BEGIN SSH SIGNATURE-----")[0])]
        if any(ln.startswith(f"answer {decision['id']} ") for ln in lines)
    )
    game, page = viewer(demo, last, side, tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        offered = browser.execute_script(
            "return Array.from(document.querySelectorAll('#answers button'))"
            ".map(b => b.dataset.order)"
        )
        assert offered == [f"answer {decision['id']} {o}" for o in decision["options"]]
        for line in own[1:]:
            point_line(browser, line)
        snap(browser, shots / f"orders-naval-answer-{width}.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == own
    typed = text.replace(own[1], f"answer {decision['id']} sink")
    refused(game, tmp_path, typed, side, decision["rule"])
    signed_and_carried_out(demo, game, tmp_path, text, side, last)
