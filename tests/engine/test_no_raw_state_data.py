"""No raw ``state.data`` outside the rulesets [issue 25, deliverable 1]: the engine, the PBEM
referee, the VASSAL writers, the demos and the commands reach a position's facts only through
what a ruleset declares (docs/rulesets.md, "Position facts", "Who reads a position's facts").

A ruleset's own package is held to its ``Facts`` by ``tests/engine/test_facts.py``. This test
reads the rest of ``referee/``: every ``.data`` of a position (a name the code gives a
``GameState``), every ``with_data`` and every ``evolve(data=...)`` must be one of the places
listed in :data:`DECLARED`, each with the reason it may; a new raw read fails here until it
goes through the contract or is listed with its reason. The schema's data paths (the
VASSAL markers, tracks and display boxes read by path) are held to the declared facts below.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from referee.engine.ruleset import get_ruleset, position_facts
from referee.source.schema import known_rulesets, ruleset_schema

REFEREE = Path(__file__).resolve().parents[2] / "referee"

POSITION_NAMES = frozenset({"state", "view", "new", "first", "w", "s", "start", "alt"})
"""The names the code outside the rulesets gives a ``GameState`` (a view, a start)."""

DECLARED: dict[str, tuple[int, str]] = {
    # file (from referee/): (how many raw ways in, why they may)
    "engine/facts.py": (7, "the declaration itself: Facts.of, put and drop"),
    "engine/state_shape.py": (1, "the edge: a state's $.data checked against its Facts"),
    "engine/ruleset.py": (
        3,
        "public_view: the data entries every side's view shows alike (no key named)",
    ),
    "pbem/rulings.py": (6, "vassal_pieces, the fact Facts itself declares (the start)"),
    "pbem/record.py": (1, "vassal_pieces, the fact Facts itself declares"),
    "pbem/draft_options.py": (1, "vassal_pieces, the fact Facts itself declares"),
    "vassal/module/levels.py": (1, "the schema's declared data paths (MarkerDecl.data)"),
    "vassal/position/save.py": (
        6,
        "the schema's declared data paths (MarkerDecl, TrackDecl, TrackMarker, BoxUnits) "
        "and vassal_pieces",
    ),
    "vassal/position/vlog_import.py": (
        1,
        "SPI's carrier air assignments [14.1] read to write a VASSAL log as 1975 orders "
        "(left: the importer is SPI's own)",
    ),
    "demos/sixth_fleet_dtp.py": (
        2,
        "the DTP strike waiting for its bounce [DTP 8.3], which the demo's director reads "
        "(left: no capability gives it yet)",
    ),
}


def _raw_ways_in(path: Path) -> int:
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    n = 0
    for node in ast.walk(tree):
        of_position = (
            isinstance(node, ast.Attribute)
            and node.attr == "data"
            and isinstance(node.value, ast.Name)
            and node.value.id in POSITION_NAMES
        )
        if of_position or (isinstance(node, ast.Attribute) and node.attr == "with_data"):
            n += 1
        elif isinstance(node, ast.Call) and any(k.arg == "data" for k in node.keywords):
            f = node.func
            n += isinstance(f, ast.Attribute) and f.attr == "evolve"
    return n


def _found() -> Counter[str]:
    out: Counter[str] = Counter()
    for path in sorted(REFEREE.rglob("*.py")):
        rel = path.relative_to(REFEREE).as_posix()
        if rel.startswith("rules/") or rel == "engine/core.py":  # GameState's own helpers
            continue
        if n := _raw_ways_in(path):
            out[rel] = n
    return out


def test_no_raw_state_data_outside_the_rulesets_but_the_declared_places():
    found = _found()
    allowed = {k: n for k, (n, _) in DECLARED.items()}
    assert dict(found) == allowed, (
        "a raw read of state.data outside the rulesets: read it through the ruleset's "
        "declared facts or a typed capability (docs/rulesets.md), or list it in DECLARED "
        "with its reason"
    )


def test_the_places_that_went_through_the_contract_stay_there():
    """The engine's earlier starts, the VASSAL save's phasing side and Destroyed markers, the
    naval demo's hand-offs and the phase driver's queue read no raw ``state.data`` (issue
    25)."""
    found = _found()
    for rel in ("engine/driver.py", "demos/naval_module.py"):
        assert found[rel] == 0, rel
    save = (REFEREE / "vassal/position/save.py").read_text("utf-8")
    assert '"phasing"' not in save and '"destroyed_defended"' not in save
    assert ".phasing_side(" in save and ".marked_locations(" in save


def _schema_paths(schema) -> list[tuple[str, str]]:
    """(what, path) for every path of ``GameState.data`` the schema declares."""
    out = [(f"marker {m.id}", m.data) for m in schema.markers if m.data and m.compute is None]
    out += [
        (f"track {t.name}", t.source.partition(":")[2])
        for t in schema.tracks
        if t.source.startswith("data:")
    ]
    for d in schema.displays:
        out += [(f"display {d.name} marker {m.piece}", m.data) for m in d.markers]
        out += [
            (f"display {d.name} box {h.box}", h.data)
            for h in d.holds
            if h.compute is None and not h.data.startswith("box:")
        ]
    return out


def _with_facts() -> list[str]:
    out = []
    for r in known_rulesets():
        s = ruleset_schema(r)
        if s is not None and s.rules is not None and position_facts(get_ruleset(r)) is not None:
            out.append(r)
    return out


@pytest.mark.parametrize("ruleset", _with_facts())
def test_every_data_path_a_schema_declares_names_a_declared_fact(ruleset):
    """The VASSAL writers read the schema's data paths (``combat.attacked``, ``data:vp``):
    each path starts at a fact the ruleset declares, so the path is a declared key's."""
    facts = position_facts(get_ruleset(ruleset))
    assert facts is not None
    schema = ruleset_schema(ruleset)
    undeclared = [
        (what, path)
        for what, path in _schema_paths(schema)
        if path.split(".", 1)[0] not in facts.declared()
    ]
    assert undeclared == []


def test_the_contract_answers_what_the_raw_reads_did():
    """What the three places read raw, the contract now gives: the naval module's phasing
    player and host hand-offs (by number, open ones and those being signed), SPI's
    Destroyed markers [10.44]; a ruleset without them gives the side acting and none."""
    from referee.engine.ruleset import host_handoffs
    from referee.rules.naval_module.facts import NavalFacts
    from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts
    from referee.source.loader import load_module

    root = REFEREE.parent / "module_src"
    naval, _ = load_module(root / "naval_module")
    assert naval is not None
    rs = get_ruleset("naval_module")
    state = rs.new_game(naval, next(iter(naval.scenarios)), "g")
    other = next(s.id for s in naval.sides if s.id != NavalFacts.of(state).phasing)
    state = NavalFacts.put(
        state.evolve(active_side=other),
        handoffs=[{"id": "H10", "kind": "assault"}, {"id": "H9", "kind": "support"}],
        box_combat={"handoff": "H2", "units": []},
    )
    assert rs.phasing_side(naval, state) == NavalFacts.of(state).phasing != other
    assert host_handoffs(rs, naval, state) == ("H2", "H9", "H10")

    spi, _ = load_module(root / "sixth_fleet")
    assert spi is not None
    rs75 = get_ruleset("sixth_fleet_1975")
    start = rs75.new_game(spi, next(iter(spi.scenarios)), "g")
    gone = SixthFleetFacts.put(start, destroyed_defended=["0432"])
    assert rs75.marked_locations(spi, gone) == {"Destroyed": ("0432",)}
    assert host_handoffs(rs75, spi, start) == ()
    assert rs75.phasing_side(spi, start) == start.active_side
