"""``referee check SRC``: load a module source and report every problem in one run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from referee.commands.common import (
    EXIT_PROBLEMS,
    Format,
    example_option,
    format_option,
    github_annotation,
    json_option,
    output_format,
    print_json,
    quiet_option,
    resolve_source,
)

if TYPE_CHECKING:
    from referee.source.diagnostics import Diagnostics


def register(app: typer.Typer) -> None:
    @app.command()
    def check(
        src: Path | None = typer.Argument(
            None, metavar="SRC", help="Module source folder (holds module.toml)."
        ),
        example: str | None = example_option("Check a bundled example instead, e.g. sixth_fleet."),
        fmt: Format = format_option(Format),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print errors only: no warnings, no summary."),
        png: Path | None = typer.Option(
            None,
            "--png",
            metavar="FILE.png",
            help="Also write a preview of the source's art: the map picture with the fitted "
            "hex grid and anchors, every counter sheet with each cut and its roster id.",
        ),
    ) -> None:
        """Check a module source; print every problem as file:line:col: message.

        Includes the counter-layout fit: every counter text must fit its box at a legible
        size, as build and sheets require.

        Exits 0 when clean (with a one-line summary), 1 on any error, 2 when SRC is not a
        folder.
        """
        from referee.source.loader import load_module
        from referee.source.summary import summarize

        how = output_format(fmt, as_json)
        folder = resolve_source(src, example)
        from referee.vassal.foreign.vassal_only import is_vassal_only

        if is_vassal_only(folder):
            _check_vassal_only(folder, how, quiet)
        module, diags = load_module(folder)
        if module is not None:
            # what build and sheets would refuse: a counter text that cannot fit its box
            from referee.render.fit_check import layout_fit_diagnostics

            if layout_fit_diagnostics(module, diags):
                module = None
        summary = summarize(module) if module is not None else None
        if png is not None and module is not None:
            _write_art_preview(module, png, quiet)
        if _print_diagnostics(folder, diags, how, quiet, summary):
            if module is None:
                _echo_errors(folder, len(diags.errors))
            elif not quiet:
                assert summary is not None
                where = f"{summary['hexes']} hexes"
                if "map_kind" in summary:  # an area or point-to-point map
                    where = (
                        f"{summary['map_kind']} map: {summary['zones']} zones, "
                        f"{summary['spaces']} spaces, {summary['links']} links"
                        + (f", {summary['hexes']} hexes" if summary["hexes"] else "")
                    )
                typer.echo(
                    f"{folder}: ok: {module.name} {module.version} ({module.ruleset}): "
                    f"{summary['units']} units ({summary['counters']} counters), "
                    f"{where}, {summary['tables']} tables, "
                    f"{summary['scenarios']} scenarios"
                )
                if how == "text":
                    from referee.source.summary import picture_lines

                    for line in picture_lines(module):
                        typer.echo(line)
        raise typer.Exit(0 if module is not None else EXIT_PROBLEMS)


def _check_vassal_only(folder: Path, how: str, quiet: bool) -> None:
    """``check`` of a source without a ruleset (``ruleset = "none"``, issue 19 §3)."""
    from referee.vassal.foreign.rebuild import load_for_vassal

    source, diags = load_for_vassal(folder)
    playable = source is not None and any(save for _, save, _ in source.scenarios)
    if playable and _plays_by_email(folder):
        from referee.vassal.foreign.game import load_imported_game

        game, diags = load_imported_game(folder)  # its sides and whose each piece is too
        if game is None:
            source = None
    summary = (
        {
            "units": len(source.units),
            "properties": source.columns,
            "maps": len(source.maps),
            "boards": sum(len(m.get("board", []) or []) for m in source.maps),
            "images": len(source.images),
            "scenarios": len(source.scenarios),
        }
        if source is not None
        else None
    )
    if _print_diagnostics(folder, diags, how, quiet, summary):
        if source is None:
            _echo_errors(folder, len(diags.errors))
        elif not quiet:
            assert summary is not None
            typer.echo(
                f"{folder}: ok: {source.name} {source.version} (no ruleset: VASSAL only): "
                f"{summary['units']} units, {len(source.columns)} property columns, "
                f"{summary['maps']} maps, {summary['boards']} boards, "
                f"{summary['scenarios']} scenarios"
            )
    raise typer.Exit(0 if source is not None else EXIT_PROBLEMS)


def _echo_errors(folder: Path, n: int) -> None:
    """The one-line verdict on a refused source, on standard error."""
    typer.echo(f"{folder}: {n} error{'s' if n != 1 else ''}", err=True)


def _plays_by_email(folder: Path) -> bool:
    """Whether an imported source declares the ``[[side]]`` tables of a game by email (two
    or more: one side, or none, is a module built, not played)."""
    import tomllib

    try:
        meta = tomllib.loads((folder / "module.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    sides = meta.get("side")
    return isinstance(sides, list) and len(sides) >= 2


def _print_diagnostics(
    folder: Path, diags: Diagnostics, how: str, quiet: bool, summary: dict[str, Any] | None
) -> bool:
    """Print every diagnostic in the asked format (JSON: the whole result, with ``ok`` true
    when ``summary`` is not None). Returns whether the text result line is still to print."""
    if how == "json":
        print_json(
            {
                "source": str(folder),
                "ok": summary is not None,
                "errors": [d.to_json() for d in diags.errors],
                "warnings": [d.to_json() for d in diags.warnings],
                "summary": summary,
            }
        )
        return False
    for d in diags.items:
        if quiet and d.severity != "error":
            continue
        if how == "github":
            hint = f" (hint: {d.hint})" if d.hint else ""
            typer.echo(
                github_annotation(
                    "error" if d.severity == "error" else "warning",
                    f"{d.message}{hint}",
                    file=str(folder / d.file),  # GitHub wants repository paths
                    line=d.line,
                    col=d.col,
                    title="referee check",
                )
            )
        else:
            typer.echo(str(d), err=d.severity == "error")
    return True


def _write_art_preview(module: Any, png: Path, quiet: bool) -> None:
    """``--png``: the preview of the cut sheets and the fitted map grid
    (:mod:`referee.render.art_preview`), written atomically; a source without art writes
    nothing and says so."""
    from referee.render.art_preview import art_preview_png
    from referee.safeio import write_bytes_atomic

    data = art_preview_png(module)
    if data is None:
        typer.echo("--png: the source has no map picture and no counter sheets", err=True)
        return
    write_bytes_atomic(png, data)
    if not quiet:
        typer.echo(f"art preview -> {png}", err=True)
