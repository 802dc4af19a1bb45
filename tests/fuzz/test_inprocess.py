"""The fuzzer's in-process speed-ups change what runs, not what is tested
(tests/fuzz/inprocess.py): a source is loaded again when its bytes change, each caller gets
its own diagnostics, and everything is as before once the run ends (the brief run shares its
process with the other tests)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import referee.cli as cli
import referee.source.load_area as load_area
import referee.source.loader as loader
from tests.fuzz.inprocess import run_cli, speedups
from tests.pbem import toy

toy.install()
TOY = Path(toy.TOY_FIXTURE)


def test_a_source_is_loaded_again_when_its_bytes_change(tmp_path):
    src = tmp_path / "m"
    shutil.copytree(TOY, src)
    with speedups():
        a, da = loader.load_module(src)
        b, db = loader.load_module(src)
        assert a is b and a is not None  # the same bytes: loaded once
        assert da is not db and da.items == db.items  # each caller its own diagnostics
        da.items.append("x")  # type: ignore[arg-type]
        assert "x" not in loader.load_module(src)[1].items
        toml = src / "module.toml"
        toml.write_text(toml.read_text() + "\nnot toml [[[\n")
        c, dc = loader.load_module(src)
        assert c is None and dc.errors  # the mutated copy is really loaded
        assert os.environ["REFEREE_CACHE"] == "off"


def test_everything_is_restored_afterwards():
    before = (loader.load_module, cli.app_for, load_area.polygons_overlap)
    env = os.environ.get("REFEREE_CACHE")
    with speedups():
        assert loader.load_module is not before[0]
        code, err = run_cli(["check", str(TOY)])
        assert code == 0, err
    assert (loader.load_module, cli.app_for, load_area.polygons_overlap) == before
    assert os.environ.get("REFEREE_CACHE") == env


def test_a_command_runs_the_same_twice_with_the_kept_click_command(tmp_path):
    with speedups():
        first = run_cli(["check", str(TOY)])
        second = run_cli(["check", str(TOY)])
        missing = run_cli(["check", str(tmp_path / "nosuch")])
    assert first == second and first[0] == 0
    assert missing[0] == 2 and "nosuch" in missing[1]
