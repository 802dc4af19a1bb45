"""The one least-squares solver for "which scale, rotation and shift carry these points onto
those": a similarity ``u = a x - b y + c``, ``v = b x + a y + d`` (no mirror, no shear).

Two commands fit a hex grid to anchors with it: ``map-from-geo`` carries projected places
onto hex centres (:mod:`referee.geo.fit`), and a map picture's ``[[grid.anchor]]`` carries the
pixels a designer read off the picture onto the same hex centres
(:mod:`referee.source.load_mapart`). Pure: stdlib only.
"""

from __future__ import annotations

import math

Point = tuple[float, float]
Similarity = tuple[tuple[float, float, float, float], tuple[float, float]]
"""``((m11, m12, m21, m22), (tu, tv))`` with ``m11 = m22 = a`` and ``m21 = -m12 = b``."""


class FitError(ValueError):
    """The anchors cannot give a fit (too few, all in one place, all on one line)."""


def weighted_means(pts: list[Point], w: list[float]) -> tuple[float, float, list[Point]]:
    """The weighted centroid of ``pts`` and the points relative to it."""
    sw = sum(w)
    mx = sum(wi * p[0] for wi, p in zip(w, pts, strict=True)) / sw
    my = sum(wi * p[1] for wi, p in zip(w, pts, strict=True)) / sw
    return mx, my, [(p[0] - mx, p[1] - my) for p in pts]


def fit_similarity(src: list[Point], dst: list[Point], w: list[float]) -> Similarity:
    """The weighted least-squares similarity carrying ``src`` onto ``dst``; raises
    :class:`FitError` when the points cannot fix a scale."""
    sx, sy, s = weighted_means(src, w)
    du, dv, d = weighted_means(dst, w)
    den = sum(wi * (x * x + y * y) for wi, (x, y) in zip(w, s, strict=True))
    if den < 1e-18:
        raise FitError("the anchors are all at one place; they cannot fix a scale")
    if sum(wi * (u * u + v * v) for wi, (u, v) in zip(w, d, strict=True)) < 1e-18:
        raise FitError("the anchors are all in one hex; they cannot fix a scale")
    a = sum(wi * (x * u + y * v) for wi, (x, y), (u, v) in zip(w, s, d, strict=True)) / den
    b = sum(wi * (x * v - y * u) for wi, (x, y), (u, v) in zip(w, s, d, strict=True)) / den
    if math.hypot(a, b) < 1e-12:
        raise FitError("the anchors give no consistent scale (they cancel out)")
    return (a, -b, b, a), (du - a * sx + b * sy, dv - b * sx - a * sy)
