"""The steps the viewer's browser tests share (issue 28, "How it is checked"): a game cut back
to the step a side's orders answer, that side's viewer of it, pointing at its choices in
headless Chromium, the draft downloaded, and the referee's judgement of it (``validate``,
``sign``, ``adjudicate``).

Each test of ``tests/viewer/*_browser.py`` composes these; nothing here asserts what a
particular ruleset offers. Selenium is imported inside the functions that need it, so the
module is importable where it is not installed (the ``browser`` fixture then skips).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.pbem.archive import Archive
from referee.pbem.draft_options import options_file
from referee.pbem.keys import load_private, passphrase_source
from referee.pbem.parts import identity_of, open_part
from tests.pbem.cliflow import cli

# ---- the game and the side's viewer of it ---------------------------------------------------


def cut(demo: Path, last: str, into: Path) -> Path:
    """A copy of the demo game (and the referee's seeds) ending with turn folder ``last``."""
    game = into / "game"
    shutil.copytree(demo / "game", game)
    shutil.copytree(demo / "referee", into / "referee")
    for t in sorted((game / "turns").iterdir()):
        if t.name > last:
            shutil.rmtree(t)
    if (game / "turns" / last / "state.json").is_file():  # a game that hides nothing
        shutil.copyfile(game / "turns" / last / "state.json", game / "state.json")
    return game


def cut_hidden(demo: Path, last: str, into: Path) -> Path:
    """:func:`cut` for a game that hides information: the referee's record cut back too."""
    game = cut(demo, last, into)
    secret = game / "secret"
    for t in sorted((secret / "turns").iterdir()):
        if t.name > last:
            shutil.rmtree(t)
    shutil.copyfile(secret / "turns" / last / "state.json", secret / "state.json")
    return game


def side_key(demo: Path, side: str) -> Path:
    """The side's demo key (``keys/<side>.key``, lower case)."""
    return demo / "keys" / f"{side.lower()}.key"


def viewer(demo: Path, last: str, side: str, tmp_path: Path) -> tuple[Path, Path]:
    """An open game cut back to ``last`` and ``side``'s viewer of it: the game and the page."""
    game = cut(demo, last, tmp_path)
    page = tmp_path / f"viewer-{side}.html"
    code, out = cli("viewer", game, "--side", side, "-o", page)
    assert code == 0, out
    return game, page


def hidden_viewer(demo: Path, last: str, side: str, tmp_path: Path) -> tuple[Path, Path, Path]:
    """The game cut back to ``last`` (:func:`cut_hidden`) and ``side``'s viewer of it, its
    part opened with the side's demo key: the game, the page and the key."""
    game = cut_hidden(demo, last, tmp_path)
    key = side_key(demo, side)
    page = tmp_path / f"viewer-{side}.html"
    code, out = cli("viewer", game, "--side", side, "--key", key, "-o", page)
    assert code == 0, out
    return game, page, key


def prepared_game(root: Path, module: Any, state: Any) -> Path:
    """A small signed game archive at ``root`` whose opening step is the prepared position
    ``state`` (a conformance case's, or a demo's position changed), laid out as a demo's
    output: ``game/``, ``keys/`` (a key per player and the referee's) and ``referee/`` (the
    dice seeds). So :func:`cut`, :func:`viewer`, :func:`hidden_viewer` and
    :func:`signed_and_carried_out` take it as they take a demo, and what the side's viewer
    offers is what ``referee new`` published for that step.

    ``referee new`` is asked through its library function with the ruleset's own class,
    whose ``new_game`` answers ``state`` instead of the scenario's set-up: everything after
    (the options, the parts, every adjudication) is the real pipeline's. Its step 000 is
    therefore not the scenario's set-up, and ``referee verify`` would refuse it: the
    tests that use it do not ask. Its keys and dice seeds are derived from fixed bytes, so a
    prepared game plays the same every run.

    A position no game could reach is refused before anything is written
    (:func:`refuse_impossible`), with a :class:`~referee.shapes.ShapeError` naming the unit
    and why: the test's mistake, not a finding of the rules under test."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from referee.engine.ruleset import get_ruleset
    from referee.pbem.game import create_game, referee_sides
    from referee.pbem.keys import PrivateKey, write_key_pair

    real = get_ruleset(module.ruleset)
    refuse_impossible(module, real, state)

    class Prepared(type(real)):  # type: ignore[misc]
        def new_game(self, *_: Any) -> Any:
            return state

    def key(name: str) -> PrivateKey:  # the same key every run: the same reports, the same dice
        seed = hashlib.sha256(f"prepared-game {name}".encode()).digest()
        return PrivateKey(Ed25519PrivateKey.from_private_bytes(seed), name)

    automatic = referee_sides(real)
    keys = {s.id: key(s.id.lower()) for s in module.sides if s.id not in automatic}
    referee = key("referee")
    for k in [*keys.values(), referee]:
        write_key_pair(k, root / "keys")
    create_game(
        root / "game",
        module,
        scenario=state.scenario,
        players={side: k.public for side, k in keys.items()},
        referee_key=referee,
        options=state.options,
        game_id=state.game_id,
        dice_length=16,
        referee_dir=root / "referee",
        seed_root=bytes(range(32)),
        picture_dpi=0,
        ruleset=Prepared(),
    )
    return root


def refuse_impossible(module: Any, ruleset: Any, state: Any) -> None:
    """Raise :class:`~referee.shapes.ShapeError` unless ``state`` is a position the module's
    pieces could stand in: the checks every state read from a file passes (``referee validate
    --state``: its shape and cross-references, then its units, sides, locations and the
    position facts the ruleset declares: :func:`~referee.engine.state_shape.check_state_fits`),
    and no unit on a hex the module's own data, which the rules read, closes to it. The
    rulesets have no check of a whole position of their own (each judges the orders that
    change one), so that data is the hex's row of the Terrain Effects Chart, where ``-`` (no
    cost) for the unit's category closes the hex to it (a naval unit on a land hex [10.12],
    a ship on a coastal hex of the naval module, a ground unit at sea). A zone's or space's
    location type is not asked: it says what movement may enter it, and units are carried
    where none may (a Marine brigade in its amphibian's holding box, closed to all
    movement). A position only an exception to the chart allows (Sixth Fleet's air units
    over neutral hexes once their air space is violated [14.2]) is refused too: a prepared
    position has no need of one."""
    from referee.engine.core import GameState
    from referee.engine.graphboard import board_for
    from referee.engine.ruleset import position_facts
    from referee.engine.state_shape import check_state_fits
    from referee.shapes import ShapeError

    GameState.from_json(state.to_json())  # the shape a state file must have
    check_state_fits(state, module, board_for(module.map), position_facts(ruleset))
    pieces = module.pieces()
    for i, uid in enumerate(sorted(state.units)):
        where, category = state.units[uid].location, pieces[uid].unit.category
        if where not in module.map.hexes:
            continue  # off the map, or a zone, port, space or box
        terrain = module.map.terrain[module.map.hexes[where].terrain]
        if category in terrain.costs and terrain.costs[category] is None:
            raise ShapeError(
                f"$.units[{i}].location",
                f"a hex a {category} unit may enter ({uid} in {where}: the Terrain Effects "
                f"Chart closes {terrain.name} to {category} units)",
                where,
            )


def opening(root: Path) -> str:
    """The name of a prepared game's one turn folder (:func:`prepared_game`)."""
    (t,) = sorted((root / "game" / "turns").iterdir())
    return t.name


# ---- the published options: which step offers what ------------------------------------------


def offers_kind(doc: dict[str, Any], kind: str) -> bool:
    """Whether an options document offers one of its units a choice (or a route) of ``kind``."""
    return any(
        kind in {c.get("kind") for c in e["choices"]} | {e.get("route", {}).get("kind")}
        for e in doc["units"].values()
    )


def awaiting(demo: Path, kind: str) -> tuple[str, str, dict[str, Any]]:
    """The first turn folder whose published options offer a choice of ``kind``: its name,
    the awaited side and the options document."""
    for t in sorted((demo / "game" / "turns").iterdir()):
        for f in sorted(t.glob("options-*.json")):
            doc = json.loads(f.read_bytes())
            if offers_kind(doc, kind):
                return t.name, doc["side"], doc
    raise AssertionError(f"no step of the demo offers a {kind} choice")


def awaiting_side(demo: Path, kind: str) -> tuple[str, str, dict[str, Any]]:
    """The first turn folder whose published options offer the side a choice of ``kind``
    (``side_choices``): its name, the awaited side and the options document."""
    for t in sorted((demo / "game" / "turns").iterdir()):
        for f in sorted(t.glob("options-*.json")):
            doc = json.loads(f.read_bytes())
            if any(c.get("kind") == kind for c in doc.get("side_choices", [])):
                return t.name, doc["side"], doc
    raise AssertionError(f"no step of the demo offers the side a {kind} choice")


def sealed_options(out: Path, side: str) -> list[tuple[str, dict[str, Any], GameState]]:
    """Each step's options file of ``side`` in a game that hides information (opened from
    its part with the side's demo key), with the full position the referee kept."""
    archive = Archive(out / "game")
    key = load_private(side_key(out, side), passphrase_source(None))
    found = []
    for t in archive.turn_dirs():
        files = open_part(archive, t, side, [identity_of(key)])
        name = options_file(side)
        if name in files:
            kept = out / "game" / "secret" / "turns" / t.name / "state.json"
            full = json.loads(kept.read_text())
            found.append((t.name, json.loads(files[name]), GameState.from_json(full)))
    return found


def latest(game: Path) -> tuple[str, dict[str, Any]]:
    """The game's newest turn folder and the awaited side's options there (one side)."""
    t = sorted((game / "turns").iterdir())[-1]
    (f,) = sorted(t.glob("options-*.json"))
    return t.name, json.loads(f.read_bytes())


# ---- the page ---------------------------------------------------------------------------------


def downloads_dir(tmp_path: Path) -> Path:
    """An empty folder for the page's downloads."""
    out = tmp_path / "downloads"
    out.mkdir()
    return out


def size(browser: Any, width: int, height: int) -> None:
    """The window at ``width`` x ``height``, resized only when it is not already: a resize
    lays out and paints the page shown (about 45 ms of Chromium's CPU), and most tests ask
    for the size the one before left."""
    if browser.get_window_size() != {"width": width, "height": height}:
        browser.set_window_size(width, height)


def open_page(browser: Any, page: Path, width: int, downloads: Path) -> None:
    """``page`` at ``width`` px, its downloads going to ``downloads``."""
    size(browser, width, 900)
    browser.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    browser.get(page.resolve().as_uri())


def open_fresh(browser: Any, path: Path, width: int = 1400, height: int = 900) -> None:
    """``path`` at ``width`` x ``height``, loaded once (a load of a viewer costs about 250 ms
    of Chromium's CPU). The performance log, where a test reads it, is a fresh browser's
    (``logged_browser``): it holds this page's requests only."""
    size(browser, width, height)
    browser.get(path.resolve().as_uri())


def shown(browser: Any) -> dict[str, list[str]]:
    """Units drawn on the map, by place (stack order: top first)."""
    return dict(
        browser.execute_script(
            """const out = {};
        document.querySelectorAll('#units g.stack').forEach(s => {
          out[s.dataset.place] = Array.from(s.querySelectorAll('g.counter'))
            .map(c => c.dataset.unit).reverse();
        });
        return out;"""
        )
    )


def no_errors(browser: Any) -> None:
    """The page logged no error."""
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def draft_text(browser: Any) -> str:
    """The draft as the page shows it."""
    return str(browser.find_element("id", "draft").get_attribute("value"))


def click(browser: Any, element: Any) -> None:
    """A click dispatched on ``element`` (a mark of the map's SVG overlay)."""
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", element
    )


def click_hex(browser: Any, hex_id: str) -> None:
    """A click on the map where ``hex_id`` is drawn (brought into view first)."""
    browser.execute_script(
        """const v = window.refereeViewer, q = v.data.board.places[arguments[0]];
        const vp = document.getElementById('viewport'), r = vp.getBoundingClientRect();
        v.view.x = r.width / 2 - v.view.k * q[0]; v.view.y = r.height / 2 - v.view.k * q[1];
        document.getElementById('world').style.transform =
          `translate(${v.view.x}px,${v.view.y}px) scale(${v.view.k})`;
        const x = r.left + v.view.x + v.view.k * q[0], y = r.top + v.view.y + v.view.k * q[1];
        document.getElementById('overlay').dispatchEvent(
          new MouseEvent('click', {bubbles: true, clientX: x, clientY: y}));""",
        hex_id,
    )


_PICK = """const s = document.getElementById('unitpick');
if (!s) return 'no #unitpick list on the page';
const o = Array.from(s.options).find(o => o.value === arguments[0]);
if (!o) return `no unit ${arguments[0]} in the list`;
if (s.disabled || o.disabled) return `${arguments[0]} is disabled in the list`;
if (!o.selected) {
  o.selected = true;
  s.dispatchEvent(new Event('input', {bubbles: true}));
  s.dispatchEvent(new Event('change', {bubbles: true}));
}
return null;"""


def pick(browser: Any, unit: str) -> None:
    """``unit`` picked in the list of the side's units, in one round trip: what Selenium's
    ``Select`` does (ChromeDriver selects an ``<option>`` by script too, then the list fires
    ``input`` and ``change``; nothing when it is already picked; a unit not in the list, or
    disabled, fails), without its six round trips (tag, ``multiple``, options, selected,
    enabled, click: about 65 ms of Chromium's and ChromeDriver's CPU against 20)."""
    why = browser.execute_script(_PICK, unit)
    assert why is None, why


_PRESS = """const el = arguments[1] === null ? arguments[0] : document.querySelector(arguments[1]);
if (!el) return `no element ${arguments[1]} on the page`;
if (!el.isConnected) return 'the element is no longer on the page';
el.scrollIntoView({block: 'end', inline: 'nearest'});
const r = Array.from(el.getClientRects()).find(r => r.width > 0 && r.height > 0);
const cut = r && {l: Math.max(r.left, 0), r: Math.min(r.right, innerWidth),
                  t: Math.max(r.top, 0), b: Math.min(r.bottom, innerHeight)};
const what = el.outerHTML.slice(0, 160);
if (!cut || cut.l >= cut.r || cut.t >= cut.b || getComputedStyle(el).visibility !== 'visible')
  return `element not interactable (not shown): ${what}`;
const hit = document.elementFromPoint((cut.l + cut.r) / 2, (cut.t + cut.b) / 2);
if (!hit || !(hit === el || el.contains(hit)))
  return `click intercepted: ${what} lies under ${hit ? hit.outerHTML.slice(0, 160) : 'nothing'}`;
el.click();
return null;"""


def press(browser: Any, target: Any) -> None:
    """A button (a WebElement, or the CSS selector of one) clicked as WebDriver's Element
    Click does, in one round trip: scrolled into view, refused unless shown and the topmost
    element at its in-view centre ("not interactable", "click intercepted"), then clicked,
    its ``onclick`` run (a disabled button does nothing, as under a real click). WebDriver's
    click sends the mouse's move, press and release as input events, each a frame of the
    page: about 90 ms of Chromium's and ChromeDriver's CPU a click against 20. The tests of
    the layout and of a tap on the map (``test_browser.py``, ``test_phone_layout_browser.py``,
    ``test_stack_pick_browser.py``) and the draft's download (a user gesture) keep real
    input events."""
    element, selector = (None, target) if isinstance(target, str) else (target, None)
    assert element is not None or selector is not None, "no button to press"
    why = browser.execute_script(_PRESS, element, selector)
    assert why is None, why


def choice_button(browser: Any, order: str) -> Any:
    """The picked unit's button of ``order``, or None."""
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('#choices button.choice'))"
        ".find(b => b.dataset.order === arguments[0]) || null",
        order,
    )


def word(browser: Any, w: str) -> Any:
    """The button that adds ``w`` to the line being composed."""
    return browser.find_element("css selector", f'#choices button.compose[data-word="{w}"]')


def offered_words(browser: Any) -> list[str]:
    """The words the line being composed may take now (its buttons)."""
    return [
        b.get_attribute("data-word")
        for b in browser.find_elements("css selector", "#choices button.compose")
    ]


def side_button(browser: Any, line: str) -> None:
    """The side's button of ``line`` (an order of no one unit) clicked."""
    button = browser.execute_script(
        "return Array.from(document.querySelectorAll('#sidechoices button.choice'))"
        ".find(b => b.dataset.order === arguments[0]) || null",
        line,
    )
    assert button is not None, f"no side choice {line!r}"
    press(browser, button)


def side_orders(browser: Any) -> list[str]:
    """The side's buttons the page shows."""
    return list(
        browser.execute_script(
            "return Array.from(document.querySelectorAll('#sidechoices button.choice'))"
            ".map(b => b.dataset.order)"
        )
    )


def page_options(browser: Any) -> dict[str, Any]:
    """The options document the page embeds (the side's ``options-SIDE.json``)."""
    return dict(browser.execute_script("return window.refereeViewer.data.draft"))


def first_choice(browser: Any, units: Any, kind: str) -> tuple[str, dict[str, Any]]:
    """The first of ``units`` (sorted) the page offers a choice of ``kind``, and that choice."""
    return next((u, c) for u in sorted(units) for c in choices(browser, u) if c.get("kind") == kind)


def choices(browser: Any, unit: str) -> list[dict[str, Any]]:
    """The unit's choices as the page holds them (its options and the draft's effects)."""
    return list(browser.execute_script("return window.refereeViewer.choicesOf(arguments[0])", unit))


def point(browser: Any, unit: str, c: dict[str, Any]) -> None:
    """Pick ``unit`` in the list, click its choice's marked place on the map; where several
    choices share that place the page lists them: click the one wanted."""
    pick(browser, unit)
    if c.get("at"):
        mark = browser.find_element("css selector", f'#optmarks .opt[data-place="{c["at"]}"]')
        click(browser, mark)
    if c["order"] not in draft_text(browser).split("\n"):
        button = choice_button(browser, c["order"])
        assert button is not None, c
        press(browser, button)
    assert c["order"] in draft_text(browser).split("\n"), c


def point_line(browser: Any, line: str) -> None:
    """Give one order of an orders file by pointing: an ``answer``'s mark on the map or its
    button; a composed line (:func:`compose`); else the unit from the list, then the
    choice's button, or the marked place on the map when the list does not show it (moves:
    one per reachable hex)."""
    if line.startswith("answer "):
        _, decision, option = line.split()
        marks = browser.find_elements(
            "css selector",
            f'#optmarks .opt.answer[data-answer="{decision}"][data-option="{option}"]',
        )
        if marks:
            click(browser, marks[0])
            return
        press(browser, f'#answers button[data-order="{line}"]')
        return
    words = line.split()
    if words[0] == "stack" or words[2:3] == ["prefer"]:
        compose(browser, words)
        return
    pick(browser, words[1])
    button = choice_button(browser, line)
    if button is not None:
        press(browser, button)
        return
    mark = browser.find_element("css selector", f'#optmarks .opt[data-place="{words[-1]}"]')
    click(browser, mark)


def compose(browser: Any, words: list[str]) -> None:
    """A composed line (options format 3), built by pointing: ``stack HEX U1 U2 ...``: the
    first unit's ``stack`` choice, then each other unit's button top first [7.42];
    ``retreat UNIT prefer H1 H2``: the unit's choice, then each hex marked on the map [8.71]."""
    stack = words[0] == "stack"
    unit = words[2] if stack else words[1]
    pick(browser, unit)
    kind = "stack" if stack else words[0]
    start = choice_button(browser, "stack" if stack else f"{kind} {unit} prefer")
    assert start is not None, f"no {kind} choice for {unit}"
    press(browser, start)
    if stack:
        for w in words[3:]:
            press(browser, word(browser, w))
    else:  # a marked hex, else any hex of the map, clicked where it is drawn
        for h in words[3:]:
            marks = browser.find_elements(
                "css selector", f'#optmarks .opt.compose[data-word="{h}"]'
            )
            if marks:
                click(browser, marks[0])
            else:
                click_hex(browser, h)
    press(browser, "#composedone")


def download(browser: Any, downloads: Path) -> str:
    """The draft saved as ``orders.txt`` by the page's button: its text."""
    for old in downloads.glob("orders*.txt"):
        old.unlink()
    browser.find_element("id", "savedraft").click()  # a real click: the download's gesture
    got, end = downloads / "orders.txt", time.monotonic() + 5
    while time.monotonic() < end:  # Chromium writes it within a few ms: look often
        if got.is_file() and got.stat().st_size:
            return got.read_text()
        time.sleep(0.005)
    raise AssertionError("no orders.txt downloaded")


def screenshots(browser: Any, unit: str, shots: Path, name: str) -> None:
    """The unit picked from the list (the map frames it and its options), the map then the
    draft scrolled into view; the page logged no error."""
    pick(browser, unit)
    assert browser.find_elements("css selector", "#optmarks .opt")
    if wanted():
        browser.execute_script("document.getElementById('mapbox').scrollIntoView()")
        snap(browser, shots / f"orders-{name}-map.png")
        browser.execute_script("document.getElementById('unitpick').scrollIntoView()")
        snap(browser, shots / f"orders-{name}-draft.png")
        browser.execute_script("window.scrollTo(0, 0)")
    no_errors(browser)


def wanted() -> bool:
    """Whether someone asked for the screenshots (``$REFEREE_VIEWER_SHOTS`` names their
    folder: tests/viewer/browser_coverage.md, "How the tests point, and their screenshots")."""
    return bool(os.environ.get("REFEREE_VIEWER_SHOTS"))


def snap(browser: Any, path: Path) -> None:
    """A screenshot of the page to ``path`` when someone asked for them (:func:`wanted`);
    else none: nothing reads it (a test that checks pixels takes its own), and each costs
    about 100 ms of Chromium's CPU and 150-200 ms of wall, some 130 a run."""
    if wanted():
        browser.save_screenshot(str(path))


# ---- an orders file ----------------------------------------------------------------------------


def order_lines(text: str) -> list[str]:
    """The lines an orders file says, comments and blank lines left out."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def body_lines(text: str) -> list[str]:
    """:func:`order_lines` without the header's ``key: value`` lines."""
    return [ln for ln in order_lines(text) if ":" not in ln.split()[0]]


def section_lines(text: str, section: str) -> list[str]:
    """The lines after the ``[section]`` header (to the file's end)."""
    lines = order_lines(text)
    return lines[lines.index(f"[{section}]") + 1 :]


# ---- the referee's judgement --------------------------------------------------------------------


def validate(
    text: str, game: Path, side: str, tmp_path: Path, key: Path | None = None, name: str = "hand"
) -> tuple[int, str]:
    """``referee validate`` of ``text`` (written to ``<name>.txt``) as ``side``'s file on the
    game (its part opened with ``key`` where the game hides information): exit code, output."""
    path = tmp_path / f"{name}.txt"
    path.write_text(text)
    opened = ["--key", key] if key is not None else []
    return cli("validate", path, "--state", game, "--side", side, *opened)


def validated(text: str, game: Path, side: str, tmp_path: Path, key: Path | None = None) -> Path:
    """:func:`validate` that must accept the draft: its file ``orders.txt``."""
    code, out = validate(text, game, side, tmp_path, key, name="orders")
    assert code == 0, out
    return tmp_path / "orders.txt"


def refused(
    game: Path, tmp_path: Path, text: str, side: str, rule: str, key: Path | None = None
) -> str:
    """``validate`` refuses ``text`` (a draft edited by hand), citing ``rule``: its output."""
    code, out = validate(text, game, side, tmp_path, key)
    assert code == 1 and f"[{rule}]" in out, out
    return out


def carried_out(demo: Path, game: Path, draft: Path, key: Path, tmp_path: Path, last: str) -> None:
    """The draft signed with ``key`` and adjudicated with the demo's referee key: the game
    has a step after ``last``."""
    signed = tmp_path / "signed.txt"
    code, out = cli("sign", draft, "--key", key, "--game-dir", game, "-o", signed)
    assert code == 0, out
    code, out = cli(
        "adjudicate", game, signed, "--key", demo / "keys" / "referee.key",
        "--referee-dir", tmp_path / "referee",
    )  # fmt: skip
    assert code == 0, out
    assert sorted(p.name for p in (game / "turns").iterdir())[-1] > last  # carried out


def typed_step(root: Path, side: str, lines: list[str]) -> str:
    """``side``'s orders of the prepared game's newest step, typed (the header its options
    give), accepted, signed and adjudicated in the game itself: the new step's name."""
    last, doc = latest(root / "game")
    assert doc["side"] == side, doc["side"]
    text = "\n".join([*doc["header"], "", f"[{doc['section']}]", *lines, ""])
    signed_and_carried_out(root, root / "game", root, text, side, last)
    return latest(root / "game")[0]


def newest_state(game: Path) -> GameState:
    """The referee's whole position after the game's newest step: its record in
    ``secret/`` where the game hides information, else the step's ``state.json``."""
    turn = sorted((game / "turns").iterdir())[-1].name
    kept = game / "secret" / "turns" / turn / "state.json"
    path = kept if kept.is_file() else game / "turns" / turn / "state.json"
    return GameState.from_json(json.loads(path.read_text()))


def report_events(game: Path) -> list[dict[str, Any]]:
    """The events the game's newest (published) report tells: each one's ``kind``, ``rule``,
    ``text`` and ``data``."""
    turn = sorted((game / "turns").iterdir())[-1]
    return list(json.loads((turn / "report.json").read_text())["events"])


def reported(game: Path) -> list[str]:
    """The texts of the events the game's newest report tells."""
    return [str(e.get("text")) for e in report_events(game)]


def revealed_state(demo: Path, pattern: str) -> GameState:
    """The referee's position at the first step of a finished demo whose turn folder's name
    matches ``pattern`` (a glob), from the record the game revealed at its end."""
    turns = demo / "game" / "revealed" / "turns"
    turn = sorted(turns.glob(pattern))[0]
    return GameState.from_json(json.loads((turn / "state.json").read_bytes()))


def signed_and_carried_out(
    demo: Path,
    game: Path,
    tmp_path: Path,
    text: str,
    side: str,
    last: str,
    key: Path | None = None,
) -> None:
    """The draft accepted by ``validate`` (on the side's part opened with ``key`` where the
    game hides information), signed with the side's demo key and carried out
    (:func:`carried_out`)."""
    draft = validated(text, game, side, tmp_path, key)
    carried_out(demo, game, draft, key or side_key(demo, side), tmp_path, last)


def dtp_detection_position() -> tuple[Any, GameState]:
    """The Med map under DTP, the Soviet ship and sub movement of Game-Turn 1 (the short
    scenario): the US CV in 0815, a US DD in 0812, the Soviet CG and SS in 0817 and an SN in
    0814, next to the CV. The detection tests' one position [DTP 6.2a], [DTP 6.2b]: a Soviet
    move to 0816 brings the CG and SS within one hex of the CV."""
    from referee.engine.core import UnitState
    from tests.conformance.rulesets import sixth_fleet_dtp

    module = sixth_fleet_dtp.module()
    state = GameState("detect", module.id, "sixth_fleet_dtp", "short", 1, "ship_movement_a",
                      "Soviet", {}, {})  # fmt: skip
    for pid, side, hex_id in (
        ("US-CV-1", "NATO", "0815"),
        ("US-DD-1", "NATO", "0812"),
        ("SO-CG-2", "Soviet", "0817"),
        ("SO-SS-1", "Soviet", "0817"),
        ("SO-SN-1", "Soviet", "0814"),
    ):
        state = state.with_unit(UnitState(pid, side, hex_id, None))
    return module, state.with_data(damage={}, recycle={}, base_damage={}, combat={})


def demo_step(demo: Path, src: str, turn: str) -> tuple[Any, Any, Any, dict[str, Any]]:
    """The module (from ``module_src/SRC``), ruleset and position after turn folder ``turn``
    of an open demo game, and that step's report: what the options tests compute a side's
    file from."""
    from referee.engine.ruleset import get_ruleset
    from referee.source.loader import load_module

    module = load_module(Path(__file__).resolve().parents[2] / "module_src" / src)[0]
    assert module is not None
    folder = next((demo / "game" / "turns").glob(f"{turn}*"))
    state = GameState.from_json(json.loads((folder / "state.json").read_bytes()))
    report = json.loads((folder / "report.json").read_bytes())
    return module, get_ruleset(module.ruleset), state, report
