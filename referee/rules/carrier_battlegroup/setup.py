"""Set-up [4.0] and the Hunt for Red Oktober set-up [25.0].

``new_game`` builds the position before any die is rolled: the CVBG marker and the carrier
where the scenario fixes them (the NATO Base Area [4.0 step 9a]; a scenario may start them at
sea, and then their logistics need no base [8.1]), every Soviet piece in its pool [4.0 step
4a-b], the pools listed in the canonical order ``hidden_pools`` commits to. ``setup_4_0`` then rolls
steps 1-7 with the game's dice: the Orders marker [1], turn length [2], Alert [3], the SBGs
drawn face down and placed [4], coastal defense units [5], CIC/CAG [6], escorts [7].
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import Dice, Event, GameState, UnitState
from referee.engine.graphboard import PointBoard
from referee.numerals import HINT, read_whole, shown, why_not
from referee.rules.carrier_battlegroup import alert, movement, pools, rows
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.readings import NEW_GAME_FLAGS
from referee.rules.carrier_battlegroup.schema import TRACK_MARKERS, TRACKS
from referee.source.diagnostics import Diagnostic
from referee.source.model import Module

RULESET_ID = "carrier_battlegroup"
CARRIER = "US-CVN-68"
CVBG = "US-CVBG"
NATO_BASE = "NATO Base (Britain)"
SSBN = "SO-SSBN"
RED_OKTOBER = "red_oktober"
MAX_REROLLS = 200  # [4.0 4e] re-roll until lawful; bounded so bad data cannot loop


def pool_lists(module: Module, scenario: str) -> dict[str, list[str]]:
    """The pools in roster order [4.0 step 4a-b, 5], [16.2], [4.0 step 1]."""
    out: dict[str, list[str]] = {
        "orders": [],
        "warships": [],
        "standoff": [],
        "coastal": [],
        "chits": [],
    }
    for pid, piece in module.pieces().items():
        u = piece.unit
        if u.side == "USN":
            if u.type == "Orders":
                out["orders"].append(pid)
            continue
        if "chit" in u.flags:
            out["chits"].append(pid)
        elif u.category in ("surface", "submarine") or "glitch" in u.flags:
            if u.id == SSBN:
                continue  # [4.0 step 4a] only in 25.0, which places it itself
            out["warships"].append(pid)
        elif u.category in ("air", "missile"):
            if "carrier" in u.flags:
                continue  # [15.0] the five CVL-1 aircraft are set aside, in no pool
            out["standoff"].append(pid)
        elif u.category == "coastal":
            out["coastal"].append(pid)
    return out


def new_game(
    module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
) -> GameState:
    """The position before set-up's rolls [4.0]."""
    sc = module.scenario(scenario)  # an unknown one: a UserError naming those there are
    lists = pool_lists(module, scenario)
    fixed = {f.unit: f.hex for f in sc.fixed}
    # where the scenario starts the task force: the NATO Base Area [4.0 step 9a], or a space
    # at sea, where its logistics need no base [8.1] (outfit.py)
    start = fixed.get(CVBG) or NATO_BASE
    state = GameState(
        game_id=game_id,
        module_id=module.id,
        ruleset=RULESET_ID,
        scenario=scenario,
        turn=0,
        phase="setup",
        active_side="USN",
        units={},
        stacks={},
        options=tuple(options),
    )
    state = CbgFacts.put(
        state,
        kind=RED_OKTOBER if scenario == RED_OKTOBER else "mission",
        pools=lists,
        chit_order=list(lists["chits"]),
        alert=0,
        lp=0,
        vp=0,
        fuel=0,
        ammo=0,
        # the printed start values [4.0 step 6]; CIC and CAG come with their d6 in set-up
        carrier=printed_systems(module),
        sbgs={},
        coastal={"space": None, "units": [], "revealed": False},
        revealed=[],
        cvbg={"space": start, "ships": [CARRIER]},
        air={},
        missiles={},
        crews=[],
        conditions={},
        sunk=[],
        damaged_box=[],
        crippled_box=[],
        losses=[],
        result=None,
        flags=dict(NEW_GAME_FLAGS),
    )
    tracks = {m.piece for m in TRACK_MARKERS}  # the Ship Display's markers show data
    for pid, piece in module.pieces().items():
        if pid in tracks:
            continue
        u = piece.unit
        at = fixed.get(pid)
        box = None if at else ("available" if u.side == "USN" else "pool")
        state = state.with_unit(UnitState(pid, u.side, at, box), top=False)
    return state


def printed_systems(module: Module) -> dict[str, int]:
    """The carrier's systems whose start the Carrier Chart prints [4.0 step 6] (Hangar 8,
    Hull 12...): what the Ship Display shows before set-up rolls CIC and CAG."""
    out: dict[str, int] = {}
    for rec in rows.all_rows(module.tables["carrier"]):
        start = read_whole(str(rec["start"]).strip())
        if start is not None:
            out[str(rec["key"])] = start
    return out


def check_carrier_4_0(module: Module) -> list[Diagnostic]:
    """``referee check``: each Carrier System starts at a whole number the Ship Display can
    show (0 to the top of its track), or, for CIC and CAG only, ``d6`` (rolled at set-up)
    [4.0 step 6]. Named in the schema's ``table_checks``."""
    t = module.tables["carrier"]
    tops = dict(TRACKS)
    out: list[Diagnostic] = []
    col = next((i for i, c in enumerate(t.column_keys) if c.text == "start"), None)
    if col is None:
        return [Diagnostic(t.file, None, None, "the carrier table has no 'start' column",
                           "system,start,source [4.0 step 6]")]  # fmt: skip
    for r, key in enumerate(t.row_keys):
        written = str(t.cells[r][col]).strip()
        top = tops.get(key.text)
        rolled = key.text in ("CIC", "CAG") and written == "d6"
        if top is None:
            expected = f"a system of the Ship Display ({', '.join(tops)})"
            message, hint = f"expected {expected}, got {key.text!r}", "[4.0 step 6]"
        elif rolled or read_whole(written, lo=0, hi=top) is not None:
            continue
        else:
            what = "d6 or a whole number" if key.text in ("CIC", "CAG") else "a whole number"
            message = f"{key.text} start: expected {what} from 0 to {top}, got "
            message += f"{shown(written)}{why_not(written)} [4.0 step 6]"
            hint = HINT
        line = t.lines[r] if t.lines else None
        out.append(Diagnostic(t.file, line, t.cell_column(r, col), message, hint))
    return out


def line_spaces(module: Module, name: str) -> tuple[str, ...]:
    board = PointBoard(module.map)
    return tuple(board.line(name).spaces)


def placement_4_0(
    module: Module, line: str, objective: str, dice: Dice, sbg: str
) -> tuple[str, list[Event]]:
    """[4.0 step 4e]: 1d6/2d6/3d6 by the line's length, counted from the Objective toward
    the line's first space; re-roll onto a NATO base or past the line's end."""
    spaces = line_spaces(module, line)
    at = spaces.index(objective)
    n = int(module.tables["sbg_placement"].lookup(row=len(spaces)).value)
    board = PointBoard(module.map)
    events: list[Event] = []
    for _ in range(MAX_REROLLS):
        d = pools.roll_dice(dice, n, f"{sbg} placement", "4.0")
        i = at - d
        if i < 0 or board.terrain(spaces[i]) == "nato_base":
            events.append(
                Event(
                    "reroll",
                    "4.0",
                    f"{sbg}: {d} spaces from {objective} is off {line} or a NATO base; re-roll",
                )
            )
            continue
        return spaces[i], events
    raise ValueError(f"{line}: no lawful SBG placement from {objective} [4.0]")


def _draw_group(
    state: GameState, count: int, pool: str, dice: Dice, purpose: str, rule: str
) -> tuple[GameState, list[str]]:
    got: list[str] = []
    p = list(facts_of(state).pools[pool])
    for k in range(count):
        if not p:
            break
        pid, p = pools.draw(p, dice, f"{purpose} draw {k + 1}", rule, hidden=True)
        got.append(pid)
    return CbgFacts.put(state, pools={**facts_of(state).pools, pool: p}), got


def place_face_down(state: GameState, ids: list[str], space: str) -> GameState:
    for pid in ids:
        u = state.units[pid]
        state = state.with_unit(UnitState(pid, u.side, space, None, frozenset({"face_down"})))
    return state


def setup_4_0(module: Module, state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """[4.0] steps 1-7 (and 25.0 for the Red Oktober scenario)."""
    ev: list[Event] = []
    got = facts_of(state)
    changes: dict[str, Any] = {}
    orders_table = module.tables["orders"]
    if got.kind == RED_OKTOBER:
        order = "RO"
        ev.append(Event("orders", "25.0", "The Hunt for Red Oktober: no Orders marker is drawn"))
    else:
        marker, _rest = pools.draw(
            list(got.pools["orders"]), dice, "Orders marker", "4.0", hidden=False
        )
        order = marker.removeprefix("ORD-")
        changes["pools"] = {**got.pools, "orders": []}
        ev.append(
            Event(
                "orders",
                "4.0",
                f"Orders marker {order} drawn; the rest leave play unseen",
                {"order": order},
            )
        )
    row, _how = rows.row_record(orders_table, order)
    mission = {
        "order": order,
        "objective": str(row["objective"]),
        "line": str(row["line"]),
        "turns": int(row["turns"]),
        "coastal": int(row["coastal"]),
        "landing": bool(row["landing"]),
        "kill": str(row.get("kill") or ""),
        "lanes": list(movement.lanes_of_orders(str(row.get("lanes") or ""))),  # [12.5]
    }
    changes["mission"] = mission
    changes["lp"] = int(row["lp"])
    ev.append(
        Event(
            "mission",
            "4.0",
            f"Orders {order}: objective {mission['objective']} by {mission['line']}, "
            f"{mission['turns']} turns, {changes['lp']} LP",
            mission,
        )
    )
    r = dice.roll(6, "initial Alert", "6.0")
    level, how = alert.initial_alert_6_0(module, r, int(row["alert_drm"]))
    changes["alert"] = level
    ev.append(
        Event(
            "alert",
            "6.0",
            f"initial Alert {level} (d6 {r} + DRM {int(row['alert_drm'])}: {how})",
            {"alert": level},
        )
    )
    state = CbgFacts.put(state, **changes)
    if got.kind == RED_OKTOBER:
        state, ev2 = _red_oktober_25_0(module, state, dice)
    else:
        state, ev2 = _sbgs_4_0(module, state, dice, mission)
    ev += ev2
    state, ev3 = _coastal_4_0(state, dice, mission)
    ev += ev3
    cic, cag = dice.roll(6, "CIC Leadership", "4.0"), dice.roll(6, "CAG Leadership", "4.0")
    printed = printed_systems(module)  # every other start a number: check_carrier_4_0
    systems = {
        name: cic if name == "CIC" else cag if name == "CAG" else printed[name]
        for name in (str(k.text) for k in module.tables["carrier"].row_keys)
    }
    ev.append(Event("carrier", "4.0", f"Nimitz CVN-68: CIC {cic}, CAG {cag}", {"systems": systems}))
    e = dice.roll(6, "Escort Selection", "4.0")
    esc, _how = rows.row_record(module.tables["escorts"], e)
    picks = {k: int(v) for k, v in esc.items() if k != "key"}
    ev.append(
        Event(
            "escorts",
            "4.0",
            "escorts: " + ", ".join(f"{v} x {k}" for k, v in picks.items() if v),
            {"roll": e, "classes": picks},
        )
    )
    state = CbgFacts.put(state, carrier=systems, carrier_start=dict(systems), escort_classes=picks)
    state = state.evolve(phase="outfit")
    return state, ev


def _sbgs_4_0(
    module: Module, state: GameState, dice: Dice, mission: dict[str, Any]
) -> tuple[GameState, list[Event]]:
    """[4.0 step 4c-e]: as many SBGs as the Alert level, d6 warships each, face down."""
    ev: list[Event] = []
    sbgs: dict[str, Any] = {}
    markers = [p for p in module.pieces() if p.startswith("SO-SBG")]
    for k in range(facts_of(state).alert):
        name = f"SBG-{k + 1}"
        n = dice.roll(6, f"{name} size", "4.0")
        state, got = _draw_group(state, n, "warships", dice, name, "4.0")
        space, rr = placement_4_0(module, mission["line"], mission["objective"], dice, name)
        ev += rr
        state = place_face_down(state, got, space)
        marker = markers[k]
        state = state.with_unit(UnitState(marker, "Soviet", space, None))
        sbgs[name] = {"space": space, "units": got, "revealed": False, "marker": marker}
        ev.append(
            Event(
                "sbg",
                "4.0",
                f"{name}: {len(got)} warships face down at {space}",
                {"sbg": name, "count": len(got), "space": space},
            )
        )
        ev.append(
            Event(
                "sbg_contents",
                "4.0",
                f"{name} holds {', '.join(got)}",
                {"sbg": name, "units": got},
                hidden_from=pools.HIDDEN_FROM_PLAYER,
            )
        )
    return CbgFacts.put(state, sbgs=sbgs), ev


def _red_oktober_25_0(
    module: Module, state: GameState, dice: Dice
) -> tuple[GameState, list[Event]]:
    """[25.0]: the SSBN and 17 random warships mixed into three SBGs of six at Murmansk."""
    state, got = _draw_group(state, 17, "warships", dice, "Red Oktober escort", "25.0")
    slot = dice.roll(
        18, "Red Oktober's place in the piles", "25.0", hidden_from=pools.HIDDEN_FROM_PLAYER
    )
    mixed = list(got)
    mixed.insert(slot - 1, SSBN)
    markers = [p for p in module.pieces() if p.startswith("SO-SBG")]
    sbgs: dict[str, Any] = {}
    ev: list[Event] = []
    for k in range(3):
        name = f"SBG-{k + 1}"
        units = mixed[6 * k : 6 * k + 6]
        state = place_face_down(state, units, "Murmansk")
        state = state.with_unit(UnitState(markers[k], "Soviet", "Murmansk", None))
        sbgs[name] = {"space": "Murmansk", "units": units, "revealed": False, "marker": markers[k]}
        ev.append(
            Event(
                "sbg",
                "25.0",
                f"{name}: {len(units)} warships face down at Murmansk",
                {"sbg": name, "count": len(units), "space": "Murmansk"},
            )
        )
        ev.append(
            Event(
                "sbg_contents",
                "25.0",
                f"{name} holds {', '.join(units)}",
                {"sbg": name, "units": units},
                hidden_from=pools.HIDDEN_FROM_PLAYER,
            )
        )
    return CbgFacts.put(state, sbgs=sbgs), ev


def _coastal_4_0(
    state: GameState, dice: Dice, mission: dict[str, Any]
) -> tuple[GameState, list[Event]]:
    """[4.0 step 5]: the scenario's coastal defense units face down on the Objective."""
    n = mission["coastal"]
    if n <= 0:
        return state, []
    state, got = _draw_group(state, n, "coastal", dice, "coastal defense", "4.0")
    state = place_face_down(state, got, mission["objective"])
    state = CbgFacts.put(
        state,
        coastal={"space": mission["objective"], "units": got, "revealed": False},
        pools={**facts_of(state).pools, "coastal": []},  # the rest are out of the scenario
    )
    return state, [
        Event(
            "coastal",
            "4.0",
            f"{len(got)} coastal defense units face down at {mission['objective']}",
            {"count": len(got)},
        ),
        Event(
            "coastal_contents",
            "4.0",
            f"coastal defense: {', '.join(got)}",
            {"units": got},
            hidden_from=pools.HIDDEN_FROM_PLAYER,
        ),
    ]
