"""What a save shows, in the game's terms: which counter is in which hex, box or stack.

:func:`survey` reads a replayed table (:mod:`referee.vassal.codec.tabletop`) through the module's
layout (:class:`referee.vassal.position.placement.Table`): each game piece becomes a
:class:`CounterAt` naming its unit (the ``UnitId`` Marker property our module writer gives
every counter), its location (hex id, holding box, set-up area...), its place in its stack
and its layers. :func:`check_ours` refuses a file holding counters our module never had, and
:func:`engine_position` turns the survey into the engine's terms (unit -> hex or box, stacks
top first, status flags) so a save can be compared with a :class:`GameState`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import UserError
from referee.vassal.codec.pieces import LayerState
from referee.vassal.codec.tabletop import Tabletop
from referee.vassal.position.placement import Location, Table

__all__ = ["CounterAt", "check_ours", "engine_position", "survey"]


@dataclass(frozen=True, slots=True)
class CounterAt:
    """One game piece on the table. ``unit`` is the piece id of a unit counter (``UnitId``),
    ``marker`` the name of a marker counter; ``stack`` lists the stack's pieces top first
    (by unit id where known, else VASSAL id) and ``depth`` is this piece's place in it
    (0 = top)."""

    vassal_id: str
    unit: str | None
    marker: str | None
    name: str
    gpid: str
    location: Location
    layers: tuple[LayerState, ...]
    stack: tuple[str, ...]
    depth: int

    @property
    def label(self) -> str:
        return self.unit or (f"marker:{self.marker}" if self.marker else self.vassal_id)

    @property
    def active_layers(self) -> tuple[str, ...]:
        return tuple(shown for layer in self.layers if (shown := _shown(layer)) is not None)

    def to_json(self) -> dict[str, Any]:
        loc = self.location
        return {
            "id": self.vassal_id,
            "unit": self.unit,
            "marker": self.marker,
            "name": self.name,
            "gpid": self.gpid,
            "location": {
                "kind": loc.kind,
                "name": loc.name,
                "map": loc.map,
                "x": loc.x,
                "y": loc.y,
                "text": str(loc),
            },
            "stack": list(self.stack),
            "depth": self.depth,
            "layers": [
                {"name": ls.name, "active": ls.active, "level": ls.level} for ls in self.layers
            ],
        }


def _shown(layer: LayerState) -> str | None:
    """What a layer shows, for a listing: its name while active; a track's name and value
    (``Damage D2``: a marker with levels), nothing at its blank first level (no damage)."""
    if not layer.active:
        return None
    if not layer.track:
        return layer.name
    if not layer.image and not layer.level_name:
        return None
    value = layer.level_name.strip().removeprefix("+").strip()
    return f"{layer.name} {value.removeprefix('(').removesuffix(')')}".strip()


def survey(table: Table | None, top: Tabletop) -> list[CounterAt]:
    """Every game piece on ``top``, stack by stack (top first). Without a ``table`` (no
    module given) every location is reported as a raw map point (``map-point``): which hex
    or box that is needs the module's layout."""
    out: list[CounterAt] = []
    for group in top.groups():
        labels = tuple(_label(top, pid) for pid in group)
        for depth, pid in enumerate(group):
            props = top.properties(pid)
            map_id, x, y = top.point(pid)
            basic = top.pieces[pid].basic_piece
            if table is not None:
                loc = table.locate(map_id, x, y)
            elif map_id is None:
                loc = Location("no-map")
            else:
                loc = Location("map-point", "", map_id, x, y)
            out.append(
                CounterAt(
                    vassal_id=pid,
                    unit=props.get("UnitId") or None,
                    marker=props.get("Marker") or None,
                    name=basic.name if basic else "",
                    gpid=basic.gpid if basic else "",
                    location=loc,
                    layers=tuple(top.layers(pid)),
                    stack=labels,
                    depth=depth,
                )
            )
    return out


def _label(top: Tabletop, pid: str) -> str:
    props = top.properties(pid)
    return props.get("UnitId") or (f"marker:{props['Marker']}" if "Marker" in props else pid)


def check_ours(table: Table, counters: Iterable[CounterAt], source: str) -> None:
    """Refuse a file with counters our module never built: a ``UnitId`` the module has no
    counter for, or a piece that is neither a unit nor one of our markers (palette markers,
    and the anonymous face-down markers a side's save puts in a deck, ``decks.py``)."""
    from referee.vassal.module.buildfile import deck_boxes
    from referee.vassal.position.decks import anonymous_name

    pieces = table.module.pieces()
    marker_gpids = {str(s.gpid) for s in table.plan.marker_slots}
    anonymous = {anonymous_name(name) for name, _ in deck_boxes(table.plan)}
    strangers: list[str] = []
    for c in counters:
        if c.unit is not None:
            if c.unit not in pieces:
                strangers.append(f"{c.unit} ({c.name})")
        elif c.gpid not in marker_gpids and c.marker not in anonymous:
            strangers.append(f"{c.name or 'a piece without a name'} (VASSAL id {c.vassal_id})")
    if strangers:
        module = table.module
        more = f" and {len(strangers) - 6} more" if len(strangers) > 6 else ""
        raise UserError(
            f"{source}: counters that module {module.name} {module.version} never had: "
            + "; ".join(strangers[:6])
            + more,
            hint="was this file made with another module? use the module built by "
            "`referee build` for this game",
        )


def engine_position(
    counters: Iterable[CounterAt], status_layers: Mapping[str, str]
) -> dict[str, Any]:
    """The units of a survey as the engine records them: ``units`` maps a unit to
    ``{"location", "box", "status"}`` and ``stacks`` maps a hex to its units top first.
    ``status_layers`` maps an engine status flag to the Layer that shows it."""
    layer_flag = {layer: flag for flag, layer in status_layers.items()}
    units: dict[str, dict[str, Any]] = {}
    stacks: dict[str, list[str]] = {}
    for c in counters:
        if c.unit is None:
            continue
        loc = c.location
        status = sorted(layer_flag[n] for n in c.active_layers if n in layer_flag)
        if loc.kind == "hex":
            units[c.unit] = {"location": loc.name, "box": None, "status": status}
            stack = stacks.setdefault(loc.name, [])
            if c.unit not in stack:
                stack.extend(u for u in c.stack if not u.startswith("marker:"))
        elif loc.kind in ("holding", "off-map"):
            units[c.unit] = {"location": None, "box": loc.box, "status": status}
        else:
            units[c.unit] = {"location": None, "box": str(loc), "status": status}
    return {"units": units, "stacks": stacks}
