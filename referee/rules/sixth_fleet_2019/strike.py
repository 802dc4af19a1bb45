"""Strike markers: a provisional procedure (17.0 is not in the seed; not from the rulebook).

What the text states: the players need four opaque cups [2.0]; "Pick at Random" draws a
marker without looking [2.12]; the strike units are Cruise Missiles (CM), Electronic Warfare
(EW) and Special Operations Forces (SOF, whose rating is not used) [2.9]; Cruise Missiles and
Special Forces are GS (strike) actions [6.4]; EW-generated actions are taken when the EW
marker is played [6.1]. Everything else is module data a designer replaces
(``tables/strike_cups.csv``, ``tables/strike_markers.csv``; docs/interpretations.md, 17.0):

* each cup holds one side's strike counters of the cup's types; at the start of his Action
  Phase a side draws from each of his cups at random (one die face per marker in the cup,
  the roll hidden from the other side) until he holds the cup's ``hold`` markers;
* ``play MARKER`` (an ``action`` marker, EW) gives ``gain`` more actions at once and uses
  none [6.1]; ``play MARKER -> ZONE hitting TARGET ...`` (an ``attack`` marker, CM or SOF)
  uses ``cost`` actions and strikes enemy units of one kind, or the base, in any map zone
  with the provisional combat [9.0]; a played marker goes back to its cup or out of the game.

The cups' contents and the markers a side holds are hidden from the other side
(the ``strike`` fact; :func:`view_of`); a marker shows when it is played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.orders import Order
from referee.engine.pools import draw
from referee.engine.vocabulary import match_name
from referee.rules.sixth_fleet_2019.combat import BASE, Attack, carry_out_attack, target_kind
from referee.rules.sixth_fleet_2019.control import base_owner, functional
from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts, facts_of
from referee.rules.sixth_fleet_2019.game import KEY_ZONES, NEUTRAL, PROVISIONAL, SIDES, Game, other
from referee.rules.sixth_fleet_2019.movement import resolve_zone, target_hint

KEY = "strike"
LABEL = PROVISIONAL + " (17.0)"


@dataclass(frozen=True)
class Cup:
    name: str
    side: str
    types: tuple[str, ...]
    hold: int


@dataclass(frozen=True)
class Marker:
    """One strike marker type's row of ``strike_markers`` [6.1], [6.4]."""

    type: str
    effect: str  # action | attack
    cost: int
    gain: int
    targets: tuple[str, ...]
    factor: str  # printed | a number
    after: str  # cup | removed
    rule: str
    text: str


def cups(game: Game) -> tuple[Cup, ...]:
    """The module's cups, in table order (``strike_cups``; none: no strike markers)."""
    table = game.module.tables.named.get("strike_cups")
    if table is None:
        return ()
    out = []
    for i, key in enumerate(table.row_keys):
        r = table.record(i)
        out.append(Cup(key.text, str(r["side"]), tuple(str(r["types"]).split()), int(r["hold"])))
    return tuple(out)


def marker(game: Game, mid: str) -> Marker:
    """The ``strike_markers`` row of a strike counter's type."""
    mtype = game.unit(mid).type
    table = game.module.tables.named["strike_markers"]
    keys = [k.text for k in table.row_keys]
    r = table.record(keys.index(mtype))
    return Marker(
        mtype,
        str(r["effect"]),
        int(r["cost"]),
        int(r["gain"]),
        tuple(str(r["targets"] or "").split()),
        str(r["factor"]),
        str(r["after"]),
        str(r["rule"]),
        str(r["text"]),
    )


def cup_of(game: Game, mid: str) -> Cup | None:
    u = game.unit(mid)
    return next((c for c in cups(game) if c.side == u.side and u.type in c.types), None)


def set_up(game: Game, scenario: str) -> dict[str, Any]:
    """The ``strike`` fact at set-up: every strike counter of the scenario's code [2.4]
    (a flag named as the scenario; a counter with no scenario's flag is in every one) in its
    cup, in sorted id order (the canonical order ``hidden_pools`` commits to); nothing held."""
    cup_ids: dict[str, list[str]] = {c.name: [] for c in cups(game)}
    codes = tuple(game.module.scenarios)
    for pid in sorted(game.module.pieces()):
        u = game.unit(pid)
        if u.category != "strike":
            continue
        if any(u.has(s) for s in codes) and not u.has(scenario):
            continue
        c = cup_of(game, pid)
        if c is not None:
            cup_ids[c.name].append(pid)
    return {"cups": cup_ids, "held": {s: [] for s in SIDES}, "spent": []}


def draw_markers(
    game: Game, state: GameState, side: str, dice: Dice, events: list[Event]
) -> GameState:
    """At the start of ``side``'s Action Phase, draw at random from each of his cups until he
    holds its ``hold`` markers [2.12] (provisional 17.0). The roll and the marker drawn are
    hidden from the other side; that a marker was drawn is public."""
    data = facts_of(state).strike
    if not data:
        return state
    pools = dict(data["cups"])
    held = list(data["held"][side])
    hidden = (other(side),)
    for c in cups(game):
        if c.side != side:
            continue
        have = sum(1 for m in held if cup_of(game, m) == c)
        while have < c.hold and pools[c.name]:
            got, pools[c.name] = draw(
                pools[c.name], dice, f"{side} draws from the {c.name} ({LABEL})", "2.12", hidden
            )
            held.append(got)
            have += 1
            events.append(
                Event(
                    "strike_draw",
                    "2.12",
                    f"{side} draws a strike marker from the {c.name} at random ({LABEL})",
                    {"side": side, "cup": c.name, "provisional": True},
                )
            )
            events.append(
                Event(
                    "strike_drawn",
                    "2.12",
                    f"{side} draws {got} ({game.unit(got).name}) from the {c.name} ({LABEL})",
                    {"side": side, "cup": c.name, "marker": got, "provisional": True},
                    hidden_from=hidden,
                )
            )
    return SixthFleet2019Facts.put(
        state, **{KEY: {**data, "cups": pools, "held": {**data["held"], side: held}}}
    )


@dataclass(frozen=True)
class Play:
    marker: str
    spec: Marker
    attack: Attack | None


def check_play(
    game: Game, state: GameState, side: str, order: Order
) -> tuple[list[Violation], Play | None]:
    """Whether ``side`` may play this marker now: he holds it [2.12]; an attack marker names a
    map zone and enemy targets of a kind it may strike [6.4] (provisional 17.0)."""
    mid = order.arg("marker")[0]
    if mid not in game.roster or game.category(mid) != "strike":
        markers = [p for p in game.roster if game.category(p) == "strike"]
        hint = match_name(mid, markers)[1] or "the strike markers: " + ", ".join(markers)
        return [
            Violation("2.9", f"expected a strike marker, got {mid!r}", word=mid, hint=hint).at(
                order
            )
        ], None
    held = (facts_of(state).strike or {}).get("held", {}).get(side)
    if not isinstance(held, list) or mid not in held:
        return [
            Violation(
                "2.12",
                f"{side} does not hold {mid} ({LABEL})",
                word=mid,
                hint="a side plays only the strike markers it has drawn from its cups",
            ).at(order)
        ], None
    spec = marker(game, mid)
    if spec.effect == "action":
        if order.locations or order.targets:
            return [
                Violation(spec.rule, f"{mid} is played alone: `play {mid}`", word=mid).at(order)
            ], None
        return [], Play(mid, spec, None)
    if not order.locations:
        return [
            Violation(
                spec.rule,
                f"{mid} strikes a zone: `play {mid} -> ZONE hitting TARGET ...` ({LABEL})",
                word=mid,
            ).at(order)
        ], None
    written = order.locations[0]
    zone, bad = resolve_zone(game, order, written)
    if bad:
        return [bad], None
    assert zone is not None
    if game.zone_type(zone) in ("no_entry", "box"):
        return [Violation("2.1.2", f"{zone} is outside the game", word=written).at(order)], None
    atk, why = _targets(game, state, side, order, zone, mid, spec)
    if why is not None:
        return [why], None
    return [], Play(mid, spec, atk)


def _targets(
    game: Game, state: GameState, side: str, order: Order, zone: str, mid: str, spec: Marker
) -> tuple[Attack | None, Violation | None]:
    if not order.targets:
        return None, Violation(spec.rule, "name the targets (units, or `base`)").at(order)
    kinds = set()
    for t in order.targets:
        if t == BASE:
            if base_owner(game, state, zone) != other(side) or not functional(game, state, zone):
                return None, Violation(
                    "9.0",
                    f"{zone} has no functional enemy base",
                    word=t,
                    hint="name enemy units in the zone as targets instead",
                ).at(order)
        elif t not in state.units:
            return None, Violation(
                "9.0", f"no unit {t!r} in this game", word=t, hint=target_hint(state, t)
            ).at(order)
        elif state.units[t].side in (side, NEUTRAL):
            return None, Violation("9.0", f"{t} is not an enemy unit", word=t, unit=t).at(order)
        elif state.units[t].location != zone:
            return None, Violation(
                "9.0",
                f"{t} is not in {zone} (units aboard a ship are struck with it)",
                word=t,
                unit=t,
            ).at(order)
        kinds.add(target_kind(game, t))
    if len(kinds) != 1:
        return None, Violation("9.0", f"one strike is against one kind of target ({LABEL})").at(
            order
        )
    kind = kinds.pop()
    if kind not in spec.targets:
        return None, Violation(
            spec.rule,
            f"{mid} strikes {', '.join(spec.targets)} targets, not {kind} ({LABEL})",
            word=order.targets[0],
        ).at(order)
    if spec.factor == "printed":
        key = str(game.module.tables["target_factors"].lookup(row=kind, col="factor").value)
        factor = game.unit(mid).values[key]
    else:
        key, factor = spec.type, int(spec.factor)
    if factor <= 0:
        return None, Violation("9.0", f"{mid} has no factor against {kind} targets ({LABEL})").at(
            order
        )
    return Attack((mid,), zone, zone, kind, tuple(order.targets), factor, key), None


def carry_out_play(
    game: Game, state: GameState, side: str, play: Play, dice: Dice, events: list[Event]
) -> GameState:
    """Play the marker: it shows [2.12]; EW gives its actions [6.1], a strike is resolved with
    the provisional combat [6.4], [9.0]; then it goes back to its cup or out of the game."""
    mid, spec = play.marker, play.spec
    data = facts_of(state).strike
    held = {**data["held"], side: [m for m in data["held"][side] if m != mid]}
    pools = dict(data["cups"])  # on a side's view the other side's cups are counts only
    spent = list(data.get("spent", []))
    c = cup_of(game, mid)
    if spec.after == "cup" and c is not None:
        pools[c.name] = sorted([*pools[c.name], mid])
    else:
        spent.append(mid)
    state = SixthFleet2019Facts.put(state, **{KEY: {"cups": pools, "held": held, "spent": spent}})
    where = f"back to the {c.name}" if spec.after == "cup" and c else "out of the game"
    if play.attack is None:
        events.append(
            Event(
                "strike_marker",
                spec.rule,
                f"{side} plays {mid}: {spec.text}; +{spec.gain} action(s) ({LABEL}); "
                f"the marker goes {where}",
                {"side": side, "marker": mid, "gain": spec.gain, "provisional": True},
            )
        )
        left = int(facts_of(state).actions_left) + spec.gain
        total = int(facts_of(state).actions_total) + spec.gain
        return SixthFleet2019Facts.put(state, actions_left=left, actions_total=total)
    atk = play.attack
    events.append(
        Event(
            "strike_marker",
            spec.rule,
            f"{side} plays {mid}: {spec.text} on {atk.kind} targets in {atk.zone} ({LABEL}); "
            f"the marker goes {where}",
            {"side": side, "marker": mid, "zone": atk.zone, "provisional": True},
        )
    )
    return carry_out_attack(game, state, side, atk, dice, events)


def view_of(game: Game, state: GameState, side: str | None) -> GameState:
    """What ``side`` may see of the cups: his own cups' contents and his own markers; of the
    other side's, only how many markers each cup and his hand hold (provisional 17.0)."""
    data = facts_of(state).strike
    if side is None or not data:
        return state
    own = {c.name for c in cups(game) if c.side == side}
    seen = {k: (v if k in own else _count(v)) for k, v in data["cups"].items()}
    held = {s: (v if s == side else _count(v)) for s, v in data["held"].items()}
    return SixthFleet2019Facts.put(state, **{KEY: {**data, "cups": seen, "held": held}})


def _count(v: list[str] | int) -> int:
    return v if isinstance(v, int) else len(v)


def hidden_pools(state: GameState) -> dict[str, list[str]]:
    """Each cup as it stands (at set-up: as committed), for ``hidden_pools``."""
    data = facts_of(state).strike or {}
    return {f"cup:{k}": list(v) for k, v in sorted(data.get("cups", {}).items())}


def deck_contents(state: GameState) -> dict[str, list[str] | int]:
    """Each cup as ``state`` holds it, by cup name: its markers in sorted id order, or a count
    (the other side's cup on a side's view, :func:`view_of`). The cups are the map's deck
    boxes, so VASSAL saves show them as face-down decks (docs/vassal.md, "Decks")."""
    data = facts_of(state).strike or {}
    return {k: (v if isinstance(v, int) else sorted(v)) for k, v in data.get("cups", {}).items()}


def scripted_plays(game: Game, state: GameState, side: str) -> tuple[list[str], list[str]]:
    """For the scripted player: (``play`` lines of every EW marker held, which add actions at
    once [6.1]; one candidate strike per attack marker held, on the first enemy target of a
    kind it may strike: a surface ship, a functional base in a key zone, then one anywhere, a
    ground unit in a key zone [6.4]). The caller keeps a candidate only if the file still
    validates (provisional 17.0)."""
    held = (facts_of(state).strike or {}).get("held", {}).get(side)
    if not isinstance(held, list):
        return [], []
    ew, strikes = [], []
    enemy = other(side)
    zones = game.map_zones()
    key_first = [*KEY_ZONES, *(z for z in zones if z not in KEY_ZONES)]
    for mid in sorted(held):
        spec = marker(game, mid)
        if spec.effect == "action":
            ew.append(f"play {mid}")
            continue
        for kind in spec.targets:
            target = _first_target(game, state, enemy, kind, key_first)
            if target is not None:
                zone, t = target
                strikes.append(f"play {mid} -> {_q(zone)} hitting {t}")
                break
    return ew, strikes


def _first_target(
    game: Game, state: GameState, enemy: str, kind: str, zones: list[str]
) -> tuple[str, str] | None:
    for z in zones:
        if kind == BASE:
            if base_owner(game, state, z) == enemy and functional(game, state, z):
                return z, BASE
            continue
        if kind == "ground" and z not in KEY_ZONES:
            continue
        for uid, u in sorted(state.units.items()):
            if u.side == enemy and u.location == z and game.category(uid) == kind:
                return z, uid
    return None


def _q(zone: str) -> str:
    return f'"{zone}"' if " " in zone else zone
