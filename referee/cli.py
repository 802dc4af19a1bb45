"""The ``referee`` command line. It stays thin: parse arguments, call one function, print.

Each command lives in its own module under ``referee/commands/`` and registers itself on
:data:`app`. Heavy libraries (Pillow, lxml, reportlab, cryptography) are imported inside the
command functions, so ``referee --help`` and ``referee validate`` start fast.
"""

from __future__ import annotations

import importlib
import os
import sys

import typer

from referee import __version__
from referee.commands import COMMAND_MODULES

app = typer.Typer(
    name="referee",
    help="Build VASSAL modules and printable play aids from a plain-text module source, "
    "and referee play-by-email games with signed reports and verifiable dice.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"referee {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Build VASSAL modules and play aids; referee play-by-email games."""


for _name in COMMAND_MODULES:
    importlib.import_module(f"referee.commands.{_name}").register(app)


def main() -> None:
    """Console entry point: user errors become one clear line, never a traceback."""
    from referee.errors import UserError
    from referee.safeio import UnsafeInput

    try:
        app()
    except (UserError, UnsafeInput) as exc:
        typer.echo(f"referee: error: {exc}", err=True)
        sys.exit(getattr(exc, "exit_code", 2))
    except KeyboardInterrupt:
        typer.echo("referee: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("REFEREE_DEBUG"):
            raise
        typer.echo(
            f"referee: internal error: {type(exc).__name__}: {exc} "
            "(please report it; set REFEREE_DEBUG=1 to see the traceback)",
            err=True,
        )
        sys.exit(70)


if __name__ == "__main__":
    main()
