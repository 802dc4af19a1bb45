"""Issue 31, "hostile input": a ``state.json`` of a real ruleset with its ``$.data`` edited.

The fuzzing suite's ``rules-state`` target found ``validate`` ending in an internal error
(``KeyError: 'mover'`` in the DTP rules) on a state whose data had lost a key. What a
ruleset keeps under ``$.data`` is read by its rules; ``validate`` and ``options`` on a
``--state`` file turn a misfit there into one message naming the file, exit 2.
"""

from __future__ import annotations

import json

import pytest

from tests.test_hostile_numbers import run_cli

EXAMPLES = {
    "sixth_fleet": "short",
    "sixth_fleet_dtp": "short",
    "sixth_fleet_2019": "s1980",
    "carrier_battlegroup": "mission",
    "naval_module": "kerch_feodosia",
}


def _new(example: str, p) -> list[str]:
    return ["state", "new", "--example", example, "--scenario", EXAMPLES[example], "-o", str(p)]


@pytest.fixture(scope="module")
def new_state(tmp_path_factory):
    """A fresh ``state.json`` of an example (``state new``), made once per example for the
    file's tests: each test edits its own copy of the document."""
    made: dict[str, str] = {}

    def get(example: str) -> dict:
        if example not in made:
            p = tmp_path_factory.mktemp(example) / "state.json"
            code, out = run_cli(_new(example, p))
            assert code == 0, out
            made[example] = p.read_text("utf-8")
        return json.loads(made[example])

    return get


@pytest.fixture(scope="module", params=sorted(EXAMPLES))
def fresh(request, new_state):
    return request.param, new_state(request.param)


@pytest.mark.parametrize("odd", [None, "x", 7, [], {}])
def test_retyped_data_is_refused_not_crashed(fresh, tmp_path, odd):
    _example, doc = fresh
    doc = json.loads(json.dumps(doc))
    doc["data"] = {k: odd for k in doc.get("data", {})} or {"x": odd}
    st = tmp_path / "state.json"
    st.write_text(json.dumps(doc), "utf-8")
    orders = tmp_path / "o.txt"
    side = doc.get("active_side") or "NATO"
    orders.write_text(f"game: {doc['game_id']}\nturn: {doc['turn']}\nside: {side}\n", "utf-8")
    code, out = run_cli(["validate", str(orders), "--state", str(st)])
    assert code in (0, 1, 2) and "internal error" not in out, out
    if code == 2:
        assert "state.json" in out
    unit = doc["units"][0]["id"]
    code, out = run_cli(["options", "--state", str(st), unit])
    assert code in (0, 1, 2) and "internal error" not in out, out


def test_a_key_the_rules_need_missing_names_the_file(tmp_path, new_state):
    """The DTP reproducer's shape: a record under $.data without a field the rules read."""
    st = tmp_path / "state.json"
    doc = new_state("carrier_battlegroup")
    del doc["data"]["carrier"]
    st.write_text(json.dumps(doc), "utf-8")
    code, out = run_cli(["options", "--state", str(st), "US-CVN-68"])
    assert code in (0, 2) and "internal error" not in out, out
    if code == 2:
        assert "state.json: $.data does not hold what ruleset carrier_battlegroup keeps" in out


@pytest.mark.parametrize(
    ("example", "path", "value", "expected"),
    [
        ("carrier_battlegroup", ("cvbg", "space"), 7, "$.data.cvbg.space: expected a string"),
        ("carrier_battlegroup", ("alert",), "3", "$.data.alert: expected an integer"),
        ("carrier_battlegroup", ("sbgs_",), 1, "$.data.sbgs_: expected a fact ruleset"),
        ("sixth_fleet", ("entered",), "yes", "$.data.entered: expected true or false"),
        ("sixth_fleet", ("losses",), {}, "$.data.losses: expected a list"),
        ("naval_module", ("phasing",), 1, "$.data.phasing: expected a string"),
        ("naval_module", ("control", "Sevastopol"), 7, "$.data.control.Sevastopol: expected a"),
        ("naval_module", ("flags", "motorized_phase"), "yes", "motorized_phase: expected true"),
        (
            "naval_module",
            ("ships",),
            {"SU-CL-KK": {"damage": "2"}},
            "$.data.ships['SU-CL-KK'].damage: expected an integer",
        ),
        ("naval_module", ("handoffs",), [{"id": "H1"}], "$.data.handoffs[0].kind: expected"),
        ("naval_module", ("moves",), [], "$.data.moves: expected a fact ruleset naval_module"),
        ("sixth_fleet_dtp", ("damage",), {"US-CV-59": "D1"}, "$.data.damage['US-CV-59']: expected"),
        ("sixth_fleet_dtp", ("strike",), {"side": "NATO"}, "$.data.strike.defender: expected"),
        (
            "sixth_fleet_dtp",
            ("moments",),
            [{"mover": "US-CV-59", "at": "1907", "units": []}],
            "$.data.moments[0].from: expected",
        ),
        (
            "sixth_fleet_dtp",
            ("dtp_flags",),
            {"bases_attack_air": "yes"},
            "$.data.dtp_flags.bases_attack_air: expected true or false",
        ),
    ],
)
def test_a_declared_fact_of_the_wrong_type_is_refused_at_its_path(
    tmp_path, new_state, example, path, value, expected
):
    """Carrier Battlegroup, SPI Sixth Fleet, DTP and the naval module declare their position
    facts (``facts.py``): a fact of the wrong type, or a key not declared, is refused at the
    edge, exit 2, at its path (a DTP fact: a damage level [DTP 8.54], a pending strike
    [DTP 8.232], a kept detection moment [DTP 6.2b]; a naval one: a port's control [26.28], a
    ship's damage [27.36], a hand-off's kind [30.15a])."""
    st = tmp_path / "state.json"
    doc = new_state(example)
    where = doc["data"]
    for k in path[:-1]:
        where = where[k]
    where[path[-1]] = value
    st.write_text(json.dumps(doc), "utf-8")
    code, out = run_cli(["options", "--state", str(st), doc["units"][0]["id"]])
    assert code == 2 and expected in out, out
