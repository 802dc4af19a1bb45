"""The recorded CPU of each test file (``tests/file_costs.txt``) that ``make test`` hands the
files out by, costliest first (``tests/conftest.py``): it reads back what was written, a run
of some files keeps the others' lines and drops a file that is gone, and the committed table
names only files that exist."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.conftest import FILE_COSTS, read_file_times, write_file_costs


def read_file_costs(path: Path) -> dict[str, float]:
    """The recorded CPU by file."""
    return {name: cpu for name, (cpu, _wall) in read_file_times(path).items()}


def test_a_partial_run_updates_its_files_and_keeps_the_others(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    path = tmp_path / "tests" / "file_costs.txt"
    for name in ("test_a.py", "test_b.py", "test_c.py"):
        (tmp_path / "tests" / name).write_text("")
    write_file_costs(
        Counter({"tests/test_a.py": 1.24, "tests/test_b.py": 30.0}),
        path,
        wall_by_file=Counter({"tests/test_b.py": 61.04}),
    )
    assert read_file_costs(path) == {"tests/test_b.py": 30.0, "tests/test_a.py": 1.2}
    assert read_file_times(path) == {"tests/test_b.py": (30.0, 61.0), "tests/test_a.py": (1.2, 1.2)}
    lines = path.read_text().splitlines()
    assert lines[0].startswith("# ") and lines[4:] == [
        "   30.0    61.0  tests/test_b.py",
        "    1.2     1.2  tests/test_a.py",
    ]
    (tmp_path / "tests" / "test_b.py").unlink()  # gone: its line goes
    write_file_costs(
        Counter({"tests/test_c.py": 2.0, "tests/viewer/conftest.py::browser (Chromium)": 9.0}),
        path,
    )  # what a test counts apart is no file
    assert read_file_costs(path) == {"tests/test_c.py": 2.0, "tests/test_a.py": 1.2}


def test_a_table_of_cpu_alone_reads_its_cpu_as_the_wall_time_too(tmp_path: Path) -> None:
    path = tmp_path / "file_costs.txt"
    path.write_text(
        "# an older table\n   12.5  tests/test_x.py\n    3.0     9.5  tests/test_y.py\n"
    )
    assert read_file_times(path) == {"tests/test_x.py": (12.5, 12.5), "tests/test_y.py": (3.0, 9.5)}


def test_the_committed_table_names_test_files_that_exist() -> None:
    costs = read_file_costs(FILE_COSTS)
    root = FILE_COSTS.parent.parent
    assert costs, f"{FILE_COSTS} is missing or empty: pytest --record-costs writes it"
    missing = [p for p in costs if not (root / p).is_file() or not Path(p).name.startswith("test_")]
    assert not missing, f"{FILE_COSTS.name} names files that are not tests: {missing}"
