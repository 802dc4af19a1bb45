"""The GLOBE land mask reader: right answers, only the band it needs, a clear error without it."""

from __future__ import annotations

import pytest

from referee.errors import UserError
from referee.geo import landmask
from referee.geo.landmask import COLS, _column_window, load_globe


def test_known_places() -> None:
    places = [
        (40.0, -100.0),  # Kansas
        (51.5, -0.12),  # London
        (45.0, -30.0),  # mid-Atlantic
        (64.0, -19.0),  # inland Iceland
        (66.0, -5.0),  # Norwegian Sea
    ]
    band = load_globe(places)
    assert [band.is_land(*p) for p in places] == [True, True, False, True, False]
    # only the rows and columns asked for are kept
    assert len(band.rows) == (90 - 40) * 120 - (90 - 66) * 120 + 1
    assert band.width < COLS // 3
    with pytest.raises(ValueError, match="outside the loaded band"):
        band.is_land(10.0, 0.0)


def test_a_band_across_the_date_line() -> None:
    places = [(67.0, 179.99), (67.0, -179.99), (72.0, 180.0), (72.0, -179.0)]
    band = load_globe(places)
    assert band.width < 200  # not the whole circle
    assert [band.is_land(*p) for p in places] == [True, True, False, False]


def test_column_window_wraps() -> None:
    assert _column_window([10, 20]) == (10, 11)
    assert _column_window([COLS - 5, 4]) == (COLS - 5, 10)
    assert _column_window([7]) == (7, 1)


def test_missing_package_is_a_clear_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(landmask.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError) as exc:
        landmask.data_path()
    assert exc.value.exit_code == 2
    assert "pip install 'referee[geo]'" in str(exc.value)
