"""Sixth Fleet (2019) strike markers by email (provisional 17.0: not from the rulebook),
through the CLI (new, sign, adjudicate, verify, reveal), on a two-turn copy of the 1980s
scenario so the game ends and may be revealed: the cups are committed at set-up; nothing one
side receives names a marker in the other side's cups or hand that has not been played; each
side's own view lists its markers; ``validate`` on a player's view gives the referee's
verdict; after ``reveal`` ``verify`` replays every draw, and a changed cup or hidden draw
fails, naming what."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from tests.pbem.cliflow import Table, cli, readable, received_by, verify_as_player

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "module_src" / "sixth_fleet_2019"
SIDES = ("NATO", "Soviet")
TURNS = 2


def _short_module(root: Path) -> Path:
    """The module source with the 1980s scenario cut to ``TURNS`` turns [5.3]."""
    dest = root / "sixth_fleet_2019"
    shutil.copytree(SOURCE, dest)
    sc = dest / "scenarios" / "s1980.toml"
    text = sc.read_text(encoding="utf-8")
    assert "turns = 15" in text
    text = text.replace("turns = 15", f"turns = {TURNS}", 1)
    # every reinforcement group still arrives within the shorter game (after_turn must be a
    # Game-Turn before the last [10.0])
    text = re.sub(
        r"^after_turn = (\d+)$",
        lambda m: f"after_turn = {min(int(m.group(1)), TURNS - 1)}",
        text,
        flags=re.M,
    )
    sc.write_text(text, encoding="utf-8")
    return dest


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A table as ``referee new`` leaves it (keys, module, game, the referee's folder), made
    once for the file: each test that plays copies it (:func:`_copy`)."""
    root = tmp_path_factory.mktemp("sf19new")
    out = Table(root, _short_module(root), SIDES).new("s1980")
    assert "waiting for: Soviet" in out, out
    return root


def _copy(started: Path, root: Path) -> Table:
    shutil.copytree(started, root)
    return Table(root, root / "sixth_fleet_2019", SIDES)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, started: Path) -> tuple[Table, list[str]]:
    t = _copy(started, tmp_path_factory.mktemp("sf19strike") / "table")
    module, _ = load_module(t.module)
    assert module is not None
    rs = get_ruleset(module.ruleset)
    texts: list[str] = []
    for _ in range(4 * TURNS + 2):
        state = GameState.from_json(json.loads((t.game / "secret" / "state.json").read_text()))
        if state.active_side is None:
            break
        # each side's scripted orders from its own view, as a player writes them
        text = rs.scripted_orders(module, rs.view(module, state, state.active_side))  # type: ignore[attr-defined]
        assert text is not None
        texts.append(text)
        t.send(state.active_side, *text.splitlines())
    return t, texts


def _secret_state(t: Table, folder: str) -> GameState:
    p = t.game / "secret" / "turns" / folder / "state.json"
    return GameState.from_json(json.loads(p.read_text()))


def _markers_of(state: GameState, side: str) -> set[str]:
    """The markers in ``side``'s cups and hand (the referee's full position)."""
    data = state.data["strike"]
    mine = {m for ids in data["cups"].values() for m in ids if m.startswith(_prefix(side))}
    return mine | set(data["held"][side])


def _prefix(side: str) -> str:
    return "NATO-" if side == "NATO" else "SO-"


def test_the_game_ends_with_markers_drawn_and_played(played: tuple[Table, list[str]]) -> None:
    t, texts = played
    kinds = [
        e["kind"]
        for f in sorted((t.game / "turns").iterdir())
        for e in json.loads((f / "report.json").read_text())["events"]
    ]
    assert kinds[-1] == "game_over"
    assert kinds.count("strike_draw") >= 4 and kinds.count("strike_marker") >= 2
    assert "strike_drawn" not in kinds, "the drawn marker's name is hidden in the public record"
    assert any("play NATO-" in x for x in texts) and any("play SO-" in x for x in texts)


def test_the_cups_are_committed_at_set_up(played: tuple[Table, list[str]]) -> None:
    t, _ = played
    rep = json.loads((t.game / "turns/000-setup-request/report.json").read_text())
    pools = rep["commitments"]["pools"]
    assert set(pools) == {
        "cup:NATO Strike Cup",
        "cup:NATO EW Cup",
        "cup:Soviet Strike Cup",
        "cup:Soviet EW Cup",
    }
    assert pools["cup:NATO Strike Cup"]["count"] == 3 and pools["cup:Soviet EW Cup"]["count"] == 2


def test_nothing_a_side_receives_names_the_other_sides_unplayed_markers(
    played: tuple[Table, list[str]],
) -> None:
    """Per step: the markers in the other side's cups or hand before and after the step, less
    those ever played (a played marker shows [2.12]), never appear in a file the side
    receives: the public report, its view, its VASSAL save, its viewer."""
    t, _ = played
    folders = sorted(p.name for p in (t.game / "turns").iterdir())
    shown: set[str] = set()
    checked = 0
    opened = t.opened() / "turns"  # each side's part, for its own view below
    for k, name in enumerate(folders):
        folder = t.game / "turns" / name
        for e in json.loads((folder / "report.json").read_text())["events"]:
            if e["kind"] == "strike_marker":
                shown.add(e["data"]["marker"])
        before = _secret_state(t, folders[max(k - 1, 0)])
        after = _secret_state(t, name)
        for side in SIDES:
            enemy = "NATO" if side == "Soviet" else "Soviet"
            hidden = (_markers_of(before, enemy) & _markers_of(after, enemy)) - shown
            assert hidden, (name, side)
            files = received_by(folder, side, SIDES)  # its part decrypted with Debian's age
            assert f"view-{side}.json" in {p.name for p in files}
            assert not {f"view-{enemy}.json", f"viewer-{enemy}.html"} & {p.name for p in files}
            for p in files:
                text = readable(p)
                for m in sorted(hidden):
                    assert not re.search(rf"{re.escape(m)}(?![0-9])", text), (
                        f"{name}/{p.name} names {m}, hidden from {side}"
                    )
                    checked += 1
            # the side's own view lists what it holds
            view = json.loads((opened / name / f"view-{side}.json").read_text())
            own = view["state"]["data"]["strike"]
            assert own["held"][side] == after.data["strike"]["held"][side]
            assert own["held"][enemy] == len(after.data["strike"]["held"][enemy])
    assert checked > 100


def test_each_orders_file_validates_alike_on_the_players_view(
    played: tuple[Table, list[str]], tmp_path: Path
) -> None:
    t, texts = played
    module, _ = load_module(t.module)
    assert module is not None
    rs = get_ruleset(module.ruleset)
    folders = sorted((t.game / "turns").iterdir())
    for k, text in enumerate(texts):
        if "play " not in text:
            continue
        full = _secret_state(t, folders[k].name)
        assert rs.validate(module, full, rs.parse_orders(text, "o.txt")) == []
        p = tmp_path / f"orders-{k}.txt"
        p.write_text(text)
        view = t.opened() / "turns" / folders[k].name / f"view-{full.active_side}.json"
        code, out = cli("validate", "--state", view, p, "--module", t.module, "--json")
        assert code == 0, out
        res = json.loads(out)
        assert res["ok"] and res["violations"] == [], res


def test_each_player_verifies_the_published_archive_with_his_key(
    played: tuple[Table, list[str]],
) -> None:
    """Issue 24: the whole archive is published to both; each player's verify with his own
    key opens his part of every step, lists the other's as not opened, and with the other
    side's parts deleted still exits 0, naming what is missing."""
    t, _ = played
    for side in SIDES:
        verify_as_player(t, side)


def test_reveal_then_verify_proves_the_draws(played: tuple[Table, list[str]]) -> None:
    t, _ = played
    code, res = t.verify(t.player_copy("before"))
    assert code == 0, res
    code, out = cli("reveal", t.game, "--module", t.module)
    assert code == 0, out
    code, res = t.verify(t.player_copy("after"))
    assert code == 0, res
    copy = t.player_copy("cup")  # two markers of one cup swapped: the commitment fails
    p = copy / "revealed/turns/000-setup-request/state.json"
    state = json.loads(p.read_text())
    cup = state["data"]["strike"]["cups"]["NATO Strike Cup"]
    cup[0], cup[-1] = cup[-1], cup[0]
    p.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n")
    code, res = t.verify(copy)
    assert code == 1 and res["check"] == "commitment", res
    assert "cup:NATO Strike Cup entry 0" in res["message"], res
    copy = t.player_copy("draw")  # a hidden draw changed: verify names the hidden roll
    for rec in sorted(copy.glob("revealed/turns/*/record.json")):
        full = json.loads(rec.read_text())
        hidden = [r for r in full.get("rolls", []) if r.get("hidden_from")]
        if hidden:
            hidden[0]["value"] = hidden[0]["value"] % hidden[0]["sides"] + 1
            rec.write_text(json.dumps(full, indent=2, sort_keys=True) + "\n")
            break
    else:
        pytest.fail("no hidden draw was made")
    code, res = t.verify(copy)
    assert code == 1 and "hidden roll" in res["message"], res


def test_playing_a_marker_one_does_not_hold_is_refused_and_nothing_written(
    started: Path, tmp_path: Path
) -> None:
    """[2.12]: a side plays only markers it has drawn; the refusal names the file:line:col and
    the case, and no turn folder is written."""
    t = _copy(started, tmp_path / "table")
    t.send("Soviet", "[events]", "roll")
    state = GameState.from_json(json.loads((t.game / "secret" / "state.json").read_text()))
    held = state.data["strike"]["held"]["Soviet"]
    other = next(m for m in ("SO-CM.1", "SO-CM.2", "SO-SOF", "SO-EW.1", "SO-EW.2") if m not in held)
    before = sorted(p.name for p in (t.game / "turns").iterdir())
    out = t.send("Soviet", "[actions]", f"play {other}", expect=1)
    assert re.search(
        rf"orders-\d+-Soviet\.txt:\d+:\d+: \[2\.12\] Soviet does not hold {re.escape(other)}", out
    ), out
    out = t.send("Soviet", "[actions]", "play NATO-EW.1", expect=1)
    assert "[2.12] Soviet does not hold NATO-EW.1" in out, out
    assert sorted(p.name for p in (t.game / "turns").iterdir()) == before
