"""Projections and the least-squares fit of ``referee map-from-geo`` (pure, no land mask)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.geo.fit import Anchor, FitError, fit_grid
from referee.geo.projection import PROJECTIONS, Projection, spherical_centre, wrap_longitude
from referee.hexgrid import HexGrid

GRID = HexGrid(
    columns=30, rows=24, orientation="flat", shifted="even", rows_grow="south", id_format="CCRR"
)


@pytest.mark.parametrize("kind", PROJECTIONS)
@settings(max_examples=60, deadline=None)
@given(lat=st.floats(-60, 75), dlon=st.floats(-40, 40))
def test_projection_round_trip(kind: str, lat: float, dlon: float) -> None:
    p = Projection(kind, 50.0, 170.0)  # type: ignore[arg-type]
    lon = wrap_longitude(170.0 + dlon)
    back = p.inverse(*p.forward(lat, lon))
    assert back[0] == pytest.approx(lat, abs=1e-7)
    assert wrap_longitude(back[1] - lon) == pytest.approx(0.0, abs=1e-7)


def test_centre_across_the_date_line() -> None:
    lat, lon = spherical_centre([(10.0, 179.0), (10.0, -179.0)])
    assert abs(wrap_longitude(lon - 180.0)) < 1e-9
    assert lat == pytest.approx(10.0, abs=0.01)


def _true_fit(anchor_hexes: list[str], kind: str = "mercator"):
    """Anchors whose places are exactly at their hex centres under a known fit.

    Mercator, because its centre only shifts the plane, so another set of anchors (another
    centre) can recover the very same map; the stereographic case is checked separately."""
    seed = [
        Anchor("0505", 70.0, -20.0),
        Anchor("2505", 70.0, 20.0),
        Anchor("1520", 60.0, 0.0),
    ]
    truth = fit_grid(GRID, seed, projection=kind)  # type: ignore[arg-type]
    return truth, [Anchor(h, *truth.centre_latlon(h), name=h) for h in anchor_hexes]


def test_consistent_anchors_fit_exactly() -> None:
    truth, anchors = _true_fit(["0303", "2807", "1222", "0619"])
    fit = fit_grid(GRID, anchors, projection="mercator")
    assert max(r.hexes for r in fit.residuals) < 1e-6
    assert [r.lands_in for r in fit.residuals] == ["0303", "2807", "1222", "0619"]
    # the fitted map sends every hex centre to the same place as the truth
    for h in ("0101", "3024", "1512"):
        a, b = fit.centre_latlon(h), truth.centre_latlon(h)
        assert a[0] == pytest.approx(b[0], abs=1e-6)
        assert a[1] == pytest.approx(b[1], abs=1e-6)


def test_a_wrong_anchor_shows_in_its_residual() -> None:
    _, anchors = _true_fit(["0303", "2807", "1222", "0619", "2020"])
    wrong = [*anchors[:4], Anchor("1010", anchors[4].lat, anchors[4].lon, name="misplaced")]
    fit = fit_grid(GRID, wrong, projection="mercator")
    worst = fit.worst()
    assert worst is not None and worst.anchor.name == "misplaced"
    assert worst.hexes > 3.0


def test_affine_fit_recovers_a_similarity() -> None:
    _, anchors = _true_fit(["0303", "2807", "1222", "0619"])
    fit = fit_grid(GRID, anchors, projection="mercator", model="affine")
    assert max(r.hexes for r in fit.residuals) < 1e-6


def test_stereographic_recentred_stays_within_a_few_hundredths_of_a_hex() -> None:
    # a stereographic map centred elsewhere is not exactly a similarity of this one: the fit
    # absorbs the difference, and over 30 x 24 hexes of 100 km it stays tiny
    _, anchors = _true_fit(["0303", "2807", "1222", "0619"], kind="stereographic")
    fit = fit_grid(GRID, anchors)
    assert max(r.hexes for r in fit.residuals) < 0.1
    assert [r.lands_in for r in fit.residuals] == ["0303", "2807", "1222", "0619"]


def test_too_few_anchors() -> None:
    _, anchors = _true_fit(["0303", "2807"])
    with pytest.raises(FitError, match="at least 3"):
        fit_grid(GRID, anchors)
    _, anchors = _true_fit(["0303", "2807", "1010"])
    with pytest.raises(FitError, match="at least 4"):
        fit_grid(GRID, anchors, model="affine")


def test_degenerate_anchors_are_refused() -> None:
    same = [Anchor(h, 65.0, 0.0) for h in ("0101", "0202", "0303")]
    with pytest.raises(FitError, match="one place"):
        fit_grid(GRID, same)
    one_hex = [Anchor("0505", 65.0, float(i)) for i in range(3)]
    with pytest.raises(FitError, match="one hex"):
        fit_grid(GRID, one_hex)
    line = [Anchor(f"{c:02d}05", 65.0, float(c)) for c in (1, 5, 9, 13)]
    with pytest.raises(FitError, match="one line"):
        fit_grid(GRID, line, projection="mercator", model="affine")


def test_mirror_image_is_not_fitted_by_affine() -> None:
    _, anchors = _true_fit(["0303", "2807", "1222", "0619"])
    mirrored = [Anchor(a.hex, a.lat, -a.lon) for a in anchors]
    with pytest.raises(FitError, match="mirror"):
        fit_grid(GRID, mirrored, projection="mercator", model="affine")


def test_north_bearing_and_scale_of_a_north_up_fit() -> None:
    # three places on a north-up equirectangular grid of one degree of latitude per row
    grid = HexGrid(columns=10, rows=10, orientation="flat", rows_grow="south", id_format="CCRR")
    a = [Anchor("0101", 10.0, 0.0), Anchor("0106", 5.0, 0.0), Anchor("0109", 2.0, 0.0)]
    fit = fit_grid(grid, a, projection="equirectangular")
    assert fit.north_bearing() == pytest.approx(0.0, abs=1e-9)
    assert fit.hex_width_km() == pytest.approx(math.radians(1) * 6371.0088, rel=1e-9)


def test_a_weight_0_anchor_does_not_move_the_fit_but_is_reported() -> None:
    _, anchors = _true_fit(["0303", "2807", "1222", "0619"])
    stray = Anchor("1515", anchors[0].lat, anchors[0].lon, name="stray", weight=0.0)
    fit = fit_grid(GRID, [*anchors, stray], projection="mercator")
    assert max(r.hexes for r in fit.residuals[:4]) < 1e-6
    assert fit.residuals[4].anchor.name == "stray" and fit.residuals[4].lands_in == "0303"
    with pytest.raises(FitError, match="weight 0"):
        fit_grid(GRID, [Anchor(a.hex, a.lat, a.lon, weight=0.0) for a in anchors])
