"""Every `referee ...` line a reader copies from the README or the docs must run as written:
the command exists, each long option is one that command takes, and an `--example NAME
--scenario NAME` pair names a bundled module and one of its scenarios (a user found
`--scenario basic` in docs/pbem.md, which `referee new` refuses with exit 2)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from typer.core import TyperGroup
from typer.main import get_command

from referee.cli import app
from referee.resources import example_path
from referee.source.loader import load_module

ROOT = Path(__file__).resolve().parents[1]
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "module_src").glob("*/README.md")),
    *sorted((ROOT / "module_src").glob("*/examples/README.md")),
]
FENCE = re.compile(r"^\s*```(\w*)\s*$")
INLINE = re.compile(r"`(referee [^`]*)`")
SHELL = {"", "sh", "bash", "shell", "console"}


def _command_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, command) for each `referee` command in a shell block or inline code."""
    inside, lang, buf, start = False, "", "", 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(line)
        if fence:
            inside, lang = not inside, fence.group(1)
            continue
        if inside and lang in SHELL:
            if not buf:
                start = number
            buf = f"{buf} {line.strip()}" if buf else line.strip()
            if buf.endswith("\\"):
                buf = buf[:-1]
                continue
            text, buf = buf.split(" #")[0].removeprefix("$ "), ""
            for part in re.split(r";|&&|\|", text):
                if part.strip().startswith("referee "):
                    yield start, part.strip()
        elif not inside:
            for match in INLINE.finditer(line):
                yield number, match.group(1)


CASES = [(p, n, c) for p in DOCS for n, c in _command_lines(p)]


def _tokens(command: str) -> list[str] | None:
    try:
        return shlex.split(command)[1:]
    except ValueError:  # an unbalanced quote in prose; not a command line
        return None


@cache
def _root_command() -> TyperGroup:
    """The whole command line as Click sees it, built once a process: Typer builds every
    command and option afresh on each call (about 23 ms), read here by 440 tests."""
    return get_command(app)


@cache
def _scenarios(example: str) -> frozenset[str] | None:
    root = example_path(example)
    if root is None:
        return None
    module, _ = load_module(root)
    return frozenset(module.scenarios) if module is not None else None


def test_the_docs_show_many_commands() -> None:
    assert len(CASES) > 100
    assert any("--scenario" in c for _, _, c in CASES)


@pytest.mark.parametrize(
    ("path", "line", "command"),
    CASES,
    ids=[f"{p.relative_to(ROOT)}:{n}" for p, n, _ in CASES],
)
def test_doc_command_runs_as_written(path: Path, line: int, command: str) -> None:
    where = f"{path.relative_to(ROOT)}:{line}: {command}"
    tokens = _tokens(command)
    if tokens is None:
        return
    cmd = _root_command()
    while tokens and getattr(cmd, "commands", None) and tokens[0] in cmd.commands:
        cmd = cmd.commands[tokens.pop(0)]
    if getattr(cmd, "commands", None):
        assert not tokens or tokens[0].startswith("-") or tokens[0].isupper(), (
            f"{where}: no command {tokens[0]!r}"
        )
        return
    options = {o for p in cmd.params for o in (*p.opts, *p.secondary_opts)}
    for token in tokens:
        name = token.strip("[]").split("=")[0]
        if name.startswith("--"):
            assert name in options, f"{where}: no option {name}"
    if "--example" in tokens and "--scenario" in tokens:
        example = tokens[tokens.index("--example") + 1]
        scenario = tokens[tokens.index("--scenario") + 1]
        known = _scenarios(example)
        assert known is not None, f"{where}: no bundled example {example!r}"
        if scenario.isupper():  # a placeholder such as SCENARIO
            return
        assert scenario in known, (
            f"{where}: {example} has no scenario {scenario!r}: {sorted(known)}"
        )
