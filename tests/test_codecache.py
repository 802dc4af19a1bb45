"""The cache of dataclass code (referee/codecache.py): the classes it makes behave as the
ones ``dataclasses`` compiles, it is written only when bytecode may be, and a damaged file
is ignored."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from referee import codecache


def _make() -> type:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 2

    return Point


@pytest.fixture
def private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "__pycache__" / "dc.marshal"
    monkeypatch.setitem(codecache._state, "path", str(path))
    monkeypatch.setitem(codecache._state, "stored", None)
    monkeypatch.setitem(codecache._state, "new", 0)
    return path


def test_installed_and_the_classes_behave(private: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert vars(dataclasses)["exec"] is codecache.cached_exec  # installed by `import referee`
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    first = _make()
    codecache.save()
    assert private.is_file()
    codecache._state["stored"] = None  # a new process: read the file
    again = _make()
    assert codecache._state["new"] == 0  # every text came from the file
    for cls in (first, again):
        p = cls(1)
        assert (p.x, p.y, repr(p).rsplit(".", 1)[-1]) == (1, 2, "Point(x=1, y=2)")
        assert p == cls(1, 2) and hash(p) == hash(cls(1, 2)) and p != cls(1, 3)
        with pytest.raises(dataclasses.FrozenInstanceError):
            p.x = 5  # type: ignore[misc]


def test_nothing_written_when_bytecode_is_not(
    private: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    _make()
    codecache.save()
    assert not private.exists()


def test_a_damaged_or_foreign_file_is_ignored(
    private: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    private.parent.mkdir(parents=True)
    for junk in (b"\x00garbage", b""):
        private.write_bytes(junk)
        codecache._state["stored"] = None
        assert _make()(1).y == 2
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    codecache.save()  # rewritten whole
    codecache._state["stored"] = None
    codecache._state["new"] = 0
    _make()
    assert codecache._state["new"] == 0
