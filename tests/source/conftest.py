from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "modules" / "mini"


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    """A private copy of the mini module that a test may break."""
    dst = tmp_path / "mini"
    shutil.copytree(MINI, dst)
    return dst


@pytest.fixture
def edit() -> Callable[[Path, str, str], None]:
    def _edit(path: Path, old: str, new: str) -> None:
        text = path.read_text(encoding="utf-8")
        assert old in text, f"test setup: {old!r} not in {path.name}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return _edit
