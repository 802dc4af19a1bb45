"""``referee sheets SRC``: printable counter sheets (PDF), optionally PNG previews."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from referee.source.model import Module


def register(app: typer.Typer) -> None:
    @app.command()
    def sheets(
        src: Path | None = source_argument(),
        example: str | None = example_option("Use a bundled example instead, e.g. sixth_fleet."),
        out: Path = out_dir_option(),
        paper: str = paper_option(),
        bleed: str = typer.Option(
            "0",
            "--bleed",
            metavar="LENGTH",
            help="Bleed round each counter, e.g. 0.0625in or 1.5mm.",
        ),
        alignment_test: bool = typer.Option(
            False, "--alignment-test", help="Write a printer alignment test sheet instead."
        ),
        png: bool = typer.Option(
            False, "--png", help="Also write a PNG preview of each page, rasterised from the PDF."
        ),
        dpi: int = dpi_option("Resolution of the --png previews."),
        art_dpi: int | None = typer.Option(
            None,
            "--art-dpi",
            min=150,
            max=1200,
            metavar="DPI",
            help="Resolution of what stays raster on the sheet (roster pictures; the counters "
            "themselves are vector) and of the face layout grid (default: the module's "
            "counter.dpi).",
        ),
        cmyk: Path | None = cmyk_option(),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("No progress bar or warnings; print only the files written."),
        no_cache: bool = no_cache_option(),
    ) -> None:
        """Write <id>-counters.pdf: every counter of the mix at exact size, with cut lines,
        crop marks and mirrored back pages for long-edge duplex printing."""
        from referee.cache import activated, cache_from_env
        from referee.render.playaids import write_sheets
        from referee.render.printcolor import load_cmyk_profile
        from referee.render.sheets import paper_size, parse_length_in

        as_json = output_format(fmt, as_json) == "json"
        refuse_stdio_folder(out)
        paper_size(paper)  # refuse bad options before any work
        if bleed.strip() not in ("", "0"):
            parse_length_in(bleed)
        profile = load_cmyk_profile(cmyk) if cmyk is not None else None
        folder = resolve_source(src, example)
        with activated(cache_from_env(enabled=not no_cache)):
            module = load_checked(folder, quiet=quiet or as_json)
            # the bar only on a terminal: a CI log would get a stray "counters" line (as build)
            show = not quiet and not as_json and sys.stderr.isatty()
            with counters_bar(module, alignment_test) if show else nullcontext() as bar:
                result = write_sheets(
                    module,
                    out,
                    paper=paper,
                    bleed=bleed,
                    alignment_test=alignment_test,
                    png=png,
                    png_dpi=dpi,
                    art_dpi=art_dpi,
                    cmyk=profile,
                    progress=None if bar is None else bar.update,
                )
        if as_json:
            print_json(result.to_json())
        else:
            for p in result.files:
                typer.echo(str(p))


def counters_bar(module: Module, alignment_test: bool) -> Any:
    """The progress bar of the counters a sheet run draws (fronts, and backs when the
    module has them; none for the alignment test sheet)."""
    from referee.render.sheets import has_backs, sheet_pieces

    total = 0 if alignment_test else len(sheet_pieces(module))
    total *= 2 if has_backs(module) else 1
    return typer.progressbar(length=total, label="counters", file=sys.stderr)
