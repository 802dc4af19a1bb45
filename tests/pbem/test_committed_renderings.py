"""Issue 11, "full re-render checks for games with commitments": in a game that hides
information (after `referee reveal`) and in a game with sealed orders, `verify` renders every
file a player opens again (reports, per-side views, the picture, the VASSAL saves) and
compares it byte for byte; a file swapped in and re-signed by a dishonest referee is named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.pbem.keys import load_private
from tests.pbem import toy_solitaire, toys_common
from tests.pbem.cliflow import Table, cli
from tests.pbem.test_forged_renderings import forge
from tests.pbem.test_solitaire import MOVES


@pytest.fixture(scope="module")
def revealed(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("hidden-render")
    t = Table(root, toys_common.module_dir(root, toy_solitaire.ID), ("NATO",))
    t.new()
    for lines in MOVES:  # to the end of the game, when the referee may reveal
        t.send("NATO", *lines)
    code, out = cli("reveal", t.game, "--module", t.module)
    assert code == 0, out
    return t


def _turns(game: Path) -> list[Path]:
    return sorted(p for p in (game / "turns").iterdir() if p.is_dir())


def test_a_revealed_hidden_game_is_re_rendered_whole(revealed: Table) -> None:
    code, out = revealed.verify(revealed.player_copy("whole"))
    assert code == 0, out
    last = _turns(revealed.game)[-1]
    manifest = json.loads((last / "manifest.json").read_text())
    published = set(manifest["files"]) | set(manifest["parts"]["NATO"])
    # what is compared: every file a player opens in the folder, NATO's part included (the
    # parts key reveal published opens it)
    assert {"report.md", "report.html", "view-NATO.json", "view-NATO.md"} <= published
    assert any(n.endswith(".vsav") for n in published) and "position.svg" in published
    assert {"side-NATO.age", "referee.age"} <= set(manifest["files"])
    n = len(_turns(revealed.game))
    assert out["parts"] == {"opened": {"NATO": n, "referee": n}, "unopened": {}, "missing": []}


@pytest.mark.parametrize("name", ["position.svg", "position-NATO.vsav", "report.html"])
def test_an_earlier_file_swapped_in_is_caught_after_reveal(revealed: Table, name: str) -> None:
    copy = revealed.player_copy(f"swap-{name}")
    first, last = _turns(copy)[1], _turns(copy)[-1]
    opened = revealed.opened() / "turns"  # a file of NATO's part: from the part
    older = (opened / first.name / name).read_bytes()
    assert older != (opened / last.name / name).read_bytes()
    forge(last, load_private(revealed.key("referee")), {name: older})
    code, out = revealed.verify(copy)
    assert code == 1 and out["check"] == "rendering", out
    assert out["file"] == f"turns/{last.name}/{name}"


def test_a_sealed_game_is_re_rendered_whole(tmp_path: Path) -> None:
    """Sealed orders without hidden information: the folders are the open game's, and all of
    them (HTML, picture, VASSAL save included) are compared."""
    from tests.pbem.test_sealed_open import RULESET

    t = Table(tmp_path, toys_common.module_dir(tmp_path, RULESET.id), ("NATO", "Soviet"))
    t.new()
    t.send("Soviet", "move SO-DD-1 0404")
    t.send("NATO", "move US-DD-1 0303")
    code, out = t.verify(t.player_copy())
    assert code == 0, out
    copy = t.player_copy("swap")
    first, last = _turns(copy)[0], _turns(copy)[-1]
    forge(
        last,
        load_private(t.key("referee")),
        {"position.vsav": (first / "position.vsav").read_bytes()},
    )
    code, out = t.verify(copy)
    assert code == 1 and out["check"] == "rendering", out
    assert out["file"] == f"turns/{last.name}/position.vsav"
