"""Options format 8 (issue 28 §1): the lines whose legality depends on earlier lines of the
same file. A choice's ``after`` is the line it is offered behind (DTP's detection attempt
right after the unit's own move [DTP 6.2a], ``commence prc`` with ``commence`` [DTP
11.51021]); a choice's ``spends`` takes from the file's ``allowances`` (Carrier
Battlegroup's LP, Hangar and cruise missile room [9.1], [9.2], a turn's one Intelligence
attempt [11.0]); Carrier Battlegroup's ``buy`` at every count and on every piece, and each
``repair`` on the piece it repairs [10.0]-[10.3].

Each is checked against the validator: a line offered ``after`` another is accepted behind
it and refused without it; every pair of lines that spend is accepted exactly when what the
two spend fits each allowance. A format-7 file of the same position is the file the options
gave before, byte for byte (``verify`` of an archive made before the change).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import referee.pbem.draft_options as drafts
from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.pbem.draft_options import choice_after, compact_json, draft_options, offered_lines
from tests.pbem.cliflow import Table
from tests.viewer.drafting import dtp_detection_position

ROOT = Path(__file__).resolve().parents[2] / "module_src"


def _without(doc: dict[str, Any], keep: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """A format-8 document with the choices ``keep`` refuses left out, its ``after`` and
    ``spends`` keys and ``allowances`` dropped, and named format 7."""
    out = json.loads(json.dumps(doc))
    out["format"] = drafts.FORMATS[7]
    out.pop("allowances", None)
    for c_list in [*(e["choices"] for e in out["units"].values()), out["side_choices"]]:
        c_list[:] = [c for c in c_list if keep(c)]
        for c in c_list:
            for key in ("after", "after_route", "spends"):
                c.pop(key, None)
    out["units"] = {u: e for u, e in out["units"].items() if e["choices"] or e.get("route")}
    return out


# ---- DTP: a detection attempt right after the unit's own move [DTP 6.2a] ------------------


@pytest.fixture(scope="module")
def dtp() -> tuple[Any, Any, GameState]:
    """The Med map under DTP, the Soviet ship and sub movement of Game-Turn 1: the US CV in
    0815, a US DD in 0812, the Soviet CG and SS in 0817 and an SN in 0814 (the position of
    ``test_orders_unreached_browser.py``, before the Soviet file)."""
    module, state = dtp_detection_position()
    return module, get_ruleset("sixth_fleet_dtp"), state


def _dtp_ok(module: Any, state: GameState, lines: list[str]) -> bool:
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_dtp.scripted import orders_ok

    return orders_ok(Game.of(module, state), state, "Soviet", lines)


def test_dtp_detects_after_a_move_are_accepted_behind_it_and_refused_alone(dtp: Any) -> None:
    """Every ``detect`` offered ``after`` a move is a line the phase's check accepts right
    behind that move, refused alone [DTP 6.2a] and refused behind another of the unit's
    moves; each names an enemy unit of the side's view within one hex of the move's end,
    at its hex. The SN's move to 0813 opens its attempt on the DD in 0812."""
    module, rs, state = dtp
    view = rs.view(module, state, "Soviet")
    doc = draft_options(module, rs, {}, "0" * 64, view, "Soviet")
    assert doc["format"] == "referee-draft-options/8"
    moves = offered_lines(doc)
    after = {
        u: [{**c, "after": a} for c in e["choices"] if (a := choice_after(doc, u, c))]
        for u, e in doc["units"].items()
    }
    assert {  # the move's line written as the end of the unit's move tree (``after_route``)
        "order": "detect SO-SN-1 -> US-DD-1",
        "kind": "detect",
        "at": "0812",
        "after": "move SO-SN-1 0813",
        "after_route": "0813",
        "label": "[DTP 6.2a]",
    } in after["SO-SN-1"]
    from referee.rules.sixth_fleet_1975.context import Game

    board = Game.of(module, view).board
    checked = 0
    for unit, cs in after.items():
        for c in cs:
            assert c["kind"] == "detect" and c["after"] in moves[unit], c
            target = c["order"].split(" -> ")[1]
            assert view.units[target].side == "NATO" and view.units[target].location == c["at"]
            assert board.distance(c["after"].split()[-1], c["at"]) <= 1, c
            assert _dtp_ok(module, state, [c["after"], c["order"]]), c
            assert not _dtp_ok(module, state, [c["order"]]), c
            other = next(m for m in moves[unit] if m.startswith("move ") and m != c["after"])
            if board.distance(other.split()[-1], c["at"]) > 1:
                assert not _dtp_ok(module, state, [other, c["order"]]), (other, c)
            checked += 1
    assert checked >= 6, after


def detects_judged(module: Any, rs: Any, state: GameState, side: str) -> tuple[int, int]:
    """Every attempt the validator's own moments allow behind every move the options offer
    (each move's path through :func:`detection_moments_6_2`, the moments where it ends, each
    enemy unit there): offered ``after`` that move exactly when the phase's check accepts
    the file of the two. The count of attempts offered and refused."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_dtp.path import detection_moments_6_2, move_start
    from referee.rules.sixth_fleet_dtp.scripted import orders_ok

    view = rs.view(module, state, side)
    game = Game.of(module, view)
    doc = draft_options(module, rs, {}, "0" * 64, view, side)
    seen = {0: 0, 1: 0}
    for unit, lines in offered_lines(doc).items():
        after = {(choice_after(doc, unit, c), c["order"]) for c in doc["units"][unit]["choices"]}
        start = move_start(game, view, unit)
        for move in (x for x in lines if x.startswith("move ")):
            path = move.split()[2:]
            hexes = [start, *(path[1:] if path[0] == start else path)]
            for m in detection_moments_6_2(game, view, unit, hexes):
                for t in m.enemies if m.at == path[-1] else ():
                    line = f"detect {unit} -> {t}"
                    ok = orders_ok(game, view, side, [move, line])
                    assert ((move, line) in after) == ok, (move, line)
                    seen[ok] += 1
    return seen[1], seen[0]


def test_dtp_every_attempt_behind_a_move_is_offered_exactly_when_accepted(dtp: Any) -> None:
    """:func:`detects_judged` on the Med position: the options' own moments and quick judge
    agree with the validator's walk of the whole file, both ways."""
    module, rs, state = dtp
    offered, refused_ = detects_judged(module, rs, state, "Soviet")
    assert offered >= 6, (offered, refused_)


def test_dtp_format_7_is_the_file_before_format_8(dtp: Any) -> None:
    """A format-7 file of the position is format 8's without the lines offered ``after``
    another, byte for byte: ``verify`` renders an older step as it was published."""
    module, rs, state = dtp
    view = rs.view(module, state, "Soviet")
    new, old = (draft_options(module, rs, {}, "0" * 64, view, "Soviet", v) for v in (8, 7))
    assert old["format"] == "referee-draft-options/7"
    assert compact_json(_without(new, lambda c: "after_route" not in c)) == compact_json(old)


# ---- DTP Westpac: commence prc with commence [DTP 11.51021] ---------------------------------


def test_westpac_prc_entry_is_offered_behind_commence() -> None:
    """On the Game-Turn hostilities begin, ``commence prc`` is offered after ``commence``:
    the two accepted together, ``commence prc`` alone refused (the PRC may not enter before
    the others [DTP 11.51021]); format 7 offers ``commence`` alone, as before."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_dtp.scripted import orders_ok
    from tests.conformance.rulesets import dtp_westpac

    state = dtp_westpac.set_up_files()
    module = dtp_westpac.module()
    rs = get_ruleset(module.ruleset)
    assert (state.phase, state.turn, state.active_side) == ("hostilities", 1, "EastBlock")
    view = rs.view(module, state, "EastBlock")
    new, old = (draft_options(module, rs, {}, "0" * 64, view, "EastBlock", v) for v in (8, 7))
    prc = {
        "order": "commence prc",
        "kind": "commence",
        "label": "the PRC and Taiwan enter hostilities [DTP 11.51021]",
        "after": "commence",
    }
    assert new["side_choices"][1:] == [prc]
    assert [c["order"] for c in old["side_choices"]] == ["commence"]
    game = Game.of(module, state)
    assert orders_ok(game, state, "EastBlock", ["commence", "commence prc"])
    assert not orders_ok(game, state, "EastBlock", ["commence prc"])
    assert compact_json(_without(new, lambda c: "after" not in c)) == compact_json(old)


# ---- Carrier Battlegroup: purchases, repairs, the Intelligence attempt ---------------------


@pytest.fixture(scope="module")
def cbg() -> tuple[Any, Any, GameState]:
    """Turn 1's Logistics Phase of the scripted set-up and outfitting (``played: 2``), the
    CVBG at its NATO base with 8 LP and a full Hangar; the carrier's Hull at 10 of 12, the
    escort US-FFG.1 and the F-14 US-F14.1 Damaged, US-DDG-K.1 Crippled (the position of
    ``test_orders_unreached_browser.py``)."""
    from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
    from tests.conformance.rulesets.carrier_battlegroup import module, played

    state = played()
    facts = facts_of(state)
    state = CbgFacts.put(
        state,
        carrier={**facts.carrier, "Hull": 10},
        conditions={
            "US-FFG.1": {"damage": 1, "crippled": False},
            "US-F14.1": {"damage": 1, "crippled": False},
            "US-DDG-K.1": {"damage": 2, "crippled": True},
        },
    )
    m = module()
    return m, get_ruleset(m.ruleset), state


def _cbg_problems(module: Any, state: GameState, section: str, lines: list[str]) -> list[Any]:
    """The validator's problems with a file of ``lines`` in ``section``."""
    from referee.engine.orders import parse_orders
    from referee.rules.carrier_battlegroup import turn
    from referee.rules.carrier_battlegroup.vocabulary import VOCABULARY

    body = "".join(f"{x}\n" for x in lines)
    text = f"game: {state.game_id}\nturn: {state.turn}\nside: USN\n[{section}]\n{body}"
    return list(turn.check_turn(module, state, parse_orders(text, "t", VOCABULARY)))


def _by_kind(doc: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    """The choices of ``kind`` of every unit, by line (each once)."""
    return {c["order"]: c for e in doc["units"].values() for c in e["choices"] if c["kind"] == kind}


def test_cbg_purchases_every_count_and_piece_and_what_they_spend(cbg: Any) -> None:
    """Every track at every count from 1 to the most the 8 LP buy (``buy 2 fuel`` beside
    ``buy 4 fuel``), every available piece (both P-3s, 5 LP each), each with its LP; the
    file's allowances are the view's (8 LP, a full Hangar, no missile room, one
    Intelligence attempt). No carrier aircraft or cruise missile is offered."""
    module, rs, state = cbg
    doc = draft_options(module, rs, {}, "0" * 64, rs.view(module, state, "USN"), "USN")
    assert doc["allowances"] == {
        "Hangar room [9.1]": 0,
        "Intelligence attempt [11.0]": 1,
        "LP [9.1]": 8,
        "cruise missile room [9.2]": 0,
    }
    buys = _by_kind(doc, "buy")
    for item, price in (("fuel", 2), ("ammunition", 2), ("ew_enhancement", 4)):
        for n in range(1, 8 // price + 1):
            assert buys[f"buy {n} {item}"]["spends"] == {"LP [9.1]": n * price}
        assert f"buy {8 // price + 1} {item}" not in buys
    assert buys["buy US-P3.1"]["spends"] == buys["buy US-P3.2"]["spends"] == {"LP [9.1]": 5}
    assert not {"buy US-A6.3", "buy US-C2", "buy US-TASM.3"} & set(buys)
    on = {u for u, e in doc["units"].items() if any(c["kind"] == "buy" for c in e["choices"])}
    assert on == {"US-CVN-68"}  # the flagship's list: the group's purchases [9.0]


def test_cbg_two_lines_that_spend_are_accepted_exactly_when_they_fit(cbg: Any) -> None:
    """Each pair of the ``buy`` and ``intel`` lines offered: the validator accepts the two
    in one file exactly when what they spend fits every allowance (the viewer offers the
    second only then): ``buy 2 fuel`` and ``buy 1 ew_enhancement`` (8 LP) accepted, the two
    P-3s (10 LP) refused [9.1], two Intelligence attempts refused [11.0]."""
    module, rs, state = cbg
    doc = draft_options(module, rs, {}, "0" * 64, rs.view(module, state, "USN"), "USN")
    has = doc["allowances"]
    lines = {**_by_kind(doc, "buy"), **_by_kind(doc, "intel")}
    verdicts: dict[bool, int] = {True: 0, False: 0}
    for a, b in itertools.combinations(sorted(lines), 2):
        ca, cb = lines[a], lines[b]
        fits = all(ca["spends"].get(n, 0) + cb["spends"].get(n, 0) <= has[n] for n in has)
        if ca["kind"] != cb["kind"]:  # a buy and an intel: each goes in its own section
            continue
        section = "logistics" if ca["kind"] == "buy" else "intelligence"
        problems = _cbg_problems(module, state, section, [a, b])
        assert (not problems) == fits, (a, b, problems)
        verdicts[fits] += 1
    assert verdicts[True] > 20 and verdicts[False] > 20, verdicts
    assert not _cbg_problems(module, state, "logistics", ["buy 2 fuel", "buy 1 ew_enhancement"])
    (p,) = _cbg_problems(module, state, "logistics", ["buy US-P3.1", "buy US-P3.2"])
    assert p.rule == "9.1" and "cost 10 LP" in p.message, p
    (p,) = _cbg_problems(module, state, "intelligence", ["intel US-CGN", "intel US-FFG.1"])
    assert p.rule == "11.0", p


def test_cbg_each_repair_is_on_the_piece_it_repairs(cbg: Any) -> None:
    """Format 8: ``repair Hull`` on the carrier, ``repair US-FFG.1`` on the escort,
    ``repair US-F14.1`` on the aircraft, and on no other unit (format 7 offered the three on
    every ship of the CVBG and the CVBG's marker); each accepted by the validator."""
    module, rs, state = cbg
    view = rs.view(module, state, "USN")
    new, old = (draft_options(module, rs, {}, "0" * 64, view, "USN", v) for v in (8, 7))

    def repairs(doc: dict[str, Any]) -> dict[str, list[str]]:
        return {
            u: rs
            for u, e in doc["units"].items()
            if (rs := [c["order"] for c in e["choices"] if c["kind"] == "repair"])
        }

    assert repairs(new) == {
        "US-CVN-68": ["repair Hull"],
        "US-F14.1": ["repair US-F14.1"],
        "US-FFG.1": ["repair US-FFG.1"],
    }
    every = ["repair Hull", "repair US-FFG.1", "repair US-F14.1"]
    ships = ("US-CGN", "US-CVBG", "US-CVN-68", "US-DDG-K.1", "US-DDG-K.2", "US-FFG.1", "US-SSN.1")
    assert repairs(old) == {**dict.fromkeys(ships, every), "US-F14.1": ["repair US-F14.1"]}
    for line in every:
        assert not _cbg_problems(module, state, "logistics", [line]), line


def test_cbg_format_7_is_the_file_before_format_8(cbg: Any) -> None:
    """A format-7 file of the position holds the lines it held before (one count a track,
    one piece a kind, every repair on every ship), none of format 8's, and no ``spends``."""
    module, rs, state = cbg
    view = rs.view(module, state, "USN")
    old = draft_options(module, rs, {}, "0" * 64, view, "USN", 7)
    buys = sorted(_by_kind(old, "buy"))
    assert buys == [
        "buy 2 air_defense",
        "buy 2 ew_enhancement",
        "buy 4 ammunition",
        "buy 4 fuel",
        "buy US-CAMERA",
        "buy US-CREW-EW",
        "buy US-CREW-FD",
        "buy US-CREW-TG",
        "buy US-KC135",
        "buy US-MEU",
        "buy US-P3.1",
        "buy US-SEAL",
    ]
    assert "allowances" not in old
    assert '"spends"' not in json.dumps(old) and '"until"' not in json.dumps(old)


# ---- verify: an archive made before format 8 ------------------------------------------------


@pytest.mark.slow
def test_an_archive_made_in_format_7_still_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A naval game begun by the referee of format 7 (its first step's options file
    published in format 7) verifies under today's referee, which renders the file again in
    the format it names (format 8's would name 8, and differ)."""
    table = Table(tmp_path, ROOT / "naval_module", ("Soviet", "Axis"))
    monkeypatch.setattr(drafts, "OPTIONS_VERSION", 7)  # the referee of format 7
    table.new("kerch_feodosia")
    monkeypatch.undo()
    published = sorted((table.game / "turns").glob("*/options-*.json"))
    assert published
    for path in published:
        assert json.loads(path.read_bytes())["format"] == "referee-draft-options/7", path
    code, got = table.verify()
    assert code == 0, got
