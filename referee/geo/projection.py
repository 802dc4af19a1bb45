"""Map projections on a sphere: latitude/longitude to a plane and back.

A hex map is a flat picture of a curved sea, so the fit needs a projection before it can relate
hexes to places. Three are offered, all centred on the anchors so that the part of the plane
the map uses is the least distorted:

* ``stereographic`` (the default): oblique stereographic, conformal (shapes and angles are kept
  locally, so a hex is the same shape everywhere), the usual choice for a regional map and the
  best at high latitudes (Denmark Strait, the Barents Sea);
* ``mercator``: conformal too, with north straight up everywhere; many hobby maps are drawn
  on it, so a map traced from one fits it best;
* ``equirectangular``: plate carrée scaled by the cosine of the centre latitude; only for small
  areas or for maps drawn on a latitude/longitude grid.

Coordinates on the plane are in Earth radii, ``x`` east and ``y`` north at the centre. The
sphere's radius is the IUGG mean radius, good to a fraction of a percent at hex-map scales.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

ProjectionKind = Literal["stereographic", "mercator", "equirectangular"]
PROJECTIONS: tuple[str, ...] = ("stereographic", "mercator", "equirectangular")

EARTH_RADIUS_KM = 6371.0088
KM_PER_NM = 1.852


def wrap_longitude(lon: float) -> float:
    """A longitude in degrees folded into [-180, 180)."""
    return (lon + 180.0) % 360.0 - 180.0


def spherical_centre(points: list[tuple[float, float]]) -> tuple[float, float]:
    """The normalised mean of unit vectors: a centre that works across the date line."""
    sx = sy = sz = 0.0
    for lat, lon in points:
        p, q = math.radians(lat), math.radians(lon)
        sx += math.cos(p) * math.cos(q)
        sy += math.cos(p) * math.sin(q)
        sz += math.sin(p)
    norm = math.sqrt(sx * sx + sy * sy + sz * sz)
    if norm < 1e-12:
        return 0.0, 0.0
    return math.degrees(math.asin(sz / norm)), math.degrees(math.atan2(sy, sx))


@dataclass(frozen=True, slots=True)
class Projection:
    """One projection centred on ``(lat0, lon0)``."""

    kind: ProjectionKind
    lat0: float
    lon0: float

    def forward(self, lat: float, lon: float) -> tuple[float, float]:
        """Plane coordinates (Earth radii) of a place."""
        phi, phi0 = math.radians(lat), math.radians(self.lat0)
        dlam = math.radians(wrap_longitude(lon - self.lon0))
        if self.kind == "stereographic":
            cos_c = math.sin(phi0) * math.sin(phi) + math.cos(phi0) * math.cos(phi) * math.cos(dlam)
            k = 2.0 / max(1.0 + cos_c, 1e-12)
            x = k * math.cos(phi) * math.sin(dlam)
            y = k * (
                math.cos(phi0) * math.sin(phi) - math.sin(phi0) * math.cos(phi) * math.cos(dlam)
            )
            return x, y
        if self.kind == "mercator":
            phi = max(min(phi, math.radians(89.5)), math.radians(-89.5))
            y = math.log(math.tan(math.pi / 4 + phi / 2)) - math.log(
                math.tan(math.pi / 4 + phi0 / 2)
            )
            return dlam, y
        return dlam * math.cos(phi0), phi - phi0

    def inverse(self, x: float, y: float) -> tuple[float, float]:
        """Latitude and longitude (degrees) of a plane point."""
        phi0 = math.radians(self.lat0)
        if self.kind == "stereographic":
            rho = math.hypot(x, y)
            if rho < 1e-15:
                return self.lat0, wrap_longitude(self.lon0)
            c = 2.0 * math.atan(rho / 2.0)
            sin_c, cos_c = math.sin(c), math.cos(c)
            arg = cos_c * math.sin(phi0) + y * sin_c * math.cos(phi0) / rho
            phi = math.asin(max(-1.0, min(1.0, arg)))
            lam = math.atan2(x * sin_c, rho * math.cos(phi0) * cos_c - y * math.sin(phi0) * sin_c)
            return math.degrees(phi), wrap_longitude(self.lon0 + math.degrees(lam))
        if self.kind == "mercator":
            yy = y + math.log(math.tan(math.pi / 4 + phi0 / 2))
            phi = 2.0 * math.atan(math.exp(yy)) - math.pi / 2
            return math.degrees(phi), wrap_longitude(self.lon0 + math.degrees(x))
        lat = math.degrees(y + phi0)
        return max(-90.0, min(90.0, lat)), wrap_longitude(
            self.lon0 + math.degrees(x / math.cos(phi0))
        )

    def scale_at_centre_km(self) -> float:
        """Kilometres per plane unit at the centre (the unit is one Earth radius there)."""
        if self.kind == "mercator":
            return EARTH_RADIUS_KM * math.cos(math.radians(self.lat0))
        return EARTH_RADIUS_KM
