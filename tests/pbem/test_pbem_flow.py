"""Adjudication end to end with the toy ruleset: refusals, decisions, views, determinism."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.pbem.envelope import BEGIN
from referee.pbem.problems import Refusal
from referee.pbem.signing import sign_orders
from referee.pbem.transaction import game_lock
from referee.pbem.verify import verify_archive
from tests.pbem.conftest import setup_both


def files_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def refusal(g, *paths: Path) -> Refusal:
    with pytest.raises(Refusal) as info:
        g.run(*paths)
    return info.value


def test_setup_request_says_who_sends_what(make_game):
    g = make_game()
    rep = json.loads((g.dir / "turns/000-setup-request/report.json").read_text())
    assert rep["awaiting"] == {"side": "NATO", "what": "NATO setup [T1]"}
    assert rep["dice"]["commitment"]["length"] == 64
    assert rep["previous_report"] is None
    md = (g.dir / "turns/000-setup-request/report.md").read_text()
    assert "previous-report: " in md and "side: NATO" in md
    assert not list(g.dir.rglob("*.key"))
    assert verify_archive(g.dir, g.module).reports == 1


def test_a_game_plays_and_verifies(make_game):
    g = make_game()
    setup_both(g)
    [r] = g.run(g.signed("NATO", ["move US-DD-1 0302"]))
    assert r.status == "adjudicated" and r.folder == "turns/003-NATO-move"
    state = json.loads((g.dir / "state.json").read_text())
    assert state["phase"] == "move" and state["active_side"] == "Soviet"
    v = verify_archive(g.dir, g.module)
    assert v.reports == 4 and not v.notes


def test_unsigned_orders_are_refused(make_game):
    g = make_game()
    p = g.dir.parent / "plain.txt"
    p.write_text("game: g1\nturn: 1\nside: NATO\nplace US-DD-1 0202\n")
    assert refusal(g, p).code == "unsigned"


def test_a_wrong_key_is_refused(make_game, keys):
    g = make_game()
    p = g.signed("NATO", ["place US-DD-1 0202"])
    body = p.read_text().split(BEGIN)[0]
    # signed by a stranger's key
    p.write_text(sign_orders(body, "x", keys["stranger"]).text)
    assert refusal(g, p).code == "bad-signature"
    # signed by the Soviet player but claiming to be NATO
    p.write_text(sign_orders(body, "x", keys["soviet"]).text)
    assert refusal(g, p).code == "wrong-signer"


def test_orders_changed_after_signing_are_refused(make_game):
    g = make_game()
    p = g.signed("NATO", ["place US-DD-1 0202"])
    p.write_text(p.read_text().replace("0202", "0203"))
    err = refusal(g, p)
    assert err.code == "bad-signature" and "does not match" in err.message


def test_replayed_orders_are_refused_but_a_rerun_is_idempotent(make_game):
    g = make_game()
    n1 = g.signed("NATO", ["place US-DD-1 0202", "place US-F4.2 0203"])
    g.run(n1)
    before = files_of(g.dir)
    [again] = g.run(n1)  # the same adjudication again: recognised, nothing changes
    assert again.status == "already-applied" and again.sequence == 1
    assert files_of(g.dir) == before
    g.run(g.signed("Soviet", ["place SO-DD-1 0403"]))
    err = refusal(g, n1)  # now the game has moved on: a replay
    assert err.code == "replayed" and "001-NATO-setup" in err.message


def test_out_of_turn_orders_are_refused(make_game):
    g = make_game()
    err = refusal(g, g.signed("Soviet", ["place SO-DD-1 0403"]))
    assert err.code == "out-of-turn" and "NATO setup" in err.message
    err = refusal(g, g.signed("NATO", ["place US-DD-1 0202"], phase="move"))
    assert err.code == "out-of-turn"


def test_a_forked_chain_is_refused(make_game):
    g = make_game()
    stale = g.signed("NATO", ["place US-DD-1 0202"], name="stale.txt")
    g.run(g.signed("NATO", ["place US-DD-1 0203"]))
    # Soviet orders answering report 000 instead of 001
    text = stale.read_text().split(BEGIN)[0].replace("side: NATO", "side: Soviet")
    p = g.dir.parent / "fork.txt"
    p.write_text(
        sign_orders(text.replace("US-DD-1 0202", "SO-DD-1 0403"), "f", g.keys["soviet"]).text
    )
    err = refusal(g, p)
    assert err.code == "forked" and "000-setup-request" in err.message
    p.write_text(
        sign_orders(
            text.replace(text.split("previous-report: ")[1][:64], "ab" * 32), "f", g.keys["soviet"]
        ).text
    )
    assert refusal(g, p).code == "forked"


def test_all_or_nothing_validation_lists_every_violation(make_game):
    g = make_game()
    p = g.signed("NATO", ["place US-DD-1 9999", "place SO-DD-1 0202", "place US-F4.2 0203"])
    before = files_of(g.dir)
    err = refusal(g, p)
    assert err.code == "violation" and len(err.details) == 2
    # placed at the line of the bad order (after the envelope headers `referee sign` wrote)
    line = p.read_text().splitlines().index("place US-DD-1 9999") + 1
    assert line == 6  # game, side, turn, previous-report, nonce-commit, then the orders
    assert "[T1]" in err.details[0] and f":{line}:" in err.details[0]
    assert files_of(g.dir) == before


def test_syntax_errors_are_refused_with_positions(make_game):
    g = make_game()
    err = refusal(g, g.signed("NATO", ["fly US-DD-1 0202"]))
    assert err.code == "syntax" and "unknown order" in err.details[0]


def test_a_pending_decision_is_answered_by_the_other_player(make_game):
    g = make_game()
    setup_both(g)
    p = g.orders_rolling("NATO", ["attack US-DD-1 SO-SG-1", "move US-CV-1 0303"], {3, 4})
    [r] = g.run(p)
    assert [x["id"] for x in r.report["pending"]] == ["retreat-SO-SG-1"]
    assert r.report["awaiting"]["side"] == "Soviet"
    md = (g.dir / r.folder / "report.md").read_text()
    assert "answer retreat-SO-SG-1 OPTION" in md and "[T5]" in md
    option = r.report["pending"][0]["options"][0]
    bad = g.signed("Soviet", ["answer retreat-SO-SG-1 9999"])
    assert refusal(g, bad).code == "violation"
    [a] = g.run(g.signed("Soviet", [f"answer retreat-SO-SG-1 {option}"]))
    assert a.folder.endswith("-Soviet-answer")
    kinds = [e["kind"] for e in a.report["events"]]
    assert kinds[:2] == ["retreat", "move"]  # the retreat, then NATO's remaining move
    assert a.report["awaiting"]["side"] == "Soviet" and not a.report["pending"]
    assert verify_archive(g.dir, g.module).reports == 5


def test_views_hide_what_a_side_may_not_see(make_game):
    g = make_game()
    setup_both(g)
    g.run(g.signed("NATO", ["move US-DD-1 0302"]))
    [r] = g.run(g.signed("Soviet", ["dive SO-SG-1"]))
    folder = g.dir / r.folder
    nato = json.loads((folder / "view-NATO.json").read_text())
    soviet = json.loads((folder / "view-Soviet.json").read_text())
    assert "SO-SG-1" not in {u["id"] for u in nato["state"]["units"]}
    assert "SO-SG-1" in {u["id"] for u in soviet["state"]["units"]}
    assert "dive" not in [e["kind"] for e in nato["report"]["events"]]
    assert "dive" in [e["kind"] for e in soviet["report"]["events"]]
    assert "SO-SG-1" not in (folder / "view-NATO.md").read_text()
    assert "SO-SG-1" in (folder / "view-Soviet.md").read_text()


def test_same_inputs_give_byte_identical_archives(make_game):
    """Same keys, same seeds, same orders: every byte of the archive is the same."""
    g1 = make_game("same")
    setup_both(g1)
    g1.run(g1.signed("NATO", ["attack US-DD-1 SO-SG-1"]))
    snap = files_of(g1.dir)
    shutil.rmtree(g1.dir)
    shutil.rmtree(g1.referee_dir)
    g2 = make_game("same")
    setup_both(g2)
    g2.run(g2.signed("NATO", ["attack US-DD-1 SO-SG-1"]))
    assert files_of(g2.dir) == snap


def test_dry_run_writes_nothing(make_game):
    g = make_game()
    before = files_of(g.dir)
    [r] = g.run(g.signed("NATO", ["place US-DD-1 0202"]), dry_run=True)
    assert r.status == "dry-run" and files_of(g.dir) == before


def test_a_dry_run_shows_the_verdict_but_no_roll_or_outcome(make_game):
    """A dry run in a public CI log must not let a player see his rolls before the real
    adjudication publishes them (docs/ci.md)."""
    g = make_game()
    setup_both(g)
    orders = g.orders_rolling("NATO", ["attack US-DD-1 SO-SG-1"], first_roll={1, 2, 3, 4, 5, 6})
    [r] = g.run(orders, dry_run=True)
    assert r.report.get("rolls"), "the dry run did resolve with the real dice"
    shown = json.dumps(r.to_json())
    assert set(r.to_json()) == {"ok", "orders_file", "status", "sequence", "notes"}
    assert "roll" not in shown and "retreat" not in shown


def test_a_second_adjudication_is_locked_out(make_game):
    g = make_game()
    p = g.signed("NATO", ["place US-DD-1 0202"])
    with game_lock(g.archive):
        assert refusal(g, p).code == "locked"
    g.run(p)


def test_several_files_in_one_run(make_game):
    g = make_game()
    n = g.signed("NATO", ["place US-DD-1 0202"])
    g.run(n)
    s = g.signed("Soviet", ["place SO-DD-1 0403"])
    results = g.run(n, s)  # n already applied just before s: both fine
    assert [r.status for r in results] == ["already-applied", "adjudicated"]


def test_the_html_report_shows_the_position(make_game):
    g = make_game(dpi=30)
    setup_both(g)
    [r] = g.run(g.signed("NATO", ["attack US-DD-1 SO-SG-1", "move US-CV-1 0303"]))
    folder = g.dir / r.folder
    svg = (folder / "position.svg").read_text()
    assert svg.startswith("<svg ") and "<script" not in svg and 'href="#h"' in svg
    html = (folder / "report.html").read_text()
    assert 'src="position.svg"' in html and "<script" not in html
    manifest = json.loads((folder / "manifest.json").read_text())
    assert "position.svg" in manifest["files"] and "position.png" not in manifest["files"]
    # no per-step viewer (issue 24: one made on demand), no renderer field to switch checks
    assert not list(folder.glob("viewer-*")) and "renderer" not in manifest
    assert not verify_archive(g.dir, g.module).unchecked


def test_marks_draw_moves_attacks_retreats_and_eliminations(toy_module):
    from referee.engine.core import Event
    from referee.picture.png import marks
    from tests.pbem.toy import RULESET

    s = RULESET.new_game(toy_module, "skirmish", "m")
    events = [
        Event("move", "T2", "", {"unit": "US-CV-1", "from": "0203", "to": "0303"}),
        Event("attack", "T3", "", {"unit": "US-CV-1", "target": "US-F4.1"}),
        Event("retreat", "T5", "", {"unit": "US-F4.1", "from": "0101", "to": "0102"}),
        Event("eliminate", "T3", "", {"unit": "US-F4.1"}),
        Event("move", "5.0", "", {"unit": "US-CV-1", "from": "0203", "path": ["0303", "0304"]}),
    ]
    got = marks(toy_module, s, s, events)
    assert got == [
        ("move", ["0203", "0303"]),
        ("attack", ["0203", "0101"]),
        ("retreat", ["0101", "0102"]),
        ("eliminate", ["0101"]),
        ("move", ["0203", "0303", "0304"]),
    ]


def _units_on_table(data: bytes, module) -> set[tuple[str, str | None]]:
    from referee.vassal.codec.savefile import read_save_bytes
    from referee.vassal.codec.tabletop import replay
    from referee.vassal.position.placement import table_for
    from referee.vassal.position.save import STATUS_LAYERS
    from referee.vassal.position.survey import engine_position, survey

    table = table_for(module)
    got = engine_position(survey(table, replay(read_save_bytes(data).commands).end), STATUS_LAYERS)
    return {(uid, u["location"]) for uid, u in got["units"].items() if u["location"]}


def test_each_turn_folder_has_the_position_as_a_vassal_save(make_game):
    """Players who play in VASSAL open the adjudicated position (docs/vassal.md)."""
    g = make_game()
    setup_both(g)
    [r] = g.run(g.signed("NATO", ["move US-DD-1 0302"]))
    folder = g.dir / r.folder
    state = GameState.from_json(json.loads((folder / "state.json").read_text()))
    on_map = {(u.id, u.location) for u in state.units.values() if u.location}
    assert _units_on_table((folder / "position.vsav").read_bytes(), g.module) == on_map
    assert ("US-DD-1", "0302") in on_map
    manifest = json.loads((folder / "manifest.json").read_text())
    assert "position.vsav" in manifest["files"]  # signed like every other file


def test_a_side_that_may_not_see_a_unit_gets_its_own_vassal_save(make_game):
    g = make_game()
    setup_both(g)
    g.run(g.signed("NATO", ["move US-DD-1 0302"]))
    [r] = g.run(g.signed("Soviet", ["dive SO-SG-1"]))
    folder = g.dir / r.folder
    assert not (folder / "position.vsav").exists()
    nato = {u for u, _ in _units_on_table((folder / "position-NATO.vsav").read_bytes(), g.module)}
    soviet = {
        u for u, _ in _units_on_table((folder / "position-Soviet.vsav").read_bytes(), g.module)
    }
    assert "SO-SG-1" in soviet and "SO-SG-1" not in nato


@pytest.mark.parametrize(
    ("where", "content"),
    [
        ("referee.key", b"anything"),
        ("notes.txt", b"-----BEGIN PRIVATE KEY-----\nMC4CAQ...\n"),
        ("turns/000-setup-request/nato.key", b"x"),
        ("seeds.json", b"{}"),
    ],
)
def test_an_archive_holding_a_private_key_is_refused(make_game, where, content):
    """A referee key or the dice seeds inside the public archive would be exposed."""
    g = make_game()
    (g.dir / where).write_bytes(content)
    with pytest.raises(Refusal) as exc:
        setup_both(g)
    assert exc.value.code == "archive"
    assert where in str(exc.value)


def test_the_module_hash_ignores_examples_and_prose(tmp_path):
    from referee.pbem.archive import module_sha256

    src = Path(__file__).resolve().parents[1] / "fixtures" / "modules" / "mini"
    copy = tmp_path / "mini"
    shutil.copytree(src, copy)
    before = module_sha256(copy)
    (copy / "examples").mkdir()
    (copy / "examples" / "01-setup.txt").write_text("game: g1\n", encoding="utf-8")
    (copy / "README.md").write_text("# notes\n", encoding="utf-8")
    assert module_sha256(copy) == before
    (copy / "units.csv").write_text(
        (copy / "units.csv").read_text().replace("Saratoga,7,", "Saratoga,8,"), encoding="utf-8"
    )
    assert module_sha256(copy) != before  # rules data changed: a replay must notice


def test_signing_another_sides_orders_says_whose_key_it_is(make_game):
    from referee.errors import UserError

    g = make_game()
    with pytest.raises(UserError) as exc:
        sign_orders("side: NATO\n[setup]\n", "orders.txt", g.keys["soviet"], g.dir)
    assert "these orders are for NATO" in str(exc.value)
    assert "Soviet's key" in str(exc.value)


def test_a_dry_run_shows_the_rulesets_warnings(make_game, monkeypatch):
    """What the orders make certain before any die is shown by a dry run (issue 12 §1): it
    reveals no roll, so the secrecy of the dry run holds."""
    from referee.engine.core import SourcePos, Violation
    from tests.pbem import toy

    def warnings(module, state, doc):
        return [Violation("9.22", "X eliminated (did not return to a base)", SourcePos("o", 3, 6))]

    monkeypatch.setattr(toy.ToyRuleset, "warnings", staticmethod(warnings), raising=False)
    g = make_game()
    [r] = g.run(g.signed("NATO", ["place US-DD-1 0202"]), dry_run=True)
    assert [w["rule"] for w in r.to_json()["warnings"]] == ["9.22"]
    [real] = g.run(g.signed("NATO", ["place US-DD-1 0202"], name="again.txt"))
    assert "warnings" not in real.to_json()
