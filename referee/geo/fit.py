"""Fitting a projection to anchor hexes by least squares, and measuring how well it fits.

The designer says "Tromso is in hex 2207" for a few places. Each anchor gives two equations
between the projected place ``(x, y)`` and the centre of its hex on the page ``(u, v)``
(units of one hex width, ``v`` up the page). Two models:

* ``similarity`` (default): ``u = a x - b y + c``, ``v = b x + a y + d``: scale, rotation and
  shift, nothing else, so hexes keep their shape and the map may be tilted (as SPI's Sixth
  Fleet map is). Four unknowns: two anchors determine it, so a third is needed before a
  residual can reveal a wrong anchor; the fit asks for at least three.
* ``affine``: six unknowns, allows different scales east-west and north-south and shear, for a
  map traced from a distorted source; it asks for at least four anchors.

A mirror image is never fitted: north-up maps have east on the right.

Each anchor's **residual** is the distance, in hexes, from the centre of its hex to where the
fit puts its place. A place can lie anywhere inside its hex, so residuals up to about half a
hex are normal; one beyond the threshold (default 1.0 hex) means the anchors disagree, and the
fit is refused rather than silently averaged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from referee.geo.projection import (
    KM_PER_NM,
    Projection,
    ProjectionKind,
    spherical_centre,
)
from referee.hexgrid import HexGrid
from referee.similarity_fit import FitError, fit_similarity, weighted_means

FitModel = Literal["similarity", "affine"]
MODELS: tuple[str, ...] = ("similarity", "affine")
MIN_ANCHORS: dict[str, int] = {"similarity": 3, "affine": 4}


@dataclass(frozen=True, slots=True)
class Anchor:
    """A place the designer put in a hex. ``line`` points back into the anchors file."""

    hex: str
    lat: float
    lon: float
    name: str = ""
    weight: float = 1.0
    line: int | None = None
    note: str = ""
    off_map: bool = False  # a place beyond the map edge, named by the hex id it would have


@dataclass(frozen=True, slots=True)
class Residual:
    anchor: Anchor
    hexes: float  # distance from the hex centre to the fitted place, in hex widths
    lands_in: str | None  # the hex the fitted place falls in (None: off the map)


@dataclass(frozen=True, slots=True)
class GridFit:
    """A fitted mapping between the page of ``grid`` (hex width 1) and the globe."""

    grid: HexGrid
    projection: Projection
    model: FitModel
    # page_up = M @ (x, y) + t, with M = [[m11, m12], [m21, m22]]
    m11: float
    m12: float
    m21: float
    m22: float
    tu: float
    tv: float
    residuals: tuple[Residual, ...] = ()

    # ---- the mapping ------------------------------------------------------------------------
    def page_of(self, lat: float, lon: float) -> tuple[float, float]:
        """Page coordinates (x right, y down, one unit = one hex width) of a place."""
        x, y = self.projection.forward(lat, lon)
        u = self.m11 * x + self.m12 * y + self.tu
        v = self.m21 * x + self.m22 * y + self.tv
        return u, -v

    def latlon_of(self, px: float, py: float) -> tuple[float, float]:
        """The place under a page point."""
        u, v = px - self.tu, -py - self.tv
        det = self.m11 * self.m22 - self.m12 * self.m21
        x = (self.m22 * u - self.m12 * v) / det
        y = (-self.m21 * u + self.m11 * v) / det
        return self.projection.inverse(x, y)

    def hex_of(self, lat: float, lon: float) -> str | None:
        """The hex a place falls in, or ``None`` off the map."""
        return self.grid.hex_at(*self.page_of(lat, lon))

    def centre_latlon(self, hex_id: str) -> tuple[float, float]:
        return self.latlon_of(*self.grid.centre(hex_id))

    # ---- what the designer wants to know about it -------------------------------------------
    def hex_width_km(self) -> float:
        """The distance between neighbouring hex centres, at the projection's centre."""
        scale = math.sqrt(abs(self.m11 * self.m22 - self.m12 * self.m21))
        return self.projection.scale_at_centre_km() / scale

    def hex_width_nm(self) -> float:
        return self.hex_width_km() / KM_PER_NM

    def north_bearing(self) -> float:
        """Where north points on the page, in degrees clockwise from straight up."""
        # the image of a small step north (+y on the plane) in page-up coordinates
        du, dv = self.m12, self.m22
        return math.degrees(math.atan2(du, dv)) % 360.0

    def worst(self) -> Residual | None:
        return max(self.residuals, key=lambda r: r.hexes, default=None)


def offset_of(grid: HexGrid, hex_id: str) -> tuple[int, int]:
    """``(col, row)`` of a four-digit id, on the map or beyond its edge."""
    a, b = int(hex_id[:2]), int(hex_id[2:])
    return (b, a) if grid.id_format == "RRCC" else (a, b)


def _page_up(grid: HexGrid, hex_id: str) -> tuple[float, float]:
    x, y = grid.centre_of(*offset_of(grid, hex_id))
    return x, -y


def fit_grid(
    grid: HexGrid,
    anchors: list[Anchor],
    projection: ProjectionKind = "stereographic",
    model: FitModel = "similarity",
) -> GridFit:
    """Least-squares fit of ``model`` to ``anchors``; raises :class:`FitError` when impossible.

    ``grid`` is used at hex width 1 whatever its printed size, so every length is in hexes.
    """
    unit = grid.scaled(1.0)
    need = MIN_ANCHORS[model]
    if len(anchors) < need:
        raise FitError(
            f"{len(anchors)} anchor{'s' if len(anchors) != 1 else ''}; the {model} fit needs at "
            f"least {need} (one more than it takes to fix the map, so that a wrong one shows)"
        )
    lat0, lon0 = spherical_centre([(a.lat, a.lon) for a in anchors])
    proj = Projection(projection, lat0, lon0)
    src = [proj.forward(a.lat, a.lon) for a in anchors]
    dst = [_page_up(unit, a.hex) for a in anchors]
    w = [max(a.weight, 0.0) for a in anchors]
    if sum(w) <= 0:
        raise FitError("every anchor has weight 0")
    if model == "similarity":
        m, t = fit_similarity(src, dst, w)
    else:
        m, t = _fit_affine(src, dst, w)
    fit = GridFit(unit, proj, model, m[0], m[1], m[2], m[3], t[0], t[1])
    residuals = []
    for a, (u, v) in zip(anchors, dst, strict=True):
        px, py = fit.page_of(a.lat, a.lon)
        residuals.append(Residual(a, math.hypot(px - u, py + v), unit.hex_at(px, py)))
    return GridFit(unit, proj, model, m[0], m[1], m[2], m[3], t[0], t[1], tuple(residuals))


def _fit_affine(
    src: list[tuple[float, float]], dst: list[tuple[float, float]], w: list[float]
) -> tuple[tuple[float, float, float, float], tuple[float, float]]:
    sx, sy, s = weighted_means(src, w)
    du, dv, d = weighted_means(dst, w)
    sxx = sum(wi * x * x for wi, (x, _) in zip(w, s, strict=True))
    syy = sum(wi * y * y for wi, (_, y) in zip(w, s, strict=True))
    sxy = sum(wi * x * y for wi, (x, y) in zip(w, s, strict=True))
    det = sxx * syy - sxy * sxy
    if det <= 1e-12 * max(sxx * syy, 1e-30):
        raise FitError("the anchors lie on one line; the affine fit needs them spread out")
    out = []
    for k in (0, 1):
        sxu = sum(wi * x * q[k] for wi, (x, _), q in zip(w, s, d, strict=True))
        syu = sum(wi * y * q[k] for wi, (_, y), q in zip(w, s, d, strict=True))
        out.append(((syy * sxu - sxy * syu) / det, (sxx * syu - sxy * sxu) / det))
    (m11, m12), (m21, m22) = out
    if m11 * m22 - m12 * m21 <= 0:
        raise FitError("the anchors make a mirror image of the map; check east and west")
    return (m11, m12, m21, m22), (du - m11 * sx - m12 * sy, dv - m21 * sx - m22 * sy)
