"""Dice buttons, chart windows and turn trackers between a VASSAL module and ``tools.toml``
(issue 19 §3), in both directions, from the one declaration of their shapes
(:data:`referee.source.vassal_tools.TOOLS`).

* :func:`read_tools` (``import-vmod``): each such component of the module as a table: the
  named settings typed (``dice = 2``, ``sides = 6``; a chart's ``image`` a file under
  ``images/``; a list level's ``items``), VASSAL's other settings kept as text in ``attrs``,
  children (special dice and their faces, chart tabs and panels, nested turn levels) nested.
  Whatever has no place in the tables is returned as a report item, never dropped silently:
  a child of a kind the format does not have (a turn tracker's global hotkeys, an HTML chart,
  a map inside a chart window), a chart image or die face icon missing from the archive.
  A setting whose text is not of its type (``nDice="x"``) stays in ``attrs`` as it was.
* :func:`add_tools` (``build``): the elements back under the module, every setting as it was.

Pure: no disk access.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from lxml import etree

from referee.source.vassal_tools import TEXT, TOOLS, Field, NodeSpec
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.safezip import check_entry_name
from referee.vassal.codec.sequence import decode_string_array, encode_string_array

__all__ = ["TOOL_TAGS", "add_tools", "read_tools"]

TOOL_TAGS = tuple(spec.tag for spec in TOOLS.values())
"""Module components carried by ``tools.toml``."""

Note = Callable[[str, str], None]
_INT = re.compile(r"-?[0-9]+")


def _short(tag: str) -> str:
    return tag.rsplit(".", 1)[-1]


def _typed(raw: str, f: Field, where: str, entries: Mapping[str, bytes], note: Note) -> Any:
    """The TOML value of attribute text ``raw`` for ``f``, or None when it is not of the
    field's type (then the text stays in ``attrs``)."""
    if f.kind == "int":
        return int(raw) if _INT.fullmatch(raw) else None
    if f.kind == "bool":
        return {"true": True, "false": False}.get(raw)
    if f.kind == "list":
        return decode_string_array(raw)
    if f.kind == "image":
        name = raw.strip()
        if not name:
            return ""
        why = check_entry_name(name) or check_entry_name("images/" + name)
        if why is not None:
            raise VassalFormatError(where, f"image name refused: {why}")
        if "images/" + name not in entries:
            note(where, f"image {name!r} is not in the archive")
        return "images/" + name
    return raw


def _table(
    el: etree._Element, spec: NodeSpec, where: str, entries: Mapping[str, bytes], note: Note
) -> dict[str, Any]:
    attrs = {str(k): str(v) for k, v in el.attrib.items()}
    table: dict[str, Any] = {}
    for f in spec.fields:
        if f.attr == TEXT:
            table[f.key] = (el.text or "").strip()
        elif f.attr in attrs:
            value = _typed(attrs[f.attr], f, where, entries, note)
            if value is not None:
                table[f.key] = value
                del attrs[f.attr]
    table["attrs"] = dict(sorted(attrs.items()))
    if not spec.child_key:
        return table
    kinds = {s.tag: k for k, s in spec.children.items()}
    kids: list[dict[str, Any]] = []
    for child in el:
        if not isinstance(child.tag, str):
            continue
        tag = str(child.tag)
        label = (
            child.get("name")
            or child.get("entryName")
            or child.get("chartName")
            or child.get("text")
            or (child.text or "").strip()[:40]
            or ""
        )
        inner = f"{where} > {_short(tag)}" + (f" {label!r}" if label else "")
        if tag not in kinds:
            note(inner, _why_not(tag))
            continue
        kid = _table(child, spec.children[kinds[tag]], inner, entries, note)
        if kinds[tag]:
            kid = {"kind": kinds[tag], **kid}
        kids.append(kid)
    table[spec.child_key] = kids
    return table


def _why_not(tag: str) -> str:
    if tag == "VASSAL.build.module.turn.TurnGlobalHotkey":
        return (
            "a turn tracker's global hotkey: not carried over (it fires key commands of the "
            "module, which are not carried over either)"
        )
    return "not carried over (tools.toml has no such component)"


def read_tools(
    root: etree._Element, entries: Mapping[str, bytes], note: Note
) -> dict[str, list[dict[str, Any]]]:
    """Every dice button, special dice button, chart window and turn tracker directly under
    the module, as ``tools.toml`` tables (module order within each kind)."""
    out: dict[str, list[dict[str, Any]]] = {key: [] for key in TOOLS}
    by_tag = {spec.tag: key for key, spec in TOOLS.items()}
    for el in root:
        if not isinstance(el.tag, str) or el.tag not in by_tag:
            continue
        key = by_tag[str(el.tag)]
        label = el.get("name") or el.get("text") or el.get("buttonText") or ""
        where = f"module component {_short(str(el.tag))}" + (f" {label!r}" if label else "")
        out[key].append(_table(el, TOOLS[key], where, entries, note))
    return out


def _attr_text(value: Any, f: Field) -> str:
    if f.kind == "bool":
        return "true" if value else "false"
    if f.kind == "int":
        return str(value)
    if f.kind == "list":
        return encode_string_array(list(value))
    if f.kind == "image":
        return str(value)[len("images/") :] if value else ""
    return str(value)


def _element(parent: etree._Element, node: Mapping[str, Any], spec: NodeSpec) -> None:
    attrs = {str(k): str(v) for k, v in (node.get("attrs") or {}).items()}
    text = None
    for f in spec.fields:
        if f.key in node and f.attr == TEXT:
            text = str(node[f.key])
        elif f.key in node:
            attrs[f.attr] = _attr_text(node[f.key], f)
    el = etree.SubElement(parent, spec.tag, dict(sorted(attrs.items())))
    if text:
        el.text = text
    for kid in node.get(spec.child_key, []) if spec.child_key else []:
        kind = "" if "" in spec.children else str(kid.get("kind"))
        _element(el, kid, spec.children[kind])


def add_tools(
    root: etree._Element,
    tools: Mapping[str, list[Mapping[str, Any]]],
    kinds: Collection[str] | None = None,
) -> None:
    """The tools of a checked ``tools.toml`` as module components under ``root`` (only those
    of ``kinds`` when given)."""
    for key, spec in TOOLS.items():
        if kinds is not None and key not in kinds:
            continue
        for node in tools.get(key, []):
            _element(root, node, spec)
