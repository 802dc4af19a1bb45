"""``referee import-vmod FILE.vmod -o module_src/<game>/``: a module source from an existing
VASSAL module (issue 19 §3; :mod:`referee.vassal.foreign.vmod_import` does the work).

The module is a stranger's file: it is read through ``safezip`` and ``xmlsafe`` (size and
entry limits, no path traversal, no XML entities), image names that climb out are refused,
and a grid kind referee cannot read is named. The source is written into a temporary folder
beside the target and renamed into place, so a refusal leaves nothing behind; an existing
target is never overwritten.

Exit codes: 0 done; 2 refused (unreadable or hostile module, unsupported grid kind, the
target exists).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import typer

from referee.commands.common import (
    TextOrJson,
    format_option,
    json_option,
    output_format,
    print_json,
    quiet_option,
    refuse_stdio_folder,
)
from referee.errors import UserError

REPORT_SHOWN = 10  # lines of import-report.txt printed on the terminal


def write_source(files: dict[str, bytes], out: Path) -> None:
    """Write every file under ``out`` at once: into a temporary sibling folder, then rename.

    Names come from the importer (fixed names, slugs, and image names already checked by
    ``safezip.check_entry_name``); each is checked again to stay inside the folder.
    """
    from referee.safeio import resolve_inside

    if out.exists():
        raise UserError(f"{out} already exists; give a new folder to -o (nothing written)")
    parent = out.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
    try:
        for name in sorted(files):
            path = resolve_inside(tmp, name, what="imported file")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[name])
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def import_source(file: Path, out: Path, label: str | None = None) -> Any:
    """Import the module ``file`` into the new source folder ``out`` (written at once, or
    not at all); returns what :func:`~referee.vassal.foreign.vmod_import.import_module`
    made. ``label`` names the module file in the import report (default: as given)."""
    from referee.vassal.codec.errors import VassalFormatError
    from referee.vassal.foreign.vmod import read_vmod
    from referee.vassal.foreign.vmod_import import import_module

    if not file.is_file():
        raise UserError(f"{file}: no such module file", hint="give the path of a .vmod file")
    try:
        vmod = read_vmod(file)
        imported = import_module(vmod, label or str(file))
    except VassalFormatError as exc:
        raise UserError(f"{exc} (nothing written)") from exc
    write_source(imported.files, out)
    return imported


def register(app: typer.Typer) -> None:
    @app.command("import-vmod")
    def import_vmod_command(
        file: Path = typer.Argument(..., metavar="FILE", help="The VASSAL module (.vmod)."),
        out: Path = typer.Option(
            ...,
            "-o",
            "--out",
            metavar="FOLDER",
            help="The new module source folder (must not exist yet).",
        ),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print only the summary line."),
    ) -> None:
        """Make a module source from an existing VASSAL module: boards and grids, pieces as
        the roster, palette, set-ups as scenarios, dice buttons, chart windows, turn
        trackers, the player roster, global options, help and About, action (phase)
        buttons, toolbar menus, notes and translations (tools.toml), the module's other
        files (help pages, translations) under files/; what cannot be carried over is
        listed in import-report.txt (and .json) beside the source; the first few are
        printed here. The art is also
        written as a source that names a ruleset takes it: art/<map>-<board>.toml (a hex
        board's picture with [[grid.anchor]] at VASSAL's hex centres) and art/roster.csv (front
        and back pictures).
        """
        from referee.vassal.foreign.vmod_import import report_json, tools_summary

        how = output_format(fmt, as_json)
        refuse_stdio_folder(out)
        imported = import_source(file, out)
        data: dict[str, Any] = {"source": str(out), **report_json(imported)}
        if how == "json":
            print_json(data)
            return
        tools = tools_summary(imported.tools)
        typer.echo(
            f"{out}: {imported.units} unit(s), {imported.maps} map(s), "
            f"{imported.scenarios} scenario(s)"
            + (f", {tools}" if tools else "")
            + (f", {imported.files_carried} other file(s)" if imported.files_carried else "")
            + f"; {len(imported.report)} thing(s) not carried over (import-report.txt)"
        )
        if not quiet:  # a summary here, every line in the report (issue 31)
            for r in imported.report[:REPORT_SHOWN]:
                typer.echo(f"  {r.where}: {r.what}")
            if len(imported.report) > REPORT_SHOWN:
                typer.echo(
                    f"  ... and {len(imported.report) - REPORT_SHOWN} more: every one in "
                    f"{out / 'import-report.txt'}"
                )
