"""``referee ARGS`` run inside the test process, through :func:`referee.cli.main`, as the
console script runs it: the same argument handling, one-line errors and exit codes (a
:class:`~referee.errors.UserError` is exit 2, a crash "internal error" and exit 70), the
same standard output and error (neither a terminal, as under ``subprocess``'s pipes), a
warning included: pytest records the warnings of the test process instead of printing them,
so a run here shows them on its standard error as a fresh interpreter would (its default
filters, the same text, after the command's own lines).

What it saves against ``subprocess.run(["referee", ...])`` is the interpreter's start and
the package's imports, about 0.3-0.5 s of CPU a run (docs/performance.md, "The test
suite"). A test that checks what a user sees at the shell keeps one real run of the console
script for that; the rest of its lines go through here.
"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from typing import Any

from typer import Typer
from typer.testing import CliRunner, Result


@dataclass(frozen=True, slots=True)
class Ran:
    """One command's exit code and what it wrote to standard output and error."""

    code: int
    out: str
    err: str


def run_main(args: Sequence[str | PathLike[str]]) -> Ran:
    """``referee ARGS`` through :func:`referee.cli.main`. The streams are text over bytes
    (a command that writes bytes to ``sys.stdout.buffer`` works); ``sys.exit`` with a
    message is exit 1 with the message on standard error, as Python's own exit does."""
    from referee import cli

    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", newline="")
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", newline="", errors="backslashreplace")
    old = sys.argv
    sys.argv = ["referee", *(str(a) for a in args)]
    code = 0
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            warnings.catch_warnings(record=True) as caught,
        ):
            _fresh_interpreter_filters()
            try:
                cli.main()
            finally:
                for w in caught:
                    err.write(warnings.formatwarning(w.message, w.category, w.filename, w.lineno))
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            err.write(f"{exc.code}\n")
            code = 1
    finally:
        sys.argv = old
        out.flush()
        err.flush()
    return Ran(code, out_bytes.getvalue().decode("utf-8"), err_bytes.getvalue().decode("utf-8"))


def _fresh_interpreter_filters() -> None:
    """The warning filters of ``python -m referee`` without ``-W``: deprecations,
    import and resource warnings ignored, every other warning shown once a place."""
    warnings.resetwarnings()
    warnings.simplefilter("default")
    for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning):
        warnings.simplefilter("ignore", category)
    warnings.simplefilter("ignore", ResourceWarning)


class Runner(CliRunner):
    """Typer's :class:`~typer.testing.CliRunner`, building each app's Click command once
    and reusing it while the app's commands stay the same. Typer's own runner builds the
    whole command line again on each ``invoke`` (``typer.main.get_command``: about 23 ms
    for :data:`referee.cli.app`, 162 times in five CLI test files); a Click command is
    made to be run many times (each run gets its own context), as the console script's
    one run does with its freshly built one."""

    def invoke(self, app: Typer, *args: Any, **kwargs: Any) -> Result:  # type: ignore[override]
        import typer.testing

        build = typer.testing._get_command
        typer.testing._get_command = _built_once
        try:
            return super().invoke(app, *args, **kwargs)
        finally:
            typer.testing._get_command = build


# app id -> (the app, kept so its id is not reused; its commands' identity; its command)
_BUILT: dict[int, tuple[Typer, tuple[object, ...], object]] = {}


def _built_once(app: Typer) -> Any:
    from typer.main import get_command

    same = _commands_of(app)
    hit = _BUILT.get(id(app))
    if hit is None or hit[1] != same:
        hit = _BUILT[id(app)] = (app, same, get_command(app))
    return hit[2]


def _commands_of(app: Typer) -> tuple[object, ...]:
    """What an app's Click command is built from, by identity: its callback, commands and
    groups (a group's own, recursively); a command registered later makes a new build."""
    groups = tuple(
        (id(g), _commands_of(g.typer_instance) if g.typer_instance else ())
        for g in app.registered_groups
    )
    return (id(app.registered_callback), tuple(map(id, app.registered_commands)), groups)
