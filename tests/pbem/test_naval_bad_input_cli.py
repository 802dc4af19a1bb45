"""Issue 16, "How it is checked": the bad inputs of the naval module through the command line.

A Sailed ship ordered to move [26.31], a motorized unit split across ships [28.13c], an
assault by an ineligible unit [30.13a], a second assaulter through one sea hex [30.14a] and
loading beyond port capacity [26.25]: each, signed and sent to ``referee validate`` and to
``referee adjudicate``, gets a clear message citing its case and exit code 1, and the game
archive (the referee's secret folder included) is byte-identical afterwards.

The positions come from a scenario written for this test into a copy of the module source
(ships Sailed and troops embarked at set-up: ``status`` in ``[[fixed]]``), reached by empty
files that roll no die, so no dice derivation can change them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.pbem.cliflow import Table, cli

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "module_src" / "naval_module"
SIDES = ("Soviet", "Axis")

SCENARIO = """\
[scenario]
id = "audit"
name = "Bad input audit"
turns = 2
first_player = "Soviet"
setup_order = ["Axis", "Soviet"]

[calendar]
cycle = ["Game-Turn"]
night = []

[forces]
Soviet = ["SU-DD-BO", "SU-T-GPA", "SU-DL-TA", "SU-MOT-1.1", "SU-T-GPB", "SU-MTN-63", \
"SU-INF-7NB", "SU-CL-KO", "SU-INF-1330", "SU-CL-MO", "SU-ENG-1", "SU-CL-KK", "SU-MOT-1.2"]
Axis = ["DE-INF-46"]
"""
PLACED = [
    ("SU-DD-BO", "Novorossiysk", "sailed"),
    ("SU-T-GPA", "Novorossiysk", None),
    ("SU-DL-TA", "Novorossiysk", None),
    ("SU-MOT-1.1", "Novorossiysk", None),
    ("SU-T-GPB", "Anapa", None),
    ("SU-MTN-63", "Anapa", None),
    ("SU-INF-7NB", "Anapa", None),
    ("SU-CL-KO", "2925", None),
    ("SU-INF-1330", "Crimea Sea Zone", "aboard:SU-CL-KO"),
    ("SU-CL-MO", "2925", None),
    ("SU-ENG-1", "Crimea Sea Zone", "aboard:SU-CL-MO"),
    ("SU-CL-KK", "2925", None),
    ("SU-MOT-1.2", "Crimea Sea Zone", "aboard:SU-CL-KK"),
    ("DE-INF-46", "2824", None),
]


def _scenario_text() -> str:
    out = [SCENARIO]
    for unit, at, status in PLACED:
        out.append(f'\n[[fixed]]\nunit = "{unit}"\nat = "{at}"\n')
        if status:
            out.append(f'status = "{status}"\n')
    return "".join(out)


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def _copy_module(root: Path) -> Path:
    """The naval module source with two counters of the motorized regiment: one for the
    loading checks in port, one aboard at sea for the ineligible assault [30.13a] (a Naval
    Base, the other ineligible unit that could be carried, may not start at sea [32.21])."""
    src = root / "naval_module"
    shutil.copytree(SOURCE, src, ignore=shutil.ignore_patterns("examples", "geo"))
    units = src / "units.csv"
    rows = units.read_text(encoding="utf-8")
    one = "SU-MOT-1,Soviet,SU,,ground,MOT,1,1 Mot Regt,0,0,0,0,0,0,1,0,motorized,1,"
    assert rows.count(one) == 1
    units.write_text(rows.replace(one, one[:-3] + ",2,"), encoding="utf-8")
    return src


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("naval-bad")
    src = _copy_module(root)
    (src / "scenarios" / "audit.toml").write_text(_scenario_text(), encoding="utf-8")
    toml = src / "module.toml"
    text = toml.read_text(encoding="utf-8")
    listed = 'scenarios = ["scenarios/kerch_feodosia.toml"]'
    assert listed in text
    toml.write_text(
        text.replace(
            listed, 'scenarios = ["scenarios/kerch_feodosia.toml", "scenarios/audit.toml"]'
        ),
        encoding="utf-8",
    )
    t = Table(root, src, SIDES)
    t.new("audit")
    t.send("Soviet", "game: g", "turn: 1", "side: Soviet", "[readiness]")
    t.send("Axis", "game: g", "turn: 1", "side: Axis", "[interdiction]")
    t.send("Soviet", "game: g", "turn: 1", "side: Soviet", "[motorized]")  # [26.12a]
    return t


def _refused(t: Table, side: str, section: str, lines: list[str], case: str, text: str) -> None:
    """Sign the file; ``validate`` and ``adjudicate`` both refuse it with exit 1, citing
    ``case`` and saying ``text``; nothing in the archive changes."""
    path = t.root / f"bad-{len(t.sent):03d}.txt"
    body = ["game: g", "turn: 1", f"side: {side}", f"[{section}]", *lines]
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
    code, out = cli("sign", path, "--key", t.key(side.lower()), "--game-dir", t.game)
    assert code == 0, out
    before = _tree(t.game)
    secret_before = _tree(t.root / "referee-secret")
    code, out = cli("validate", path, "--state", t.game, "--module", t.module, "--format", "json")
    assert code == 1, out
    found = json.loads(out)
    got = json.dumps(found)
    assert f'"{case}"' in got and text in got, got
    code, out = cli(
        "adjudicate",
        t.game,
        path,
        "--key",
        t.key("referee"),
        "--module",
        t.module,
        "--referee-dir",
        t.root / "referee-secret",
    )
    assert code == 1, out
    assert f"[{case}]" in out and text in out, out
    assert "Traceback" not in out
    assert _tree(t.game) == before, "adjudicate wrote into the archive"
    assert _tree(t.root / "referee-secret") == secret_before


def test_the_setup_statuses(table: Table) -> None:
    state = json.loads((table.game / "state.json").read_text(encoding="utf-8"))
    units = {u["id"]: u for u in state["units"]}
    assert units["SU-INF-1330"]["box"] == "aboard:SU-CL-KO"
    assert state["data"]["ships"]["SU-DD-BO"]["status"] == "sailed"
    assert state["phase"] == "movement" and state["data"]["phasing"] == "Soviet"


def test_a_sailed_ship_ordered_to_move(table: Table) -> None:
    _refused(
        table,
        "Soviet",
        "movement",
        ['move SU-DD-BO -> "Caucasus Sea Zone"'],
        "26.31",
        "SU-DD-BO is Sailed and cannot move until it is Ready",
    )


def test_a_motorized_unit_split_across_ships(table: Table) -> None:
    _refused(
        table,
        "Soviet",
        "movement",
        ["load SU-MOT-1.1 -> SU-T-GPA", "load SU-MOT-1.1 -> SU-DL-TA"],
        "28.13c",
        "a unit is carried whole by one ship",
    )
    _refused(
        table,
        "Soviet",
        "movement",
        ["load SU-MOT-1.1 -> SU-DL-TA"],
        "28.13c",
        "SU-MOT-1.1 is motorized and needs 2 capacity points on one ship",
    )


def test_loading_beyond_port_capacity(table: Table) -> None:
    _refused(
        table,
        "Soviet",
        "movement",
        ["load SU-MTN-63 SU-INF-7NB -> SU-T-GPB"],
        "26.25",
        "loading 5 NTP at Anapa exceeds the port's capacity: 4 of 4 left",
    )


def test_assaults_in_the_combat_phase(table: Table) -> None:
    table.send("Soviet", "game: g", "turn: 1", "side: Soviet", "[movement]")
    _refused(
        table,
        "Soviet",
        "combat",
        ["assault SU-MOT-1.2 -> 2824"],
        "30.13a",
        "SU-MOT-1.2 (MOT) may not make an amphibious assault",
    )
    _refused(
        table,
        "Soviet",
        "combat",
        ["assault SU-INF-1330 -> 2824", "assault SU-ENG-1 -> 2824"],
        "30.14a",
        "SU-INF-1330 already assaults from 2925: one combat unit per all-sea hex per phase",
    )
    # the legal assault is accepted: the file was refused for the rule, not the position
    table.send(
        "Soviet", "game: g", "turn: 1", "side: Soviet", "[combat]", "assault SU-ENG-1 -> 2824"
    )


@pytest.mark.parametrize(
    ("unit", "at", "status", "says"),
    [
        ("SU-DD-BO", "Novorossiysk", "sunk", "unknown status 'sunk'"),
        ("SU-ENG-1", "Kerch Sea Zone", "aboard:SU-CL-MO", "but SU-CL-MO is at 2925"),
        ("SU-MOT-1.1", "Crimea Sea Zone", "aboard:SU-CL-MO", "motorized and needs 2 capacity"),
    ],
)
def test_a_bad_setup_status_is_refused(
    tmp_path: Path, unit: str, at: str, status: str, says: str
) -> None:
    """A scenario's ``status`` that the naval rules cannot set up is refused by ``new`` with
    exit 2 and the file:line, and no game folder is left behind [25.31], [28.13]."""
    src = _copy_module(tmp_path)
    placed = [p for p in PLACED if p[0] not in (unit, "SU-ENG-1")] + [(unit, at, status)]
    if unit != "SU-ENG-1":
        placed.append(("SU-ENG-1", "Novorossiysk", None))
    text = SCENARIO + "".join(
        f'\n[[fixed]]\nunit = "{u}"\nat = "{a}"\n' + (f'status = "{s}"\n' if s else "")
        for u, a, s in placed
    )
    (src / "scenarios" / "kerch_feodosia.toml").write_text(
        text.replace('id = "audit"', 'id = "kerch_feodosia"'), encoding="utf-8"
    )
    for name in ("soviet", "axis", "referee"):
        assert cli("keygen", name, "--out", tmp_path / "keys")[0] == 0
    code, out = cli(
        "new",
        tmp_path / "game",
        "--module",
        src,
        "--scenario",
        "kerch_feodosia",
        "--player",
        f"Soviet={tmp_path}/keys/soviet.pub",
        "--player",
        f"Axis={tmp_path}/keys/axis.pub",
        "--referee-key",
        tmp_path / "keys" / "referee.key",
        "--referee-dir",
        tmp_path / "secret",
        "--game-id",
        "g",
    )
    assert code == 2, out
    assert says in out and "scenarios/kerch_feodosia.toml:" in out, out
    assert not (tmp_path / "game").exists()
