"""The declared shape of ``state.json`` (``referee-state/1``) and its cross-references.

:meth:`referee.engine.core.GameState.from_json` checks a decoded state against this before it
builds anything, so that no position reaches the rules with the wrong shape: a stack naming a
unit missing from ``units``, a unit standing in two places, a turn that is a string. Each
message names the JSON path of the first value that does not fit. What only a module can say
(are the unit ids, sides and locations its own?) is :func:`check_state_fits`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.numerals import is_digits
from referee.shapes import (
    ShapeError,
    boolean,
    check,
    integer,
    json_value,
    key_path,
    list_of,
    map_of,
    nullable,
    obj,
    one_of,
    string,
)

UNIT = obj(
    {"id": string, "side": string},
    {"location": nullable(string), "box": nullable(string), "status": list_of(string)},
    extra=False,
)
PENDING = obj(
    {"id": string, "side": string, "kind": string, "rule": string, "prompt": string},
    {"options": list_of(string), "context": map_of(json_value)},
    extra=False,
)
STATE = obj(
    {
        "format": one_of("referee-state/1"),
        "game_id": string,
        "module_id": string,
        "ruleset": string,
        "scenario": string,
        "turn": integer,
        "phase": string,
        "units": list_of(UNIT),
    },
    {
        "active_side": nullable(string),
        "stacks": map_of(list_of(string)),
        "data": map_of(json_value),
        "pending": list_of(PENDING),
        "options": list_of(string),
    },
    extra=False,
)
if TYPE_CHECKING:
    from referee.engine.facts import Facts

_ = boolean  # re-exported for rulesets declaring their own state data


def check_state_json(d: Any) -> None:
    """Raise :class:`~referee.shapes.ShapeError` unless ``d`` is a well-formed state."""
    check(d, STATE)
    where: dict[str, str] = {}
    for i, u in enumerate(d["units"]):
        if u["id"] in where:
            raise ShapeError(f"$.units[{i}].id", "a unit id not listed before", u["id"])
        where[u["id"]] = ""
    seen: dict[str, str] = {}
    stacks: Mapping[str, list[str]] = d.get("stacks", {})
    for loc, ids in stacks.items():
        p = key_path("$.stacks", loc)
        if not ids:
            raise ShapeError(p, "a non-empty stack", ids)
        for j, uid in enumerate(ids):
            if uid not in where:
                raise ShapeError(f"{p}[{j}]", "the id of a unit listed in $.units", uid)
            if uid in seen:
                raise ShapeError(f"{p}[{j}]", f"a unit not already stacked in {seen[uid]}", uid)
            seen[uid] = loc
    for i, u in enumerate(d["units"]):
        loc = u.get("location")
        if loc is not None and seen.get(u["id"]) != loc:
            raise ShapeError(
                f"$.units[{i}].location", f"a location whose stack lists {u['id']}", loc
            )
        if loc is None and u["id"] in seen:
            raise ShapeError(
                f"$.units[{i}].location", f"the location of its stack {seen[u['id']]}", loc
            )


def check_state_fits(state: Any, module: Any, board: Any, facts: type[Facts] | None = None) -> None:
    """The state's units, sides and locations are the module's (``board``: its Board), and
    its ``data`` holds the position facts its ruleset declares (``facts``, the ruleset's
    :class:`~referee.engine.ruleset.PositionFacts`), each of its declared type.

    A unit's side is one of the module's sides or one its ruleset declares for units that no
    player controls (``RulesetSchema.unit_sides``, e.g. neutrals); only a module side acts."""
    if facts is not None:
        facts.check(state.data)
    pieces = module.pieces()
    sides = {s.id for s in module.sides}
    unit_sides = sides | set(_uncontrolled_sides(module))
    for i, uid in enumerate(sorted(state.units)):
        u = state.units[uid]
        p = f"$.units[{i}]"
        if uid not in pieces:
            raise ShapeError(f"{p}.id", f"a unit of module {module.id}", uid)
        if u.side not in unit_sides:
            expected = "one of the sides " + ", ".join(sorted(unit_sides))
            raise ShapeError(f"{p}.side", expected, u.side)
        if u.location is not None and not _known_location(module, board, u.location):
            raise ShapeError(f"{p}.location", "a location on the map (or null)", u.location)
    if state.active_side is not None and state.active_side not in sides:
        raise ShapeError("$.active_side", "a side of the module", state.active_side)
    for i, pd in enumerate(state.pending):
        if pd.side not in sides:
            raise ShapeError(f"$.pending[{i}].side", "a side of the module", pd.side)


def _uncontrolled_sides(module: Any) -> tuple[str, ...]:
    """The sides the module's ruleset declares for units no player controls (none if the
    ruleset is unknown: the registry, not this core, knows rulesets)."""
    schema = getattr(module, "schema", None)
    return schema.unit_sides if schema is not None else ()


def _known_location(module: Any, board: Any, loc: str) -> bool:
    """On the board, or (a hex map) a well-formed hex id off this map's excerpt: the rules
    treat such a hex as off the map, as a test module cut from a larger map needs."""
    if board.contains(loc):
        return True
    return module.map.grid is not None and len(loc) == 4 and is_digits(loc)
