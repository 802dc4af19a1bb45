"""``referee map-from-geo ANCHORS.toml``: a first map picture from real geography.

The CLI edge of :mod:`referee.geo`: read the anchors file, fit, refuse a bad fit, classify
every hex from the land mask, write the picture (and the preview, and the places). Exit codes:
0 written; 1 bad input (a problem in the anchors file, too few or inconsistent anchors, an
unmet ``[[expect]]`` with ``--strict``), nothing written; 2 usage (missing file, bad option,
the land-mask package not installed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from referee.errors import UserError

if TYPE_CHECKING:
    from referee.geo.fit import GridFit
    from referee.geo.spec import Expectation, GeoSpec


@dataclass(frozen=True, slots=True)
class Options:
    """Command-line overrides of the anchors file's ``[fit]`` and ``[classify]``."""

    projection: str | None = None
    model: str | None = None
    max_residual: float | None = None
    samples: int | None = None
    coastal_from: float | None = None
    land_from: float | None = None
    hex_px: int = 40
    strict: bool = False


def register(app: typer.Typer) -> None:
    @app.command("map-from-geo")
    def map_from_geo(
        anchors_file: Path = typer.Argument(
            ..., help="TOML file: [grid] (as in map.toml) and [[anchor]] hexes with lat/lon."
        ),
        output: Path | None = typer.Option(
            None, "-o", "--output", help="Write the map picture here (default: standard output)."
        ),
        png: Path | None = typer.Option(
            None, "--png", help="Also draw a preview: classification, coastline, anchors."
        ),
        places: Path | None = typer.Option(
            None, "--places", help="Also write the named anchors as [[place]] tables for map.toml."
        ),
        projection: str | None = typer.Option(
            None, help="stereographic (default), mercator or equirectangular; overrides [fit]."
        ),
        model: str | None = typer.Option(
            None, help="similarity (default: scale, rotation, shift) or affine; overrides [fit]."
        ),
        max_residual: float | None = typer.Option(
            None,
            min=0.01,
            help="Refuse the fit when an anchor lies farther than this from its hex's centre, "
            "in hexes (default 1.0).",
        ),
        samples: int | None = typer.Option(
            None,
            min=0,
            max=12,
            help="Rings of sample points per hex: 1+3n(n+1) points (default 3, i.e. 37 points).",
        ),
        coastal_from: float | None = typer.Option(
            None, min=0.0, max=1.0, help="Land fraction from which a hex is coastal (default 0.1)."
        ),
        land_from: float | None = typer.Option(
            None, min=0.0, max=1.0, help="Land fraction from which a hex is land (default 0.9)."
        ),
        hex_px: int = typer.Option(40, "--hex-px", min=12, max=200, help="Preview hex width."),
        strict: bool = typer.Option(
            False, "--strict", help="Exit 1 and write nothing when an [[expect]] is not met."
        ),
    ) -> None:
        """Fit a projection to anchor hexes; write a text map picture of sea, coastal and land
        hexes from the NOAA GLOBE land mask.

        Exits 0 when written, 1 on bad input (anchors file, inconsistent anchors), 2 on usage.
        """
        opts = Options(
            projection, model, max_residual, samples, coastal_from, land_from, hex_px, strict
        )
        raise typer.Exit(run(anchors_file, output, png, places, opts))


def run(
    anchors_file: Path,
    output: Path | None,
    png: Path | None,
    places: Path | None,
    opts: Options,
    echo: Callable[..., Any] = typer.echo,
) -> int:
    """Do the whole job; return the exit code. UserError (exit 2) for usage problems."""
    from referee.geo.classify import classify, picture_text, unmet
    from referee.geo.fit import FitError, fit_grid
    from referee.geo.landmask import load_globe
    from referee.geo.preview import page_places
    from referee.geo.spec import parse_spec
    from referee.safeio import UnsafeInput, read_text, write_bytes_atomic, write_text_atomic
    from referee.source.diagnostics import Diagnostics

    # the report goes where the picture does not
    to_err = output is None
    say = lambda text="": echo(text, err=to_err)  # noqa: E731

    shown = anchors_file.name
    try:
        text = read_text(anchors_file, display=str(anchors_file), limit=1024 * 1024)
    except UnsafeInput as exc:
        raise UserError(str(exc)) from None
    diags = Diagnostics()
    spec = parse_spec(text, str(anchors_file), diags)
    for d in diags.items:
        echo(str(d), err=True)
    if spec is None:
        echo(f"{anchors_file}: {len(diags.errors)} error(s); nothing written", err=True)
        return 1
    spec = _with_options(spec, opts)
    try:
        fit = fit_grid(spec.grid, list(spec.anchors), spec.projection, spec.model)
    except FitError as exc:
        echo(f"{anchors_file}: error: {exc}; nothing written", err=True)
        return 1
    for line in fit_report(fit):
        say(line)
    bad = [r for r in fit.residuals if r.hexes > spec.max_residual]
    if bad:
        for r in bad:
            echo(
                f"{anchors_file}:{r.anchor.line}:1: error: anchor {r.anchor.hex} "
                f"{r.anchor.name or ''} is {r.hexes:.2f} hexes from its place after the fit "
                f"(limit {spec.max_residual:g}); the anchors are inconsistent",
                err=True,
            )
        worst = max(bad, key=lambda r: r.hexes).anchor
        echo(
            f"{anchors_file}: refused; nothing written (hint: the worst is {worst.hex} "
            f"{worst.name}: check its hex id and coordinates, or try --model affine or another "
            "--projection)",
            err=True,
        )
        return 1

    from referee.geo.classify import sample_places

    cover = [(lat, lon) for _, lat, lon in sample_places(fit, spec.classify.samples)]
    if png is not None:
        cover += page_places(fit)
    mask = load_globe(cover)
    classified = classify(fit, mask, spec.classify)
    failed = unmet(fit, classified, spec.expectations)
    for e, found in failed:
        echo(
            f"{anchors_file}:{e.line}:1: {'error' if opts.strict else 'warning'}: hex {e.hex} "
            f"should be {_wanted(e)}{f' ({e.note})' if e.note else ''} but {found}",
            err=True,
        )
    if failed and opts.strict:
        echo(f"{anchors_file}: {len(failed)} expectation(s) not met; nothing written", err=True)
        return 1
    header = picture_header(shown, fit, spec)
    picture = picture_text(fit, classified, spec.classify, header)
    preview = None
    if png is not None:
        from referee.geo.preview import preview_png

        preview = preview_png(fit, classified, mask, spec.expectations, hex_px=opts.hex_px)
    if output is None:
        echo(picture, nl=False)
    else:
        write_text_atomic(output, picture)
    if preview is not None and png is not None:
        write_bytes_atomic(png, preview)
    if places is not None:
        write_text_atomic(places, places_toml(fit))
    counts = classified.counts()
    met = len(spec.expectations) - len(failed)
    say(
        f"map: {counts['sea']} sea, {counts['coastal']} coastal, {counts['land']} land hexes"
        + (f"; {met}/{len(spec.expectations)} expectations met" if spec.expectations else "")
        + (f" -> {output}" if output else "")
        + (f"; preview {png}" if png else "")
    )
    return 0


def _wanted(e: Expectation) -> str:
    parts = []
    if e.terrain:
        parts.append(" or ".join(e.terrain))
    if e.lat_min is not None or e.lat_max is not None:
        lo = f"{e.lat_min:g}" if e.lat_min is not None else "-90"
        hi = f"{e.lat_max:g}" if e.lat_max is not None else "90"
        parts.append(f"at latitude {lo}..{hi}")
    return ", ".join(parts)


def _with_options(spec: GeoSpec, opts: Options) -> GeoSpec:
    from referee.geo.fit import MODELS
    from referee.geo.projection import PROJECTIONS

    if opts.projection is not None and opts.projection not in PROJECTIONS:
        raise UserError(
            f"--projection must be one of {', '.join(PROJECTIONS)}, got {opts.projection!r}"
        )
    if opts.model is not None and opts.model not in MODELS:
        raise UserError(f"--model must be one of {', '.join(MODELS)}, got {opts.model!r}")
    cl = spec.classify
    cl = replace(
        cl,
        samples=cl.samples if opts.samples is None else opts.samples,
        coastal_from=cl.coastal_from if opts.coastal_from is None else opts.coastal_from,
        land_from=cl.land_from if opts.land_from is None else opts.land_from,
    )
    if cl.coastal_from > cl.land_from:
        raise UserError(
            f"coastal_from ({cl.coastal_from}) is above land_from ({cl.land_from})",
            hint="a hex is sea below coastal_from, land from land_from, coastal between",
        )
    return replace(
        spec,
        projection=opts.projection or spec.projection,
        model=opts.model or spec.model,
        max_residual=spec.max_residual if opts.max_residual is None else opts.max_residual,
        classify=cl,
    )


def _deg(lat: float, lon: float) -> str:
    return f"{abs(lat):.3f}{'N' if lat >= 0 else 'S'} {abs(lon):.3f}{'E' if lon >= 0 else 'W'}"


def fit_report(fit: GridFit) -> list[str]:
    """The fit in words, and each anchor's residual, for the designer."""
    p = fit.projection
    out = [
        f"fit: {p.kind} projection centred {_deg(p.lat0, p.lon0)}, {fit.model} model, "
        f"{len(fit.residuals)} anchors",
        f"fit: one hex = {fit.hex_width_km():.1f} km ({fit.hex_width_nm():.1f} nm) centre to "
        f"centre; north points {fit.north_bearing():.1f} degrees clockwise from up the page",
        "  hex   lands in  residual  place",
    ]
    for r in fit.residuals:
        name = r.anchor.name or "-"
        out.append(
            f"  {r.anchor.hex}  {r.lands_in or 'off map':8}  {r.hexes:8.2f}  {name} "
            f"({_deg(r.anchor.lat, r.anchor.lon)})"
        )
    return out


def picture_header(anchors_name: str, fit: GridFit, spec: GeoSpec) -> list[str]:
    """The comment lines at the top of the picture: how it was made, so it can be remade."""
    from referee.geo.landmask import DATA_NAME

    cl = spec.classify
    n = 1 + 3 * cl.samples * (cl.samples + 1)
    worst = fit.worst()
    centre = _deg(fit.projection.lat0, fit.projection.lon0)
    lines = [
        f"Made by `referee map-from-geo {anchors_name}` from the {DATA_NAME}.",
        f"Fit: {fit.projection.kind} {fit.model}, centre {centre}, "
        f"hex {fit.hex_width_km():.1f} km, north {fit.north_bearing():.1f} deg clockwise, "
        f"worst anchor {worst.hexes:.2f} hex ({worst.anchor.hex})."
        if worst
        else "",
        f"Terrain from {n} sample points per hex: sea below {cl.coastal_from:g} land, "
        f"coastal from {cl.coastal_from:g}, land from {cl.land_from:g} "
        f"({cl.chars['sea']} sea, {cl.chars['coastal']} coastal, {cl.chars['land']} land).",
        "An estimate from real geography: edit it like any other map picture.",
    ]
    return [x for x in lines if x]


def places_toml(fit: GridFit) -> str:
    """``[[place]]`` tables (the map.toml form) for every named anchor, in file order."""
    out = ["# Named anchors of referee map-from-geo, as map.toml [[place]] tables.", ""]
    for r in fit.residuals:
        if not r.anchor.name or r.anchor.off_map:
            continue
        name = r.anchor.name.replace("\\", "\\\\").replace('"', '\\"')
        out += ["[[place]]", f'hex = "{r.anchor.hex}"', f'name = "{name}"', ""]
    return "\n".join(out)
