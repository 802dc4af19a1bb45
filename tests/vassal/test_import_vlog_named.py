"""import-vlog on area and point-to-point maps (issue 10 §2): drags between zones or spaces
become the ruleset's own ``move`` orders, names written as its vocabulary writes them.

Logs are made two ways: by our codec, the way VASSAL logs a drag (``Player`` of
``test_import_vlog.py``), and by real VASSAL (vcheck's ``--write-vlog``, which moves a piece
with VASSAL's own commands; skipped where Java is missing, except under CI)."""

from __future__ import annotations

import os
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import GameState, ScriptedDice
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.position.placement import Table, table_for
from referee.vassal.position.save import position_vsav_bytes
from referee.vassal.position.vlog_import import Expected, Imported
from referee.vassal.position.vlog_named import adjacent, import_named_log, written_name
from tests.vassal.test_import_vlog import Player, order_lines
from tests.vassal.vassal_jvm import vcheck
from tests.vassal.vcheck_run import VCHECK

pytestmark = pytest.mark.shared_cache  # its module builds are a means, not what it tests

ROOT = Path(__file__).resolve().parents[2]


@cache
def _module(name: str) -> Module:
    module, diags = load_module(ROOT / "module_src" / name)
    assert module is not None, [str(d) for d in diags.items]
    return module


@cache
def _table(name: str) -> Table:
    return table_for(_module(name))


@cache
def soviet_actions() -> GameState:
    """Sixth Fleet (2019), 1980 scenario: the Soviet Action Phase of turn 1 [5.2]."""
    module = _module("sixth_fleet_2019")
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, "s1980", "g1")
    doc = rs.parse_orders("game: g1\nturn: 1\nside: Soviet\n[events]\nroll\n", "o.txt")
    state = rs.resolve(module, state, doc, ScriptedDice([1] * 10)).state
    assert (state.phase, state.active_side) == ("soviet_actions", "Soviet")
    return state


class NamedPlayer(Player):
    """Drags to a zone or space by its name (VASSAL stores the zone's centre point)."""

    def point_of(self, where: str | tuple[str, int, int]) -> tuple[str, int, int]:
        if isinstance(where, tuple):
            return where
        return self.table.location_point(where)


def _run(name: str, p: Player, state: GameState, side: str) -> Imported:
    module = _module(name)
    log = read_save_bytes(p.log_bytes())
    expected = Expected(module.name, module.version, "g1", state.turn, side, state.phase)
    vocab = get_ruleset(module.ruleset).vocabulary
    return import_named_log(_table(name), log, state, expected, vocab, source="turn.vlog")


def _violations(name: str, state: GameState, text: str) -> list[str]:
    module = _module(name)
    rs = get_ruleset(module.ruleset)
    return [str(v) for v in rs.validate(module, state, rs.parse_orders(text, "o.txt"))]


def test_drags_between_zones_become_moves_with_quoted_names_and_validate_clean() -> None:
    state = soviet_actions()
    p = NamedPlayer(
        _table("sixth_fleet_2019"), position_vsav_bytes(_table("sixth_fleet_2019"), state)
    )
    p.drag("SO-RKR-2", "Ionian Sea")
    p.drag("SO-TARKR-1", "Western Black Sea")
    p.chat("attack SO-SU24.1 SO-SU24.2 -> Istanbul hitting base")
    result = _run("sixth_fleet_2019", p, state, "Soviet")
    assert order_lines(result.text) == [
        "game: g1",
        "turn: 1",
        "side: Soviet",
        "[actions]",
        'move SO-RKR-2 -> "Ionian Sea"',
        'move SO-TARKR-1 -> "Western Black Sea"',
        "attack SO-SU24.1 SO-SU24.2 -> Istanbul hitting base",
    ]
    assert result.problems == ()
    assert _violations("sixth_fleet_2019", state, result.text) == []


def test_a_stack_dragged_together_is_one_force_and_a_jump_is_flagged() -> None:
    state = soviet_actions()
    table = _table("sixth_fleet_2019")
    p = NamedPlayer(table, position_vsav_bytes(table, state))
    # SO-CVH-1, SO-RKR-1 and SO-KR-1 start in the Eastern Med, one stack
    p.drag("SO-RKR-1", "Aegean Sea", whole_stack=True)
    p.drag("SO-BPK-1", "Western Med")  # from the Aegean: not adjacent
    result = _run("sixth_fleet_2019", p, state, "Soviet")
    moves = [ln for ln in order_lines(result.text) if ln.startswith("move")]
    assert len(moves) == 2
    force = moves[0].split(" -> ")[0].split()[1:]
    assert "SO-RKR-1" in force and len(force) > 1
    assert moves[0].endswith('-> "Aegean Sea"')
    assert moves[1] == 'move SO-BPK-1 -> "Western Med"'
    assert not adjacent(_module("sixth_fleet_2019"), "Aegean Sea", "Western Med")
    assert "SO-BPK-1: Aegean Sea -> Western Med (log step" in result.text
    assert "write the places in between" in result.text


def test_the_other_sides_counters_and_off_map_drags_are_not_translated() -> None:
    state = soviet_actions()
    table = _table("sixth_fleet_2019")
    p = NamedPlayer(table, position_vsav_bytes(table, state))
    p.drag("US-CG-1", "Central Med")
    p.drag("SO-RKR-2", (table.main_map, 3, 3))  # the map's corner: no zone
    p.chat("move SO-SSN-1.1 -> Malta")
    result = _run("sixth_fleet_2019", p, state, "Soviet")
    messages = [p.message for p in result.problems]
    assert any("US-CG-1 is not Soviet's counter" in m for m in messages)
    assert any("SO-RKR-2 was dragged to" in m and "not to a zone or space" in m for m in messages)
    assert any("a move typed in the chat" in m for m in messages)
    assert "no counter of Soviet's was moved" in result.text
    assert [
        ln for ln in order_lines(result.text) if not ln.startswith(("game", "turn", "side"))
    ] == ["[actions]"]


def test_a_point_to_point_move_without_units_names_the_spaces() -> None:
    """Carrier Battlegroup's CVBG moves as one: ``move SPACE [SPACE ...]`` [12.1]."""
    module = _module("carrier_battlegroup")
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, "mission", "g1")
    table = _table("carrier_battlegroup")
    spaces = module.map.spaces
    assert spaces is not None
    start = state.units["US-CVBG"].location
    assert start is not None
    one = next(s for s in spaces.spaces if s != start and adjacent(module, start, s))
    two = next(s for s in spaces.spaces if s not in (start, one) and adjacent(module, one, s))
    p = NamedPlayer(table, position_vsav_bytes(table, state))
    p.drag("US-CVBG", one, whole_stack=True)
    p.drag("US-CVBG", two, whole_stack=True)
    p.chat("strike US-A6.1 -> " + written_name(two))
    result = _run("carrier_battlegroup", p, state, "USN")
    lines = order_lines(result.text)
    assert f"move {written_name(one)} {written_name(two)}" in lines
    assert lines.index("[movement]") < lines.index(f"move {written_name(one)} {written_name(two)}")
    assert "[launch]" in lines and f"strike US-A6.1 -> {written_name(two)}" in lines
    assert result.problems == ()
    doc = rs.parse_orders(result.text, "o.txt")  # the ruleset's own parser reads it
    assert [o.verb for o in doc.orders] == ["move", "strike"]


def test_zones_and_ports_over_hexes_name_the_port_and_the_zone() -> None:
    """The naval module: a ship leaves its port for the sea zone the port opens on [26.1x]."""
    module = _module("naval_module")
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, "kerch_feodosia", "g1")
    assert state.units["RO-DD-RF"].location == "Ak-Mechet"
    table = _table("naval_module")
    p = NamedPlayer(table, position_vsav_bytes(table, state))
    p.drag("RO-DD-RF", "Karkinit Sea Zone")
    p.drag("DE-ARM-1", "3621")  # a land hex in no sea zone: not a zone or port
    result = _run("naval_module", p, state, "Axis")
    assert result.orders == ('move RO-DD-RF -> "Karkinit Sea Zone"',)
    # a new game plays the Motorized Movement Phase first, where a ship may move [26.12a]
    assert "[motorized]" in result.text
    assert [x.unit for x in result.problems] == ["DE-ARM-1"]
    assert "DE-ARM-1 was dragged to 3621, not to a zone or space" in result.problems[0].message
    assert adjacent(module, "Ak-Mechet", "Karkinit Sea Zone")
    doc = rs.parse_orders(result.text, "o.txt")
    assert [o.verb for o in doc.orders] == ["move"]


def test_written_names() -> None:
    assert written_name("Crete") == "Crete"
    assert written_name("Ionian Sea") == '"Ionian Sea"'
    assert written_name("NATO Base (Britain)") == '"NATO Base (Britain)"'


@pytest.mark.vassal
def test_a_log_written_by_real_vassal_becomes_a_zone_move(tmp_path: Path) -> None:
    """vcheck loads a position of the 2019 game in VASSAL 3.7 and moves SO-SU24.1 with
    VASSAL's own commands to the zones named Anatolia, then Syria (VASSAL finds each zone by
    its name through the module's zoned grid); the log it writes imports as one move."""
    from referee.vassal.position.setups import build_module_with_setups

    if not VCHECK.is_file():
        pytest.skip(f"the real-VASSAL checker is not here ({VCHECK})")
    module = _module("sixth_fleet_2019")
    # the harness names the piece by its VASSAL name, one word: an empty name makes it the id
    module = replace(
        module, units=tuple(replace(u, name="") if u.id == "SO-SU24" else u for u in module.units)
    )
    table = table_for(module)
    vmod = build_module_with_setups(module, tmp_path / "vassal", workers=1).path
    state = soviet_actions()
    save, vlog = tmp_path / "position.vsav", tmp_path / "turn.vlog"
    save.write_bytes(position_vsav_bytes(table, state))
    args = f"--no-slots --no-setups --write-vlog {save} SO-SU24.1 Anatolia,Syria {vlog}"
    run = vcheck([vmod], tmp_path / "vcheck.txt", args=args)
    if run.returncode == 2 and "missing" in run.stderr:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("under CI=true the real-VASSAL check must run: " + run.stderr)
        pytest.skip("vcheck's prerequisites are missing: " + run.stderr.strip())
    listing = (tmp_path / "vcheck.txt").read_text(encoding="utf-8")
    assert run.returncode == 0, run.stderr + listing[-2000:]
    assert "= Anatolia" in listing and "= Syria" in listing  # VASSAL's own location names
    log = read_save_bytes(vlog.read_bytes())
    expected = Expected(module.name, module.version, "g1", state.turn, "Soviet", state.phase)
    vocab = get_ruleset(module.ruleset).vocabulary
    result = import_named_log(table, log, state, expected, vocab, source="turn.vlog")
    assert result.problems == ()
    assert result.orders == ("move SO-SU24.1 -> Anatolia Syria",)


def test_the_command_on_a_game_archive_gives_orders_the_referee_adjudicates(
    tmp_path: Path,
) -> None:
    """``referee import-vlog LOG --game-dir GAME``: a Sixth Fleet (2019) game's position,
    a log of one drag and one chat attack, the orders file signed and adjudicated."""
    import json

    from referee.cli import app
    from referee.demos import base
    from referee.demos import sixth_fleet_2019 as demo_2019
    from tests.clirun import Runner
    from tests.pbem.cliflow import unpacked_part

    run = Runner()
    game, keys, secret = base.begin(tmp_path, demo_2019.GAME)

    def referee(*args: str) -> str:
        r = run.invoke(app, list(args))
        assert r.exit_code == 0, r.output
        return r.stdout

    roll = tmp_path / "roll.txt"
    roll.write_text(f"game: {demo_2019.GAME.game_id}\nturn: 1\nside: Soviet\n[events]\nroll\n")
    referee("sign", str(roll), "--key", str(keys / "soviet.key"), "--game-dir", str(game))
    referee("adjudicate", str(game), str(roll), "--key", str(keys / "referee.key"),
            "--referee-dir", str(secret))  # fmt: skip
    folder, _ = base.latest_report(game)
    table = _table("sixth_fleet_2019")
    save = unpacked_part(folder / "side-Soviet.age", keys / "soviet.key")["position-Soviet.vsav"]
    p = NamedPlayer(table, save)
    p.drag("SO-RKR-2", "Ionian Sea")
    p.chat("attack SO-SU24.1 SO-SU24.2 -> Istanbul hitting base")
    log, orders = tmp_path / "turn.vlog", tmp_path / "orders.txt"
    log.write_bytes(p.log_bytes())
    data = json.loads(
        referee(
            "import-vlog",
            str(log),
            "--game-dir",
            str(game),
            "-o",
            str(orders),
            "--json",
            "--key",
            str(keys / "soviet.key"),
        )
    )
    assert data["orders"] == [
        'move SO-RKR-2 -> "Ionian Sea"',
        "attack SO-SU24.1 SO-SU24.2 -> Istanbul hitting base",
    ]
    assert data["problems"] == [] and orders.read_text(encoding="utf-8") == data["text"]
    referee("sign", str(orders), "--key", str(keys / "soviet.key"), "--game-dir", str(game))
    referee("adjudicate", str(game), str(orders), "--key", str(keys / "referee.key"),
            "--referee-dir", str(secret))  # fmt: skip
    state = json.loads((game / "secret" / "state.json").read_text(encoding="utf-8"))
    where = {u["id"]: u["location"] for u in state["units"]}
    assert where["SO-RKR-2"] == "Ionian Sea"
