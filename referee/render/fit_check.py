"""The counter-layout fit check of ``referee check``: every text fits its box at a legible size.

``build`` and ``sheets`` refuse a counter text that cannot fit its layout box at the legible
minimum (:data:`referee.render.counters.MIN_TEXT_PT`); ``check`` used to pass such a source, so
a designer learnt of it only when building. This check measures, with the same shipped fonts
and the same rules as the renderer (:func:`referee.render.counters.counter_sizings`: the box's font,
or the condensed face when that is at least 5 % larger), every text of every face, and reports
each (layout, box) that some unit overflows, naming the tightest unit, the size it would need
and the line of the ``[[counter.layout.box]]`` in ``module.toml``. All boxes are reported in one
run, not just the first.
"""

from __future__ import annotations

import re

from referee.errors import UserError
from referee.render.counters import (
    MIN_TEXT_PT,
    box_rect,
    counter_px,
    face_layout,
    layout_faces,
    max_font_size,
    text_boxes,
    text_pad,
)
from referee.render.fonts import face_name
from referee.source.diagnostics import Diagnostics
from referee.source.model import Module

MODULE_FILE = "module.toml"


def _box_lines(text: str) -> list[list[int]]:
    """1-based line numbers of each ``[[counter.layout.box]]``, grouped by the
    ``[[counter.layout]]`` they follow, in file order."""
    groups: list[list[int]] = []
    for n, line in enumerate(text.splitlines(), 1):
        stripped = re.sub(r"#.*$", "", line).strip()
        if stripped == "[[counter.layout]]":
            groups.append([])
        elif stripped == "[[counter.layout.box]]" and groups:
            groups[-1].append(n)
    return groups


def layout_fit_diagnostics(module: Module, diags: Diagnostics, dpi: int | None = None) -> int:
    """Add an error to ``diags`` for each layout box a text overflows at the legible minimum;
    returns how many were added."""
    d = dpi or module.counter.dpi
    side = counter_px(module, d)
    pad = text_pad(side)
    min_px = MIN_TEXT_PT * d / 72.0
    # (layout, box) -> font -> (size px, unit, text): the most constraining text per font
    best: dict[tuple[str, int], dict[str, tuple[float, str, str]]] = {}
    try:
        for unit, back in layout_faces(module):
            layout = face_layout(module, unit, back)
            for i, box, text in text_boxes(module, unit, back):
                bx0, by0, bx1, by1 = box_rect(box, side)
                w, h = bx1 - bx0 - 2 * pad, by1 - by0
                own = face_name(box.font)
                slot = best.setdefault((layout.name, i), {})
                for f in [own] if own == "condensed" else [own, "condensed"]:
                    size = max_font_size(text, f, w, h)
                    if f not in slot or size < slot[f][0]:
                        slot[f] = (size, unit.id, text)
    except UserError as exc:
        diags.error(module.root / MODULE_FILE, None, exc.message, hint=exc.hint)
        return 1
    path = module.root / MODULE_FILE
    try:
        lines = _box_lines(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        lines = []
    names = list(module.counter.layouts)
    added = 0
    for (lname, i), by_font in sorted(
        best.items(), key=lambda kv: (names.index(kv[0][0]), kv[0][1])
    ):
        own = face_name(module.counter.layouts[lname].boxes[i].font)
        font = own
        if "condensed" in by_font and by_font["condensed"][0] > by_font[own][0] * 1.05:
            font = "condensed"  # the renderer's own choice (counters.counter_sizings)
        size, unit_id, text = by_font[font]
        if size >= min_px:
            continue
        box = module.counter.layouts[lname].boxes[i]
        li = names.index(lname)
        line = lines[li][i] if li < len(lines) and i < len(lines[li]) else None
        diags.error(
            path,
            line,
            f"unit {unit_id}: text {text!r} does not fit box {i} of counter layout {lname!r} "
            f"({box.w:.2f} x {box.h:.2f} of a {module.counter.size_in} in counter): it would "
            f"print at {size * 72.0 / d:.1f} pt, under the legible minimum of {MIN_TEXT_PT} pt",
            hint="widen or heighten the box, shorten the text, or use a larger counter.size_in",
        )
        added += 1
    return added
