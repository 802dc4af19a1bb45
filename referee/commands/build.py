"""``referee build SRC``: compile a module source into a VASSAL module (``.vmod``).

The source is checked first with exactly the checks and messages of ``referee check``; a
broken source is refused before anything is drawn. The module is written atomically, so an
error at any point leaves no partial ``.vmod``.
"""

from __future__ import annotations

import sys
import time
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
    print_json,
    quiet_option,
    refuse_stdio_folder,
    resolve_source,
    source_argument,
)


def register(app: typer.Typer) -> None:
    @app.command()
    def build(
        src: Path | None = source_argument(),
        example: str | None = example_option("Build a bundled example instead, e.g. sixth_fleet."),
        out: Path = out_dir_option("Folder to write <module-id>-<version>.vmod in."),
        dpi: int = dpi_option("Pixels per inch of board and counter images."),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("No progress bar or warnings; print only the .vmod path."),
        no_cache: bool = no_cache_option(),
    ) -> None:
        """Build a VASSAL 3.7 module (.vmod) from a module source.

        The module has the map with its hex grid numbered like the rulebook, one palette
        piece per counter, the charts, a die roller, turn tracks, carrier holding boxes, and
        one predefined set-up per scenario (File > New Game).

        Pictures whose inputs did not change since an earlier build come from the picture
        cache (see docs/performance.md; --no-cache draws everything).
        """
        from referee.cache import activated, cache_from_env
        from referee.errors import UserError
        from referee.vassal.module.module_writer import picture_count, plan_build
        from referee.vassal.position.setups import build_module_with_setups

        as_json = output_format(fmt, as_json) == "json"
        refuse_stdio_folder(out)
        folder = resolve_source(src, example)
        from referee.vassal.foreign.vassal_only import is_vassal_only

        if is_vassal_only(folder):
            _build_vassal_only(folder, out, as_json, quiet)
            return
        with activated(cache_from_env(enabled=not no_cache)):
            module = load_checked(folder, quiet=quiet or as_json)
            if out.exists() and not out.is_dir():
                raise UserError(f"{out} is not a folder", hint="-o names the folder for the .vmod")
            started = time.perf_counter()
            plan = plan_build(module, dpi=dpi)
            if not (quiet or as_json) and sys.stderr.isatty():
                with typer.progressbar(
                    length=picture_count(plan) + 1,  # + the set-up area picture
                    label="Rendering",
                    file=sys.stderr,
                    show_pos=True,
                ) as bar:
                    result = build_module_with_setups(
                        module, out, dpi=dpi, progress=bar.update, plan=plan, started=started
                    )
            else:
                result = build_module_with_setups(module, out, dpi=dpi, plan=plan, started=started)
        if as_json:
            print_json(result.to_json())
        elif not quiet:
            typer.echo(
                f"{result.path}: {result.counters} counters, {result.images} images, "
                f"{result.bytes:,} bytes in {result.seconds:.2f} s"
            )
        else:
            typer.echo(str(result.path))


def _build_vassal_only(folder: Path, out: Path, as_json: bool, quiet: bool) -> None:
    """``build`` of a source without a ruleset (``ruleset = "none"``): the VASSAL module
    again, from its maps, images, roster and palette (:mod:`referee.vassal.foreign.rebuild`)."""
    from referee.errors import UserError
    from referee.vassal.foreign.rebuild import (
        load_for_vassal,
        write_rebuilt,
    )

    source, diags = load_for_vassal(folder)
    if source is None:
        for d in diags.errors:
            typer.echo(str(d), err=True)
        raise UserError(
            f"{folder}: {len(diags.errors)} error(s); nothing built",
            hint=f"run `referee check {folder}`",
            exit_code=1,
        )
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} is not a folder", hint="-o names the folder for the .vmod")
    started = time.perf_counter()
    path, size = write_rebuilt(source, out)
    seconds = time.perf_counter() - started
    if as_json:
        print_json(
            {
                "path": str(path),
                "units": len(source.units),
                "images": len(source.images),
                "bytes": size,
                "seconds": round(seconds, 3),
            }
        )
    elif not quiet:
        typer.echo(
            f"{path}: {len(source.units)} pieces, {len(source.images)} images, "
            f"{size:,} bytes in {seconds:.2f} s"
        )
    else:
        typer.echo(str(path))
