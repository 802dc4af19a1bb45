"""A source imported from a VASSAL module (``ruleset = "none"``) is not a declared game yet
(issue 30, part 3, not built): commands that need a game's source say so in one line and
point at declared games, instead of listing the roster columns an imported source lacks.
The fixture module is zipped at test time from ``../shared/fixtures/vassal/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pbem.cliflow import cli
from tests.vassal.import_fixtures import fixture_vmod
from tests.vassal.vcheck_locations import FIXTURES

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")


def test_an_imported_module_is_said_to_be_no_game_source(tmp_path: Path) -> None:
    vmod = fixture_vmod("zxvt-capture-the-territory", tmp_path / "vmods", setup=True)
    src = tmp_path / "src"
    code, out = cli("import-vmod", vmod, "-o", src, "-q")
    assert code == 0, out
    code, out = cli("keygen", "a", "--out", tmp_path / "keys")
    assert code == 0, out
    keys = tmp_path / "keys"
    for args in (
        ("sheets", src, "-o", tmp_path / "out"),
        ("new", tmp_path / "game", "--module", src, "--scenario", "lattice",
         "--player", f"A={keys / 'a.pub'}", "--referee-key", keys / "a.key"),
    ):  # fmt: skip
        code, out = cli(*args)
        assert code == 1, out
        assert "the source of an imported VASSAL module" in out and "declared-games.md" in out
        assert "units.csv" not in out, out
    assert not (tmp_path / "game").exists()
