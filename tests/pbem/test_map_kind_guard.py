"""`referee new` refuses a module whose map its ruleset does not play on, before writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import UserError
from referee.pbem.game import create_game
from referee.pbem.keys import PrivateKey
from referee.source.loader import load_module

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "modules"


def test_new_game_on_an_area_map_with_a_hex_ruleset(
    tmp_path: Path, keys: dict[str, PrivateKey]
) -> None:
    module, _ = load_module(FIXTURES / "area_med")
    assert module is not None
    with pytest.raises(UserError, match="plays on hex maps; the map of module area_med is area"):
        create_game(
            tmp_path / "g",
            module,
            scenario="opening",
            players={"NATO": keys["nato"].public, "Soviet": keys["soviet"].public},
            referee_key=keys["ref"],
            referee_dir=tmp_path / "secret",
        )
    assert not (tmp_path / "g" / "game.toml").exists()
    assert not (tmp_path / "secret").exists()
