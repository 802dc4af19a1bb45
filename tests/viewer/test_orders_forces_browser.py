"""A force of several units pointed at in a real headless Chromium (issue 28, options format
5): Sixth Fleet (2019), NATO's part opened with NATO's key, its first Action Phase of the
demo. Each action is one force [6.6], [8.1]: a strike by two units of one zone on two
targets of one kind (the first unit's line, then its mate pointed at on the map, then the
further target), and a naval force's move (the carrier's move, its escorts added). The
draft is downloaded, accepted by ``referee validate``, signed with NATO's demo key and
carried out by ``referee adjudicate``: the report tells of each force acting as one. A unit
the referee found may not join (another nationality, another kind of force) is never
offered, and the same line typed by hand is refused by ``validate``. Screenshots at 1280
and 390 px of the force being composed go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.pbem.draft_options import force_parts
from tests.pbem.cliflow import cli
from tests.viewer.drafting import (
    carried_out,
    choices,
    click,
    download,
    hidden_viewer,
    newest_state,
    offered_words,
    open_page,
    opening,
    order_lines,
    point,
    prepared_game,
    press,
    refused,
    reported,
    revealed_state,
    signed_and_carried_out,
    snap,
    validate,
    validated,
    viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

STEP = "003-NATO-nato_events"
"""The step after which NATO's first Action Phase is awaited."""


def _rest_sharers(browser: Any, doc: dict[str, Any], verb: str, rest: str) -> set[str]:
    """The units whose own one-unit line of ``verb`` has this rest (``-> ...``)."""
    out = set()
    for u in doc["units"]:
        for c in choices(browser, u):
            p = force_parts(c["order"])
            if p and p[0] == verb and p[1] == [u] and p[2] == rest:
                out.add(u)
    return out


def _alike(doc: dict[str, Any], order: str) -> list[str]:
    """The other targets of the kind of the line's last in its zone (``alike``)."""
    last = order.split()[-1]
    group = next((g for g in doc.get("alike", []) if last in g), [])
    return [t for t in group if t != last]


def _strike(browser: Any, doc: dict[str, Any]) -> tuple[str, dict[str, Any], set[str]]:
    """An air unit's attack with a mate, a further target, and a unit left out that shares
    its line: the unit, the choice and the units left out."""
    for u in sorted(doc["units"]):
        mates = doc["units"][u].get("force", {}).get("attack", [])
        for c in choices(browser, u):
            if c.get("kind") != "attack" or not mates or not _alike(doc, c["order"]):
                continue
            verb, _, rest = force_parts(c["order"]) or ("", [], "")
            shared = _rest_sharers(browser, doc, verb, rest) & set(mates)
            left_out = _rest_sharers(browser, doc, verb, rest) - set(mates) - {u}
            if shared and left_out:
                return u, c, left_out
    raise AssertionError("no attack of a force with a further target and a unit left out")


def _start(browser: Any, unit: str, order: str) -> None:
    """The unit's one-unit line pointed at: its place marked on the map, then its button
    where several lines share that place (the line is drafted, the force composed from it)."""
    point(browser, unit, next(c for c in choices(browser, unit) if c["order"] == order))


def _frame(browser: Any, places: list[str], most: float) -> None:
    """The map framed on ``places`` (a hex's width around them), zoomed in at most ``most``."""
    browser.execute_script(
        """const v = window.refereeViewer, b = v.data.board;
        const qs = arguments[0].map(p => b.places[p]), pad = b.hex_width * 1.5;
        const xs = qs.map(q => q[0]), ys = qs.map(q => q[1]);
        const x0 = Math.min(...xs) - pad, x1 = Math.max(...xs) + pad;
        const y0 = Math.min(...ys) - pad, y1 = Math.max(...ys) + pad;
        const vp = document.getElementById('viewport'), r = vp.getBoundingClientRect();
        v.view.k = Math.min(r.width / (x1 - x0), r.height / (y1 - y0), arguments[1]);
        v.view.x = r.width / 2 - v.view.k * (x0 + x1) / 2;
        v.view.y = r.height / 2 - v.view.k * (y0 + y1) / 2;
        document.getElementById('world').style.transform =
          `translate(${v.view.x}px,${v.view.y}px) scale(${v.view.k})`;""",
        places,
        most,
    )


SHOW = "document.getElementById(arguments[0]).scrollIntoView({block: 'nearest'})"
"""Brings a part of the orders panel into view (for a screenshot)."""


def _draft(browser: Any) -> list[str]:
    return browser.find_element("id", "draft").get_attribute("value").split("\n")


def test_a_2019_force_pointed_at_is_accepted_and_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("sixth_fleet_2019").out
    game, page, key = hidden_viewer(demo, STEP, "NATO", tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width in (390, 1280):  # the phone's screenshots first, then the desktop's drafting
        open_page(browser, page, width, downloads)
        doc = browser.execute_script("return window.refereeViewer.data.draft")
        assert doc["format"] == "referee-draft-options/8"
        unit, attack, left_out = _strike(browser, doc)
        _start(browser, unit, attack["order"])
        offered = offered_words(browser)
        assert not set(offered) & left_out, (offered, left_out)  # never offered
        mate = next(w for w in offered if w in doc["units"])
        mark = browser.find_element("css selector", f'#optmarks .opt.force[data-word="{mate}"]')
        marked = [m.get_attribute("data-place") for m in browser.find_elements(
            "css selector", "#optmarks .opt.force")]  # fmt: skip
        _frame(browser, marked, 1.3)
        browser.execute_script(SHOW, "draft" if width > 400 else "viewport")  # a phone: the map
        snap(browser, shots / f"orders-2019-force-{width}.png")
        click(browser, mark)  # the mate pointed at on the map
        assert set(offered_words(browser)) & set(_alike(doc, attack["order"]))  # further targets
        browser.execute_script(SHOW, "choices")
        snap(browser, shots / f"orders-2019-force-added-{width}.png")
    target = next(t for t in _alike(doc, attack["order"]) if t in offered_words(browser))
    press(browser, f'#choices button.compose[data-word="{target}"]')
    verb, _, rest = force_parts(attack["order"]) or ("", [], "")
    strike = f"{verb} {unit} {mate} {rest} {target}"
    assert strike in _draft(browser), _draft(browser)
    assert attack["order"] not in _draft(browser)  # the force's line replaced the unit's
    press(browser, "#composedone")
    ships = next(  # a naval force: a unit with move mates of its own sea zone
        u
        for u in sorted(doc["units"])
        if len(doc["units"][u].get("force", {}).get("move", [])) >= 2
        and u.split("-")[1] in ("CVN", "CV", "CG")
    )
    move = next(c for c in choices(browser, ships) if c.get("kind") == "move")
    _start(browser, ships, move["order"])
    escorts = [w for w in offered_words(browser) if w in doc["units"]]
    assert len(escorts) >= 2 and set(escorts) <= set(doc["units"][ships]["force"]["move"])
    for w in escorts:
        press(browser, f'#choices button.compose[data-word="{w}"]')
    _, _, mrest = force_parts(move["order"]) or ("", [], "")
    fleet = f"move {' '.join([ships, *escorts])} {mrest}"
    assert fleet in _draft(browser)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = download(browser, downloads)
    lines = order_lines(text)
    assert lines[lines.index("[actions]") + 1 :] == [strike, fleet], lines
    draft = validated(text, game, "NATO", tmp_path, key)
    # a unit left out, typed in by hand: validate refuses it
    bad = text.replace(strike, f"{verb} {unit} {sorted(left_out)[0]} {rest} {target}")
    assert validate(bad, game, "NATO", tmp_path, key, name="bad")[0] != 0
    carried_out(demo, game, draft, key, tmp_path, STEP)
    said = reported(game)
    assert any(s.startswith(f"{unit}, {mate} attack ") for s in said), said  # one force [6.6]
    assert any(s.startswith(f"{', '.join([ships, *escorts])} move from ") for s in said), said


def test_a_naval_shipping_attack_by_several_air_units_pointed_at_is_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """The naval module, the Axis Combat Phase of the demo: a Shipping Attack by several
    Ready air units on one Soviet ship, one line [31.21], [31.23]: the first unit's strike
    pointed at on the map (the target's place), its mates added on the map (their
    airfields) or from the list; downloaded, accepted by ``validate`` and carried out."""
    demo = finished_demo("naval_module").out
    last, doc = next(
        (f.parent.name, d)
        for f in sorted((demo / "game" / "turns").glob("*/options-*.json"))
        for d in [json.loads(f.read_text())]
        if any("shipping" in e.get("force", {}) for e in d["units"].values())
    )
    side = doc["side"]
    game, page = viewer(demo, last, side, tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    open_page(browser, page, 1280, downloads)
    unit = next(u for u in sorted(doc["units"]) if doc["units"][u].get("force", {}).get("shipping"))
    mates = doc["units"][unit]["force"]["shipping"]
    strike = next(c for c in choices(browser, unit) if c.get("kind") == "shipping")
    _start(browser, unit, strike["order"])
    added = [unit]
    while offered := [w for w in offered_words(browser) if w in doc["units"]]:
        assert set(offered) <= set(mates), offered  # only the units the referee paired
        marks = browser.find_elements(
            "css selector", f'#optmarks .opt.force[data-word="{offered[0]}"]'
        )
        if marks:
            click(browser, marks[0])  # its airfield on the map
        else:
            press(browser, f'#choices button.compose[data-word="{offered[0]}"]')
        added.append(offered[0])
    assert 2 <= len(added) <= doc["force_most"]["shipping"]
    snap(browser, shots / "orders-naval-shipping-force-1280.png")
    _, _, rest = force_parts(strike["order"]) or ("", [], "")
    line = f"shipping {' '.join(added)} {rest}"
    assert line in _draft(browser)
    press(browser, "#composedone")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = download(browser, downloads)
    lines = order_lines(text)
    assert lines[lines.index(f"[{doc['section']}]") + 1 :] == [line], lines
    signed_and_carried_out(demo, game, tmp_path, text, side, last)


def test_a_2019_strike_marker_on_some_targets_of_a_kind_is_accepted_and_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """A strike marker NATO holds, played on some of the enemy units of one kind in a zone
    (provisional 17.0, a GS action [6.4]): the side's composed choice, then one target of
    those offered; downloaded, accepted by ``validate`` and carried out by ``adjudicate``."""
    demo = finished_demo("sixth_fleet_2019").out
    game, page, key = hidden_viewer(demo, STEP, "NATO", tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    open_page(browser, page, 1280, downloads)
    doc = browser.execute_script("return window.refereeViewer.data.draft")
    some = next(c for c in doc["side_choices"] if c.get("compose") == "words")
    whole = next(
        c["order"]
        for c in doc["side_choices"]
        if c["order"].startswith(some["order"] + " ") and not c.get("compose")
    )
    assert whole.split()[5:] == some["from"]  # every target of the kind: the whole line
    browser.execute_script(
        "Array.from(document.querySelectorAll('#sidechoices button.choice'))"
        ".find(b => b.dataset.order === arguments[0]).click()",
        some["order"],
    )
    target = some["from"][-1]
    press(browser, f'#choices button.compose[data-word="{target}"]')
    line = f"{some['order']} {target}"
    assert line in _draft(browser)
    press(browser, "#composedone")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = download(browser, downloads)
    lines = order_lines(text)
    assert lines[lines.index("[actions]") + 1 :] == [line], lines
    carried_out(demo, game, validated(text, game, "NATO", tmp_path, key), key, tmp_path, STEP)
    said = " ".join(reported(game))
    assert some["order"].split()[1] in said, said


def test_a_pair_refused_where_it_ends_is_not_offered_there(
    browser: Any, finished_demo: Any, tmp_path: Path
) -> None:
    """A pair the validator accepts on most of the lines its units share but refuses on one
    (room where it ends: a friendly neutral base takes two air units [7.1.3]): on that line
    the page does not offer the mate, on another it does."""
    demo = finished_demo("sixth_fleet_2019").out
    game, page, key = hidden_viewer(demo, STEP, "NATO", tmp_path)
    open_page(browser, page, 1280, tmp_path)
    doc = browser.execute_script("return window.refereeViewer.data.draft")
    unit, verb, mate, rest = next(
        (u, verb, m, rests[0])
        for u in sorted(doc["units"])
        for verb, by_mate in sorted(doc["units"][u].get("force_not", {}).items())
        for m, rests in sorted(by_mate.items())
    )
    _start(browser, unit, f"{verb} {unit} {rest}")
    assert mate not in offered_words(browser)
    typed = f"{verb} {unit} {mate} {rest}"
    assert not _validates_typed(tmp_path, game, key, doc["header"], typed)
    refused = doc["units"][unit]["force_not"][verb][mate]
    theirs = {c["order"] for c in choices(browser, mate)}
    other = next(
        c["order"]
        for c in choices(browser, unit)
        if c["order"].startswith(f"{verb} {unit} -> ")
        and c["order"].split(f"{verb} {unit} ", 1)[1] not in refused
        and c["order"].replace(f"{verb} {unit} ", f"{verb} {mate} ", 1) in theirs
    )
    press(browser, "#composedone")
    _start(browser, unit, other)
    assert mate in offered_words(browser)
    both = other.replace(f"{verb} {unit} ", f"{verb} {unit} {mate} ", 1)
    assert _validates_typed(tmp_path, game, key, doc["header"], both)


def _validates_typed(tmp_path: Path, game: Path, key: Path, head: list[str], line: str) -> bool:
    """Whether ``validate`` accepts NATO's file of ``line`` typed by hand (``head``: the
    header the page drafts with)."""
    typed = tmp_path / "typed.txt"
    typed.write_text("\n".join([*head, "", "[actions]", line, ""]))
    code, _ = cli("validate", typed, "--state", game, "--side", "NATO", "--key", key)
    return code == 0


def test_a_force_of_three_past_the_room_where_it_ends_cannot_be_pointed_at(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Options format 6 (``force_room``): three US air units each pair of which the
    validator accepts on a move to a base with room for two more (Malta, Cyprus [7.1.3]):
    the page offers the second but not the third, and the three typed by hand are refused
    by ``validate``. To a base with room for three or more, the third is offered, and the
    force of three pointed at is accepted by ``validate``, signed with NATO's demo key and
    carried out by ``referee adjudicate`` as one force [8.1]. A screenshot of the force of
    two at the full base goes to ``$REFEREE_VIEWER_SHOTS``."""
    demo = finished_demo("sixth_fleet_2019").out
    game, page, key = hidden_viewer(demo, STEP, "NATO", tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    open_page(browser, page, 1280, downloads)
    doc = browser.execute_script("return window.refereeViewer.data.draft")
    assert doc["format"] == "referee-draft-options/8"
    rooms = doc["force_room"]["move"]
    unit, full = next(
        (u, rest)
        for rest, caps in sorted(rooms.items())
        for n, group in caps
        for u in group
        if n == 2 and len(set(doc["units"][u]["force"]["move"]) & set(group)) >= 2
    )
    _start(browser, unit, f"move {unit} {full}")
    group = next(g for n, g in rooms[full] if n == 2)
    mate = next(w for w in offered_words(browser) if w in group)
    press(browser, f'#choices button.compose[data-word="{mate}"]')
    assert f"move {unit} {mate} {full}" in _draft(browser)
    third = sorted(set(doc["units"][unit]["force"]["move"]) & set(group) - {mate})[0]
    assert mate in doc["units"][third]["force"]["move"]  # each pair of the three accepted
    assert not set(offered_words(browser)) & set(group), offered_words(
        browser
    )  # no room for a third
    browser.execute_script(SHOW, "choices")
    snap(browser, shots / "orders-2019-force-room-1280.png")
    typed = f"move {' '.join(sorted([unit, mate, third]))} {full}"
    assert not _validates_typed(tmp_path, game, key, doc["header"], typed)
    press(browser, "#composedone")
    roomy = next(
        rest
        for rest, caps in sorted(rooms.items())
        if any(unit in g and n >= 3 for n, g in caps)
        and f"move {unit} {rest}" in {c["order"] for c in choices(browser, unit)}
    )
    _start(browser, unit, f"move {unit} {roomy}")
    force = [unit]
    for _ in range(2):
        force.append(next(w for w in offered_words(browser) if w in doc["units"]))
        press(browser, f'#choices button.compose[data-word="{force[-1]}"]')
    line = f"move {' '.join(force)} {roomy}"
    assert line in _draft(browser), _draft(browser)
    press(browser, "#composedone")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = download(browser, downloads)
    lines = order_lines(text)
    assert lines[lines.index("[actions]") + 1 :] == [line], lines  # the unit's line replaced
    carried_out(demo, game, validated(text, game, "NATO", tmp_path, key), key, tmp_path, STEP)
    said = reported(game)
    assert any(s.startswith(f"{', '.join(force)} move from ") for s in said), said


def test_carrier_battlegroup_trade_of_several_missiles_is_one_line_within_the_room(
    browser: Any, finished_demo: Any, tmp_path: Path
) -> None:
    """Carrier Battlegroup (options format 6: ``trade`` a force [5.0 step 2c]): the demo's
    first turn, the CVBG's cruise missiles all under ships (each full), made into two small
    prepared games where the cruiser's missiles were fired since (back in the available
    Cargo [22.8 USN 1]), each opened in the USN part with the player's key. With one fired,
    the cruiser has room for one [15.1]: each DDG's missile may be traded to it alone, but
    the two are not offered together, and typed by hand ``validate`` refuses them [15.1].
    With both fired, the room is two: one DDG's missile is traded by pointing, the other
    joins the line, which is downloaded, accepted by ``validate`` and carried out by
    ``adjudicate`` (both under the cruiser)."""
    from referee.engine.core import UnitState
    from referee.rules.carrier_battlegroup.cargo import capacity_of
    from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
    from referee.source.loader import load_module

    src = Path(__file__).resolve().parents[2] / "module_src" / "carrier_battlegroup"
    start = revealed_state(finished_demo("carrier_battlegroup").out, "*-USN-outfit")
    module = load_module(src)[0]
    carried = dict(facts_of(start).missiles)
    roomy = next(s for s in sorted(set(carried.values())) if capacity_of(module, s) >= 2)
    first, mate = sorted(m for m, s in carried.items() if s != roomy)[:2]
    line = f"trade {first} {mate} -> {roomy}"
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for fired in (1, 2):
        missiles, state = dict(carried), start
        for m in sorted(m for m, s in carried.items() if s == roomy)[:fired]:
            missiles.pop(m)
            state = state.with_unit(UnitState(m, "USN", None, "available"))
        state = CbgFacts.put(state, missiles=missiles)
        assert capacity_of(module, roomy) - sum(v == roomy for v in missiles.values()) == fired
        root = prepared_game(tmp_path / f"prepared-{fired}", module, state)
        last = opening(root)
        into = tmp_path / f"fired-{fired}"
        game, page, key = hidden_viewer(root, last, "USN", into)
        open_page(browser, page, 1280, downloads)
        doc = browser.execute_script("return window.refereeViewer.data.draft")
        _start(browser, first, f"trade {first} -> {roomy}")
        assert f"trade {mate} -> {roomy}" in {c["order"] for c in choices(browser, mate)}
        if fired == 1:  # room for one: the other is not offered, and typed it is refused
            assert mate not in offered_words(browser), offered_words(browser)
            typed = "\n".join([*doc["header"], "", "[logistics]", line, ""])
            refused(game, into, typed, "USN", "15.1", key)
            assert not browser.find_elements("id", "composedone")  # no mate: no force begun
            continue
        assert doc["units"][first]["force"]["trade"] == [mate]
        press(browser, f'#choices button.compose[data-word="{mate}"]')
        assert line in _draft(browser), _draft(browser)
        press(browser, "#composedone")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = download(browser, downloads)
    lines = order_lines(text)
    assert lines[lines.index("[logistics]") + 1 :] == [line], lines
    signed_and_carried_out(root, game, into, text, "USN", last, key)
    after = facts_of(newest_state(game)).missiles
    assert after[first] == after[mate] == roomy, after
