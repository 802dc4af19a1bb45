"""How ``referee build`` shares the drawing between processes, and why that cannot show.

The board goes to a worker process first; this process draws the module's own pictures and
any extra pictures, then takes tasks from the back of the queue. Whatever the split, the
archive must be byte-identical to a serial build, every picture must be drawn exactly once,
and an error anywhere must leave no archive behind.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import referee.vassal.module.module_writer as mw
from referee.errors import UserError
from referee.render.counters import png_bytes
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.module.module_writer import (
    build_module,
    module_entries,
    picture_count,
    plan_build,
    render_plan,
)
from referee.vassal.module.plan import ModulePlan

REPO = Path(__file__).resolve().parents[2]
MINI = REPO / "tests" / "fixtures" / "modules" / "mini"


@pytest.fixture(scope="module")
def mini() -> Module:
    module, diags = load_module(MINI)
    assert module is not None, [str(d) for d in diags.items]
    return module


@pytest.fixture(scope="module")
def plan(mini: Module) -> ModulePlan:
    return plan_build(mini, dpi=60)


@pytest.fixture(scope="module")
def serial_entries(plan: ModulePlan) -> dict[str, bytes]:
    return module_entries(plan, workers=1)


def _faces_of(tasks: tuple[mw.Task, ...]) -> list[tuple[int, bool]]:
    return [face for kind, arg in tasks if kind == "faces" for face in arg]


# ---- the split ---------------------------------------------------------------------------
def test_serial_plan_has_one_process_and_the_board_first(plan: ModulePlan) -> None:
    work = render_plan(plan, workers=1)
    assert work.processes == 1
    assert work.tasks[0] == ("board", "")
    assert [t for t in work.tasks if t[0] == "chart"] == [("chart", c.source) for c in plan.charts]


def test_a_small_board_with_few_faces_is_not_worth_a_pool(plan: ModulePlan) -> None:
    w, h = plan.board_size
    assert w * h < mw.PARALLEL_MIN_BOARD_PIXELS and len(plan.faces) < mw.PARALLEL_MIN_FACES
    assert render_plan(plan, workers=4).processes == 1


def test_a_large_board_alone_is_worth_a_pool(mini: Module) -> None:
    big = plan_build(mini, dpi=150)
    w, h = big.board_size
    assert w * h >= mw.PARALLEL_MIN_BOARD_PIXELS
    assert render_plan(big, workers=2).processes == 2
    assert render_plan(big, workers=64).processes == mw.MAX_WORKERS


@settings(max_examples=40, deadline=None)
@given(copies=st.integers(0, 40), workers=st.integers(1, 12))
def test_every_face_is_drawn_once_in_roster_order(
    plan: ModulePlan, copies: int, workers: int
) -> None:
    """Any roster size, any worker count: the tasks cover every face once, board first."""
    faces = tuple(plan.faces) * copies
    many = replace(plan, faces=faces)
    work = render_plan(many, workers)
    index = {u.id: i for i, u in enumerate(plan.module.units)}
    assert _faces_of(work.tasks) == [(index[u.id], back) for u, back in faces]
    assert work.tasks[0] == ("board", "")
    assert Counter(kind for kind, _ in work.tasks)["board"] == 1
    assert 1 <= work.processes <= min(workers, mw.MAX_WORKERS)
    if work.processes > 1:
        sizes = [len(arg) for kind, arg in work.tasks if kind == "faces"]
        assert all(n >= mw.FACES_PER_TASK for n in sizes[:-1])


# ---- same bytes, whoever draws -------------------------------------------------------------
@pytest.mark.parametrize("workers", [2, 3])
def test_parallel_entries_equal_serial_entries(
    plan: ModulePlan,
    serial_entries: dict[str, bytes],
    workers: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(mw, "PARALLEL_MIN_BOARD_PIXELS", 0)
    monkeypatch.setattr(mw, "FACES_PER_TASK", 1)  # many small tasks: both ends get some
    assert render_plan(plan, workers).processes == workers
    assert module_entries(plan, workers=workers) == serial_entries


def test_parallel_and_serial_archives_are_byte_identical(
    mini: Module, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mw, "PARALLEL_MIN_BOARD_PIXELS", 0)
    serial = build_module(mini, tmp_path / "a", dpi=60, workers=1).path.read_bytes()
    parallel = build_module(mini, tmp_path / "b", dpi=60, workers=2).path.read_bytes()
    assert parallel == serial


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_counts_every_picture_once(
    plan: ModulePlan, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mw, "PARALLEL_MIN_BOARD_PIXELS", 0)
    ticks: list[int] = []
    extra = [("extra.png", lambda: png_bytes_of_one_pixel())]
    module_entries(plan, workers=workers, progress=ticks.append, extra_pictures=extra)
    assert sum(ticks) == picture_count(plan) + 1
    assert all(n > 0 for n in ticks)


# ---- extra pictures ---------------------------------------------------------------------
def png_bytes_of_one_pixel() -> bytes:
    from PIL import Image

    return png_bytes(Image.new("RGB", (1, 1), (1, 2, 3)))


@pytest.mark.parametrize("workers", [1, 2])
def test_extra_pictures_are_drawn_here_and_stored_under_images(
    plan: ModulePlan, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The callables run in this process (they need not be picklable), pool or not."""
    monkeypatch.setattr(mw, "PARALLEL_MIN_BOARD_PIXELS", 0)
    pids: list[int] = []

    def draw() -> bytes:
        pids.append(os.getpid())
        return png_bytes_of_one_pixel()

    entries = module_entries(plan, workers=workers, extra_pictures=[("area.png", draw)])
    assert entries["images/area.png"] == png_bytes_of_one_pixel()
    assert pids == [os.getpid()]


@pytest.mark.parametrize("name", ["board.png", "../x.png", "", "a\\b.png", "sub/x.png"])
def test_extra_picture_names_are_checked(plan: ModulePlan, name: str) -> None:
    with pytest.raises(UserError, match="extra module picture"):
        module_entries(plan, workers=1, extra_pictures=[(name, png_bytes_of_one_pixel)])


def test_extra_picture_given_twice_is_refused(plan: ModulePlan) -> None:
    twice = [("x.png", png_bytes_of_one_pixel)] * 2
    with pytest.raises(UserError, match="name taken"):
        module_entries(plan, workers=1, extra_pictures=twice)


# ---- errors ---------------------------------------------------------------------------------
def _broken() -> bytes:
    raise UserError("the set-up area cannot be drawn", hint="test")


def test_an_error_here_while_the_pool_draws_reaches_the_caller(
    plan: ModulePlan, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error in this process while the worker draws the board cancels the rest of the
    queue and reaches the caller as it was raised."""
    monkeypatch.setattr(mw, "PARALLEL_MIN_BOARD_PIXELS", 0)
    with pytest.raises(UserError, match="set-up area"):
        module_entries(plan, workers=2, extra_pictures=[("area.png", _broken)])


def _refusing_draw(task: mw.Task) -> list[tuple[str, bytes]]:
    if task[0] == "board":
        raise UserError("the board cannot be drawn", hint="test")
    return _REAL_DRAW(task)


_REAL_DRAW = mw._draw


@pytest.mark.skipif(
    __import__("multiprocessing").get_start_method() != "fork",
    reason="the worker sees the patched function only when forked",
)
def test_an_error_in_a_worker_reaches_the_caller_and_no_archive_is_written(
    mini: Module, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mw, "PARALLEL_MIN_BOARD_PIXELS", 0)
    monkeypatch.setattr(mw, "_draw", _refusing_draw)
    with pytest.raises(UserError, match="board cannot be drawn") as caught:
        build_module(mini, tmp_path, dpi=60, workers=2)
    assert caught.value.hint == "test"  # the whole error crosses the process boundary
    assert list(tmp_path.iterdir()) == []


_TEST_PID = os.getpid()


def _dying_draw(task: mw.Task) -> list[tuple[str, bytes]]:
    if task[0] == "board" and os.getpid() != _TEST_PID:
        os._exit(3)  # the worker is killed mid-task
    return _REAL_DRAW(task)


@pytest.mark.skipif(
    __import__("multiprocessing").get_start_method() != "fork",
    reason="the worker sees the patched function only when forked",
)
def test_a_dead_worker_costs_time_not_pictures(
    plan: ModulePlan, serial_entries: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mw, "PARALLEL_MIN_BOARD_PIXELS", 0)
    monkeypatch.setattr(mw, "_draw", _dying_draw)
    assert module_entries(plan, workers=2) == serial_entries


# ---- planning stays cheap and agrees with the renderer ----------------------------------------
@pytest.mark.parametrize("has_crt", [True, False])
def test_module_charts_are_the_ones_the_renderer_offers(mini: Module, has_crt: bool) -> None:
    from referee.render.charts import chart_names

    module = mini if has_crt else replace(mini, tables=replace(mini.tables, crt=None))
    offered = chart_names(module)
    first = [name for name, _ in mw.CHARTS if name in offered]
    want = first + [name for name in offered if name not in first]
    assert [c.source for c in mw.chart_defs(module)] == want
    assert ("crt" in want) == has_crt
    assert {"sequence", "victory", "tec"} <= set(want)
    assert any(n.startswith("turns-") for n in want)
    assert any(n.startswith("setup-") for n in want)


_LOG = Path()  # set by the test; a forked worker sees the value set before the fork


def _logging_draw(task: mw.Task) -> list[tuple[str, bytes]]:
    with _LOG.open("a") as log:  # one short append per task: atomic between processes
        log.write(f"{os.getpid()} {task[0]} {task[1]!r}\n")
    return _REAL_DRAW(task)


@pytest.mark.skipif(
    __import__("multiprocessing").get_start_method() != "fork",
    reason="the worker sees the patched function only when forked",
)
def test_each_task_is_drawn_once_and_the_board_by_a_worker(
    plan: ModulePlan,
    serial_entries: dict[str, bytes],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    global _LOG
    _LOG = tmp_path / "draw.log"
    monkeypatch.setattr(mw, "PARALLEL_MIN_BOARD_PIXELS", 0)
    monkeypatch.setattr(mw, "FACES_PER_TASK", 1)
    monkeypatch.setattr(mw, "_draw", _logging_draw)
    assert module_entries(plan, workers=2) == serial_entries
    lines = _LOG.read_text().splitlines()
    drawn = Counter(line.split(" ", 1)[1] for line in lines)
    want = Counter(f"{kind} {arg!r}" for kind, arg in render_plan(plan, 2).tasks)
    assert drawn == want
    board_pid = next(line.split()[0] for line in lines if line.split()[1] == "board")
    assert int(board_pid) != os.getpid()
