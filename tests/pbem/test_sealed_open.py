"""Sealed orders in a game that hides nothing (issue 10 §4): commitments on arrival, the
files published with their salts when the last side's arrive, and `verify` checks each one
against its commitment before any reveal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.source.model import Module
from tests.pbem import toy_sealed, toys_common
from tests.pbem.cliflow import Table, cli


class OpenSealedRuleset(toy_sealed.SealedPlots):
    """toy_sealed with nothing hidden: the plots are the only secret, until both are in."""

    id = "toy_sealed_open"

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        return state

    def _hidden(self, state: GameState) -> set[str]:
        return set()  # no hidden units, so no hidden search rolls

    def new_game(self, *args: Any, **kw: Any) -> GameState:
        return super().new_game(*args, **kw).evolve(ruleset=self.id)


RULESET = OpenSealedRuleset()
SCHEMA = toys_common.install(RULESET)


def test_sealed_orders_open_when_both_are_in(tmp_path: Path) -> None:
    t = Table(tmp_path, toys_common.module_dir(tmp_path, RULESET.id), ("NATO", "Soviet"))
    t.new()
    t.send("Soviet", "move SO-DD-1 0404")
    first = t.game / "turns/001-Soviet-sealed"
    rep = json.loads((first / "report.json").read_text())
    assert set(rep["orders"]) == {
        "side",
        "signer",
        "turn",
        "phase",
        "answers",
        "commitment",
        "sealed",
        "nonce_commit",  # the dice nonce commitment: random, says nothing of the orders
    }
    assert not list(first.glob("orders*.txt"))
    for p in first.iterdir():
        assert b"SO-DD-1 0404" not in p.read_bytes() and b"to 0404" not in p.read_bytes()
    # the other side signs against the same report the first one answered: accepted
    t.send("NATO", "move US-DD-1 0303")
    second = t.game / "turns/002-NATO-sealed"
    rep = json.loads((second / "report.json").read_text())
    assert rep["orders"]["sealed"] == "resolved"
    assert [r["side"] for r in rep["orders"]["reveals"]] == ["NATO", "Soviet"]
    assert (second / "orders-Soviet.txt").is_file() and (second / "orders-NATO.txt").is_file()
    code, out = t.verify(t.player_copy())
    assert code == 0, out
    # a sealed file that is not what was committed when it arrived
    copy = t.player_copy("tampered")
    p = copy / "turns/002-NATO-sealed/orders-Soviet.txt"
    p.write_text(p.read_text().replace("0404", "0405"))
    code, out = t.verify(copy)
    assert code == 1 and "orders-Soviet.txt" in out["file"], out


def test_validate_on_the_game_folder_of_a_game_that_hides_nothing(tmp_path: Path) -> None:
    """The game folder stands for its state.json when the ruleset hides nothing: the full
    position, no view note."""
    t = Table(tmp_path, toys_common.module_dir(tmp_path, RULESET.id), ("NATO", "Soviet"))
    t.new()
    p = tmp_path / "plot.txt"
    p.write_text("game: g\nturn: 1\nside: NATO\nmove US-DD-1 0303\n")
    code, out = cli("validate", "--state", t.game, p, "--module", t.module, "--json")
    res = json.loads(out)
    assert code == 0 and res["ok"] and "view" not in res and "notes" not in res, out
    p.write_text("game: g\nturn: 1\nside: NATO\nmove US-DD-1 0909\n")
    code, out = cli("validate", "--state", t.game, p, "--module", t.module)
    assert code == 1 and "[S1]" in out and "note:" not in out, out


def test_sealed_orders_need_the_one_way_to_resolve_them(tmp_path: Path) -> None:
    """A ruleset whose ``due`` asks for sealed orders but lacks ``SealedResolution`` (the one
    way they are resolved) is refused when the referee asks who is due, before any orders."""
    import pytest

    from referee.engine.ruleset import Due, Ruleset, Submissions, due_of

    class Unresolved(Ruleset, Submissions):
        id = "toy_sealed_unresolved"
        name = "sealed orders with no resolution (tests only)"
        new_game = awaiting = validate = carry_out = view = score = None  # type: ignore[assignment]

        def due(self, module: Module, state: GameState) -> tuple[Due, ...]:
            return (Due("NATO", "a sealed plot", "sealed"),)

    module = toys_common.load(tmp_path, RULESET.id)
    start = RULESET.new_game(module, next(iter(module.scenarios)), "g")
    assert [d.kind for d in due_of(RULESET, module, start)] == ["sealed", "sealed"]
    with pytest.raises(TypeError, match="declares sealed orders but not SealedResolution"):
        due_of(Unresolved(), module, start)
