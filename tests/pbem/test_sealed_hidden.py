"""Issue 10 §4-5 end to end: simultaneous sealed plots and hidden units (toy_sealed), through
keygen, new, sign, adjudicate, verify, reveal and verify again, on the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.engine.ruleset import phase_title_of, public_view
from referee.pbem.envelope import open_envelope
from referee.picture.svg import position_svg
from referee.source.loader import load_module
from tests.pbem import toy_sealed, toys_common
from tests.pbem.cliflow import Table, cli, readable, received_by, verify_as_player

SIDES = ("NATO", "Soviet")
# Every Game-Turn: (NATO plot, Soviet plot). The hidden units (US-DD-1, SO-SG-1) come within
# two hexes of an enemy, so hidden search rolls are made; the Soviet sends first in turn 2.
PLOTS = [
    (["move US-DD-1 0303", "hold US-CV-1"], ["move SO-SG-1 0405", "move SO-DD-1 0404"]),
    (["hold US-DD-1"], ["move SO-SG-1 0306", "hold SO-DD-1"]),
    (["move US-CV-1 0204"], ["hold SO-SG-1"]),
]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("sealed")
    t = Table(root, toys_common.module_dir(root, toy_sealed.ID), SIDES)
    out = t.new()
    assert "waiting for: NATO sealed plot" in out
    for turn, (nato, soviet) in enumerate(PLOTS, start=1):
        if turn == 2:
            t.send("Soviet", *soviet)
            t.send("NATO", *nato)
        else:
            t.send("NATO", *nato)
            t.send("Soviet", *soviet)
    return t


def _hidden_from(t: Table, folder: str, side: str = "NATO") -> set[str]:
    """Units hidden from ``side`` both before and after one step (the referee's copy)."""
    secret = t.game / "secret" / "turns"
    names = sorted(p.name for p in secret.iterdir())
    i = names.index(folder)
    sets = []
    for name in names[max(i - 1, 0) : i + 1]:
        state = GameState.from_json(json.loads((secret / name / "state.json").read_text()))
        shown = toy_sealed.RULESET.view(None, state, side)  # type: ignore[arg-type]
        sets.append({u for u in state.units if u not in shown.units})
    return set.intersection(*sets)  # a unit detected in this step may show in it


def test_a_sealed_submission_publishes_a_commitment_only(played: Table) -> None:
    turns = sorted(p.name for p in (played.game / "turns").iterdir())
    assert turns[1:3] == ["001-NATO-sealed", "002-Soviet-sealed"]
    first = json.loads((played.game / "turns/001-NATO-sealed/report.json").read_text())
    assert first["orders"]["sealed"] == "submitted"
    assert "sha256" not in first["orders"] and len(first["orders"]["commitment"]) == 64
    assert first["rolls"] == [] and first["events"] == []
    assert [d["side"] for d in first["awaiting"]["due"]] == ["Soviet"]
    # the Soviet plot of turn 2 arrived first: NATO's files for that step show nothing of it
    folder = played.game / "turns/003-Soviet-sealed"
    for p in received_by(folder, "NATO", SIDES):
        text = readable(p)
        # the hex id as a word: inside a hash, a nonce or a signature (hex, base64) four
        # random digits may read "0306" by chance (about 1 in 1,000 per hash)
        assert "SO-SG-1 0306" not in text, p.name
        assert not re.search(r"(?<![0-9A-Za-z+/])0306(?![0-9A-Za-z+/])", text), p.name
    opened = played.opened() / "turns"
    view = json.loads((opened / "003-Soviet-sealed/view-NATO.json").read_text())
    assert (
        view["state"]["units"]
        == json.loads((opened / "002-Soviet-sealed/view-NATO.json").read_text())["state"]["units"]
    )


def test_no_published_file_holds_a_hidden_fact(played: Table) -> None:
    sealed_texts = sorted((played.game / "secret" / "turns").glob("*/orders.txt"))
    assert len(sealed_texts) == 2 * len(PLOTS)
    plots = {
        "NATO": {line for nato, _ in PLOTS for line in nato},
        "Soviet": {line for _, soviet in PLOTS for line in soviet},
    }
    bodies = [open_envelope(p.read_text(), "o") for p in sealed_texts]
    searched = {"NATO": 0, "Soviet": 0}
    for folder in sorted((played.game / "turns").iterdir()):
        public = [p for p in folder.iterdir() if not p.name.startswith(("view-", "position-"))]
        for side in SIDES:
            hidden = _hidden_from(played, folder.name, side)
            searched[side] += len(hidden)
            enemy = "Soviet" if side == "NATO" else "NATO"
            files = received_by(folder, side, SIDES)  # its part decrypted with Debian's age
            assert f"view-{side}.json" in {p.name for p in files}
            assert f"view-{enemy}.json" not in {p.name for p in files}
            for p in files:
                text = readable(p)
                for uid in hidden:
                    assert uid not in text, f"{folder.name}/{p.name} shows {uid} to {side}"
                for line in plots[enemy]:
                    assert line not in text, f"{folder.name}/{p.name} shows the plot {line!r}"
        for p in public:  # nothing a player receives holds a sealed file or its plain hash
            text = readable(p)
            for env in bodies:
                assert env.sha256 not in text and env.body not in text
    # SO-SG-1 and US-DD-1 are hidden at least in the set-up and the first turn
    assert searched["NATO"] >= 2 and searched["Soviet"] >= 2
    assert "secret/" in (played.game / ".gitignore").read_text().splitlines()
    assert not (played.game / "state.json").exists()
    assert not list((played.game / "turns").glob("*/state.json"))
    assert not list((played.game / "turns").glob("*/orders*.txt"))


def test_the_picture_is_drawn_from_the_public_view(played: Table) -> None:
    module, _ = load_module(played.module)
    assert module is not None
    folder = "000-setup-request"
    state = GameState.from_json(
        json.loads((played.game / "secret/turns" / folder / "state.json").read_text())
    )
    published = (played.game / "turns" / folder / "position.svg").read_bytes()
    seen = public_view(toy_sealed.RULESET, module, state)
    assert "SO-SG-1" not in seen.units and "US-DD-1" not in seen.units
    title = phase_title_of(toy_sealed.RULESET, module, seen)
    assert published == position_svg(module, None, seen, (), 20, title)
    assert published != position_svg(module, None, state, (), 20, title)  # hidden units


def test_hidden_rolls_stay_in_the_referee_only_part(played: Table) -> None:
    hidden = 0
    for rec in sorted((played.game / "secret/turns").glob("*/record.json")):
        full = json.loads(rec.read_text())
        pub = json.loads((played.game / "turns" / rec.parent.name / "report.json").read_text())
        secret = [r for r in full.get("rolls", []) if r.get("hidden_from")]
        hidden += len(secret)
        assert [r for r in full.get("rolls", []) if not r.get("hidden_from")] == pub["rolls"]
        for r in secret:
            assert (
                r["derivation"]["hmac"]
                not in (played.game / "turns" / rec.parent.name / "report.json").read_text()
            )
    assert hidden > 0


def test_each_player_verifies_the_published_archive_with_his_key(played: Table) -> None:
    """Issue 24: sealed plots and hidden units published whole; each player's verify with
    his key opens his part, lists the others, and survives their deletion."""
    for side in SIDES:
        verify_as_player(played, side)


def test_verify_before_and_after_reveal(played: Table) -> None:
    mine = played.player_copy()
    code, out = played.verify(mine)
    assert code == 0, out
    assert any("not revealed" in n for n in out["notes"])
    assert out["replayed"] is False
    assert out["rolls"] >= len(PLOTS)  # the public weather rolls were checked
    code, text = cli("verify", mine, "--module", played.module)
    assert code == 0 and "replay waits for `referee reveal`" in text
    code, out = cli("reveal", played.game, "--module", played.module)
    assert code == 0, out
    assert (played.game / "revealed/turns/001-NATO-sealed/orders.txt").is_file()
    mine = played.player_copy("after-reveal")
    code, out = played.verify(mine)
    assert code == 0, out
    assert any("hidden part checked from revealed/" in n for n in out["notes"])
    assert "replayed" not in out


def test_a_changed_hidden_roll_fails_verify(played: Table, tmp_path: Path) -> None:
    if not (played.game / "revealed").is_dir():
        assert cli("reveal", played.game, "--module", played.module)[0] == 0
    copy = played.player_copy("tampered-roll")
    for rec in sorted((copy / "revealed/turns").glob("*/record.json")):
        full = json.loads(rec.read_text())
        rolls = [r for r in full.get("rolls", []) if r.get("hidden_from")]
        if rolls:
            rolls[0]["value"] = rolls[0]["value"] % 6 + 1
            rec.write_text(json.dumps(full, indent=2, sort_keys=True) + "\n")
            break
    code, out = played.verify(copy)
    assert code == 1
    assert out["check"] == "dice" and "hidden roll" in out["message"], out
    assert out["file"].startswith("revealed/turns/")


def test_a_changed_sealed_plot_fails_verify(played: Table) -> None:
    if not (played.game / "revealed").is_dir():
        assert cli("reveal", played.game, "--module", played.module)[0] == 0
    copy = played.player_copy("tampered-plot")
    p = copy / "revealed/turns/001-NATO-sealed/orders.txt"
    p.write_text(p.read_text().replace("move US-DD-1 0303", "move US-DD-1 0302"))
    code, out = played.verify(copy)
    assert code == 1 and out["file"] == "revealed/turns/001-NATO-sealed/orders.txt", out


def test_a_side_that_is_not_due_is_refused_naming_who_is(tmp_path: Path) -> None:
    t = Table(tmp_path, toys_common.module_dir(tmp_path, toy_sealed.ID), SIDES)
    t.new()
    t.send("NATO", "hold US-DD-1")
    out = t.send("NATO", "hold US-CV-1", expect=1)
    assert "refused (out-of-turn)" in out
    assert "NATO already sent sealed orders" in out and "Soviet (sealed)" in out


def test_the_search_would_find_a_unit_in_a_save(played: Table) -> None:
    """The searches above are meaningful: a side's own save and view do name its hidden unit."""
    folder = played.opened() / "turns/000-setup-request"
    assert "SO-SG-1" in readable(folder / "position-Soviet.vsav")
    assert "SO-SG-1" in readable(folder / "view-Soviet.md")
    assert "US-DD-1" in readable(folder / "position-NATO.vsav")


# -- validating on a side's own view (a hidden game publishes no state.json) ---------------


def test_a_side_validates_on_its_own_view_with_the_referees_verdict(tmp_path: Path) -> None:
    """`referee validate --state GAME_DIR` takes the latest published view of the orders'
    side; the verdict and every violation are those of the referee's full position, and
    nothing it prints names a unit hidden from that side (unless the side wrote it)."""
    t = Table(tmp_path, toys_common.module_dir(tmp_path, toy_sealed.ID), SIDES)
    t.new()
    t.send("NATO", *PLOTS[0][0])
    t.send("Soviet", *PLOTS[0][1])
    full_path = t.game / "secret" / "state.json"
    full = GameState.from_json(json.loads(full_path.read_text()))
    hidden = {
        s: {u for u in full.units if u not in toy_sealed.RULESET.view(None, full, s).units}  # type: ignore[arg-type]
        for s in SIDES
    }
    assert hidden["NATO"] or hidden["Soviet"], "nothing is hidden at this point"
    cases = {
        "NATO": [["move US-DD-1 0304", "hold US-CV-1"], ["move US-CV-1 0207"], ["hold SO-SG-1"]],
        "Soviet": [list(PLOTS[1][1]), ["move SO-SG-1 0609"], ["hold US-DD-1"]],
    }
    verdicts = set()
    for side, plots in cases.items():
        for i, lines in enumerate(plots):
            p = tmp_path / f"{side}-{i}.txt"
            p.write_text(f"game: g\nturn: 2\nside: {side}\n" + "\n".join(lines) + "\n")
            mine = ("--key", t.key(side.lower()))  # the view is in the side's encrypted part
            code, out = cli("validate", "--state", t.game, p, "--module", t.module, "--json", *mine)
            fcode, fout = cli("validate", "--state", full_path, p, "--module", t.module, "--json")
            seen, ref = json.loads(out), json.loads(fout)
            assert (code, seen["violations"]) == (fcode, ref["violations"]), (side, lines)
            assert seen["view"]["side"] == side and "view" not in ref
            assert seen["view"]["file"].endswith(
                f"turns/002-Soviet-sealed/side-{side}.age:view-{side}.json"
            )
            assert "not consulted" in seen["notes"][0]
            verdicts.add(code)
            _, text = cli("validate", "--state", t.game, p, "--module", t.module, *mine)
            assert f"note: validated on {side}'s view" in text
            named = {w for ln in lines for w in ln.split()}
            for uid in hidden[side] - named:
                assert uid not in out and uid not in text, f"validate shows {uid} to {side}"
    assert verdicts == {0, 1}
    for side in SIDES:
        code, out = cli(
            "state", "show", t.game, "--side", side, "--module", t.module, "--json",
            "--key", t.key(side.lower()),
        )  # fmt: skip
        assert code == 0, out
        for uid in hidden[side]:
            assert uid not in out, f"state show shows {uid} to {side}"
    # without a side there is no position to give, and the message says where to find one
    bare = tmp_path / "bare.txt"
    bare.write_text("hold US-CV-1\n")
    code, out = cli("validate", "--state", t.game, bare, "--module", t.module)
    assert code == 2 and "publishes no full position" in out and "--side" in out
    # a side's view is in its encrypted part: without the key, the message says how to open it
    code, out = cli("validate", "--state", t.game, tmp_path / "NATO-0.txt", "--module", t.module)
    assert code == 2 and "side-NATO.age" in out and "--key" in out and "age -d -i" in out
    # a view is one side's: another side's orders are refused on it
    view = t.opened() / "turns/002-Soviet-sealed/view-Soviet.json"
    code, out = cli("validate", "--state", view, tmp_path / "NATO-0.txt", "--module", t.module)
    assert code == 2 and "is Soviet's view; these orders are NATO's" in out


def test_validate_reads_views_in_the_format_the_referee_writes() -> None:
    from referee.commands import state
    from referee.pbem import record

    assert state.VIEW_FORMAT == record.VIEW_FORMAT
