"""Helpers shared by the command modules: the options every command has (``--format``,
``--json``, ``-q``), reading ``-`` as standard input and writing ``-`` to standard output,
GitHub annotations, resolving a module source argument, and JSON output.

Conventions (docs/ci.md): exit 0 done; 1 the input has problems (errors, violations, a
refusal, a failed verification); 2 the command could not run (bad usage, a missing or
unreadable file); 70 internal error; 75 the game is locked; 130 interrupted.
"""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperOption

from referee.errors import UserError

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_UNCHECKED = 3  # verify: the record holds, but some files a player opens are not proved
EXIT_INTERNAL = 70
EXIT_LOCKED = 75
EXIT_INTERRUPTED = 130

STDIO = "-"  # a file argument of "-" means standard input (or output)

EXIT_EPILOG = (
    "\b\nExit codes: 0 done; 1 problems found in the input (errors, violations, refused,\n"
    "verification failed); 2 bad usage or an unreadable file. See `referee --help`."
)


class Format(enum.StrEnum):
    """How a command prints its result."""

    text = "text"
    github = "github"
    json = "json"


class TextOrJson(enum.StrEnum):
    """``--format`` of commands that have no GitHub annotations to make."""

    text = "text"
    json = "json"


class RefereeCommand(TyperCommand):
    """A Typer command whose help never shows Python types (``<path>``, ``<list[Path]>``,
    ``<int range>``): an argument shows its name in capitals (``SRC``) and its help; an option
    without a ``metavar`` shows its own name in capitals (``--referee-dir REFEREE_DIR``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for p in self.params:
            if isinstance(p, TyperArgument):
                p.display_type_rich = _no_type_label  # type: ignore[method-assign]
                if p.metavar is None and p.name:
                    p.metavar = p.name.upper()
            elif (
                isinstance(p, TyperOption)
                and p.metavar is None
                and not p.is_flag
                and not p.type_descriptor.is_choice
            ):
                longest = max(p.opts, key=len).lstrip("-")
                p.metavar = longest.replace("-", "_").upper()


def _no_type_label(ctx: Any = None) -> str:
    return ""


class RefereeTyper(typer.Typer):
    """``typer.Typer`` whose commands are :class:`RefereeCommand` and take ``-h``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"]})
        kwargs.setdefault("rich_markup_mode", None)
        kwargs.setdefault("pretty_exceptions_enable", False)
        super().__init__(**kwargs)

    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", RefereeCommand)
        kwargs.setdefault("epilog", EXIT_EPILOG)
        return super().command(*args, **kwargs)


# ---- the options every command has


def format_option(choices: type[enum.Enum] = TextOrJson) -> Any:
    names = [c.value for c in choices]  # type: ignore[attr-defined]
    what = {
        "text": "text for people",
        "github": "github for workflow annotations",
        "json": "json for scripts",
    }
    return typer.Option(
        "text",
        "--format",
        metavar="|".join(names),
        help="How to print the result: " + ", ".join(what[n] for n in names) + ".",
    )


def json_option() -> Any:
    return typer.Option(False, "--json", help="Same as --format json (machine-readable).")


def quiet_option(what: str = "Print only errors and the result.") -> Any:
    return typer.Option(False, "-q", "--quiet", help=what)


def module_option() -> Any:
    return typer.Option(
        None, "--module", metavar="SRC", help="Module source folder (holds module.toml)."
    )


def no_cache_option() -> Any:
    """``--no-cache``: neither read nor write the cache (docs/performance.md says where it is:
    ``$REFEREE_CACHE``, else ``$XDG_CACHE_HOME/referee``, else ``~/.cache/referee``)."""
    return typer.Option(
        False,
        "--no-cache",
        help="Do not use the cache of pictures and loaded sources ($REFEREE_CACHE, else "
        "$XDG_CACHE_HOME/referee or ~/.cache/referee; REFEREE_CACHE=off turns it off).",
    )


def source_argument() -> Any:
    """``SRC``: the module source folder of the commands that read one (or ``--example``)."""
    return typer.Argument(None, metavar="SRC", help="Module source folder (holds module.toml).")


def out_dir_option(what: str = "Output folder.") -> Any:
    return typer.Option(Path("build"), "-o", "--out", metavar="DIR", help=what)


def paper_option() -> Any:
    return typer.Option("letter", "--paper", metavar="letter|a4", help="Paper size: letter or a4.")


def dpi_option(what: str) -> Any:
    """``--dpi`` of the commands that write pictures: 50 to 600, 150 by default."""
    return typer.Option(150, "--dpi", min=50, max=600, metavar="DPI", help=what)


def cmyk_option() -> Any:
    """``--cmyk PROFILE`` of the printed play aids (docs/play-aids.md)."""
    return typer.Option(
        None,
        "--cmyk",
        metavar="PROFILE",
        help="Write the PDF in CMYK for a print shop: PROFILE is the shop's CMYK output "
        "ICC profile, embedded as the PDF's output intent (see docs/play-aids.md).",
    )


def example_option(what: str = "A bundled module instead, e.g. sixth_fleet.") -> Any:
    return typer.Option(None, "--example", metavar="NAME", help=what)


def output_format(fmt: enum.Enum | str, as_json: bool) -> str:
    """The one output format: ``--json`` is ``--format json``."""
    value = fmt.value if isinstance(fmt, enum.Enum) else str(fmt)
    if as_json and value not in ("text", "json"):
        raise UserError(f"--json and --format {value} ask for two formats", hint="give one")
    return "json" if as_json else value


def renamed(new: Any, old: Any, new_name: str, old_name: str) -> Any:
    """The value of an option that has an old, hidden spelling kept for scripts."""
    if old is None:
        return new
    if new is not None and new != old:
        raise UserError(f"{old_name} is the old spelling of {new_name}", hint="give one of them")
    return old


# ---- standard input and output


def is_stdio(path: Path | str | None) -> bool:
    return path is not None and str(path) == STDIO


def read_input_bytes(path: Path, limit: int) -> bytes:
    """The bytes of a file argument, or of standard input for ``-`` (bounded either way)."""
    from referee.safeio import UnsafeInput

    if is_stdio(path):
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise UnsafeInput("<stdin>", f"more than {limit:,} bytes", "is this the right input?")
        return data
    try:
        st = path.stat()
    except FileNotFoundError:
        raise UnsafeInput(str(path), "file not found") from None
    except OSError as exc:
        raise UnsafeInput(str(path), f"cannot read: {exc.strerror}") from None
    if not path.is_file():
        raise UnsafeInput(str(path), "is not a regular file")
    if st.st_size > limit:
        raise UnsafeInput(
            str(path),
            f"file is {st.st_size:,} bytes; the limit is {limit:,}",
            "is this the right file?",
        )
    with open(path, "rb") as fh:
        return fh.read(limit + 1)


def read_input_text(path: Path, limit: int) -> str:
    """A UTF-8 text file argument (``-``: standard input), or a UserError (exit 2)."""
    from referee.safeio import UnsafeInput, decode_text

    try:
        return decode_text(read_input_bytes(path, limit), shown_name(path))
    except UnsafeInput as exc:
        raise UserError(str(exc)) from None


def shown_name(path: Path | str) -> str:
    return "<stdin>" if is_stdio(path) else str(path)


def write_output(path: Path, data: bytes | str) -> None:
    """Write a result file atomically, or to standard output for ``-``."""
    from referee.safeio import write_bytes_atomic

    raw = data.encode("utf-8") if isinstance(data, str) else data
    if is_stdio(path):
        out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
        if out is None:
            typer.echo(raw.decode("utf-8"), nl=False)
        else:
            sys.stdout.flush()
            out.write(raw)
            out.flush()
        return
    write_bytes_atomic(path, raw)


def refuse_stdio_folder(path: Path, option: str = "-o") -> None:
    if is_stdio(path):
        raise UserError(f"{option} names a folder here; '-' (standard output) cannot hold files")


# ---- GitHub workflow commands


def github_escape_data(text: str) -> str:
    """GitHub's escaping of a workflow command's message: ``%``, CR, LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(text: str) -> str:
    """GitHub's escaping of a property value (``file=``, ``title=``): also ``:`` and ``,``."""
    return github_escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(
    level: str, message: str, *, file: str, line: int | None, col: int | None, title: str
) -> str:
    """``::error file=F,line=L,col=C,title=T::MESSAGE`` with every part escaped (a missing
    line or column is left out)."""
    props = ",".join(
        f"{k}={github_escape_property(str(v))}"
        for k, v in (("file", file), ("line", line), ("col", col), ("title", title))
        if v is not None
    )
    return f"::{level} {props}::{github_escape_data(message)}"


# ---- module sources


def resolve_source(src: Path | None, example: str | None) -> Path:
    """The module source folder named by ``SRC`` or ``--example NAME``."""
    from referee.resources import example_names, example_path

    if example:
        p = example_path(example)
        if p is None:
            raise UserError(
                f"no bundled example {example!r}",
                hint="bundled examples: " + ", ".join(example_names()),
            )
        return p
    if src is None:
        raise UserError(
            "name a module source folder, or use --example NAME",
            hint="e.g. referee check module_src/sixth_fleet",
        )
    if not src.exists():
        raise UserError(
            f"{src}: no such folder",
            hint="name a module source folder (it holds module.toml), or use --example NAME",
        )
    if not src.is_dir():
        raise UserError(f"{src}: not a folder", hint="name the folder that holds module.toml")
    return src


def _imported_vmod(src: Path) -> bool:
    from referee.vassal.foreign.vassal_only import is_vassal_only

    return is_vassal_only(src)


def load_game_source(src: Path, *, quiet: bool = False):
    """:func:`load_checked` for a command that plays a game: a source imported from a VASSAL
    module is read as a declared game (``referee/vassal/foreign/game.py``), its problems
    printed and exit 1 as for any source."""
    if not _imported_vmod(src):
        return load_checked(src, quiet=quiet)
    from referee.source.cached import load_module_cached
    from referee.vassal.foreign.game import load_imported_game

    module, diags = load_module_cached(src, load_imported_game, salt="imported-game")
    return _loaded_or_exit(src, module, diags, quiet)


def _loaded_or_exit(src: Path, module: Any, diags: Any, quiet: bool) -> Any:
    if module is None:
        for d in diags.items:
            typer.echo(str(d), err=True)
        n = len(diags.errors)
        typer.echo(
            f"{src}: {n} error{'s' if n != 1 else ''}; fix them and try again "
            "(run `referee check` for the full list)",
            err=True,
        )
        raise typer.Exit(EXIT_PROBLEMS)
    if not quiet:
        for d in diags.warnings:
            typer.echo(str(d), err=True)
    return module


def load_checked(src: Path, *, quiet: bool = False):
    """Load a module source; on any error print every diagnostic and exit 1 (as `check`).

    Answered from the active cache (:mod:`referee.source.cached`) when a command turned one
    on and this exact source was loaded before."""
    from referee.source.cached import load_module_cached

    module, diags = load_module_cached(src)
    if module is None and _imported_vmod(src):
        typer.echo(
            f'{src}: the source of an imported VASSAL module (ruleset = "none"): `referee '
            "check` and `referee build` read it and `referee new` plays it by email; this "
            "command needs a declared game's source (hint: declare the game in [game] to "
            "print it: docs/declared-games.md)",
            err=True,
        )
        raise typer.Exit(EXIT_PROBLEMS)
    return _loaded_or_exit(src, module, diags, quiet)


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
