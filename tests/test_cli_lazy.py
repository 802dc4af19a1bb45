"""``referee COMMAND`` registers only that command's module (start-up time, issue 12 §8), and
the table that says which module that is stays true."""

from __future__ import annotations

import importlib
import subprocess
import sys

import typer

from referee.cli import app_for, build_app
from referee.commands import COMMAND_MODULES, COMMAND_NAMES


def _names(app: typer.Typer) -> list[str]:
    out = [c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands]
    return out + [g.name or "" for g in app.registered_groups]


def test_every_command_name_maps_to_the_module_that_registers_it() -> None:
    seen: dict[str, str] = {}
    for module in COMMAND_MODULES:
        one = typer.Typer()
        importlib.import_module(f"referee.commands.{module}").register(one)
        for name in _names(one):
            seen[name.replace("_", "-")] = module
    assert seen == COMMAND_NAMES


def test_a_command_gets_only_its_module_and_help_gets_all() -> None:
    assert sorted(_names(app_for(["validate", "x.txt"]))) == ["validate"]
    assert sorted(_names(app_for(["state", "new", "-h"]))) == ["state"]
    every = sorted(_names(build_app()))
    for args in ([], ["--help"], ["-h"], ["--version"], ["valdate"]):
        assert sorted(_names(app_for(args))) == every, args


def test_a_lone_command_reads_as_before() -> None:
    """Usage lines and errors of one command are those of the full app."""
    run = [sys.executable, "-m", "referee"]
    r = subprocess.run([*run, "validate", "--nope"], capture_output=True, text=True)
    assert r.returncode == 2 and "Usage: python -m referee validate" in r.stderr
    assert "No such option: --nope" in r.stderr
    r = subprocess.run([*run, "valdate"], capture_output=True, text=True)
    assert r.returncode == 2 and "Did you mean 'validate'?" in r.stderr
