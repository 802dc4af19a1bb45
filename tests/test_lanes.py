"""The lanes of ``make test`` (tests/lanes.py): which worker takes which test file."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.lanes import (
    BROWSER,
    CPU,
    VASSAL,
    file_kinds,
    kind_of,
    make_scheduler,
    read_kinds,
    worker_lanes,
    write_kinds,
)


def test_a_file_is_of_the_kind_of_its_most_waiting_test() -> None:
    assert kind_of(["vassal", "slow"], ["browser"]) == VASSAL
    assert kind_of(["slow"], ["tmp_path", "browser"]) == BROWSER
    assert kind_of(["parametrize"], ["tmp_path"]) == CPU
    kinds = file_kinds(
        [("a.py", CPU), ("a.py", VASSAL), ("a.py", BROWSER), ("b.py", BROWSER), ("c.py", CPU)]
    )
    assert kinds == {"a.py": VASSAL, "b.py": BROWSER, "c.py": CPU}


def test_the_last_workers_are_the_lanes_the_last_one_the_first_named() -> None:
    prefs = worker_lanes(4, ["vassal", "browser"])
    assert [p[0] for p in prefs] == [CPU, CPU, BROWSER, VASSAL]
    assert prefs[3] == (VASSAL, CPU, BROWSER)  # a lane helps with the cpu files first
    assert prefs[0] == (CPU, BROWSER, VASSAL)  # the others help the last lane's kind first
    assert worker_lanes(3, ["vassal+browser"])[2] == (VASSAL, BROWSER, CPU)
    # no worker left for the cpu files: no lanes
    assert worker_lanes(2, ["vassal", "browser"]) == [(CPU, VASSAL, BROWSER)] * 2
    assert worker_lanes(3, []) == [(CPU, VASSAL, BROWSER)] * 3


def test_the_kinds_written_by_a_worker_are_read_by_the_controller(tmp_path: Path) -> None:
    assert read_kinds(tmp_path) == {}
    write_kinds(tmp_path, {"tests/x.py": VASSAL})
    assert read_kinds(tmp_path) == {"tests/x.py": VASSAL}
    assert [p.name for p in tmp_path.iterdir()] == ["file-kinds.json"]  # no temporary left


class _Node:
    """A stand-in for pytest-xdist's worker controller: its id, and what it was sent."""

    def __init__(self, number: int) -> None:
        self.gateway = SimpleNamespace(id=f"gw{number}")
        self.sent: list[list[int]] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.append(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def _config() -> Any:
    option = SimpleNamespace(
        tx=["4*popen"], numprocesses=4, loadscopereorder=False, dist="loadfile"
    )
    return SimpleNamespace(option=option, getvalue=lambda name: getattr(option, name))


def test_each_worker_is_handed_a_file_of_its_own_lane_first(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    files = {"t/cpu1.py": CPU, "t/v1.py": VASSAL, "t/cpu2.py": CPU, "t/b1.py": BROWSER}
    files |= {"t/v2.py": VASSAL, "t/cpu3.py": CPU, "t/cpu4.py": CPU, "t/cpu5.py": CPU}
    write_kinds(tmp_path, files)
    # two tests a file: pytest-xdist sends each worker a second file at once (it tops a
    # worker up while it has two tests or fewer to run)
    collection = [f"{path}::test_{k}" for path in files for k in range(2)]
    sched = make_scheduler(_config(), None, tmp_path, ["vassal", "browser"])
    nodes = [_Node(k) for k in range(4)]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()

    def files_of(node: _Node) -> list[str]:
        return [collection[batch[0]].split("::")[0] for batch in node.sent]

    # in the collection's order (costliest first), each worker first takes its own kind
    assert files_of(nodes[3])[0] == "t/v1.py"
    assert files_of(nodes[2])[0] == "t/b1.py"
    assert files_of(nodes[0])[0] == "t/cpu1.py" and files_of(nodes[1])[0] == "t/cpu2.py"
    # the second files, handed out in the workers' order: the browser lane's own kind is
    # gone, so it helps with the cpu files; the vassal lane still has its own
    assert [files_of(n)[1] for n in nodes] == ["t/cpu3.py", "t/cpu4.py", "t/cpu5.py", "t/v2.py"]
