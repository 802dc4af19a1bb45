"""A source imported from a VASSAL module (``ruleset = "none"``) is played by email
(``referee new``: ``tests/declared/test_imported_game.py``) but has no counters, charts or
map of its own to print: those commands say so in one line and point at declared games,
instead of listing the roster columns an imported source lacks. The fixture module is
zipped at test time from ``../shared/fixtures/vassal/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pbem.cliflow import cli
from tests.vassal.import_fixtures import fixture_vmod
from tests.vassal.vcheck_locations import FIXTURES

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")


def test_an_imported_module_is_said_to_be_no_source_to_print(tmp_path: Path) -> None:
    vmod = fixture_vmod("zxvt-capture-the-territory", tmp_path / "vmods", setup=True)
    src = tmp_path / "src"
    code, out = cli("import-vmod", vmod, "-o", src, "-q")
    assert code == 0, out
    for command in ("sheets", "charts"):
        code, out = cli(command, src, "-o", tmp_path / "out")
        assert code == 1, out
        assert "the source of an imported VASSAL module" in out and "declared-games.md" in out
        assert "`referee new` plays it by email" in out
        assert "units.csv" not in out, out
    assert not (tmp_path / "out").exists()
