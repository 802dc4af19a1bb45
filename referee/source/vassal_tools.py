"""``tools.toml`` of a source without a ruleset: the dice buttons, chart windows and turn
trackers of a VASSAL module (issue 19 §3), as ``referee import-vmod`` writes them.

Each tool is a table whose named keys are the settings a designer edits (a dice button's
number of dice and sides, a chart's name and image, a turn level's items) and whose
``attrs`` keep VASSAL's other settings of that component as VASSAL had them (hotkeys,
icons, report options). The shapes are declared here once (:data:`TOOLS`): the loader
checks a source against them (:func:`check_tools`, every problem with its path, e.g.
``dice[2].sides``) and :mod:`referee.vassal.foreign.vmod_tools` uses the same declarations to read
a module's components and to write them back, so the two directions cannot drift apart.

Pure apart from the image checks, which only ask whether a file exists inside the source.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from referee.safeio import UnsafeInput, resolve_inside
from referee.source.diagnostics import Diagnostics

__all__ = ["SETTINGS", "TEXT", "TOOLS", "Field", "NodeSpec", "chart_pictures", "check_tools"]

M = "VASSAL.build.module."
W = "VASSAL.build.widget."

Kind = Literal["str", "int", "bool", "image", "list"]


TEXT = "#text"
"""The ``attr`` of a field that stands for the element's text, not an attribute (a roster
``entry``'s side, a global option's value)."""


@dataclass(frozen=True)
class Field:
    """One named key of a tool table and the VASSAL attribute it stands for (:data:`TEXT`:
    the element's text)."""

    key: str
    attr: str
    kind: Kind = "str"


@dataclass(frozen=True)
class NodeSpec:
    """A VASSAL component as a table: its element ``tag``, its named ``fields``, and its
    children under ``child_key``: one spec, or several told apart by their ``kind`` key."""

    tag: str
    fields: tuple[Field, ...]
    child_key: str = ""
    children: Mapping[str, NodeSpec] = field(default_factory=dict)


_LEVEL_COMMON = (Field("name", "name"), Field("property", "property"))
_LEVEL_FMT = Field("turn_format", "turnFormat")
_LEVELS: dict[str, NodeSpec] = {}
_LEVELS["list"] = NodeSpec(
    M + "turn.ListTurnLevel",
    (*_LEVEL_COMMON, Field("items", "list", "list"), _LEVEL_FMT),
    "levels",
    _LEVELS,
)
_LEVELS["counter"] = NodeSpec(
    M + "turn.CounterTurnLevel",
    (
        *_LEVEL_COMMON,
        Field("start", "start", "int"),
        Field("step", "incr", "int"),
        Field("loop", "loop", "bool"),
        Field("limit", "loopLimit", "int"),
        _LEVEL_FMT,
    ),
    "levels",
    _LEVELS,
)

_WIDGETS: dict[str, NodeSpec] = {}
_WIDGETS["chart"] = NodeSpec(
    W + "Chart", (Field("chart", "chartName"), Field("image", "fileName", "image"))
)
for _kind, _cls in (("tabs", "TabWidget"), ("panel", "PanelWidget"), ("list", "ListWidget"),
                    ("box", "BoxWidget")):  # fmt: skip
    _WIDGETS[_kind] = NodeSpec(W + _cls, (Field("name", "entryName"),), "widgets", _WIDGETS)

_FACE = NodeSpec(
    M + "SpecialDieFace",
    (Field("text", "text"), Field("value", "value", "int"), Field("icon", "icon", "image")),
)
_DIE = NodeSpec(
    M + "SpecialDie", (Field("name", "name"), Field("report", "format")), "faces", {"": _FACE}
)
_BUTTON = (Field("name", "name"), Field("button", "text"), Field("tooltip", "tooltip"))

TOOLS: dict[str, NodeSpec] = {
    "dice": NodeSpec(
        M + "DiceButton",
        (
            *_BUTTON,
            Field("dice", "nDice", "int"),
            Field("sides", "nSides", "int"),
            Field("plus", "plus", "int"),
            Field("add", "addToTotal", "int"),
            Field("total", "reportTotal", "bool"),
            Field("report", "reportFormat"),
        ),
    ),
    "special_dice": NodeSpec(
        M + "SpecialDiceButton", (*_BUTTON, Field("report", "format")), "die", {"": _DIE}
    ),
    "chart_window": NodeSpec(M + "ChartWindow", _BUTTON, "widgets", _WIDGETS),
    "turn_tracker": NodeSpec(
        M + "turn.TurnTracker",
        (
            Field("name", "name"),
            Field("button", "buttonText"),
            Field("tooltip", "tooltip"),
            Field("turn_format", "turnFormat"),
            Field("report", "reportFormat"),
        ),
        "levels",
        _LEVELS,
    ),
}

_DOCS: dict[str, NodeSpec] = {
    "about": NodeSpec(
        M + "documentation.AboutScreen", (Field("title", "title"), Field("file", "fileName"))
    ),
    "help": NodeSpec(
        M + "documentation.HelpFile",
        (Field("title", "title"), Field("file", "fileName"), Field("file_type", "fileType")),
    ),
    "browser_help": NodeSpec(
        M + "documentation.BrowserHelpFile",
        (Field("title", "title"), Field("start", "startingPage")),
    ),
    "browser_pdf": NodeSpec(
        M + "documentation.BrowserPDFFile", (Field("title", "title"), Field("file", "pdfFile"))
    ),
    "tutorial": NodeSpec(
        M + "documentation.Tutorial", (Field("name", "name"), Field("log", "logfile"))
    ),
}
SETTINGS: dict[str, NodeSpec] = {
    "roster": NodeSpec(
        M + "PlayerRoster",
        (Field("button", "buttonText"), Field("tooltip", "buttonToolTip")),
        "sides",
        {"": NodeSpec("entry", (Field("name", TEXT),))},
    ),
    "global_options": NodeSpec(
        M + "GlobalOptions",
        (Field("auto_report", "autoReport"), Field("player_id", "playerIdFormat")),
        "options",
        {"": NodeSpec("option", (Field("name", "name"), Field("value", TEXT)))},
    ),
    "documentation": NodeSpec(M + "Documentation", (), "parts", _DOCS),
}
"""The module's own settings (``tools.toml``): the player roster (VASSAL's sides, a
Solitaire seat included), the global options, the help files and About screen. ``build``
writes each where every module has it, the default when the source has none."""

TOOLS.update(SETTINGS)
TOOLS.update(
    {
        "action_button": NodeSpec(
            M + "DoActionButton", (*_BUTTON, Field("report", "reportFormat"))
        ),
        "toolbar_menu": NodeSpec(
            M + "ToolbarMenu",
            (
                Field("button", "text"),
                Field("tooltip", "tooltip"),
                Field("description", "description"),
                Field("items", "menuItems", "list"),
            ),
        ),
        "notes": NodeSpec(
            M + "NotesWindow", (Field("button", "buttonText"), Field("tooltip", "tooltip"))
        ),
        "global_properties": NodeSpec(
            M + "properties.GlobalProperties",
            (),
            "properties",
            {
                "": NodeSpec(
                    M + "properties.GlobalProperty",
                    (
                        Field("name", "name"),
                        Field("initial", "initialValue"),
                        Field("description", "description"),
                    ),
                    "buttons",
                    {
                        "": NodeSpec(
                            M + "properties.ChangePropertyButton",
                            (Field("button", "text"), Field("report", "report")),
                        )
                    },
                )
            },
        ),
        "language": NodeSpec(
            "VASSAL.i18n.Language",
            (),
            "translations",
            {"": NodeSpec("VASSAL.i18n.Translation", (Field("locale", "locale"),))},
        ),
    }
)
"""Top-level arrays of ``tools.toml``, in the order ``build`` writes them: the tools, then
the module's settings, then its action buttons (a phase button of a phase menu), toolbar
menus (their ``items`` name the buttons they group), notes window, global properties (each
with its change buttons: the numbers players track) and translations (each ``.properties``
file is carried under ``files/``)."""


def _check_value(value: Any, kind: Kind) -> str | None:
    """What is wrong with ``value`` for a field of ``kind``, or None."""
    if kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else "expected an integer"
    if kind == "bool":
        return None if isinstance(value, bool) else "expected true or false"
    if kind == "list":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return None if ok else "expected a list of strings"
    if not isinstance(value, str):
        return "expected a string"
    if kind == "image" and value and not value.startswith("images/"):
        return "expected an image file under images/ (or empty)"
    return None


def _check_node(
    node: Any, spec: NodeSpec, path: str, file: str, root: Path, diags: Diagnostics
) -> None:
    if not isinstance(node, dict):
        diags.error(file, None, f"{path}: expected a table")
        return
    known = {f.key for f in spec.fields} | {"attrs"}
    if spec.child_key:
        known.add(spec.child_key)
    if len(spec.children) > 1 or "" not in spec.children:
        known.add("kind")
    for key in sorted(set(node) - known):
        diags.error(file, None, f"{path}: unknown key {key!r} (known: {', '.join(sorted(known))})")
    for f in spec.fields:
        if f.key not in node:
            continue
        why = _check_value(node[f.key], f.kind)
        if why is not None:
            diags.error(file, None, f"{path}.{f.key}: {why}, got {node[f.key]!r}")
        elif f.kind == "image" and node[f.key]:
            _check_image(node[f.key], f"{path}.{f.key}", file, root, diags)
    attrs = node.get("attrs", {})
    if not isinstance(attrs, dict) or not all(isinstance(v, str) for v in attrs.values()):
        diags.error(file, None, f"{path}.attrs: expected a table of strings (VASSAL's settings)")
    kids = node.get(spec.child_key, []) if spec.child_key else []
    if not isinstance(kids, list):
        diags.error(file, None, f"{path}.{spec.child_key}: expected a list")
        return
    for i, kid in enumerate(kids):
        where = f"{path}.{spec.child_key}[{i}]"
        if "" in spec.children:
            _check_node(kid, spec.children[""], where, file, root, diags)
            continue
        kind = kid.get("kind") if isinstance(kid, dict) else None
        if kind not in spec.children:
            diags.error(
                file,
                None,
                f"{where}.kind: expected one of {', '.join(spec.children)}, got {kind!r}",
            )
            continue
        _check_node(kid, spec.children[kind], where, file, root, diags)


def _check_image(name: str, path: str, file: str, root: Path, diags: Diagnostics) -> None:
    try:
        found = resolve_inside(root, name, what="image").is_file()
    except UnsafeInput as exc:
        diags.error(file, None, f"{path}: {exc}")
        return
    if not found:
        diags.warning(
            file, None, f"{path}: image {name!r} is not in the source (VASSAL will say so)"
        )


def check_tools(
    data: Mapping[str, Any], file: str, root: Path, diags: Diagnostics
) -> dict[str, list[dict[str, Any]]]:
    """The tool tables of ``tools.toml`` after checking them against :data:`TOOLS`; every
    problem goes to ``diags`` with its path (``chart_window[0].widgets[1].image``)."""
    for key in sorted(set(data) - set(TOOLS)):
        diags.error(file, None, f"unknown table {key!r} (known: {', '.join(TOOLS)})")
    out: dict[str, list[dict[str, Any]]] = {}
    for key, spec in TOOLS.items():
        items = data.get(key, [])
        if not isinstance(items, list):
            diags.error(file, None, f"{key}: expected an array of tables ([[{key}]])")
            continue
        for i, item in enumerate(items):
            _check_node(item, spec, f"{key}[{i}]", file, root, diags)
        out[key] = [i for i in items if isinstance(i, dict)]
    return out


def chart_pictures(tools: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each chart the chart windows of checked ``tools`` (:func:`check_tools`) show, as
    (its name, its image under the source), in the module's order: an imported module's own
    play aids, by the module's own names (a chart with no name takes its window's)."""
    found: list[tuple[str, str]] = []

    def walk(widgets: Any, window: str) -> None:
        for w in widgets if isinstance(widgets, list) else ():
            if not isinstance(w, dict):
                continue
            if w.get("kind") == "chart" and w.get("image"):
                found.append((str(w.get("chart") or window), str(w["image"])))
            walk(w.get("widgets"), window)

    for window in tools.get("chart_window") or ():
        if isinstance(window, dict):
            walk(window.get("widgets"), str(window.get("name") or window.get("button") or ""))
    return found
