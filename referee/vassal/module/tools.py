"""The tools players reach for, as buildFile components: help, notes, inventory, the
line-of-sight thread, hide-pieces, the stack viewer, and the one turn tracker with its
clearing commands (vassal-format.md §3; attribute names as VASSAL 3.7.26 writes them).

* **Help** menu: the module's rules summary (``help/rules.html`` in the archive, written by
  :func:`help_html` from the module source: sides, scenarios, sequence of play, markers and
  their keys, charts) and an **About** screen (``images/about.png``).
* **Notes** window: VASSAL's scenario, public and private notes (private notes are how PBEM
  players keep their plans).
* **Inventory**: every unit by side, then by where it is (the map: board, Eliminated,
  holding boxes, set-up area), each line with its location.
* Main Map: a **line-of-sight thread** reporting the range in hexes (``scale="0"``: grid
  units), a **hide-pieces** button, **moved markers** with a "clear moved" button, and a
  **stack viewer** showing each counter's printed values on mouse-over.
* The **turn tracker** of :mod:`referee.vassal.module.tracker` with a ``TurnGlobalHotkey`` per
  clearing and the module ``GlobalKeyCommand`` each one fires.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Final

from lxml import etree

from referee.vassal.codec.sequence import encode_string_array
from referee.vassal.module.palette import ATTACKED_LAYER, RETURNING_LAYER
from referee.vassal.module.plan import ModulePlan
from referee.vassal.module.tracker import PHASE_PROPERTY, TURN_PROPERTY
from referee.vassal.module.traits import key_stroke

__all__ = [
    "HELP_FILE",
    "documentation",
    "help_html",
    "inventory",
    "main_map_tools",
    "notes_window",
    "stack_viewer_attrs",
    "turn_tracker",
]

M: Final = "VASSAL.build.module."
MAP: Final = M + "map."
HELP_FILE: Final = "help/rules.html"
"""The archive entry of the rules summary the Help menu opens."""


def _el(parent: etree._Element, tag: str, attrs: Mapping[str, str]) -> etree._Element:
    """A child element with its attributes in sorted order (as VASSAL writes them)."""
    el = etree.SubElement(parent, tag)
    for key, value in sorted(attrs.items()):
        el.set(key, value)
    return el


def documentation(doc: etree._Element, plan: ModulePlan) -> None:
    """The Help menu: an About screen and the module's rules summary."""
    _el(doc, M + "documentation.AboutScreen",
        {"fileName": plan.about_image, "title": f"About {plan.module.name}"})  # fmt: skip
    _el(
        doc,
        M + "documentation.HelpFile",
        {"fileName": HELP_FILE, "fileType": "archive",
         "title": f"{plan.module.name}: rules summary"},
    )  # fmt: skip


DICE_REPORT: Final = "** $name$ = $result$ *** &lt;$PlayerName$&gt;"
DICE_MENU: Final = "Dice"


def dice_menu(root: etree._Element, plan: ModulePlan) -> None:
    """The game's own dice, grouped in one toolbar menu (as the best community modules do):
    one six-sided die, then every roll of several dice the ruleset declares
    (``RulesetSchema.dice``: 2d6 where its rules roll two dice, the higher of two where a
    rule keeps it), each button's tooltip naming the cases that roll it."""
    from referee.source.schema import DiceDecl

    schema = plan.module.schema
    rolls = (DiceDecl("1d6", 1, ""), *(schema.dice if schema is not None else ()))
    _el(
        root,
        M + "ToolbarMenu",
        {"canDisable": "false", "description": "The game's dice", "disabledIcon": "",
         "hideWhenDisabled": "false", "hotkey": "", "icon": "",
         "menuItems": ",".join(r.name for r in rolls), "propertyGate": "",
         "text": DICE_MENU, "tooltip": "Roll the game's dice"},
    )  # fmt: skip
    for roll in rolls:
        what = "one six-sided die" if roll.dice == 1 else f"{roll.dice} six-sided dice"
        if roll.keep_higher:
            what += ", keep the higher"
        _el(
            root,
            M + "DiceButton",
            {"addToTotal": "0", "hotkey": "", "icon": "", "keepCount": "1",
             "keepDice": _true(roll.keep_higher),
             # VASSAL 3.7 keeps the largest keepCount dice whenever keepOption is "l",
             # keepDice or not: only the kept roll may say "l"
             "keepOption": "l" if roll.keep_higher else ">", "lockAdd": "false",
             "lockDice": "false", "lockPlus": "false", "lockSides": "false",
             "nDice": str(roll.dice), "nSides": str(roll.sides), "name": roll.name,
             "plus": "0", "prompt": "false", "reportFormat": DICE_REPORT,
             "reportTotal": _true(roll.dice > 1), "sortDice": "false", "text": roll.name,
             "tooltip": f"Roll {what}" + (f" [{roll.rule}]" if roll.rule else "")},
        )  # fmt: skip


def _true(value: bool) -> str:
    return "true" if value else "false"


def notes_window(root: etree._Element) -> None:
    _el(
        root,
        M + "NotesWindow",
        {"buttonText": "Notes", "description": "", "hotkey": "78,195", "icon": "",
         "tooltip": "Scenario, public and private notes (private notes stay yours)"},
    )  # fmt: skip


def inventory(root: etree._Element) -> None:
    """Units by side, then by the map they are on (board, Eliminated, holding boxes,
    set-up area), each with its location."""
    _el(
        root,
        M + "Inventory",
        {
            "centerOnPiece": "true",
            "cutLeaves": "0",
            "cutRoot": "0",
            "drawPieces": "false",
            "foldersOnly": "false",
            "forwardKeystroke": "true",
            "groupBy": "Side,CurrentMap",
            "hotkey": "73,195",
            "icon": "",
            "include": '{UnitId!=""}',
            "launchFunction": "functionHide",
            "leafFormat": "$PieceName$ ($LocationName$)",
            "name": "Inventory",
            "nonLeafFormat": "$PropertyValue$",
            "refreshHotkey": "",
            "showMenu": "true",
            "sides": "",
            "sortFormat": "$UnitId$",
            "sortPieces": "true",
            "sorting": "alpha",
            "text": "Inventory",
            "tooltip": "Units by side and by where they are",
        },
    )


def stack_viewer_attrs(plan: ModulePlan) -> dict[str, str]:
    """The Main Map's mouse-over stack viewer: every counter of the stack with its printed
    values (``AA-AS-ASW-MA-DEF-ECM`` for Sixth Fleet) and the location."""
    values = "-".join(f"${spec.key}$" for spec in plan.module.values)
    return {
        "borderWidth": "0",
        "counterReportFormat": f"$UnitId$ {values}".strip() if values else "$UnitId$",
        "delay": "700",
        "description": "Mouse-over: the stack's counters and their values",
        "display": "from top-most layer only",
        "emptyHexReportForma": "$LocationName$",
        "fgColor": "0,0,0",
        "fontSize": "11",
        "graphicsZoom": "1.0",
        "hotkey": "32,130",
        "layerList": "",
        "minDisplayPieces": "1",
        "propertyFilter": "",
        "showDeck": "false",
        "showMoveSelectde": "false",
        "showNoStack": "false",
        "showNonMovable": "true",
        "showgraph": "true",
        "showtext": "true",
        "summaryReportFormat": "$LocationName$",
        "unrotatePieces": "false",
        "version": "4",
        "zoomlevel": "1.0",
    }


def main_map_tools(map_el: etree._Element, plan: ModulePlan) -> None:
    """Configure the stack viewer and add hide-pieces and the line-of-sight thread."""
    viewer = map_el.find(MAP + "CounterDetailViewer")
    if viewer is not None:
        viewer.attrib.clear()
        for key, value in sorted(stack_viewer_attrs(plan).items()):
            viewer.set(key, value)
    _el(
        map_el,
        MAP + "HidePiecesButton",
        {"buttonText": "Hide", "hiddenIcon": "", "hotkey": "72,195", "showingIcon": "",
         "tooltip": "Hide all pieces on this map (see the board)"},
    )  # fmt: skip
    hexes = plan.module.map.grid is not None
    _el(
        map_el,
        MAP + "LOS_Thread",
        {
            "canDisable": "false",
            "disabledIcon": "",
            "drawRange": "true" if hexes else "false",
            "global": "Always",
            "hideCounters": "false",
            "hideOpacity": "40",
            "hideWhenDisabled": "false",
            "hotkey": "76,195",
            "iconName": "",
            "label": "Range",
            "losThickness": "2",
            "persistence": "Ctrl-Click & Drag",
            "persistentIconName": "",
            "propertyGate": "",
            "rangeBg": "0,0,0",
            "rangeFg": "255,255,255",
            "report": "$playerId$ range from $FromLocation$ to $ToLocation$: $Range$ hexes"
            if hexes
            else "$playerId$ thread from $FromLocation$ to $ToLocation$",
            "round": "Nearest whole number",
            "scale": "0",
            "snapEnd": "true",
            "snapStart": "true",
            "threadColor": "255,0,0",
            "threadName": "Range",
            "tooltip": "Drag between two hexes: the range in hexes",
        },
    )


def turn_tracker(root: etree._Element, plan: ModulePlan) -> None:
    """The one TurnTracker (Game-Turn, then Phase) with a TurnGlobalHotkey per clearing,
    and the module GlobalKeyCommand each hotkey fires."""
    tp = plan.tracker
    assert tp is not None
    fmt = "$level1$ $level2$" if tp.phases else "$level1$"
    tracker = _el(
        root,
        M + "turn.TurnTracker",
        {
            "buttonText": "Turn",
            "hotkey": "",
            "icon": "",
            "length": "-1",
            "lengthStyle": "Maximum",
            "name": "Game-Turn",
            "reportFormat": "* $newTurn$ *",
            "tooltip": "Game-Turn and phase; the scenario's set-up sets it",
            "turnFormat": fmt,
        },
    )
    level = _el(
        tracker,
        M + "turn.ListTurnLevel",
        {"configFirst": "false", "configList": "false",
         "list": encode_string_array(list(tp.turns)), "name": "Game-Turn", "prompt": "",
         "property": TURN_PROPERTY, "turnFormat": "$value$"},
    )  # fmt: skip
    if tp.phases:
        _el(
            level,
            M + "turn.ListTurnLevel",
            {"configFirst": "false", "configList": "false",
             "list": encode_string_array(list(tp.phases)), "name": "Phase", "prompt": "",
             "property": PHASE_PROPERTY, "turnFormat": "$value$"},
        )  # fmt: skip
    for clear in tp.clears:
        _el(tracker, M + "turn.TurnGlobalHotkey",
            {"hotkey": clear.hotkey, "match": clear.match, "name": clear.name,
             "reportFormat": ""})  # fmt: skip
    for clear in tp.clears:
        _el(
            root,
            M + "GlobalKeyCommand",
            {"buttonHotkey": clear.hotkey, "buttonText": "", "deckCount": "-1",
             "filter": clear.filter, "hotkey": _layer_key(plan, clear.layer), "icon": "",
             "name": clear.name, "reportFormat": "", "reportSingle": "true",
             "tooltip": f"{clear.name} [{clear.rule}]"},
        )  # fmt: skip


def _layer_key(plan: ModulePlan, layer: str) -> str:
    specs = {s.name: s for s in (ATTACKED_LAYER, RETURNING_LAYER)}
    specs.update((m.spec.name, m.spec) for m in plan.marker_layers)
    return key_stroke(specs[layer].key)


def help_html(plan: ModulePlan) -> bytes:
    """The rules summary of the Help menu, from the module source (HTML 3.2, which VASSAL's
    help window shows)."""
    module = plan.module
    e = html.escape
    out = [
        "<html><head><title>" + e(module.name) + "</title></head><body>",
        f"<h1>{e(module.name)} {e(module.version)}</h1>",
    ]
    if module.description:
        out.append(f"<p>{e(module.description)}</p>")
    out.append("<h2>Sides</h2><ul>")
    out += [f"<li>{e(s.name)} ({e(s.id)})</li>" for s in module.sides]
    out.append("</ul><h2>Scenarios</h2><ul>")
    for scn in module.scenarios.values():
        text = f"{scn.turns} Game-Turns, first player {scn.first_player}"
        out.append(f"<li><b>{e(scn.name)}</b>: {e(text)}. {e(scn.description)}</li>")
    out.append("</ul>")
    tp = plan.tracker
    if tp is not None and tp.phases:
        out.append("<h2>Sequence of play (the turn tracker's phases)</h2><ol>")
        for name, step in zip(tp.phases, tp.steps, strict=True):
            once = " (once, before Game-Turn 1)" if step.once else ""
            out.append(f"<li>{e(name)} [{e(step.rule)}]{e(once)}</li>")
        out.append("</ol>")
        if tp.clears:
            out.append("<p>When a phase ends the tracker clears its markers:</p><ul>")
            out += [f"<li>{e(c.name)} [{e(c.rule)}]</li>" for c in tp.clears]
            out.append("</ul>")
    out.append("<h2>Counter keys</h2><ul>")
    shown = {layer for _marker, layer in plan.shown_markers}
    layers = [s for s in (ATTACKED_LAYER, RETURNING_LAYER) if s.name in shown]
    for spec in layers:
        out.append(f"<li>Ctrl+{e(spec.key)}: {e(spec.command)} ({e(spec.description)})</li>")
    for m in plan.marker_layers:
        spec = m.spec
        if m.levels:  # one layer with levels (:mod:`referee.vassal.module.levels`)
            out.append(
                f"<li>Ctrl+{e(spec.key)} / Ctrl+Shift+{e(spec.key)}: {e(spec.name)} up / down, "
                f"{e(m.levels[1])} to {e(m.levels[-1])} ({e(spec.description)})</li>"
            )
        else:
            out.append(f"<li>Ctrl+{e(spec.key)}: {e(spec.command)} ({e(spec.description)})</li>")
    for loc in plan.location_markers:
        d = loc.decl
        out.append(
            f"<li>{e(d.name)} marker (Markers list): Ctrl+{e(loc.key)} / "
            f"Ctrl+Shift+{e(loc.key)} up / down, "
            f"{e(loc.names[0])} to {e(loc.names[-1])} ({e(d.note)} [{e(d.rule)}])</li>"
        )
    out += [
        "<li>Ctrl+E: Eliminate (to the side's box of the Eliminated map)</li>",
        "<li>Ctrl+D: Delete; Ctrl+C: Clone (markers)</li>",
        "<li>Ctrl+Shift+L: range thread (hexes); Ctrl+Shift+H: hide pieces; "
        "Ctrl+Shift+N: notes; Ctrl+Shift+I: inventory</li>",
        "</ul>",
    ]
    if plan.charts:
        out.append("<h2>Charts (Charts window)</h2><ul>")
        out += [f"<li>{e(c.name)}</li>" for c in plan.charts]
        out.append("</ul>")
    out.append("</body></html>")
    return ("\n".join(out) + "\n").encode("utf-8")
