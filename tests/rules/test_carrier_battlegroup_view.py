"""Validating on the player's view (issue 10 §5): a game that hides information publishes no
full position, so the USN player checks his orders against ``view-USN.json``. His legal orders
must get the same verdict there as on the referee's full position, and where a face-down
unit could decide it (a strike at a space where no Soviet unit shows [19.1]) the view says so
in a note, without telling whether one is there."""

from __future__ import annotations

import re

import pytest

from referee.engine.ruleset import view_notes_of
from referee.rules.carrier_battlegroup.view import hidden_ids, is_player_view
from tests.conformance.rulesets.carrier_battlegroup import doc, module, ruleset, step

SEEDS = [b"a", b"c", b"e"]
STRIKE = re.compile(r"^(\s*strike .*-> )(.*)$")


def _variants(text: str, spaces: list[str]) -> list[str]:
    """The scripted file, and each of its strikes sent at every third space instead."""
    lines = text.splitlines()
    out = [text]
    for i, ln in enumerate(lines):
        m = STRIKE.match(ln)
        if m:
            for sp in spaces[::3]:
                out.append("\n".join([*lines[:i], f'{m.group(1)}"{sp}"', *lines[i + 1 :]]) + "\n")
    return out


@pytest.mark.parametrize("scenario", ["mission", "red_oktober"])
def test_legal_orders_get_the_same_verdict_on_the_view(scenario: str) -> None:
    rs, m = ruleset(), module()
    spaces = sorted(m.map.spaces.spaces)
    checked = 0
    for seed in SEEDS:
        st = rs.new_game(m, scenario, "cbg")
        for k in range(40):
            text = rs.scripted_orders(m, st)
            if text is None:
                break
            seen = rs.view(m, st, "USN")
            assert is_player_view(seen) and not is_player_view(st)
            secret = hidden_ids(st)
            for variant in _variants(text, spaces):
                d = doc(variant)
                full = rs.validate(m, st, d)
                on_view = rs.validate(m, seen, d)
                notes = view_notes_of(rs, m, seen, "USN", d)
                if not full:
                    assert on_view == [], (scenario, seed, k, [str(v) for v in on_view])
                    checked += 1
                else:  # a refusal on the view is the full position's refusal
                    assert {str(v) for v in on_view} <= {str(v) for v in full}
                for n in notes:  # a note never names what is hidden
                    assert n.rule == "19.1" and not any(p in n.message for p in secret)
            st = step(st, text, k, seed).state
    assert checked > 20


def test_a_strike_at_face_down_units_the_view_leaves_out() -> None:
    """Mission, seed e, Game-Turn 3: two face-down Soviet units wait in Shetland Gap after an
    Incident; the view leaves them out. A strike there is legal, and on the view it is not
    refused but noted [19.1]; a strike at an empty space is refused on the full position."""
    rs, m = ruleset(), module()
    # face-down incident units stay between turns only under the older reading of [18.1
    # step 4] (a game begun before the ruling; docs/interpretations.md): this case plays one
    st = rs.earlier_starts(rs.new_game(m, "mission", "cbg"))[-1]  # before any ruling
    for k in range(4):
        st = step(st, rs.scripted_orders(m, st), k, b"e").state
    there = [p for p in hidden_ids(st) if st.units[p].location == "Shetland Gap"]
    assert there, "the set-up of this case changed"
    seen = rs.view(m, st, "USN")
    assert not any(p in seen.units for p in there)
    text = rs.scripted_orders(m, st)
    strike = "\n".join(STRIKE.sub(r'\1"Shetland Gap"', ln) for ln in text.splitlines()) + "\n"
    assert rs.validate(m, st, doc(strike)) == []
    assert rs.validate(m, seen, doc(strike)) == []
    [note] = view_notes_of(rs, m, seen, "USN", doc(strike))
    assert note.rule == "19.1" and "Shetland Gap" in note.message
    assert "face-down units are hidden" in note.message
    # a space in range with no Soviet unit at all: refused on the full position only
    for space in sorted(m.map.spaces.spaces):
        empty = "\n".join(STRIKE.sub(f'\\1"{space}"', ln) for ln in text.splitlines()) + "\n"
        full = [str(v) for v in rs.validate(m, st, doc(empty))]
        if len(full) == 1 and "holds no Soviet units to strike" in full[0]:
            break
    else:
        pytest.fail("no empty space in range")
    assert rs.validate(m, seen, doc(empty)) == []  # on the view: the note says who decides
    [note] = view_notes_of(rs, m, seen, "USN", doc(empty))
    assert space in note.message
