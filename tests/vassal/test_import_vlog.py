"""import-vlog: a log of moves made with our module becomes the expected orders file."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import app
from referee.engine.core import GameState, ScriptedDice
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.movement import reachable
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.codec.commands import (
    AddPiece,
    Chat,
    Command,
    Compound,
    LogEntry,
    MovePiece,
    RemovePiece,
    Undo,
)
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.pieces import BasicPiece, Marker, Piece, Stack
from referee.vassal.codec.savefile import SaveGame, read_save_bytes, save_to_bytes
from referee.vassal.codec.tabletop import Point, Tabletop, replay
from referee.vassal.module.buildfile import moduledata_xml
from referee.vassal.position.placement import Table, table_for
from referee.vassal.position.save import position_vsav_bytes
from referee.vassal.position.vlog_import import Expected, Imported, import_log
from tests.clirun import Runner

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "modules" / "mini"


@cache
def mini() -> Module:
    module, diags = load_module(MINI)
    assert module is not None, [str(d) for d in diags.items]
    return module


@cache
def mini_table() -> Table:
    return table_for(mini())


def resolve(state: GameState, side: str, section: str, lines: list[str]) -> GameState:
    module = mini()
    rs = get_ruleset(module.ruleset)
    text = f"game: g1\nturn: {state.turn}\nside: {side}\n[{section}]\n" + "\n".join(lines) + "\n"
    doc = parse_orders(text, "o.txt", VOCABULARY)
    assert rs.validate(module, state, doc) == []
    return rs.resolve(module, state, doc, ScriptedDice([6] * 20)).state


def advance_to(state: GameState, phase: str, side: str) -> GameState:
    """Pass empty orders until ``side``'s ``phase`` comes."""
    for _ in range(8):
        if (state.phase, state.active_side) == (phase, side):
            return state
        assert state.active_side is not None
        state = resolve(state, state.active_side, state.phase, [])
    raise AssertionError(f"no {side} {phase} in sight")


@cache
def at_setup() -> GameState:
    return get_ruleset(mini().ruleset).new_game(mini(), "skirmish", "g1")


@cache
def first_movement() -> GameState:
    """Game-Turn 1: the Soviet player's Movement Phase (NATO set up first, so moves second)."""
    state = resolve(
        at_setup(), "NATO", "setup", ["place US-DD-1 0203", "place US-F4.2 box US-CV-1"]
    )
    state = resolve(
        state,
        "Soviet",
        "setup",
        ["place SO-SG-1 0405", "place SO-DD-1 0506", "place SO-T16.1 0608"],
    )
    assert (state.turn, state.phase, state.active_side) == (1, "movement", "Soviet")
    return state


def expected_for(state: GameState) -> Expected:
    module = mini()
    side, _ = get_ruleset(module.ruleset).awaiting(module, state)
    return Expected(module.name, module.version, state.game_id, state.turn, side, state.phase)


class Player:
    """Makes a ``.vlog`` the way VASSAL logs a player's actions (vassal-format.md §6.4, §6.6):
    a drag is ``M/`` of the piece (or of the whole stack), then a new Stack when it lands on
    an empty point, or ``newUnderId`` = the top piece of the stack it lands on."""

    def __init__(self, table: Table, save_bytes: bytes) -> None:
        self.table = table
        self.save = read_save_bytes(save_bytes)
        self.top: Tabletop = replay(self.save.commands).end
        units = ((self.top.properties(p).get("UnitId"), p) for p in self.top.pieces)
        self.ids = {u: p for u, p in units if u}  # markers (a port's capacity) have no UnitId
        self.steps: list[Command] = []
        self.next_id = 1_700_000_000_000

    def new_id(self) -> str:
        self.next_id += 1
        return str(self.next_id)

    def log(self, command: Command) -> None:
        self.steps.append(LogEntry(command))
        if isinstance(command, MovePiece):
            self.top.move(command)
        elif isinstance(command, AddPiece):
            self.top.add(command)
        elif isinstance(command, RemovePiece):
            self.top.remove(command)

    def point_of(self, where: str | tuple[str, int, int]) -> Point:
        if isinstance(where, tuple):
            return where
        if where.startswith("box:"):
            return self.table.holding_point(where[4:], 0)
        return self.table.hex_point(where)

    def drag(
        self, unit: str, where: str | tuple[str, int, int], *, whole_stack: bool = False
    ) -> None:
        pid = self.ids[unit]
        old = self.top.point(pid)
        new = self.point_of(where)
        moving = self.top.stack_of[pid] if whole_stack else pid
        under = None
        for sid, members in self.top.stacks.items():
            if (
                sid != self.top.stack_of.get(pid)
                and members
                and self.top.stack_point.get(sid) == new
            ):
                under = members[-1]
        old_under = None
        self.log(
            MovePiece(
                moving, new[0], new[1], new[2], under, old[0], old[1], old[2], old_under, "pw"
            )
        )
        if under is None and not whole_stack:
            stack = Stack.build(new[0], new[1], new[2], [pid])
            self.log(AddPiece(self.new_id(), stack.type, stack.state or ""))

    def undo_drag(self, unit: str, back_to: str) -> None:
        pid = self.ids[unit]
        old = self.top.point(pid)
        new = self.point_of(back_to)
        self.steps.append(LogEntry(Undo(True)))
        self.log(MovePiece(pid, new[0], new[1], new[2], None, old[0], old[1], old[2], None, "pw"))
        self.steps.append(LogEntry(Undo(False)))

    def chat(self, text: str) -> None:
        self.log(Chat(f"&lt;Player&gt; - {text}"))

    def log_bytes(self, moduledata: bytes | None = None) -> bytes:
        commands = self.save.commands
        assert isinstance(commands, Compound)
        tree = Compound((*commands.children, *self.steps))
        meta = self.save.moduledata if moduledata is None else moduledata
        return save_to_bytes(tree, savedata=self.save.savedata, moduledata=meta)


def player(state: GameState) -> Player:
    return Player(mini_table(), position_vsav_bytes(mini_table(), state))


def run(p: Player, state: GameState, **kw: object) -> Imported:
    log = read_save_bytes(p.log_bytes(**kw))  # type: ignore[arg-type]
    return import_log(mini_table(), log, state, expected_for(state), source="turn.vlog")


def violations(state: GameState, text: str) -> list[str]:
    module = mini()
    doc = parse_orders(text, "orders.txt", VOCABULARY)
    return [str(v) for v in get_ruleset(module.ruleset).validate(module, state, doc)]


def order_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln and not ln.startswith("#")]


# ---- movement ------------------------------------------------------------------------------


def test_drags_become_paths_in_the_order_made_and_validate_clean() -> None:
    state = first_movement()
    p = player(state)
    p.drag("SO-SG-1", "0505")
    p.drag("SO-DD-1", "0606")
    p.drag("SO-SG-1", "0605")
    result = run(p, state)
    assert order_lines(result.text) == [
        "game: g1",
        "turn: 1",
        "side: Soviet",
        "phase: movement",
        "[movement]",
        "move SO-SG-1 0505 0605",
        "move SO-DD-1 0606",
    ]
    assert result.problems == ()
    assert "joined into one path" in result.text
    assert violations(state, result.text) == []


def test_consecutive_drags_join_and_undone_drags_are_dropped() -> None:
    state = first_movement()
    p = player(state)
    p.drag("SO-SG-1", "0505")
    p.drag("SO-SG-1", "0604")
    p.undo_drag("SO-SG-1", "0505")
    p.drag("SO-SG-1", "0605")
    result = run(p, state)
    assert result.orders == ("move SO-SG-1 0505 0605",)
    assert "joined" not in result.text


def test_a_long_drag_is_kept_and_marked_for_the_player() -> None:
    state = first_movement()
    p = player(state)
    p.drag("SO-DD-1", "0306")
    result = run(p, state)
    assert result.orders == ("move SO-DD-1 0306",)
    assert "SO-DD-1: 0506 -> 0306 (log step 1) crosses several hexes" in result.text
    assert result.problems == ()


def test_a_dragged_stack_moves_every_counter() -> None:
    state = first_movement()
    p = player(state)
    p.drag("SO-DD-1", "0505")
    p.drag("SO-SG-1", "0505")  # lands on the DD: one stack now
    p.drag("SO-SG-1", "0605", whole_stack=True)
    result = run(p, state)
    assert result.orders == ("move SO-DD-1 0505 0605", "move SO-SG-1 0505 0605")


def test_off_map_and_deleted_counters_and_enemy_drags_are_reported() -> None:
    state = first_movement()
    p = player(state)
    p.drag("SO-SG-1", (mini_table().main_map, 3, 3))
    p.drag("US-DD-1", "0204")
    p.log(RemovePiece(p.ids["SO-T16.1"]))
    result = run(p, state)
    assert result.orders == ()
    messages = [p.message for p in result.problems]
    assert any("SO-SG-1 was dragged to Main Map (3,3), off-board" in m for m in messages)
    assert any("US-DD-1 is not a Soviet unit" in m for m in messages)
    assert any("SO-T16.1 was deleted" in m for m in messages)
    assert result.text.count("# NOT TRANSLATED") == 3
    parse_orders(result.text, "o.txt", VOCABULARY)


def test_a_drag_into_a_holding_box_is_a_box_order() -> None:
    state = advance_to(first_movement(), "movement", "NATO")
    p = player(state)
    for hex_id in ("0201", "0202", "0203"):
        p.drag("US-F4.1", hex_id)
    p.drag("US-F4.1", "box:US-CV-1")
    result = run(p, state)
    assert result.orders == ("move US-F4.1 0201 0202 0203", "box US-F4.1 US-CV-1")
    assert violations(state, result.text) == [], result.text


# ---- combat --------------------------------------------------------------------------------


def test_attack_chat_lines_become_attacks_in_the_combat_phase() -> None:
    state = first_movement()
    reach = reachable(Game.of(mini(), state), state, "SO-SG-1")
    near = [
        r
        for h, r in sorted(reach.items())
        if r.may_end and mini().map.grid.distance(h, "0203") == 1
    ]
    state = resolve(state, "Soviet", "movement", ["move SO-SG-1 " + " ".join(near[0].path[1:])])
    state = advance_to(state, "combat", "NATO")
    p = player(state)
    p.chat("hello there")
    p.chat("attack US-CV-1 US-DD-1 -&gt; SO-SG-1")
    result = run(p, state)
    assert result.orders == ("attack US-CV-1 US-DD-1 -> SO-SG-1",)
    doc = parse_orders(result.text, "o.txt", VOCABULARY)
    assert doc.orders[0].targets == ("SO-SG-1",)


def test_no_attack_leaves_a_comment_where_to_add_it() -> None:
    state = replace(first_movement(), phase="combat", active_side="Soviet")
    p = player(state)
    result = run(p, state)
    assert result.orders == ()
    assert "no attack found" in result.text


# ---- set-up --------------------------------------------------------------------------------


def test_setup_log_becomes_place_orders_that_validate() -> None:
    state = at_setup()
    p = player(state)
    p.drag("US-DD-1", "0203")
    result = run(p, state)  # US-F4.2 waits in the CV's box: placed there
    assert result.orders == (
        "place US-DD-1 0203",
        "place US-F4.2 box US-CV-1",
        "stack 0203 US-DD-1 US-CV-1",
    )
    assert violations(state, result.text) == []


def test_setup_stack_order_and_cap_are_read_from_the_table() -> None:
    state = at_setup()
    p = player(state)
    p.drag("US-DD-1", "0203")  # on top of the CV
    p.drag("US-F4.2", "0203")  # out of the box onto the CV: CAP [9.62A]
    result = run(p, state)
    assert "place US-F4.2 cap US-CV-1" in result.orders
    assert "stack 0203 US-F4.2 US-DD-1 US-CV-1" in result.orders
    assert violations(state, result.text) == []


def test_setup_counters_left_in_the_setup_area_are_reported() -> None:
    state = resolve(
        at_setup(), "NATO", "setup", ["place US-DD-1 0203", "place US-F4.2 box US-CV-1"]
    )
    p = player(state)
    p.drag("SO-SG-1", "0405")
    result = run(p, state)
    assert result.orders == ("place SO-SG-1 0405",)
    left = sorted(x.unit or "" for x in result.problems)
    assert left == ["SO-DD-1", "SO-T16.1"]


# ---- refusals ------------------------------------------------------------------------------


def test_a_log_from_another_module_is_refused() -> None:
    state = first_movement()
    p = player(state)
    p.drag("SO-SG-1", "0505")
    other = moduledata_xml("Seventh Fleet", "0.1", "")
    with pytest.raises(UserError, match="Seventh Fleet"):
        run(p, state, moduledata=other)
    version = moduledata_xml("Mini Fleet", "9.9", "")
    with pytest.raises(UserError, match=r"'9\.9'"):
        run(p, state, moduledata=version)


def test_a_log_naming_counters_we_never_built_is_refused() -> None:
    state = first_movement()
    p = player(state)
    stranger = Piece((Marker.build({"UnitId": "XX-BB-9"}), BasicPiece.build("Bismarck")))
    point = mini_table().hex_point("0505")
    placed = stranger.placed(*point)
    p.log(AddPiece("1700000000999", placed.type, placed.state))
    with pytest.raises(UserError, match="XX-BB-9"):
        run(p, state)


def test_a_log_from_a_module_built_at_another_dpi_is_refused() -> None:
    state = first_movement()
    table = table_for(mini(), dpi=100)
    data = position_vsav_bytes(table, state)
    with pytest.raises(UserError, match="--dpi"):
        import_log(mini_table(), read_save_bytes(data), state, expected_for(state))


def zip_of(entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


# the hostile files' kinds, named for collecting the tests: their bytes (an 80 MB zip bomb
# compressed, a game's log) are made on first use, not by every test process's collection
HOSTILE = (
    "truncated",
    "corrupt",
    "not a zip",
    "zip bomb",
    "path traversal",
    "entity expansion",
    "external entity",
)


@cache
def hostile_files() -> dict[str, bytes]:
    good = player(first_movement()).log_bytes()
    entity = (
        b'<?xml version="1.0"?><!DOCTYPE data [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><data><name>&b;</name></data>'
    )
    external = (
        b'<?xml version="1.0"?><!DOCTYPE data [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b"<data><name>&x;</name></data>"
    )
    saved = zipfile.ZipFile(io.BytesIO(good)).read("savedGame")
    return {
        "truncated": good[: len(good) // 2],
        "corrupt": good[:40] + bytes(200) + good[240:],
        "not a zip": b"hello, this is not a zip file at all",
        "zip bomb": zip_of({"savedGame": b"\x00" * (80 * 1024 * 1024)}),
        "path traversal": zip_of({"../../evil": b"x", "savedGame": saved}),
        "entity expansion": zip_of({"savedGame": saved, "moduledata": entity}),
        "external entity": zip_of({"savedGame": saved, "moduledata": external}),
    }


@pytest.fixture(scope="module")
def setup_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real game archive of the mini module, waiting for NATO's set-up."""
    from referee.pbem.game import create_game
    from referee.pbem.keys import generate

    folder = tmp_path_factory.mktemp("game")
    keys = {n: generate(n) for n in ("nato", "soviet", "ref")}
    create_game(
        folder / "g1",
        mini(),
        scenario="skirmish",
        players={"NATO": keys["nato"].public, "Soviet": keys["soviet"].public},
        referee_key=keys["ref"],
        game_id="g1",
        dice_length=8,
        referee_dir=folder / "secret",
        seed_root=bytes(range(32)),
        picture_dpi=0,
    )
    return folder / "g1"


@pytest.mark.parametrize("kind", HOSTILE)
def test_hostile_files_are_refused_and_nothing_is_written(
    kind: str, tmp_path: Path, setup_game: Path
) -> None:
    assert tuple(hostile_files()) == HOSTILE  # every kind made is tested
    bad = tmp_path / "turn.vlog"
    bad.write_bytes(hostile_files()[kind])
    out = tmp_path / "orders.txt"
    result = Runner().invoke(
        app,
        ["import-vlog", str(bad), "--game", str(setup_game), "--module", str(MINI), "-o", str(out)],
    )
    assert result.exit_code != 0
    assert isinstance(result.exception, VassalFormatError), result.output
    assert not out.exists()


def test_cli_writes_orders_for_the_awaited_side(tmp_path: Path, setup_game: Path) -> None:
    p = player(at_setup())
    p.drag("US-DD-1", "0203")
    log = tmp_path / "nato.vlog"
    log.write_bytes(p.log_bytes())
    out = tmp_path / "orders.txt"
    args = [
        "import-vlog",
        str(log),
        "--game",
        str(setup_game),
        "--module",
        str(MINI),
        "-o",
        str(out),
    ]
    result = Runner().invoke(app, args)
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "side: NATO" in text and "place US-DD-1 0203" in text
    assert violations(at_setup(), text) == []
    shown = Runner().invoke(app, ["show-vsav", str(log), "--module", str(MINI), "--json"])
    assert shown.exit_code == 0, shown.output
    assert '"unit": "US-DD-1"' in shown.output


def test_cli_refuses_a_log_from_another_module(tmp_path: Path, setup_game: Path) -> None:
    p = player(at_setup())
    log = tmp_path / "x.vlog"
    log.write_bytes(p.log_bytes(moduledata=moduledata_xml("Other", "1", "")))
    out = tmp_path / "orders.txt"
    args = [
        "import-vlog",
        str(log),
        "--game",
        str(setup_game),
        "--module",
        str(MINI),
        "-o",
        str(out),
    ]
    result = Runner().invoke(app, args)
    assert isinstance(result.exception, UserError)
    assert not out.exists()


# ---- the invariant -------------------------------------------------------------------------


@st.composite
def legal_moves(draw: st.DrawFn) -> tuple[str, tuple[str, ...]]:
    state = first_movement()
    unit = draw(st.sampled_from(["SO-SG-1", "SO-DD-1"]))
    reach = reachable(Game.of(mini(), state), state, unit)
    ends = sorted(h for h, r in reach.items() if r.may_end and len(r.path) > 1)
    end = draw(st.sampled_from(ends))
    return unit, reach[end].path[1:]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_moves())
def test_any_legal_step_by_step_move_imports_to_a_clean_order(
    move: tuple[str, tuple[str, ...]],
) -> None:
    unit, path = move
    state = first_movement()
    p = player(state)
    for hex_id in path:
        p.drag(unit, hex_id)
    result = run(p, state)
    assert result.orders == (f"move {unit} {' '.join(path)}",)
    assert violations(state, result.text) == []


def test_save_game_type_is_what_import_reads() -> None:
    assert isinstance(read_save_bytes(player(at_setup()).log_bytes()), SaveGame)


def test_a_game_waiting_for_an_answer_is_refused() -> None:
    from referee.engine.core import PendingDecision

    decision = PendingDecision(
        "d1", "NATO", "retreat", "8.5", "Where does US-DD-1 retreat?", ("0202",)
    )
    state = replace(first_movement(), pending=(decision,))
    with pytest.raises(UserError, match="answer to d1"):
        run(player(state), state)
