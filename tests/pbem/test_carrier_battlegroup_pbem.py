"""Issue 14 end to end: a Carrier Battlegroup game by email against the referee-run Soviet
side, through the CLI (new, sign, adjudicate, verify, reveal): nothing a player receives
before ``reveal`` names a face-down unit or an undrawn chit; after ``reveal`` ``verify``
passes, and a changed committed pool entry or hidden roll makes it fail, naming what."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from tests.pbem.cliflow import (
    Table,
    cli,
    plain_tree,
    readable,
    received_by,
    verify_as_player,
)

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "module_src" / "carrier_battlegroup"
SIDES = ("USN",)
MAX_STEPS = 24


def _state(t: Table) -> dict[str, Any]:
    folders = sorted((t.game / "turns").iterdir())
    return json.loads((folders[-1] / "report.json").read_text())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Table, list[str]]:
    root = tmp_path_factory.mktemp("cbg")
    t = Table(root, MODULE, SIDES)
    out = t.new("red_oktober")
    assert "waiting for: USN" in out
    module, _ = load_module(MODULE)
    assert module is not None
    rs = get_ruleset("carrier_battlegroup")
    texts: list[str] = []
    for _ in range(MAX_STEPS):
        # the referee's own full position: the scripted player writes what the rules allow
        state = GameState.from_json(json.loads((t.game / "secret" / "state.json").read_text()))
        text = rs.scripted_orders(module, state)  # type: ignore[attr-defined]
        if text is None:
            break
        texts.append(text)
        t.send("USN", *text.splitlines())
    return t, texts


def test_the_game_runs_to_its_end(played: tuple[Table, list[str]]) -> None:
    t, texts = played
    assert len(texts) < MAX_STEPS
    rep = _state(t)
    kinds = {
        e["kind"]
        for f in (t.game / "turns").iterdir()
        for e in json.loads((f / "report.json").read_text())["events"]
    }
    assert {"sbg", "incidents", "chit", "game_over"} <= kinds, kinds
    assert rep["events"][-1]["kind"] == "game_over"


def test_the_pools_are_committed_at_set_up(played: tuple[Table, list[str]]) -> None:
    t, _ = played
    rep = json.loads((t.game / "turns/000-setup-request/report.json").read_text())
    pools = rep["commitments"]["pools"]
    assert {"pool:chits", "pool:warships", "pool:standoff", "pool:coastal", "pool:orders"} <= set(
        pools
    )
    assert pools["pool:chits"]["count"] == 30
    text = json.dumps(rep)
    assert "CHIT-" not in text and "SO-KIROV" not in text


def _never_shown(t: Table) -> list[str]:
    """The Soviet units and chits the published reports never showed the player."""
    module, _ = load_module(MODULE)
    assert module is not None
    shown: set[str] = set()
    for folder in sorted((t.game / "turns").iterdir()):
        for e in json.loads((folder / "report.json").read_text())["events"]:
            if e["kind"] == "reveal":
                shown |= set(e["data"]["units"])
            if e["kind"] == "chit":
                shown.add(e["data"]["chit"])
            if e["kind"] == "glitch":  # revealed, then back to the pool [17.1]
                shown.add(e["data"]["unit"])
    secret = [
        p
        for p, pc in module.pieces().items()
        if pc.unit.side == "Soviet" and not p.startswith("SO-SBG") and p not in shown
    ]
    assert secret, "some Soviet units and chits stay hidden"
    return secret


def _names_any(text: str, ids: list[str]) -> str | None:
    return next((p for p in ids if f'"{p}"' in text or f"{p} " in text or f"{p}," in text), None)


def test_nothing_received_before_reveal_names_a_face_down_unit_or_undrawn_chit(
    played: tuple[Table, list[str]],
) -> None:
    t, _ = played
    secret = _never_shown(t)
    for folder in sorted((t.game / "turns").iterdir()):
        files = received_by(folder, "USN", SIDES)  # USN's part decrypted with Debian's age
        assert {"view-USN.json", "position-USN.vsav"} <= {p.name for p in files}
        for p in files:
            text = readable(p)
            for pid in secret:
                assert f'"{pid}"' not in text and f"{pid} " not in text and f"{pid}," not in text, (
                    f"{folder.name}/{p.name} shows {pid}"
                )


def test_each_orders_file_validates_alike_on_the_players_view(
    played: tuple[Table, list[str]], tmp_path: Path
) -> None:
    """The player has no state.json (issue 10 §5): `validate --state turns/NNN/view-USN.json`
    gives each of his files the verdict of the referee's full position, and neither the
    verdict nor the notes name a unit he has not seen."""
    t, texts = played
    module, _ = load_module(MODULE)
    assert module is not None
    rs = get_ruleset("carrier_battlegroup")
    secret = _never_shown(t)
    folders = sorted((t.game / "turns").iterdir())
    for k, text in enumerate(texts):
        full = GameState.from_json(
            json.loads((t.game / "secret/turns" / folders[k].name / "state.json").read_text())
        )
        assert rs.validate(module, full, rs.parse_orders(text, "o.txt")) == []
        p = tmp_path / f"orders-{k}.txt"
        p.write_text(text)
        view = t.opened() / "turns" / folders[k].name / "view-USN.json"
        code, out = cli("validate", "--state", view, p, "--module", MODULE, "--json")
        assert code == 0, out
        res = json.loads(out)
        assert res["ok"] and res["violations"] == [] and res["view"]["side"] == "USN"
        assert _names_any(out, secret) is None, f"validate on {view.name} names a hidden unit"
    # the game folder itself stands for the latest view; the game is over, so it refuses
    p = tmp_path / "late.txt"
    p.write_text(texts[-1])
    code, out = cli("validate", "--state", t.game, p, "--module", MODULE, "--key", t.key("usn"))
    assert code == 1 and "[24.0] the game is over" in out and "note: validated on USN" in out


def test_the_player_verifies_the_published_archive_with_his_key(
    played: tuple[Table, list[str]],
) -> None:
    """Issue 24: USN's verify with his own key opens his part of every step and lists the
    referee-only part (the Soviet system's hidden units and chits) as not opened."""
    t, _ = played
    verify_as_player(t, "USN")


def test_reveal_then_verify_and_tampering(played: tuple[Table, list[str]]) -> None:
    t, _ = played
    code, out = cli("reveal", t.game, "--module", t.module)
    assert code == 0, out
    code, res = t.verify(t.player_copy("after"))
    assert code == 0, res
    copy = t.player_copy("pool")
    p = copy / "revealed/turns/000-setup-request/state.json"
    text = p.read_text()
    assert "SO-KIROV.1" in text
    p.write_text(text.replace("SO-KIROV.1", "SO-KIROV.9", 1))
    code, res = t.verify(copy)
    assert code == 1 and res["check"] == "commitment", res
    copy = t.player_copy("chit")  # one committed chit swapped: verify names the pool and chit
    p = copy / "revealed/turns/000-setup-request/state.json"
    state = json.loads(p.read_text())
    chits = state["data"]["pools"]["chits"]
    k = next(i for i, c in enumerate(chits) if c.split(".")[0] != chits[0].split(".")[0])
    chits[0], chits[k] = chits[k], chits[0]
    p.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n")
    code, res = t.verify(copy)
    assert code == 1 and res["check"] == "commitment", res
    assert "pool:chits entry 0" in res["message"] and repr(chits[0]) in res["message"], res
    copy = t.player_copy("draw")
    recs = sorted(copy.glob("revealed/turns/*/record.json"))
    for rec in recs:
        full = json.loads(rec.read_text())
        hidden = [r for r in full.get("rolls", []) if r.get("hidden_from")]
        if hidden:
            hidden[0]["value"] = hidden[0]["value"] % hidden[0]["sides"] + 1
            rec.write_text(json.dumps(full, indent=2, sort_keys=True) + "\n")
            break
    else:
        pytest.fail("no hidden roll was made")
    code, res = t.verify(copy)
    assert code == 1 and "hidden roll" in res["message"], res
    assert "recorded" in res["message"] and res["file"].endswith("record.json"), res
    shutil.rmtree(copy)


def test_bad_orders_are_refused_citing_the_case_and_nothing_is_written(tmp_path: Path) -> None:
    t = Table(tmp_path, MODULE, SIDES)
    t.new("mission")
    t.send("USN", "[setup]", "begin")
    before = sorted(p.name for p in (t.game / "turns").iterdir())
    out = t.send("USN", "[outfit]", "escort SO-KIROV.1", "buy 99 fuel", expect=1)
    assert re.search(r"orders-001-USN\.txt:\d+:\d+: \[2\.2\] SO-KIROV\.1 is a Soviet unit", out), (
        out
    )
    assert sorted(p.name for p in (t.game / "turns").iterdir()) == before


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_adjudicate_writes_the_same_bytes_with_and_without_the_cache(tmp_path: Path) -> None:
    """The cache ``adjudicate`` turns on (the module, the shape checks of earlier reports)
    saves time and changes no byte of what is written (docs/performance.md): every step is
    adjudicated twice from the same files, with the cache and with ``--no-cache``. (The
    picture, ``position.svg``, no longer draws the board: issue 24.)"""
    t = Table(tmp_path / "a", MODULE, SIDES)
    t.new("mission")
    module, _ = load_module(MODULE)
    assert module is not None
    rs = get_ruleset("carrier_battlegroup")
    compared = 0
    for k in range(4):  # set-up, outfitting, turns 1-2 (fewer if the mission ends first)
        full = json.loads((t.game / "secret" / "state.json").read_text())
        text = rs.scripted_orders(module, GameState.from_json(full))  # type: ignore[attr-defined]
        if text is None:
            break
        orders = t.root / f"step{k}.txt"
        orders.write_text(text)
        code, out = cli("sign", orders, "--key", t.key("usn"), "--game-dir", t.game)
        assert code == 0, out
        shutil.rmtree(tmp_path / "b", ignore_errors=True)
        shutil.copytree(t.root, tmp_path / "b", symlinks=True)
        runs = {}
        for name, extra in (("a", []), ("b", ["--no-cache"])):
            root = tmp_path / name
            code, out = cli(
                "adjudicate", root / "game", root / orders.name, "--key",
                root / "keys" / "referee.key", "--module", MODULE, "--referee-dir",
                root / "referee-secret", *extra,
            )  # fmt: skip
            assert code == 0, out
            runs[name] = plain_tree(root / "game")  # parts: their plaintexts
        assert runs["a"] == runs["b"], k
        compared += 1
    assert compared >= 3
    cache = Path(os.environ["REFEREE_CACHE"]) / "v1"  # the cached runs did use the cache
    assert {"module", "history"} <= {p.name for p in cache.iterdir()}  # nonce ledgers


def test_validate_refuses_the_issues_bad_inputs_citing_the_case(tmp_path: Path) -> None:
    """Issue 14 "How it is checked": an order for a Soviet unit [2.2], a launch beyond the
    Flight Deck [15.0] or beyond range [19.1], a purchase beyond the LP [9.1], a move past
    a stop space [12.4]: ``referee validate`` on the player's view gives each a located
    message citing its case, exit 1, and writes nothing; the adjudicator refuses them too."""
    t = Table(tmp_path, MODULE, SIDES)
    t.new("mission")
    module, _ = load_module(MODULE)
    assert module is not None
    rs = get_ruleset("carrier_battlegroup")
    for _ in range(2):  # set-up and outfitting, as the scripted player writes them
        state = GameState.from_json(json.loads((t.game / "secret" / "state.json").read_text()))
        t.send("USN", *rs.scripted_orders(module, state).splitlines())  # type: ignore[attr-defined]
    state = GameState.from_json(json.loads((t.game / "secret" / "state.json").read_text()))
    assert state.phase == "turn" and state.data["cvbg"]["space"] == "NATO Base (Britain)"
    aboard = sorted(p for p, w in state.data["air"].items() if w == "hangar")
    deck = state.data["carrier"]["Flight Deck"]
    assert len(aboard) > deck
    head = f"game: {state.game_id}\nturn: {state.turn}\nside: USN\n\n"
    cases = {
        "2.2": '[movement]\nmove SO-KIROV.1 "North Sea 1"\n',
        "15.0": f'[launch]\nstrike {" ".join(aboard[: deck + 1])} -> "North Sea 1"\n',
        "19.1": f'[launch]\nstrike {aboard[0]} -> "Murmansk"\n',
        "9.1": f"[logistics]\nbuy {state.data['lp']} fuel\n",
        "12.4": '[movement]\nmove "North Sea 1" "North Sea 2" "Shetland Gap" "Norwegian Sea 1"\n',
    }
    view = sorted((t.opened() / "turns").iterdir())[-1] / "view-USN.json"
    before = _tree(t.game)
    for rule, body in cases.items():
        p = tmp_path / f"bad-{rule}.txt"
        p.write_text(head + body)
        code, out = cli("validate", "--state", view, p, "--module", MODULE, "-q")
        assert code == 1 and re.search(rf"bad-{rule}\.txt:\d+:\d+: \[{re.escape(rule)}\] ", out), (
            rule,
            out,
        )
    out = t.send("USN", *(head + cases["9.1"]).splitlines(), expect=1)
    assert "[9.1]" in out
    assert _tree(t.game) == before  # nothing written, by validate or by the refusal
