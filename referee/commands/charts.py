"""``referee charts SRC``: the charts and tables as a PDF and one PNG per chart."""

from __future__ import annotations

from pathlib import Path

import typer

from referee.commands.common import (
    TextOrJson,
    cmyk_option,
    dpi_option,
    example_option,
    format_option,
    json_option,
    load_checked,
    no_cache_option,
    out_dir_option,
    output_format,
    paper_option,
    print_json,
    quiet_option,
    refuse_stdio_folder,
    resolve_source,
    source_argument,
)


def register(app: typer.Typer) -> None:
    @app.command()
    def charts(
        src: Path | None = source_argument(),
        example: str | None = example_option("Use a bundled example instead, e.g. sixth_fleet."),
        out: Path = out_dir_option(),
        paper: str = paper_option(),
        dpi: int = dpi_option("Resolution of the PNGs."),
        png: bool = typer.Option(
            False, "--png", help="Also write a PNG preview of each PDF page, rasterised from it."
        ),
        cmyk: Path | None = cmyk_option(),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("No warnings; print only the files written."),
        no_cache: bool = no_cache_option(),
    ) -> None:
        """Write <id>-charts.pdf (CRT, TEC, victory, turn record, set-up cards, sequence of
        play), <id>-chart-<name>.png for each chart and, with --png, <id>-charts-pNN.png
        previews of the PDF's pages."""
        from referee.cache import activated, cache_from_env
        from referee.render.playaids import write_charts
        from referee.render.printcolor import load_cmyk_profile
        from referee.render.sheets import paper_size

        as_json = output_format(fmt, as_json) == "json"
        refuse_stdio_folder(out)
        paper_size(paper)  # refuse an unknown paper before any work
        profile = load_cmyk_profile(cmyk) if cmyk is not None else None
        folder = resolve_source(src, example)
        with activated(cache_from_env(enabled=not no_cache)):
            module = load_checked(folder, quiet=quiet or as_json)
            result = write_charts(module, out, paper=paper, dpi=dpi, png=png, cmyk=profile)
        if as_json:
            print_json(result.to_json())
        else:
            for p in result.files:
                typer.echo(str(p))
