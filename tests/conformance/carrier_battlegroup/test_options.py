"""``referee options`` for Carrier Battlegroup: every listed order passes ``validate``, the
stop rules [12.4], Flight Deck and range [15.0], [19.1] and the LP [9.1] bound the lists, and
no hidden Soviet unit ever shows [17.0]."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import app
from referee.engine.graphboard import PointBoard
from referee.errors import UserError
from referee.rules.carrier_battlegroup import cargo, movement, view
from tests.clirun import Runner
from tests.conformance.rulesets.carrier_battlegroup import (
    SRC,
    doc,
    module,
    played,
    ruleset,
    step,
)
from tests.pbem.cliflow import cli

SECTION = {"moves": "movement", "intel": "intelligence", "launches": "launch"}


def _report(st, subject: str = "USN"):  # type: ignore[no-untyped-def]
    return ruleset().options(module(), st, subject, limit=0)


def test_options_every_listed_order_validates() -> None:
    st = played(steps=2)
    r = _report(st)
    assert r.data["moves"] and r.data["launches"] and r.data["intel"] and r.data["purchases"]
    for name, section in SECTION.items():
        for x in r.data[name]:
            text = f"[{section}]\n{x['order']}\n"
            assert ruleset().validate(module(), st, doc(text)) == [], text
    for x in r.data["purchases"]:
        text = f"[logistics]\n{x['order']}\n"
        assert ruleset().validate(module(), st, doc(text)) == [], text


def test_options_12_4_no_move_passes_a_stop_space_and_stops_are_named() -> None:
    st = played(steps=2)
    board = PointBoard(module().map)
    sbg = {g["space"] for g in st.data["sbgs"].values()}
    moves = _report(st, "CVBG").data["moves"]
    for m in moves:
        for s in m["path"][:-1]:
            assert not movement.must_stop_12_4(board.terrain(s), sbg_here=s in sbg)
    by = {m["space"]: m for m in moves}
    assert by["Shetland Gap"]["stop"] == "chokepoint" and by["North Sea 1"]["stop"] is None
    assert "Norwegian Sea 1" not in by  # beyond the Shetland Gap stop
    assert by["Atlantic 1"]["out_of_lane"] and not by["North Sea 1"]["out_of_lane"]  # [12.5]


def test_options_19_1_launches_only_within_range_and_15_0_the_deck_note() -> None:
    st = played(steps=2)
    board = PointBoard(module().map)
    here = st.data["cvbg"]["space"]
    far = st.with_data(
        sbgs={
            **st.data["sbgs"],
            "SBG-9": {"space": "Murmansk", "units": [], "revealed": False},
        }
    )
    r = _report(far)
    for x in r.data["launches"]:
        u = module().piece(x["unit"]).unit
        if u.category == "air" and "refueler" not in u.flags:
            assert board.distance(here, x["space"]) <= u.values["SPD"]
    assert "Murmansk" not in {x["space"] for x in r.data["launches"]}
    assert any("[15.0]" in n for n in r.notes)


def test_options_9_1_purchases_stay_within_the_lp() -> None:
    st = played(steps=2).with_data(lp=3)
    r = _report(st, "cargo")
    assert r.data["purchases"]
    for x in r.data["purchases"]:
        assert x["lp"] <= 3
        if "most" in x:
            assert x["most"] * x["lp"] <= 3
    poor = _report(st.with_data(lp=0), "cargo")
    assert poor.data["purchases"] == [] and "no action now" in poor.lines[-1]
    # away from a base, without a COD, nothing but land-based aircraft [9.0]
    at_sea = st.with_data(cvbg={**st.data["cvbg"], "space": "North Sea 2"}, lp=50)
    items = {x["item"] for x in _report(at_sea, "cargo").data["purchases"]}
    assert items <= {"land_aircraft"} and cargo.price(module(), "fuel") <= 50


def test_options_a_soviet_or_unknown_subject_is_a_clear_error() -> None:
    st = played(steps=2)
    g = next(iter(st.data["sbgs"].values()))
    hidden = g["units"][0]
    with pytest.raises(UserError) as e:
        _report(st, hidden)
    assert "[2.2]" in str(e.value) and g["space"] not in str(e.value)
    with pytest.raises(UserError) as e:
        _report(st, "US-F41.1")
    assert "US-F14.1" in (e.value.hint or "")


def _swap_hidden(st):  # type: ignore[no-untyped-def]
    """The same table, other counters under the face-down SBG markers."""
    pool = list(st.data["pools"]["warships"])
    sbgs = {}
    for n, g in sorted(st.data["sbgs"].items()):
        if g["revealed"]:
            sbgs[n] = g
            continue
        k = len(g["units"])
        new, pool = pool[:k], [*pool[k:], *g["units"]]
        sbgs[n] = {**g, "units": new}
    return st.with_data(sbgs=sbgs, pools={**st.data["pools"], "warships": pool})


def _states(seed: bytes, steps: int = 6):  # type: ignore[no-untyped-def]
    """Every position of a scripted game from the first turn on, until it ends."""
    st = played(steps=2, seed=seed)
    for k in range(2, steps):
        if st.phase != "turn":
            return
        yield st
        out = step(st, ruleset().scripted_orders(module(), st), k, seed)
        assert out.ok
        st = out.state


@pytest.mark.parametrize("seed", [b"o", b"p", b"s"])
def test_options_17_0_never_reveal_a_hidden_soviet_unit(seed: bytes) -> None:
    seen = 0
    for st in _states(seed):
        hidden = view.hidden_ids(st)
        assert hidden
        for subject in ("USN", "CVBG", "cargo", *sorted(st.data["air"])[:2]):
            r = _report(st, subject)
            text = "\n".join([*r.lines, *r.notes, json.dumps(r.data), json.dumps(r.marks)])
            for pid in hidden:
                assert pid not in text, (subject, pid)
            swapped = _report(_swap_hidden(st), subject)
            assert (swapped.lines, swapped.data) == (r.lines, r.data)
            seen += 1
    assert seen


def test_options_cli_text_json_png_and_bad_subject(tmp_path: Path) -> None:
    st = played(steps=2)
    sf = tmp_path / "state.json"
    sf.write_text(json.dumps(st.to_json()))
    run = Runner().invoke
    base = ["options", "--state", str(sf), "--module", str(SRC)]
    out = run(app, [*base[:1], "CVBG", *base[1:], "-q"])
    assert out.exit_code == 0 and "Shetland Gap" in out.output and "note:" not in out.output
    js = run(app, [*base[:1], "USN", *base[1:], "--format", "json"])
    assert js.exit_code == 0 and json.loads(js.output)["moves"]
    png = tmp_path / "o.png"
    pic = run(app, [*base[:1], "CVBG", *base[1:], "--png", str(png)])
    assert pic.exit_code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, said = cli(*base[:1], "SO-KIROV.1", *base[1:])
    assert code == 2 and "[2.2]" in said and "Traceback" not in said
