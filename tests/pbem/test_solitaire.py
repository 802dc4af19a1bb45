"""Issue 10 §5-6 end to end: a solitaire game against a referee-run side with a committed cup
of chits and a face-down group (toy_solitaire), one human player, through the CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.pbem import commitments as cm
from tests.pbem import toy_solitaire, toys_common
from tests.pbem.cliflow import Table, cli, readable

SIDES = ("NATO",)
MOVES = [
    ["move US-DD-1 0304", "search 0506"],
    ["move US-CV-1 0404"],
    ["search 0405"],
]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("solitaire")
    t = Table(root, toys_common.module_dir(root, toy_solitaire.ID), SIDES)
    out = t.new()
    assert "waiting for: NATO move" in out
    for lines in MOVES:
        t.send("NATO", *lines)
    return t


def test_one_player_and_the_referee_side(played: Table) -> None:
    toml = (played.game / "game.toml").read_text()
    assert '[players."NATO"]' in toml and 'Soviet"]' not in toml.split("[secrets]")[0]
    assert 'referee_sides = ["Soviet"]' in toml
    files = {p.name for p in (played.game / "turns/001-NATO-move").iterdir()}
    assert "side-NATO.age" in files and "referee.age" in files  # issue 24: one part each
    parts = json.loads((played.game / "turns/001-NATO-move/manifest.json").read_text())["parts"]
    assert set(parts) == {"NATO", "referee"}
    assert "view-NATO.json" in parts["NATO"] and "position-NATO.vsav" in parts["NATO"]
    assert not any("Soviet" in n for n in files)  # the referee-run side gets no view


def test_the_pools_are_committed_at_set_up(played: Table) -> None:
    rep = json.loads((played.game / "turns/000-setup-request/report.json").read_text())
    pools = rep["commitments"]["pools"]
    assert pools["cup"]["count"] == len(toy_solitaire.CHITS)
    assert pools["SBG-1"]["count"] == 2
    seed = bytes.fromhex(
        json.loads((played.game / "secret/turns/000-setup-request/secrets.json").read_text())[
            "hidden_seed"
        ]
    )
    assert (
        cm.check_pools(
            pools, seed, {"cup": list(toy_solitaire.CHITS), "SBG-1": ["SO-DD-1", "SO-SG-1"]}
        )
        == []
    )


def test_every_soviet_draw_is_a_hidden_verifiable_roll(played: Table) -> None:
    draws = 0
    for rec in sorted((played.game / "secret/turns").glob("*/record.json")):
        full = json.loads(rec.read_text())
        for r in full.get("rolls", []):
            if r["purpose"] == "Soviet incident chit":
                assert r["hidden_from"] == ["NATO"]
                assert r["derivation"]["algorithm"] == "referee-hidden-dice/1"
                draws += 1
    assert draws == len(MOVES)


def test_nothing_the_player_receives_shows_a_chit_or_a_face_down_unit(played: Table) -> None:
    revealed_at = None
    for folder in sorted((played.game / "turns").iterdir()):
        rep = json.loads((folder / "report.json").read_text())
        if any(e["kind"] == "reveal" for e in rep["events"]):
            revealed_at = revealed_at or folder.name
        for p in sorted(folder.iterdir()):
            text = readable(p)
            for chit in toy_solitaire.CHITS:
                assert chit not in text, f"{folder.name}/{p.name} shows {chit}"
            if revealed_at is None:
                for uid in toy_solitaire.GROUP_UNITS:
                    assert uid not in text, f"{folder.name}/{p.name} shows {uid}"


def test_reveal_then_verify_and_tampering(played: Table) -> None:
    code, out = played.verify(played.player_copy())
    assert code == 0 and any("not revealed" in n for n in out["notes"]), out
    code, out = cli("reveal", played.game, "--module", played.module)
    assert code == 0, out
    code, out = played.verify(played.player_copy("after"))
    assert code == 0, out
    # one committed chit changed after reveal
    copy = played.player_copy("chit")
    p = copy / "revealed/turns/000-setup-request/state.json"
    p.write_text(p.read_text().replace("CHIT-CALM-Q", "CHIT-RAID-Q"))
    code, out = played.verify(copy)
    assert code == 1 and out["check"] == "commitment", out
    assert "pool cup entry 2 ('CHIT-RAID-Q')" in out["message"]
    # one hidden draw changed after reveal
    copy = played.player_copy("draw")
    rec = copy / "revealed/turns/002-NATO-move/record.json"
    full = json.loads(rec.read_text())
    [r] = [r for r in full["rolls"] if r["purpose"] == "Soviet incident chit"]
    r["value"] = r["value"] % r["sides"] + 1
    rec.write_text(json.dumps(full, indent=2, sort_keys=True) + "\n")
    code, out = played.verify(copy)
    assert (
        code == 1 and "hidden roll" in out["message"] and "Soviet incident chit" in out["message"]
    ), out
    # a step left out of what was revealed
    copy = played.player_copy("gap")
    shutil.rmtree(copy / "revealed/turns/002-NATO-move")
    code, out = played.verify(copy)
    assert code == 1 and out["file"] == "revealed/turns/002-NATO-move", out


def test_reveal_is_refused_before_the_end(tmp_path: Path) -> None:
    t = Table(tmp_path, toys_common.module_dir(tmp_path, toy_solitaire.ID), SIDES)
    t.new()
    code, out = cli("reveal", t.game, "--module", t.module)
    assert code == 2 and "is not over" in out
    # and a player's copy (no secret/) cannot be revealed
    t2 = tmp_path / "copy"
    shutil.copytree(t.game, t2, ignore=shutil.ignore_patterns("secret"))
    code, out = cli("reveal", t2, "--module", t.module)
    assert code == 2 and "referee-only part" in out


def test_new_refuses_a_key_for_the_referee_side(tmp_path: Path) -> None:
    t = Table(tmp_path, toys_common.module_dir(tmp_path, toy_solitaire.ID), ("NATO", "Soviet"))
    with pytest.raises(AssertionError, match="Soviet is played by the ruleset"):
        t.new()


class EarlyRevealRuleset(toy_solitaire.SolitaireRuleset):
    """The solitaire toy whose rules allow a reveal from Game-Turn 2 on."""

    id = "toy_solitaire_early"

    def may_reveal(self, module, state) -> bool:  # type: ignore[no-untyped-def]
        return state.turn >= 2

    def new_game(self, *args, **kw):  # type: ignore[no-untyped-def]
        return super().new_game(*args, **kw).evolve(ruleset=self.id)


RULESET = EARLY = EarlyRevealRuleset()
SCHEMA = toys_common.install(EARLY)


def test_a_reveal_where_the_ruleset_allows_it(tmp_path: Path) -> None:
    t = Table(tmp_path, toys_common.module_dir(tmp_path, EARLY.id), SIDES)
    t.new()
    code, out = cli("reveal", t.game, "--module", t.module)
    assert code == 2 and "is not over" in out
    t.send("NATO", *MOVES[0])
    code, out = cli("reveal", t.game, "--module", t.module)
    assert code == 0 and "revealed 2 step(s)" in out, out
    t.send("NATO", *MOVES[1])  # the game goes on; this step stays hidden
    assert not (t.game / "revealed/turns/002-NATO-move").exists()
    code, out = t.verify(t.player_copy())
    assert code == 0, out
    notes = " ".join(out["notes"])
    assert "not revealed for 1 of 3 step(s)" in notes
    assert "revealed/ (2 step(s))" in notes
    # the hidden seeds reveal released open the parts of those steps, and of no later one
    assert out["parts"]["opened"] == {"NATO": 2, "referee": 2}, out["parts"]
    assert out["parts"]["unopened"] == {"NATO": 1, "referee": 1}, out["parts"]
    # the referee's own copy checks the rest from secret/
    code, out = t.verify()
    assert code == 0 and "secret/ (1 step(s))" in " ".join(out["notes"]), out


def test_a_damaged_revealed_part_fails_verify_cleanly(played: Table) -> None:
    if not (played.game / "revealed").is_dir():
        assert cli("reveal", played.game, "--module", played.module)[0] == 0
    copy = played.player_copy("damaged")
    (copy / "revealed/turns/001-NATO-move/record.json").unlink()
    code, out = played.verify(copy)
    assert code == 1 and out["file"] == "turns/001-NATO-move", out
    copy = played.player_copy("garbled")
    (copy / "revealed/turns/001-NATO-move/secrets.json").write_text('{"format": 3}')
    code, out = played.verify(copy)
    assert code == 1 and out["check"] == "hidden dice seed chain", out
    copy = played.player_copy("not-json")
    (copy / "revealed/turns/001-NATO-move/record.json").write_text("{")
    code, out = played.verify(copy)
    assert code == 1 and "record.json" in out["file"], out
