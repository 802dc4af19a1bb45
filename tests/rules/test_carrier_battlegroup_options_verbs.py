"""Carrier Battlegroup: the USN player's orders the options give since options format 4
(issue 28) -- the standing ``deploy outer`` (composed unit by unit [20.2]) and ``breakoff
yes|all -> SPACE`` [18.2], the Objective Phase's ``bombard`` [23.1], ``land`` and ``embark``
[23.2] -- each offered only where the validator accepts it."""

from __future__ import annotations

from typing import Any

from tests.conformance.rulesets.carrier_battlegroup import doc, module, played, ruleset


def _legal(m: Any, st: Any, section: str, line: str) -> bool:
    """Whether ``validate`` accepts a turn's file of the one line."""
    text = f"game: {st.game_id}\nturn: {st.turn}\nside: USN\n[{section}]\n{line}\n"
    return ruleset().validate(m, st, doc(text)) == []


def _side(st: Any) -> list[dict[str, Any]]:
    return [c for c in ruleset().side_orders(module(), st, "USN") if c.get("since") == 4]


def test_a_turns_standing_deploy_and_breakoff_lines_validate_accepts() -> None:
    st = played("mission", 2)
    assert st.phase == "turn"
    got = _side(st)
    (deploy,) = [c for c in got if c["kind"] == "deploy"]
    assert deploy["compose"] == "words" and deploy["section"] == "standing"
    assert set(deploy["from"]) >= set(st.data["cvbg"]["ships"])
    assert all(_legal(module(), st, "standing", f"deploy outer {u}") for u in deploy["from"])
    assert _legal(module(), st, "standing", "deploy outer " + " ".join(deploy["from"][:3]))
    breakoffs = [c["order"] for c in got if c["kind"] == "breakoff"]
    assert breakoffs and all(_legal(module(), st, "standing", b) for b in breakoffs)
    assert {b.split()[1] for b in breakoffs} == {"yes", "all"}
    # no bombardment away from the Objective's coastal defense units [23.1]; no landing
    # under Orders that allow none [23.2]
    assert not st.data["mission"]["landing"]
    assert not [c for c in got if c["kind"] in ("bombard", "land")]
    assert not _legal(module(), st, "objective", "bombard")


def test_nothing_new_in_set_up() -> None:
    st = ruleset().new_game(module(), "mission", "cbg")
    assert _side(st) == []
