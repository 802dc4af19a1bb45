"""``referee map-from-geo ANCHORS.toml``: a first map picture from real geography.

The CLI edge of :mod:`referee.geo`: read the anchors file, fit, refuse a bad fit, classify
every hex from the land mask, write the picture (and the preview, and the places). Exit codes
as every command (docs/ci.md): 0 written; 1 problems in the input (the anchors file, too few
or inconsistent anchors, an unmet ``[[expect]]`` with ``--strict``), nothing written; 2 the
command could not run (a missing or unreadable file, a bad option, the land mask not
installed).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from referee.commands.common import (
    EXIT_PROBLEMS,
    Format,
    format_option,
    json_option,
    quiet_option,
)
from referee.errors import UserError

if TYPE_CHECKING:
    from referee.geo.classify import Classified
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
            ...,
            metavar="ANCHORS.toml",
            help="[grid] (as in map.toml) and [[anchor]] hexes with lat/lon; - reads stdin.",
        ),
        out: Path = typer.Option(
            Path("-"),
            "-o",
            "--out",
            metavar="FILE",
            help="Where to write the map picture (map.txt); - is standard output.",
        ),
        png: Path | None = typer.Option(
            None,
            "--png",
            metavar="FILE.png",
            help="Also draw a preview: classification, coastline, anchors.",
        ),
        places: Path | None = typer.Option(
            None,
            "--places",
            metavar="FILE",
            help="Also write the named anchors as [[place]] tables for map.toml.",
        ),
        projection: str | None = typer.Option(
            None,
            metavar="NAME",
            help="stereographic (the default), mercator or equirectangular; overrides [fit].",
        ),
        model: str | None = typer.Option(
            None,
            metavar="NAME",
            help="similarity (the default: scale, rotation, shift) or affine; overrides [fit].",
        ),
        max_residual: float | None = typer.Option(
            None,
            min=0.01,
            metavar="HEXES",
            help="Refuse the fit when an anchor lies farther than this from its hex's centre "
            "(1.0 unless [fit] says).",
        ),
        samples: int | None = typer.Option(
            None,
            min=0,
            max=12,
            metavar="N",
            help="Rings of sample points per hex, 1+3N(N+1) points (3, i.e. 37 points, unless "
            "[classify] says).",
        ),
        coastal_from: float | None = typer.Option(
            None,
            min=0.0,
            max=1.0,
            metavar="FRACTION",
            help="Land fraction from which a hex is coastal (0.1 unless [classify] says).",
        ),
        land_from: float | None = typer.Option(
            None,
            min=0.0,
            max=1.0,
            metavar="FRACTION",
            help="Land fraction from which a hex is land (0.9 unless [classify] says).",
        ),
        hex_px: int = typer.Option(
            40, "--hex-px", min=12, max=200, metavar="PIXELS", help="Preview hex width."
        ),
        strict: bool = typer.Option(
            False, "--strict", help="Exit 1 and write nothing when an [[expect]] is not met."
        ),
        fmt: Format = format_option(Format),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print only errors and warnings."),
    ) -> None:
        """Fit a projection to anchor hexes; write a text map picture of sea, coastal and land
        hexes from the NOAA GLOBE land mask (docs/module-source.md).

        Exits 0 when written; 1 on problems in the anchors file, too few or inconsistent
        anchors (each with its residual in hexes), or an unmet [[expect]] with --strict, and
        then writes nothing; 2 on bad usage, an unreadable file or no land mask installed.
        """
        from referee.commands.common import output_format

        how = output_format(fmt, as_json)
        opts = Options(
            projection, model, max_residual, samples, coastal_from, land_from, hex_px, strict
        )
        raise typer.Exit(run(anchors_file, out, png, places, opts, how=how, quiet=quiet))


@dataclass(slots=True)
class Report:
    """Where the messages go: text for people, GitHub annotations, or one JSON object at the
    end. When the picture goes to standard output, text goes to standard error."""

    how: str
    quiet: bool
    to_err: bool
    shown: str
    problems: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)

    def problem(
        self,
        severity: str,
        message: str,
        line: int | None = None,
        col: int | None = None,
        hint: str | None = None,
        file: str | None = None,
    ) -> None:
        from referee.commands.common import github_annotation

        where = file or self.shown
        self.problems.append(
            {"severity": severity, "file": where, "line": line, "col": col}
            | {"message": message, "hint": hint}
        )
        tail = f" (hint: {hint})" if hint else ""
        if self.how == "github":
            typer.echo(
                github_annotation(
                    severity,
                    message + tail,
                    file=where,
                    line=line,
                    col=col,
                    title="referee map-from-geo",
                ),
                err=self.to_err,
            )
        elif self.how == "text":
            pos = "".join(f":{n}" for n in (line, col if line else None) if n is not None)
            typer.echo(f"{where}{pos}: {severity}: {message}{tail}", err=True)

    def say(self, text: str) -> None:
        if self.how == "text" and not self.quiet:
            typer.echo(text, err=self.to_err)

    def done(self, code: int, summary: str) -> int:
        """Print the last line (or the JSON object) and hand back the exit code."""
        from referee.commands.common import print_json

        if self.how == "json":
            print_json(
                self.result
                | {"ok": code == 0, "summary": summary, "anchors_file": self.shown}
                | {"errors": [p for p in self.problems if p["severity"] == "error"]}
                | {"warnings": [p for p in self.problems if p["severity"] == "warning"]}
            )
        elif code != 0:
            typer.echo(f"{self.shown}: {summary}", err=True)
        else:
            self.say(summary)
        return code


def run(
    anchors_file: Path,
    out: Path,
    png: Path | None,
    places: Path | None,
    opts: Options,
    *,
    how: str = "text",
    quiet: bool = False,
) -> int:
    """Do the whole job; return the exit code. UserError (exit 2) for usage problems."""
    from referee.commands.common import is_stdio, read_input_text, shown_name, write_output
    from referee.geo.classify import classify, picture_text, sample_places, unmet
    from referee.geo.landmask import load_globe
    from referee.geo.preview import page_places, preview_png
    from referee.geo.spec import parse_spec
    from referee.source.diagnostics import Diagnostics

    _check_outputs(out, png, places, how)
    shown = shown_name(anchors_file)
    rep = Report(how, quiet, is_stdio(out), shown)
    text = read_input_text(anchors_file, 1024 * 1024)
    diags = Diagnostics()
    spec = parse_spec(text, shown, diags)
    for d in diags.items:
        rep.problem(d.severity, d.message, d.line, d.col, d.hint, d.file)
    if spec is None:
        n = len(diags.errors)
        return rep.done(EXIT_PROBLEMS, f"{n} error{'s' if n != 1 else ''}; nothing written")
    spec = _with_options(spec, opts)
    fit = _fitted(rep, spec)
    if isinstance(fit, int):
        return fit
    cover = [(lat, lon) for _, lat, lon in sample_places(fit, spec.classify.samples)]
    if png is not None:
        cover += page_places(fit)
    mask = load_globe(cover)
    classified = classify(fit, mask, spec.classify)
    failed = unmet(fit, classified, spec.expectations)
    for e, found in failed:
        rep.problem(
            "error" if opts.strict else "warning",
            f"hex {e.hex} should be {_wanted(e)}{f' ({e.note})' if e.note else ''} but {found}",
            e.line,
            1,
        )
    rep.result["map"] = map_json(classified, spec, len(failed))
    if failed and opts.strict:
        return rep.done(EXIT_PROBLEMS, f"{len(failed)} expectation(s) not met; nothing written")
    picture = picture_text(fit, classified, spec.classify, picture_header(shown, fit, spec))
    preview = None
    if png is not None:
        preview = preview_png(fit, classified, mask, spec.expectations, hex_px=opts.hex_px)
    write_output(out, picture)
    if preview is not None and png is not None:
        write_output(png, preview)
    if places is not None:
        write_output(places, places_toml(fit))
    rep.result |= {"out": str(out), "png": str(png) if png else None}
    rep.result |= {"places": str(places) if places else None}
    counts = classified.counts()
    met = len(spec.expectations) - len(failed)
    return rep.done(
        0,
        f"map: {counts['sea']} sea, {counts['coastal']} coastal, {counts['land']} land hexes"
        + (f"; {met}/{len(spec.expectations)} expectations met" if spec.expectations else "")
        + ("" if is_stdio(out) else f" -> {out}")
        + (f"; preview {png}" if png else ""),
    )


def _check_outputs(out: Path, png: Path | None, places: Path | None, how: str) -> None:
    """Only the picture may go to standard output, and only when no report goes there."""
    from referee.commands.common import is_stdio

    if is_stdio(out) and how != "text":
        raise UserError(
            f"the picture (-o -) and --format {how} both want standard output",
            hint="write the picture to a file with -o map.txt",
        )
    for option, path in (("--png", png), ("--places", places)):
        if path is not None and is_stdio(path):
            raise UserError(f"{option} needs a file name, not -")


def _fitted(rep: Report, spec: GeoSpec) -> Any:
    """The grid fitted to the anchors and reported; or the exit code when there is no fit or
    an anchor lies too far from its place after it."""
    from referee.geo.fit import FitError, fit_grid

    try:
        fit = fit_grid(spec.grid, list(spec.anchors), spec.projection, spec.model)
    except FitError as exc:
        rep.problem("error", str(exc))
        return rep.done(EXIT_PROBLEMS, "no fit; nothing written")
    rep.result["fit"] = fit_json(fit)
    for line in fit_report(fit):
        rep.say(line)
    bad = [r for r in fit.residuals if r.hexes > spec.max_residual]
    for r in bad:
        rep.problem(
            "error",
            f"anchor {r.anchor.hex} {r.anchor.name or ''} is {r.hexes:.2f} hexes from its place "
            f"after the fit (limit {spec.max_residual:g}); the anchors are inconsistent",
            r.anchor.line,
            1,
        )
    if bad:
        worst = max(bad, key=lambda r: r.hexes).anchor
        return rep.done(
            EXIT_PROBLEMS,
            f"refused; nothing written (hint: the worst is {worst.hex} {worst.name}: check its "
            "hex id and coordinates, or try --model affine or another --projection)",
        )
    return fit


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


def fit_json(fit: GridFit) -> dict[str, Any]:
    p = fit.projection
    return {
        "projection": p.kind,
        "model": fit.model,
        "centre": [round(p.lat0, 6), round(p.lon0, 6)],
        "hex_km": round(fit.hex_width_km(), 3),
        "north_bearing": round(fit.north_bearing(), 3),
        "anchors": [
            {
                "hex": r.anchor.hex,
                "name": r.anchor.name,
                "lat": r.anchor.lat,
                "lon": r.anchor.lon,
                "residual": round(r.hexes, 4),
                "lands_in": r.lands_in,
                "line": r.anchor.line,
            }
            for r in fit.residuals
        ],
    }


def map_json(classified: Classified, spec: GeoSpec, unmet_count: int) -> dict[str, Any]:
    return {
        "counts": classified.counts(),
        "expectations": {"total": len(spec.expectations), "unmet": unmet_count},
    }


def picture_header(anchors_name: str, fit: GridFit, spec: GeoSpec) -> list[str]:
    """The comment lines at the top of the picture: how it was made, so it can be remade."""
    from referee.geo.landmask import DATA_NAME

    cl = spec.classify
    n = 1 + 3 * cl.samples * (cl.samples + 1)
    worst = fit.worst()
    centre = _deg(fit.projection.lat0, fit.projection.lon0)
    lines = [
        f"Made by `referee map-from-geo {Path(anchors_name).name}` from the {DATA_NAME}.",
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
    """``[[place]]`` tables (the map.toml form) for every named on-map anchor, in file order."""
    out = ["# Named anchors of referee map-from-geo, as map.toml [[place]] tables.", ""]
    for r in fit.residuals:
        if not r.anchor.name or r.anchor.off_map:
            continue
        name = r.anchor.name.replace("\\", "\\\\").replace('"', '\\"')
        out += ["[[place]]", f'hex = "{r.anchor.hex}"', f'name = "{name}"', ""]
    return "\n".join(out)
