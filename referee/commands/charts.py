"""``referee charts SRC``: the charts and tables as a PDF and one PNG per chart."""

from __future__ import annotations

from pathlib import Path

import typer

from referee.commands.common import load_checked, print_json, resolve_source


def register(app: typer.Typer) -> None:
    @app.command()
    def charts(
        src: Path | None = typer.Argument(None, help="Module source folder (holds module.toml)."),
        example: str | None = typer.Option(
            None, "--example", help="Use a bundled example instead, e.g. sixth_fleet."
        ),
        out: Path = typer.Option(Path("build"), "-o", "--out", help="Output folder."),
        paper: str = typer.Option("letter", "--paper", help="Paper size: letter or a4."),
        dpi: int = typer.Option(150, "--dpi", min=50, max=600, help="Resolution of the PNGs."),
        as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    ) -> None:
        """Write <id>-charts.pdf (CRT, TEC, victory, turn record, set-up cards, sequence of
        play) and <id>-chart-<name>.png for each chart."""
        from referee.render.playaids import write_charts
        from referee.render.sheets import paper_size

        paper_size(paper)  # refuse an unknown paper before any work
        folder = resolve_source(src, example)
        module = load_checked(folder, quiet=as_json)
        result = write_charts(module, out, paper=paper, dpi=dpi)
        if as_json:
            print_json(result.to_json())
        else:
            for p in result.files:
                typer.echo(str(p))
