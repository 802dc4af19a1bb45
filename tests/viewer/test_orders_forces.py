"""Forces in the published options (options format 5, issue 28): several units in one line.

Sixth Fleet (2019): each action is one force [6.6], [8.1]. In NATO's first Action Phase of
the demo, each unit's ``force`` lists the units that may join its line of a verb; every such
pair's two-unit line on a rest they share is accepted by ``validate`` (the whole of it, not
the check the options use) but on the rests listed in ``force_not``, which it refuses (a
friendly neutral base's room for two air units [7.1.3]), and each pair of units that share a
rest but are left out is refused by it (another nationality [6.6], another kind of force
[8.1]); an attack's further
targets (``alike``: of one kind in its zone) are each accepted in the line; a strike
marker's strike on some of the targets of one kind in a zone is composed from targets each
accepted [6.4] (provisional 17.0). A format-4 file of the same position is format 5's
without the forces, byte for byte, so an archive of format 4 still verifies.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.pbem.draft_options import (
    FORMATS,
    compact_json,
    draft_options,
    force_parts,
    offered_lines,
)
from referee.source.loader import load_module

if TYPE_CHECKING:
    from tests.conftest import DemoRun

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2] / "module_src"
STEP = "003-NATO-nato_events"
"""The step after which NATO's first Action Phase is awaited."""


@pytest.fixture(scope="module")
def nato_actions(finished_demo: Callable[[str], DemoRun]) -> tuple[Any, Any, GameState]:
    """The 2019 module, its ruleset and NATO's view of its first Action Phase."""
    demo = finished_demo("sixth_fleet_2019").out
    module = load_module(ROOT / "sixth_fleet_2019")[0]
    assert module is not None
    rs = get_ruleset(module.ruleset)
    full = json.loads((demo / "game" / "secret" / "turns" / STEP / "state.json").read_text())
    view = rs.view(module, GameState.from_json(full), "NATO")
    assert view.phase == "nato_actions"
    return module, rs, view


def _validates(module: Any, view: GameState, line: str) -> bool:
    from referee.rules.sixth_fleet_2019.game import Game
    from referee.rules.sixth_fleet_2019.options import validated

    return validated(Game.of(module), view, "NATO", line)


def _rests(lines: dict[str, list[str]], verb: str) -> dict[str, set[str]]:
    """Each unit's one-unit lines of ``verb``, as the rest after the unit (``-> ...``)."""
    out: dict[str, set[str]] = {}
    for uid, offered in lines.items():
        for line in offered:
            p = force_parts(line)
            if p and p[0] == verb and p[1] == [uid]:
                out.setdefault(uid, set()).add(p[2])
    return out


def test_2019_force_mates_are_the_pairs_validate_accepts(nato_actions: Any) -> None:
    module, rs, view = nato_actions
    doc = draft_options(module, rs, {}, "0" * 64, view, "NATO", 5)
    assert doc["format"] == FORMATS[5]
    lines = offered_lines(doc)
    accepted = refused = refusals = 0
    for verb in sorted(rs.force_verbs):
        rests = _rests(lines, verb)
        for a in sorted(rests):
            for b in sorted(rests):
                shared = sorted(rests[a] & rests[b])
                if a >= b or not shared:
                    continue
                mates = doc["units"][a].get("force", {}).get(verb, [])
                line = f"{verb} {a} {b} {shared[0]}"
                if b in mates:
                    assert a in doc["units"][b]["force"][verb]  # both ways
                    off = doc["units"][a].get("force_not", {}).get(verb, {}).get(b, [])
                    assert off == doc["units"][b].get("force_not", {}).get(verb, {}).get(a, [])
                    for r in shared[:4] + off:  # the pair's lines, and those it is refused
                        assert _validates(module, view, f"{verb} {a} {b} {r}") == (r not in off)
                        refusals += r in off
                    accepted += 1
                elif refused < 12:  # a sample of those left out: each refused by validate
                    assert not any(
                        _validates(module, view, f"{verb} {a} {b} {r}") for r in shared[:3]
                    ), line
                    refused += 1
    assert accepted > 20 and refused > 3 and refusals, (accepted, refused, refusals)
    assert not any("refit" in e.get("force", {}) for e in doc["units"].values())  # 1 a Refit
    # [6.4]


def test_2019_further_targets_and_some_targets_of_a_marker_are_accepted(
    nato_actions: Any,
) -> None:
    module, rs, view = nato_actions
    doc = draft_options(module, rs, {}, "0" * 64, view, "NATO", 5)
    groups = doc["alike"]
    kinds = {view.units[t].location for g in groups for t in g}
    assert groups and len(kinds) > 1  # enemy units of one kind, in several zones
    checked = 0
    for lines in offered_lines(doc).values():
        for line in lines:
            p = force_parts(line)
            if not p or p[0] != "attack":
                continue
            last = line.split()[-1]
            for t in next((g for g in groups if last in g), [])[:3]:
                if t != last and f"{line[: -len(last)]}{t}" in lines:  # the unit's own line
                    assert _validates(module, view, f"{line} {t}"), (line, t)
                    checked += 1
    assert checked > 10
    some = [c for c in doc["side_choices"] if c.get("compose") == "words"]
    assert some, "NATO holds an attack marker with two targets of a kind to choose from"
    for c in some:
        assert c["order"].startswith("play ") and c["order"].endswith(" hitting")
        assert _validates(module, view, f"{c['order']} {c['from'][0]}"), c
        assert _validates(module, view, f"{c['order']} {' '.join(c['from'][:2])}"), c


def test_a_format_4_file_is_format_5_without_the_forces(
    nato_actions: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, rs, view = nato_actions
    old = draft_options(module, rs, {}, "0" * 64, view, "NATO", 4)
    assert old["format"] == FORMATS[4] and "force_most" not in old
    _before_5(rs, monkeypatch)
    new = draft_options(module, rs, {}, "0" * 64, view, "NATO", 5)
    assert compact_json(_without_forces(new)) == compact_json(old)
    assert any(e.get("force") for e in new["units"].values())


def _without_forces(doc: dict[str, Any]) -> dict[str, Any]:
    """A format-5 file as format 4 writes it, but for the choices given since 5 (left out
    by :func:`_before_5`): no forces."""
    out = json.loads(compact_json(doc))
    out["format"] = FORMATS[4]
    out.pop("force_most", None)
    out.pop("alike", None)
    for e in out["units"].values():
        e.pop("force", None)
        e.pop("force_not", None)
    return out


def _before_5(rs: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ruleset's options without the choices given since format 5 (of the units and of
    the side): what a format-4 file holds."""
    import dataclasses

    cls = type(rs)
    options, side_orders = cls.options, cls.side_orders

    def old_options(self: Any, *args: Any, **kw: Any) -> Any:
        rep = options(self, *args, **kw)
        kept = [c for c in rep.data.get("orders") or [] if int(c.get("since", 1)) < 5]
        return dataclasses.replace(rep, data={**rep.data, "orders": kept})

    def old_side_orders(self: Any, *args: Any) -> Any:
        return [c for c in side_orders(self, *args) if int(c.get("since", 1)) < 5]

    monkeypatch.setattr(cls, "options", old_options)
    monkeypatch.setattr(cls, "side_orders", old_side_orders)


def test_2019_reinforcements_arrive_as_a_force_of_one_nationality() -> None:
    """A built position, NATO's Action Phase of Game-Turn 3 with the US cruiser division and
    destroyer squadron due and the French airborne too (the 1980 scenario's reinforcements,
    provisional 10.0): the two US units pair for each entry zone they share, a force
    ``validate`` accepts, and the file caps a Reinforcement action's units (``force_most``,
    a module parameter, an estimate [6.4]); the French unit pairs with neither [6.6] and the
    line with it typed is refused. Units in the Refit Box refit one an action (the same
    parameter's estimate), so none pair."""
    from tests.conformance.rulesets.sixth_fleet_2019 import module_2019
    from tests.rules.test_sixth_fleet_2019_options_cost import REFIT, built

    module = module_2019()
    rs = get_ruleset(module.ruleset)
    due = [["US-CGN-1", None], ["US-DDG-1.2", None], ["FR-ABN", None], ["SO-KR-1", "Ionian Sea"]]
    state = built({"turn": 3, "phase": "nato_actions", "units": due})
    doc = draft_options(module, rs, {}, "0" * 64, state, "NATO", 5)
    assert doc["force_most"] == {"reinforce": 2}
    assert doc["units"]["US-CGN-1"]["force"] == {"reinforce": ["US-DDG-1.2"]}
    assert "force" not in doc["units"]["FR-ABN"]
    lines = offered_lines(doc)
    for line in lines["US-CGN-1"]:
        zone = line.split(" -> ", 1)[1]
        assert _validates_as(module, state, "NATO", f"reinforce US-CGN-1 US-DDG-1.2 -> {zone}")
    assert not _validates_as(module, state, "NATO", "reinforce US-CGN-1 FR-ABN -> France")
    refit = built({"turn": 2, "phase": "soviet_actions", "units": REFIT})
    doc = draft_options(module, rs, {}, "0" * 64, refit, "Soviet", 5)
    assert sum(ln.startswith("refit ") for ls in offered_lines(doc).values() for ln in ls) > 1
    assert not any("refit" in e.get("force", {}) for e in doc["units"].values())


def _validates_as(module: Any, state: GameState, side: str, line: str) -> bool:
    from referee.rules.sixth_fleet_2019.game import Game
    from referee.rules.sixth_fleet_2019.options import validated

    return validated(Game.of(module), state, side, line)


def test_naval_coast_artillery_fire_by_two_cd_units_is_one_force(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The naval module, the conformance position of two German CD units and one Soviet
    flotilla in reach (case NM-085): in the Axis coast step each CD unit's one-unit
    ``coastfire`` pairs with the other's (``force``), and their one line is accepted and
    carried out as one Shipping Attack of both units' points [27.12], [27.31c]."""
    from tests.conformance.rulesets.naval_module import build_state, naval_module
    from tests.rules.test_sixth_fleet_2019_games import SeededDice

    case = json.loads((CASES / "085-27.31c-two-cd-one-roll.json").read_text())
    module = naval_module()
    rs = get_ruleset(module.ruleset)
    state = build_state(module, case["position"])
    soviet = rs.resolve(
        module, state, rs.parse_orders(HEAD + "Soviet\n[combat]\n", "o"), SeededDice(1)
    )
    assert soviet.ok and soviet.state.phase == "coast", soviet.violations
    view = rs.view(module, soviet.state, "Axis")
    doc = draft_options(module, rs, {}, "0" * 64, view, "Axis", 5)
    assert doc["units"]["DE-CD-1.1"]["force"] == {"coastfire": ["DE-CD-1.2"]}
    assert offered_lines(doc)["DE-CD-1.2"] == ["coastfire DE-CD-1.2 -> SU-FL-AZ"]
    old = draft_options(module, rs, {}, "0" * 64, view, "Axis", 4)
    with monkeypatch.context() as m:
        _before_5(rs, m)
        before = draft_options(module, rs, {}, "0" * 64, view, "Axis", 5)
    assert compact_json(_without_forces(before)) == compact_json(old)  # format 4 byte for byte
    line = "coastfire DE-CD-1.1 DE-CD-1.2 -> SU-FL-AZ"
    text = HEAD + f"Axis\n[coast]\n{line}\n"
    out = rs.resolve(module, soviet.state, rs.parse_orders(text, "o"), SeededDice(3))
    assert out.ok, out.violations
    fired = [e for e in out.events if e.kind == "cd_shipping_attack"]
    assert len(fired) == 1 and fired[0].data["ship"] == "SU-FL-AZ", fired


CASES = Path(__file__).resolve().parents[1] / "conformance" / "naval_module"
HEAD = "game: case\nturn: 1\nside: "


# ---- format 6: forces of three or more, and no pair left out ----------------------------------


def _viewer_allows(doc: dict[str, Any], verb: str, rest: str, force: tuple[str, ...]) -> bool:
    """Whether the viewer lets a player compose ``force`` on ``rest`` (viewer.js
    forceCandidates): each pair mates, neither refused on the rest (``force_not``), within
    the verb's ``force_most`` and each count of ``force_room`` on the rest."""
    from itertools import combinations

    units = doc["units"]
    for a, b in combinations(force, 2):
        if b not in units[a].get("force", {}).get(verb, []):
            return False
        if rest in units[a].get("force_not", {}).get(verb, {}).get(b, []):
            return False
    if len(force) > doc.get("force_most", {}).get(verb, len(force)):
        return False
    caps = doc.get("force_room", {}).get(verb, {}).get(rest, [])
    return all(sum(u in group for u in force) <= n for n, group in caps)


def _forces_of_three(
    doc: dict[str, Any], rs: Any, most: int
) -> list[tuple[str, str, tuple[str, ...], bool]]:
    """Every force of three to ``most`` units on a rest its units share, each pair of which
    mates and may go there (``force_not``), as (verb, rest, units, allowed by the counts)."""
    from itertools import combinations

    lines = offered_lines(doc)
    out = []
    for verb in sorted(rs.force_verbs):
        for rest, units in sorted(_sharers(lines, verb).items()):
            # each pair asked once, not once for every force it is in; the forces in the
            # order of ``combinations(units, k)``, those with a pair that does not mate left
            # out as they are made (a force holding such a pair is never one)
            mates = {pair: _viewer_allows(doc, verb, rest, pair) for pair in combinations(units, 2)}
            for k in range(3, most + 1):
                for force in _cliques(units, k, mates):
                    out.append((verb, rest, force, _viewer_allows(doc, verb, rest, force)))
    return out


def _cliques(
    units: list[str], k: int, mates: dict[tuple[str, str], bool]
) -> Iterator[tuple[str, ...]]:
    """The ``k``-unit forces of ``units`` each pair of which mates, in the order
    ``combinations(units, k)`` makes them (a force grows by later units only)."""

    def grow(force: tuple[str, ...], start: int) -> Iterator[tuple[str, ...]]:
        if len(force) == k:
            yield force
            return
        for i in range(start, len(units) - (k - len(force)) + 1):
            u = units[i]
            if all(mates[(f, u)] for f in force):
                yield from grow((*force, u), i + 1)

    return grow((), 0)


def _sharers(lines: dict[str, list[str]], verb: str) -> dict[str, list[str]]:
    """By rest, the units whose one-unit line of ``verb`` has it, in id order."""
    out: dict[str, list[str]] = {}
    for uid, rests in sorted(_rests(lines, verb).items()):
        for r in rests:
            out.setdefault(r, []).append(uid)
    return out


def _spread(items: list[Any], n: int) -> list[Any]:
    """At most ``n`` of ``items``, spread evenly (the first and the last among them)."""
    if len(items) <= n:
        return items
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


@pytest.mark.parametrize(
    ("step", "side", "phase"),
    [(STEP, "NATO", "nato_actions"), ("001-Soviet-soviet_events", "Soviet", "soviet_actions")],
)
def test_2019_forces_of_three_or_more_the_viewer_allows_are_accepted(
    finished_demo: Callable[[str], DemoRun], step: str, side: str, phase: str
) -> None:
    """Gap of format 5: a force of three air units each pair of which the validator accepts
    is refused where it ends, at a base with room for two more (NATO's first Action Phase:
    ``move US-A6.1 US-F14.1 US-F4.1 -> Malta``, [7.1.3]). Format 6's ``force_room`` caps the
    force there: every force of three or four (and, on the Soviet side, five) the viewer
    allows on a rest its units share is accepted by ``validate``, and every one it leaves
    out by a count alone is refused, by the room rule (a sample, spread over all of them,
    bounded to keep the test fast; the Soviet side's checks are cheap, so it asks more)."""
    demo = finished_demo("sixth_fleet_2019").out
    module = load_module(ROOT / "sixth_fleet_2019")[0]
    rs = get_ruleset(module.ruleset)
    full = json.loads((demo / "game" / "secret" / "turns" / step / "state.json").read_text())
    view = rs.view(module, GameState.from_json(full), side)
    assert view.phase == phase
    doc = draft_options(module, rs, {}, "0" * 64, view, side, 6)
    assert doc["format"] == FORMATS[6] and doc["force_room"]
    forces = _forces_of_three(doc, rs, 4 if side == "NATO" else 5)
    allowed = [f for f in forces if f[3]]
    capped = [f for f in forces if not f[3]]
    assert len(allowed) > 20 and capped, (len(allowed), len(capped))
    n = 40 if side == "NATO" else 400
    for verb, rest, force, _ in _spread(allowed, n):
        line = f"{verb} {' '.join(force)} {rest}"
        assert _validates_as(module, view, side, line), line
    for verb, rest, force, _ in _spread(capped, n // 2):
        line = f"{verb} {' '.join(force)} {rest}"
        assert _refused_by(module, view, side, line) & {"7.1.3", "7.1.2", "8.3.4"}, line
    if side == "NATO":
        malta = ("move", "-> Malta", ("US-A6.1", "US-F14.1", "US-F4.1"), False)
        assert malta in forces  # each pair accepted, the three refused [7.1.3]
        assert _refused_by(module, view, side, "move US-A6.1 US-F14.1 US-F4.1 -> Malta") == {
            "7.1.3"
        }


def _refused_by(module: Any, state: GameState, side: str, line: str) -> set[str]:
    """The rule cases ``validate`` refuses a one-action file of ``line`` by."""
    from referee.engine.core import refusals
    from referee.engine.orders import parse_orders
    from referee.rules.sixth_fleet_2019 import steps
    from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts
    from referee.rules.sixth_fleet_2019.game import Game
    from referee.rules.sixth_fleet_2019.vocabulary import VOCABULARY

    ready = SixthFleet2019Facts.put(state, actions_left=1)
    text = f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n[actions]\n{line}\n"
    doc = parse_orders(text, "o", VOCABULARY)
    return {v.rule for v in refusals(steps.validate(Game.of(module), ready, doc))}


def test_2019_no_pair_is_left_out_and_format_5_stays_as_it_was(nato_actions: Any) -> None:
    """Format 5 asked a pair on three of the rests it shares and left it out when all three
    were refused; format 6 asks every rest but where the force check itself refuses the two
    ([8.1], [6.6], [2.11]: ``force_joins``), which the validator runs before the rest of
    every line, so one check proves them refused everywhere. A sample of the pairs format 6
    leaves out is refused on every rest the two share, each pair it proves never joins too;
    on this position format 5 left none out, so its file is format 6's without the counts."""
    module, rs, view = nato_actions
    doc = draft_options(module, rs, {}, "0" * 64, view, "NATO", 6)
    lines = offered_lines(doc)
    left_out = []
    for verb in sorted(rs.force_verbs):
        rests = _rests(lines, verb)
        for a in sorted(rests):
            for b in sorted(rests):
                shared = sorted(rests[a] & rests[b])
                if a < b and shared and b not in doc["units"][a].get("force", {}).get(verb, []):
                    left_out.append((verb, a, b, shared))
    assert len(left_out) > 5
    never = 0
    for verb, a, b, shared in _spread(left_out, 8):
        for r in _spread(shared, 5):
            assert not _validates(module, view, f"{verb} {a} {b} {r}"), (verb, a, b, r)
        never += not rs.force_joins(module, view, "NATO", f"{verb} {a} {b} {shared[0]}")
    assert never
    old = draft_options(module, rs, {}, "0" * 64, view, "NATO", 5)
    assert old["format"] == FORMATS[5] and "force_room" not in old
    new = json.loads(compact_json(doc))
    new["format"] = FORMATS[5]
    new.pop("force_room")
    assert compact_json(new) == compact_json(old)


def test_2019_a_holding_box_room_as_counts_is_the_validators_fit() -> None:
    """The counts ``force_room`` gives for a holding box [8.3.4], [2.0 errata] (the air units
    that are not V/STOL within the air places, all air within both, ground units within the
    land places, less those aboard) say yes exactly where the validator's fit does, for
    every set of up to four CV-capable air and ground units of the roster, on every ship
    with a holding box, empty and with one of them aboard (V/STOL, other air, ground)."""
    from itertools import combinations

    from referee.engine.core import UnitState
    from referee.rules.sixth_fleet_2019.forces import box_room
    from referee.rules.sixth_fleet_2019.game import HOLDING, Game
    from referee.rules.sixth_fleet_2019.stacking import fits_aboard
    from tests.conformance.rulesets.sixth_fleet_2019 import module_2019
    from tests.rules.test_sixth_fleet_2019_options_cost import built

    game = Game.of(module_2019())
    ships = [s for s in sorted(game.roster) if game.holding_box(s) is not None]
    air = [u for u in sorted(game.roster) if game.category(u) == "air" and game.unit(u).has("cv")]
    vstol = [u for u in air if game.unit(u).has("vstol")]
    ground = [u for u in sorted(game.roster) if game.category(u) == "ground"][:3]
    pool = [*vstol[:3], *[u for u in air if u not in vstol][:3], *ground]
    assert ships and vstol and len(pool) >= 8, (ships, pool)
    empty = built({"turn": 2, "phase": "nato_actions", "units": []})
    checked = 0
    for ship in ships:
        for on in ([], [pool[0]], [pool[3]], [pool[-1]]):
            state = empty
            for u in on:
                state = state.with_unit(UnitState(u, game.unit(u).side, HOLDING + ship, None))
            for k in range(1, 5):
                for units in combinations([u for u in pool if u not in on], k):
                    caps = box_room(game, state, ship, list(units))
                    by_counts = all(sum(u in g for u in units) <= n for n, g in caps)
                    assert by_counts == fits_aboard(game, ship, [*on, *units]), (ship, on, units)
                    checked += 1
    assert checked > 500
