"""``referee check SRC``: load a module source and report every problem in one run."""

from __future__ import annotations

from pathlib import Path

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
        module, diags = load_module(folder)
        if module is not None:
            # what build and sheets would refuse: a counter text that cannot fit its box
            from referee.render.fit_check import layout_fit_diagnostics

            if layout_fit_diagnostics(module, diags):
                module = None
        summary = summarize(module) if module is not None else None
        if how == "json":
            print_json(
                {
                    "source": str(folder),
                    "ok": module is not None,
                    "errors": [d.to_json() for d in diags.errors],
                    "warnings": [d.to_json() for d in diags.warnings],
                    "summary": summary,
                }
            )
        else:
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
            if module is None:
                n = len(diags.errors)
                typer.echo(f"{folder}: {n} error{'s' if n != 1 else ''}", err=True)
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
        raise typer.Exit(0 if module is not None else EXIT_PROBLEMS)
