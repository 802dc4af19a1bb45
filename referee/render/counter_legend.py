"""The legend of the counter sheet: what each part of a counter means.

Nothing on a bare counter sheet says what the orange band, the ``C``, the ``M`` or the ``B``
mean, or in which order the values are printed. The legend shows one sample counter of each
front layout, enlarged, with a leader line from each part to its meaning, and the
nationalities with their colours. It is made from DATA only:

* a box's ``legend`` text in ``[[counter.layout.box]]`` (e.g. the daylight band [9.52], the
  carrier mark [9.11], the fleet letter [3.25]);
* a box printing values (``{AA}-{AS}-{ASW}``) is explained from the ``[[value]]`` labels
  (the ``air_label`` on a layout only air units use, e.g. Range Allowance [3.23]);
* the ``[[nationality]]`` table (code, name, colour).

The sample of a layout is the roster's first unit that shows the most explained boxes, so the
band, the ``C`` and the fleet letter all appear when any unit has them. The sample is the
counter's own face model (:func:`referee.render.counters.face_art`) enlarged: vector shapes
and text, sharp at any size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.render.counters import box_shows, face_art, face_layout, unit_fields
from referee.render.drawing import Item, Line, Rect, Text, transformed
from referee.render.fonts import pil_font
from referee.source.model import CounterLayout, LayoutBox, Module, UnitDef

TEXT_PT = 6.5
TITLE_PT = 8.0
LEADER = "#555555"


@dataclass(frozen=True, slots=True)
class Callout:
    """One explained part of a sample counter: the box (fractions of the side) and its text."""

    box: LayoutBox
    text: str


def _value_labels(module: Module, template: str, air: bool) -> str:
    keys = re.findall(r"\{([^}:]+)\}", template)
    by_key = {v.key: v for v in module.values}
    parts = []
    for k in keys:
        v = by_key.get(k)
        if v is None:
            return ""
        parts.append(v.air_label if air and v.air_label else v.label)
    return "-".join(keys) + ": " + ", ".join(parts)


def _air_only(module: Module, layout: CounterLayout) -> bool:
    cats = {u.category for u in module.units if face_layout(module, u).name == layout.name}
    return cats == {"air"}


def callouts(module: Module, layout: CounterLayout, unit: UnitDef) -> list[Callout]:
    """The explained boxes of ``layout`` that show on ``unit``, top to bottom."""
    fields = unit_fields(module, unit)
    air = _air_only(module, layout)
    out = []
    for box in layout.boxes:
        if not box_shows(box, unit):
            continue
        if box.kind in ("text", "mark") and box.text:
            try:
                filled = box.text.format(**fields).strip()
            except (KeyError, ValueError, IndexError):
                filled = ""
            if not filled:
                continue
        text = box.legend or ""
        if not text and box.kind == "text":
            text = _value_labels(module, box.text, air)
        if text:
            out.append(Callout(box, text))
    # top to bottom; in one row right to left, so the leader lines do not cross
    return sorted(out, key=lambda c: (round((c.box.y + c.box.h / 2) * 10), -c.box.x))


def sample_units(module: Module) -> list[tuple[CounterLayout, UnitDef]]:
    """One sample unit per front layout in use, in roster order of first use. A counter of
    the designer's art is no sample unless its values are printed over it (the layout's
    boxes are not where its art shows them)."""
    best: dict[str, tuple[int, int, UnitDef]] = {}
    order: list[str] = []
    for n, u in enumerate(module.units):
        if u.art is not None and not u.art.print_values:
            continue
        lay = face_layout(module, u)
        score = len(callouts(module, lay, u))
        if lay.name not in best:
            order.append(lay.name)
        if lay.name not in best or score > best[lay.name][0]:
            best[lay.name] = (score, n, u)
    return [(module.counter.layouts[name], best[name][2]) for name in order]


def sample_counter(
    module: Module,
    layout: CounterLayout,
    unit: UnitDef,
    x: float,
    y: float,
    side: float,
    picture_dpi: int | None = None,
) -> list[Item]:
    """``unit``'s front (its ``layout``) as vector items, ``side`` points square, top-left
    at ``(x, y)``: the face model the counters themselves are drawn from, enlarged (a roster
    picture in it is the counters' own, at ``picture_dpi``)."""
    art = face_art(module, unit, picture_dpi=picture_dpi)
    assert face_layout(module, unit).name == layout.name
    return transformed(art.items, x, y, side / art.size_px)


def _width(text: str, size: float) -> float:
    return pil_font("condensed", size).getlength(text)


def _pieces(word: str, room: float) -> list[str]:
    """``word`` cut to fit ``room`` points: after its hyphens ("Anti-" "Submarine"), then, for
    a piece still too long, letter by letter; a word that fits stays whole. Without this a
    long value label ("AG-EW-AA-AS-AS-MA:", "Anti-Submarine") ran under the next sample
    counter and was cut off (Sixth Fleet 2019, Naval Module sheets)."""
    if _width(word, TEXT_PT) <= room:
        return [word]
    out: list[str] = []
    for part in re.findall(r"[^-]*-|[^-]+$", word):
        if out and _width(out[-1] + part, TEXT_PT) <= room:
            out[-1] += part
            continue
        out.append("")
        for ch in part:
            # punctuation stays on its word's line (a line of its own reads as a typo)
            if out[-1] and ch not in ",.;:" and _width(out[-1] + ch, TEXT_PT) > room:
                out.append("")
            out[-1] += ch
    return out


def _wrap(text: str, room: float) -> list[str]:
    """``text`` in lines of at most ``room`` points (a longer word is cut, ``_pieces``)."""
    lines: list[str] = []
    for word in text.split():
        first, *rest = _pieces(word, room)
        if lines and _width(lines[-1] + " " + first, TEXT_PT) <= room:
            lines[-1] += " " + first
        else:
            lines.append(first)
        lines.extend(rest)
    return lines or [""]


def _nationalities(module: Module) -> list[tuple[str, str, str]]:
    used = {u.nationality for u in module.units}
    return [
        (n.code, n.name, n.color)
        for n in sorted(module.nationalities.values(), key=lambda n: n.code)
        if n.code in used
    ]


def legend_height(module: Module, width: float, scale: float = 2.0) -> float:
    """Points the legend needs at ``width`` points wide."""
    return _layout(module, 0.0, 0.0, width, scale, None)[1]


def legend_items(
    module: Module,
    x: float,
    y: float,
    width: float,
    scale: float = 2.0,
    picture_dpi: int | None = None,
) -> list[Item]:
    """The legend's drawing items, top-left at ``(x, y)``, ``width`` points wide; roster
    pictures at ``picture_dpi`` (``sheets --art-dpi``)."""
    items, _ = _layout(module, x, y, width, scale, picture_dpi)
    return items


def _layout(
    module: Module, x0: float, y0: float, width: float, scale: float, picture_dpi: int | None
) -> tuple[list[Item], float]:
    samples = sample_units(module)
    if not samples:  # every counter is the designer's art: nothing of ours to explain
        return [], 0.0
    side = module.counter.size_in * 72.0 * scale
    items: list[Item] = [Text(x0, y0 + TITLE_PT, "How to read a counter", "bold", TITLE_PT)]
    top = y0 + TITLE_PT + 6
    cell = width / max(1, len(samples))
    line_h = TEXT_PT * 1.35
    bottom = top
    for i, (layout, unit) in enumerate(samples):
        cx = x0 + i * cell
        items.extend(sample_counter(module, layout, unit, cx, top, side, picture_dpi))
        notes = callouts(module, layout, unit)
        tx = cx + side + 14
        room = cell - side - 18
        wrapped = [_wrap(c.text, room) for c in notes]
        rows = sum(len(w) for w in wrapped)
        span = max(side, rows * line_h + (len(notes) - 1) * 1.5)
        gap = (span - rows * line_h) / max(1, len(notes))
        ty = top + gap / 2
        for c, lines in zip(notes, wrapped, strict=True):
            bx = cx + (c.box.x + c.box.w) * side
            by = top + (c.box.y + c.box.h / 2) * side
            mid = ty + line_h * 0.7
            items.append(Line(((bx - 2, by), (tx - 2, mid - TEXT_PT * 0.35)), LEADER, 0.35))
            for k, text in enumerate(lines):
                items.append(Text(tx, mid + k * line_h, text, "condensed", TEXT_PT))
            ty += len(lines) * line_h + gap
        bottom = max(bottom, top + span)
    # nationalities: a swatch and the code as printed, then the name
    nats = _nationalities(module)
    if nats:
        y = bottom + 8
        items.append(Text(x0, y + TEXT_PT, "Nationalities:", "bold", TEXT_PT))
        x = x0 + _width("Nationalities:", TEXT_PT) + 10
        for code, name, color in nats:
            w = _width(f"{code} {name}", TEXT_PT) + 16
            if x + w > x0 + width:
                x = x0 + _width("Nationalities:", TEXT_PT) + 10
                y += line_h + 2
            items.append(Rect(x, y, 8, 8, color, "#000000", 0.4))
            items.append(Text(x + 11, y + TEXT_PT, f"{code} {name}", "condensed", TEXT_PT))
            x += w + 6
        bottom = y + line_h + 2
    return items, bottom - y0
