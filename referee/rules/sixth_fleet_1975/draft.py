"""The order lines ``referee options`` offers for a unit, ready for an orders file: what the
viewer's orders mode lets a player point at (issue 28), in the phase's own words.

Each choice is one line of the phase's section (``docs/orders/sixth_fleet_1975.md``), built
from the facts :mod:`referee.rules.sixth_fleet_1975.options` computes with the validator's own
code, so a choice is legal on the position it was computed on; ``validate`` still judges the
whole file (orders that depend on earlier ones: a hex entered twice over the stacking limit,
a unit in two attacks). A choice says where it points on the map (``at``), the hexes of its
path, and the units it uses (a unit attacks once a Combat Phase [8.12]).

* Set-up [11.1], [11.2]: ``place UNIT HEX`` / ``place UNIT cap|box CV`` from the unit's pool.
* Movement [5.0]: ``move UNIT PATH`` to every hex the unit may end in, by the cheapest legal
  path; carrier air: ``cap UNIT CV`` from the holding box [9.62A], ``box UNIT CV`` over the
  carrier [9.62B] (a box with room for it).
* Combat [8.0]: every legal single attack and every group attack [8.3] the unit takes part in.
* Set-up and movement: ``stack HEX UNIT ...`` [7.42], composed in the viewer: the unit's
  ``stack`` choice opens the line of the hex it ends in (its drafted ``place`` or ``move``,
  else where it is), and the player adds the other units ending there top first; each
  choice says its layer, so air stays above naval [7.43]. ``validate`` checks that every
  naval unit there is listed [7.42] (it knows the whole file; the page only helps).
* Reinforcement Interphase [12.2] (since the options file's format 5): ``place UNIT HEX`` on
  each hex the reinforcement may enter now [12.21]-[12.24] and ``place UNIT cap|box CV`` on
  each carrier of its nation that takes it [12.22], each the Interphase's own check accepts;
  and the ``stack`` line of the hex it is placed in [7.42].
* Any step the side is awaited, answers included: the standing ``retreat UNIT prefer HEX
  ...`` and ``displace UNIT prefer HEX ...`` [8.71], composed from hexes pointed at (those
  next to the unit marked), first choice first, in ``[standing]``.

The composed choices (``compose``) are new in the options file's format 3 (``since``);
files of format 2 leave them out, as they were written.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.air import HOLDING_BOX_LIMIT, box_contents
from referee.rules.sixth_fleet_1975.combat import hex_target
from referee.rules.sixth_fleet_1975.context import Game
from referee.source.boxes import carrier_of


def setup_choices(places: list[str]) -> list[dict[str, Any]]:
    """``place`` lines of the unit's set-up pool [11.1], [11.2]: each points at its hex (or,
    for carrier air, the carrier)."""
    out = []
    for line in places:
        words = line.split()
        out.append({"order": line, "kind": "place", "at": words[-1], "label": " ".join(words[2:])})
    return out


def _carrier_choices(game: Game, st: GameState, unit: str) -> list[dict[str, Any]]:
    """``cap``/``box`` for carrier air [9.62]: launch from the box onto CAP; land in the box of
    a carrier of its nationality in its hex, when the box has room."""
    ud = game.unit(unit)
    if not (ud.category == "air" and ud.has("carrier")):
        return []
    u = st.units[unit]
    boxed = carrier_of(u.box)
    if boxed is not None and boxed in st.units:
        at = st.units[boxed].location
        return [{"order": f"cap {unit} {boxed}", "kind": "cap", "at": at, "label": "CAP"}]
    out = []
    for cv in sorted(st.stacks.get(u.location or "", ())):
        cd = game.unit(cv)
        if cd.type != "CV" or cd.nationality != ud.nationality or st.units[cv].side != u.side:
            continue
        if len(box_contents(st, cv)) < HOLDING_BOX_LIMIT:
            out.append(
                {"order": f"box {unit} {cv}", "kind": "box", "at": u.location, "label": "box"}
            )
    return out


def movement_choices(
    game: Game, st: GameState, unit: str, info: dict[str, Any]
) -> list[dict[str, Any]]:
    """``move`` to every hex the unit may end its move in [5.0], then its carrier orders."""
    out = []
    for m in info["moves"]:
        if not m["may_end"]:
            continue
        path = [str(h) for h in m["path"]]
        if path and path[0] == (info["location"] or ""):
            path = path[1:]
        if not path:
            continue
        out.append(
            {
                "order": f"move {unit} {' '.join(path)}",
                "kind": "move",
                "at": m["hex"],
                "path": path,
                "label": f"cost {m['cost']}",
            }
        )
    return out + _carrier_choices(game, st, unit)


def _attack(st: GameState, a: dict[str, Any]) -> dict[str, Any]:
    targets = list(a["targets"]) or [hex_target(a["target_hex"])]
    at = a.get("target_hex") or next(
        (st.units[t].location for t in a["targets"] if t in st.units), None
    )
    return {
        "order": f"attack {' '.join(a['attackers'])} -> {' '.join(targets)}",
        "kind": "attack",
        "at": at,
        "uses": list(a["attackers"]),
        "label": f"{a['differential']} ({a['entry']})",
    }


def combat_choices(st: GameState, info: dict[str, Any]) -> list[dict[str, Any]]:
    """Every legal attack the unit makes alone or in a group [8.0], [8.3], each once."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for a in [x for x in info["attacks"] if x.get("legal")] + list(info["group_attacks"]):
        if "attackers" not in a:
            continue
        c = _attack(st, a)
        if c["order"] not in seen:
            seen.add(c["order"])
            out.append(c)
    return out


COMPOSED = 3
"""The options file format that first carries the composed choices (``stack``, standing)."""


def stack_choices(game: Game, st: GameState, unit: str) -> list[dict[str, Any]]:
    """The ``stack`` line of the hex the unit ends in, top first [7.42]; its ``layer`` keeps
    air above naval [7.43]. Only in the side's own set-up or Movement Phase [7.47]."""
    if st.pending or st.units[unit].side != st.active_side:
        return []
    if st.phase not in (seq.SETUP, seq.MOVEMENT):
        return []
    return [
        {
            "order": "stack",
            "kind": "stack",
            "compose": "stack",
            "layer": "air" if game.is_air(unit) else "naval",
            "label": "the stacking order of its hex, top first [7.42]",
            "since": COMPOSED,
        }
    ]


def standing_choices(game: Game, st: GameState, unit: str) -> list[dict[str, Any]]:
    """The standing retreat and displacement preferences of a unit on the map [8.71]: hexes in
    the order the player points at them (the first legal one wins), the ones next to it
    marked, any other hex of the map taken too (a standing order outlives this position: the
    unit may have moved when it applies)."""
    where = st.units[unit].location
    if where is None or not game.board.contains(where):
        return []
    near = sorted(h for h in game.board.neighbours(where) if game.board.contains(h))
    if not near:
        return []
    return [
        {
            "order": f"{verb} {unit} prefer",
            "kind": verb,
            "compose": "hexes",
            "from": near,
            "anywhere": True,
            "label": f"standing: where it {what}, first choice first [8.71]",
            "section": "standing",
            "since": COMPOSED,
        }
        for verb, what in (("retreat", "retreats"), ("displace", "is displaced to"))
    ]


MORE_VERBS = 4
"""The options file format that first carries ``retreat UNIT -> HEX`` [8.24]."""


def retreat_choices(game: Game, st: GameState, unit: str) -> list[dict[str, Any]]:
    """In its side's Combat Phase, a unit of a hex in an enemy zone of control from which no
    legal attack can be made, and that must retreat [8.24]: ``retreat UNIT -> HEX`` into each
    hex it may retreat into [8.71] (the validator's own lists). None in a further [8.5.4]
    file: the 8.24 retreats were made after the first one."""
    from referee.rules.sixth_fleet_1975.attack_advanced import followup_8_5_4
    from referee.rules.sixth_fleet_1975.mandatory import (
        best_attacks_from,
        must_retreat_8_24,
        obligated_hexes_8_21,
    )
    from referee.rules.sixth_fleet_1975.retreat import retreat_options_8_71

    u = st.units[unit]
    if st.pending or st.phase != seq.COMBAT or u.side != st.active_side or u.location is None:
        return []
    if followup_8_5_4(st):  # a further file: the 8.24 retreats were made [8.5.4]
        return []
    here = u.location
    if here not in obligated_hexes_8_21(game, st, u.side):
        return []
    if unit not in must_retreat_8_24(game, st, u.side, here) or best_attacks_from(
        game, st, u.side, here
    ):
        return []
    return [
        {
            "order": f"retreat {unit} -> {h}",
            "kind": "retreat_to",
            "at": h,
            "label": "no attack at 0 or better: it retreats [8.24]",
            "since": MORE_VERBS,
        }
        for h in retreat_options_8_71(game, st, unit)
    ]


def choices(
    game: Game, st: GameState, unit: str, info: dict[str, Any], *, standing: bool = True
) -> list[dict[str, Any]]:
    """The order lines a unit may be given now: its phase's (below), the composed ``stack``
    and (``standing``: SPI's verbs; DTP's set-up, which reuses this, has other standing
    orders) the standing lines and the retreat of a unit that cannot make its mandatory
    attack [8.24]."""
    out = phase_choices(game, st, unit, info) + stack_choices(game, st, unit)
    if not standing:
        return out
    return out + retreat_choices(game, st, unit) + standing_choices(game, st, unit)


def phase_choices(
    game: Game, st: GameState, unit: str, info: dict[str, Any]
) -> list[dict[str, Any]]:
    """The order lines a unit of the side to move may be given in this phase (none for the
    other side's units, and none outside the set-up, movement and combat phases)."""
    if st.pending or st.units[unit].side != st.active_side:
        return []
    if st.phase == seq.SETUP:
        return setup_choices(info.get("places", []))
    if st.phase == seq.MOVEMENT:
        return movement_choices(game, st, unit, info)
    if st.phase == seq.COMBAT:
        return combat_choices(st, info)
    if st.phase == seq.REINFORCEMENT:
        return reinforcement_choices(game, st, unit)
    return []


REINFORCEMENT_PLACES = 5
"""The options file format that first carries the Reinforcement Interphase's places [12.2]
(a file of format 4 leaves them out, as it was written)."""


def _placement_problems(game: Game, st: GameState, side: str, *lines: str) -> list[Any]:
    """The Interphase's own check of a file of ``lines``: its problems, not those of the units
    it leaves unplaced (``delayed`` [12.2]: the other lines of the file place them)."""
    from referee.engine.orders import OrdersSyntaxError, parse_orders
    from referee.rules.sixth_fleet_1975.reinforcement import check_reinforcement
    from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY

    body = "".join(f"{x}\n" for x in lines)
    text = f"game: {st.game_id}\nturn: {st.turn}\nside: {side}\n\n[reinforcement]\n{body}"
    try:
        orders = parse_orders(text, "options.txt", VOCABULARY).orders
    except OrdersSyntaxError:
        return list(lines)
    return [p for p in check_reinforcement(game, st, side, orders) if p.code != "delayed"]


def reinforcement_choices(game: Game, st: GameState, unit: str) -> list[dict[str, Any]]:
    """A reinforcement due now [12.2]: ``place UNIT HEX`` on each hex it may enter
    (:func:`~referee.rules.sixth_fleet_1975.reinforcement.entry_hexes_12_2`, the check's own
    list [12.21]-[12.24]), ``place UNIT cap|box CV`` on each carrier of its nation that may
    take it [12.22] (at the carrier's hex, when it is on the map), each line the
    Interphase's check accepts alone (below the carrier's own ``place`` line when the carrier
    arrives now too); then the ``stack`` line of its hex [7.42]."""
    from referee.rules.sixth_fleet_1975.reinforcement import (
        carriers_ready_12_22,
        due_12_2,
        entry_hexes_12_2,
    )

    side = st.units[unit].side
    due = dict(due_12_2(game, st, side))
    if unit not in due:
        return []
    out: list[dict[str, Any]] = []
    for h in entry_hexes_12_2(game, st, unit, due[unit]):
        line = f"place {unit} {h}"
        if not _placement_problems(game, st, side, line):
            out.append({"order": line, "kind": "place", "at": h, "label": "arrives [12.2]"})
    if game.is_air(unit) and game.unit(unit).has("carrier"):
        for cv in carriers_ready_12_22(game, st, unit):
            above: tuple[str, ...] = ()
            if cv in due and st.units[cv].location is None:  # arrives now: placed first
                hexes = entry_hexes_12_2(game, st, cv, due[cv])
                above = (f"place {cv} {hexes[0]}",) if hexes else ()
            for mode, what in (("cap", "on CAP over"), ("box", "in the holding box of")):
                line = f"place {unit} {mode} {cv}"
                if _placement_problems(game, st, side, *above, line):
                    continue
                label = f"{what} {cv}" + (f", below {cv}'s place line" if above else "")
                c: dict[str, Any] = {"order": line, "kind": "place", "label": label}
                if st.units[cv].location is not None:
                    c["at"] = st.units[cv].location
                out.append(c)
    if out:
        layer = "air" if game.is_air(unit) else "naval"
        out.append(
            {
                "order": "stack",
                "kind": "stack",
                "compose": "stack",
                "layer": layer,
                "label": "the stacking order of its hex, top first [7.42]",
            }
        )
    return [{**c, "since": REINFORCEMENT_PLACES} for c in out]
