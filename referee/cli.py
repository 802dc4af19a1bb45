"""The ``referee`` command line. It stays thin: parse arguments, call one function, print.

Each command lives in its own module under ``referee/commands/`` and registers itself on
the app; ``referee.cli.app`` has every command, and :func:`main` registers only the command
it runs (:func:`app_for`). Heavy libraries (Pillow, lxml, reportlab, cryptography) are
imported inside the command functions, so ``referee --help`` and ``referee validate`` start
fast.
"""

from __future__ import annotations

import importlib
import os
import sys

import typer

from referee import __version__
from referee.commands import COMMAND_MODULES, COMMAND_NAMES
from referee.commands.common import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_LOCKED,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    RefereeTyper,
)
from referee.commands.fastparams import install as install_fast_params

install_fast_params()  # plain options parse without importing pydantic (fastparams.py)

EPILOG = """\b
Every command takes -h/--help, -q/--quiet and --format text|json (--json is the same
as --format json; check and validate also have --format github). A file argument of
'-' reads standard input; -o - writes to standard output where a command writes one file.

\b
Exit codes (the same for every command):
  0    done (or already done)
  1    problems found in the input: errors, rule violations, a refusal
       (unsigned, out of turn, illegal orders), a failed verification
  2    the command could not run: bad usage, a missing or unreadable file
  70   internal error (please report it; REFEREE_DEBUG=1 shows the traceback)
  75   the game is locked by another adjudication (try again later)
  130  interrupted

\b
Environment:
  REFEREE_HOME   the referee's private folder; dice seeds go to
                 $REFEREE_HOME/games/GAME_ID (default ~/.referee)
  REFEREE_DIR    the dice-seed folder of one game (same as --referee-dir)
  REFEREE_KEY    the referee's private key file (same as adjudicate --key)
  REFEREE_DEBUG  set to 1 to see tracebacks of internal errors
  REFEREE_CACHE  the cache of pictures and loaded sources (default
                 $XDG_CACHE_HOME/referee or ~/.cache/referee; off turns it off)

Shell completion: referee --install-completion (or --show-completion)."""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"referee {__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Build VASSAL modules and play aids; referee play-by-email games."""


def build_app(modules: list[str] | None = None) -> RefereeTyper:
    """The Typer app with the commands of ``modules`` (default: every command module, in
    help order)."""
    out = RefereeTyper(
        name="referee",
        help="Build VASSAL modules and printable play aids from a plain-text module source, "
        "and referee play-by-email games with signed reports and verifiable dice.",
        epilog=EPILOG,
        no_args_is_help=True,
        add_completion=True,
    )
    out.callback()(_root)
    for name in COMMAND_MODULES if modules is None else modules:
        importlib.import_module(f"referee.commands.{name}").register(out)
    return out


def app_for(args: list[str]) -> RefereeTyper:
    """The app that runs ``referee ARGS``: with only the named command's module when the
    first argument names a command (Typer then builds and Click parses one command, not
    nineteen: start-up time, issue 12 §8); with every command for help, completion, options
    before the command and unknown commands, so those read exactly as before."""
    module = COMMAND_NAMES.get(args[0]) if args else None
    return build_app(None if module is None else [module])


_FULL: list[RefereeTyper] = []


def __getattr__(name: str) -> RefereeTyper:
    """``referee.cli.app``: the app with every command, built on first use (PEP 562)."""
    if name == "app":
        if not _FULL:
            _FULL.append(build_app())
        return _FULL[0]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console entry point: user errors become one clear line, never a traceback. With
    ``--json``/``--format json`` the error is also printed on standard output as
    ``{"ok": false, "error": {...}}`` (:func:`_error_json`), usage errors included, so a
    script reading the output always gets JSON (docs/ci.md, "Exit codes")."""
    from referee.errors import UserError
    from referee.pbem.problems import Refusal
    from referee.safeio import UnsafeInput

    argv = sys.argv[1:]
    as_json = _asks_json(argv)
    try:
        if not as_json:
            app_for(argv)()
        else:  # click hands usage errors to us instead of printing them itself
            code = app_for(argv)(standalone_mode=False)
            sys.exit(code if isinstance(code, int) else 0)
    except typer.TyperException as exc:  # click's usage errors, raised only when JSON is asked
        hint = f"Try 'referee {argv[0]} -h' for help." if argv else "Try 'referee -h'."
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        _fail(as_json, getattr(exc, "exit_code", EXIT_USAGE), "usage", message, hint)
    except typer.Abort:
        _fail(as_json, EXIT_INTERRUPTED, "interrupted", "interrupted")
    except Refusal as exc:  # a refusal no command caught: exit 1 (75: the game is locked)
        code = EXIT_LOCKED if exc.code == "locked" else EXIT_PROBLEMS
        _fail(as_json, code, "refused", str(exc), refusal=exc.code)
    except UserError as exc:
        _fail(as_json, exc.exit_code, "error", exc.message, exc.hint)
    except UnsafeInput as exc:  # str() places it: path[:line[:col]]: message
        text = str(exc)
        if exc.hint and text.endswith(f" (hint: {exc.hint})"):
            text = text[: -len(f" (hint: {exc.hint})")]
        _fail(as_json, EXIT_USAGE, "error", text, exc.hint)
    except KeyboardInterrupt:
        _fail(as_json, EXIT_INTERRUPTED, "interrupted", "interrupted")
    except OSError as exc:  # a path the system refused (-o under a file, no permission)
        if exc.filename is None or os.environ.get("REFEREE_DEBUG"):
            _internal(exc, as_json)
        what = exc.strerror or str(exc)
        if isinstance(exc, FileExistsError | NotADirectoryError):
            what = f"{what} (a file stands where a folder is needed)"
        _fail(
            as_json,
            EXIT_USAGE,
            "error",
            f"{exc.filename}: {what}",
            "check the path and its permissions; -o names where to write",
        )
    except Exception as exc:
        _internal(exc, as_json)


def _asks_json(argv: list[str]) -> bool:
    """Whether the command line asks for JSON output (before ``--``, which ends options)."""
    args = argv[: argv.index("--")] if "--" in argv else argv
    for i, a in enumerate(args):
        if a == "--json" or a == "--format=json":
            return True
        if a == "--format" and i + 1 < len(args) and args[i + 1] == "json":
            return True
    return False


def _error_json(code: int, kind: str, message: str, hint: str | None, refusal: str | None) -> str:
    import json

    error: dict[str, object] = {"exit_code": code, "kind": kind, "message": message}
    if hint:
        error["hint"] = hint
    if refusal:
        error["refusal"] = refusal
    return json.dumps({"ok": False, "error": error}, indent=2, sort_keys=True)


def _fail(
    as_json: bool,
    code: int,
    kind: str,
    message: str,
    hint: str | None = None,
    *,
    refusal: str | None = None,
) -> None:
    """One line on standard error (and, with ``--json``, the same as JSON on standard
    output); then exit with ``code``."""
    if kind == "refused":
        line = f"referee: refused ({refusal}): {message}"
    elif kind == "interrupted":
        line = "referee: interrupted"
    else:
        line = f"referee: error: {message}" + (f" (hint: {hint})" if hint else "")
    typer.echo(line, err=True)
    if as_json:
        typer.echo(_error_json(code, kind, message, hint, refusal))
    sys.exit(code)


def _internal(exc: Exception, as_json: bool = False) -> None:
    """Exit 70 for a bug: one line, or the traceback with ``REFEREE_DEBUG=1``."""
    if os.environ.get("REFEREE_DEBUG"):
        raise exc
    message = f"{type(exc).__name__}: {exc}"
    hint = "please report it; set REFEREE_DEBUG=1 to see the traceback"
    typer.echo(f"referee: internal error: {message} ({hint})", err=True)
    if as_json:
        typer.echo(_error_json(EXIT_INTERNAL, "internal", message, hint, None))
    sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":
    main()
