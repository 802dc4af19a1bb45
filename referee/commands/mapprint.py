"""``referee map SRC``: the printed map, the board at its declared size tiled across pages."""

from __future__ import annotations

from pathlib import Path

import typer

from referee.commands.common import (
    TextOrJson,
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
    @app.command(name="map")
    def map_(
        src: Path | None = source_argument(),
        example: str | None = example_option("Use a bundled example instead, e.g. sixth_fleet."),
        out: Path = out_dir_option(),
        paper: str = paper_option(),
        overlap: str = typer.Option(
            "0.5in",
            "--overlap",
            metavar="LENGTH",
            help="Strip shared by neighbouring tiles, 0.25in..2in (e.g. 0.5in, 12mm).",
        ),
        art_dpi: int | None = typer.Option(
            None,
            "--art-dpi",
            min=100,
            max=300,
            metavar="DPI",
            help="Resolution of the board picture in the PDF (default 150, or a map "
            "picture's own resolution at its printed size, within 100..300).",
        ),
        png: bool = typer.Option(False, "--png", help="Also write a PNG preview of each page."),
        dpi: int = dpi_option("Resolution of the --png previews."),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("No warnings; print only the files written."),
        no_cache: bool = no_cache_option(),
    ) -> None:
        """Write <id>-map.pdf: the board at the size the module source declares (hex width,
        or the board's inches), tiled across pages with overlap strips, cut lines,
        registration crosses and tile labels, after an assembly page."""
        from referee.cache import activated, cache_from_env
        from referee.render.mapprint import parse_overlap_in
        from referee.render.playaids import write_map
        from referee.render.sheets import paper_size

        as_json = output_format(fmt, as_json) == "json"
        refuse_stdio_folder(out)
        paper_size(paper)  # refuse bad options before any work
        parse_overlap_in(overlap)
        folder = resolve_source(src, example)
        with activated(cache_from_env(enabled=not no_cache)):
            module = load_checked(folder, quiet=quiet or as_json)
            result = write_map(
                module, out, paper=paper, overlap=overlap, art_dpi=art_dpi, png=png, png_dpi=dpi
            )
        if as_json:
            print_json(result.to_json())
        else:
            for p in result.files:
                typer.echo(str(p))
