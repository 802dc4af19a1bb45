"""``[[island]]`` in ``map.toml``: islands the board draws as decoration.

A map's terrain layer decides what the rules read; an island too small to be its own hex
(Lesbos, Naxos or Kos on the Sixth Fleet map) is still something a wargamer expects to see.
Such an island is declared here, by the hex it sits in and where in it, and the board draws a
small land mark there. It changes no hex's terrain, so no movement cost, stacking or combat
rule sees it (docs/module-source.md, "Islands").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.source.base import Ctx, get_num, get_str, list_of_tables
from referee.source.model import Island
from referee.source.tomlpos import TomlText

ISLAND_KEYS: tuple[str, ...] = ("name", "hex", "at", "size", "angle", "label")
AT_LIMIT = 0.5  # the centre lies in or on the edge of its hex
LENGTH_RANGE = (0.05, 4.0)  # hex widths: from a rock to Crete
BREADTH_RANGE = (0.05, 1.0)


def load_islands(
    ctx: Ctx,
    name: str,
    tt: TomlText,
    data: dict[str, Any],
    check_hex: Callable[[object, str, int | None, str], str | None],
) -> list[Island]:
    """Every ``[[island]]`` of the map file, checked; a bad entry is reported and left out."""
    out: list[Island] = []
    starts = tt.block_starts("island")
    for i, t in enumerate(list_of_tables(ctx, name, data, "island", tt, ISLAND_KEYS)):
        ln = starts[i] if i < len(starts) else None
        what = "[[island]]"
        iname = get_str(ctx, name, ln, t, "name", what)
        hid = check_hex(t.get("hex"), name, ln, f"{what} {iname!r}")
        at = _pair(ctx, name, tt, ln, t, "at", (0.0, 0.0), ((-AT_LIMIT, AT_LIMIT),) * 2)
        size = _pair(ctx, name, tt, ln, t, "size", (0.3, 0.2), (LENGTH_RANGE, BREADTH_RANGE))
        angle = get_num(ctx, name, tt.key_line("angle", start=ln) or ln, t, "angle", what,
                        default=0.0, lo=-180.0, hi=180.0)  # fmt: skip
        label = t.get("label", False)
        if not isinstance(label, bool):
            ctx.diags.error(
                name,
                tt.key_line("label", start=ln) or ln,
                f"{what} {iname!r}: 'label' must be true or false, got {label!r}",
            )
            label = False
        if hid and iname and at is not None and size is not None:
            out.append(Island(iname, hid, at, size, angle, label))
    return out


def _pair(
    ctx: Ctx,
    file: str,
    tt: TomlText,
    ln: int | None,
    table: dict[str, Any],
    key: str,
    default: tuple[float, float],
    ranges: tuple[tuple[float, float], tuple[float, float]],
) -> tuple[float, float] | None:
    """``table[key]`` as two numbers, each within its range; ``None`` after a report."""
    value = table.get(key)
    if value is None:
        return default
    line = tt.key_line(key, start=ln) or ln
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )
    if not ok:
        ctx.diags.error(
            file,
            line,
            f"[[island]]: '{key}' must be two numbers, got {value!r}",
            hint=f"{key} = [{default[0]}, {default[1]}]  (in hex widths)",
        )
        return None
    a, b = float(value[0]), float(value[1])
    for v, (lo, hi) in ((a, ranges[0]), (b, ranges[1])):
        if not lo <= v <= hi:
            ctx.diags.error(
                file,
                line,
                f"[[island]]: '{key}' = {value} has {v} out of range ({lo}..{hi})",
                hint="'at' is east, north of the hex centre and 'size' length, breadth, "
                "in hex widths",
            )
            return None
    return a, b
