"""Fixtures for the rendering tests: the mini module, and the Sixth Fleet source when it loads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.source.loader import load_module
from referee.source.model import Module

REPO = Path(__file__).resolve().parents[2]
MINI = REPO / "tests" / "fixtures" / "modules" / "mini"
SIXTH_FLEET = REPO / "module_src" / "sixth_fleet"


@pytest.fixture(scope="session")
def mini() -> Module:
    module, diags = load_module(MINI)
    assert module is not None, [str(d) for d in diags.items]
    return module


@pytest.fixture(scope="session")
def sixth_fleet() -> Module:
    if not (SIXTH_FLEET / "module.toml").is_file():
        pytest.skip("module_src/sixth_fleet is not there yet")
    module, diags = load_module(SIXTH_FLEET)
    if module is None:
        pytest.skip("module_src/sixth_fleet does not load yet: " + str(diags.errors[:1]))
    return module


@pytest.fixture()
def mini_copy(tmp_path: Path) -> Path:
    """A private copy of the mini module source to edit."""
    dst = tmp_path / "mini"
    shutil.copytree(MINI, dst)
    return dst
