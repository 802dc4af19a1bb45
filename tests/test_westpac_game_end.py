"""The end of a Westpac game [DTP 11.5103, 11.5132] and its result [DTP 11.5121-11.5126],
worked out by hand.

Each test builds a position near the end (the scripted set-up, moved on to a late Game-Turn,
with the few changes the test names), plays the remaining steps of the game with *passive*
files (no move, every combat impulse a pass: :func:`passive_text`, each file checked by
``validate`` and carried out by ``resolve``), and checks that the game is over (``awaiting``
says so), that the last step's events name the result with its case, and the final score: the
whole awards table with its fractions, sea control assessed only now [DTP 11.5123], the result
in the score (``result``), the report's score table (``scoreboard``) and ``state show``'s line
(``score_line``).

The book prints no worked example of a final Westpac score; DTP-EX-11.5091 (the command ships'
doubled values, fractions doubled too) is used in the quarter-point test, the rest is worked
in each test's docstring from the set-up chart's positions and the counters' ECM values.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from referee.engine.core import Event, GameState, ScriptedDice
from referee.pbem.scoreboard import score_line, scoreboard
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_dtp import flow
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from referee.rules.sixth_fleet_dtp.scripted import header
from referee.rules.sixth_fleet_dtp.sequence import BY_ID
from referee.source.model import Module
from tests.conformance.rulesets.dtp_westpac import module, set_up

MIXED = "mixed_fractions_11_5126"  # the DTP flag of the score's words [DTP 11.5126]
PASSIVE = frozenset({"movement", "combat"})  # the sections a passive file leaves empty


def passive_text(module: Module, state: GameState) -> str | None:
    """A lawful file that does nothing in a movement or combat phase (no move; ``pass`` in a
    combat impulse [DTP 8.2]), or None where the phase asks for more (set-up, hostilities,
    reinforcement, rebasing: the scripted player's file)."""
    p = BY_ID.get(state.phase)
    if p is None or p.section not in PASSIVE:
        return None
    side = RULESET.awaiting(module, state)[0]
    body = "pass\n" if p.section == "combat" else ""
    return header(state, side) + f"[{flow.section_of(state)}]\n" + body


def play_out(state: GameState, dice: tuple[int, ...] = ()) -> tuple[GameState, list[Event], int]:
    """Every step to the end of the game with passive files (``validate`` must accept each:
    the position stays as the test made it), the dice ``dice`` in order; the position, the
    events and the number of steps."""
    m = module()
    rolls = ScriptedDice(list(dice))
    events: list[Event] = []
    steps = 0
    while state.phase != flow.GAME_OVER:
        steps += 1
        text = passive_text(m, state) or RULESET.scripted_orders(m, state)
        assert text is not None, (state.turn, state.phase)
        doc = RULESET.parse_orders(text, f"step-{steps}.txt")
        assert not RULESET.validate(m, state, doc), (steps, state.phase, text)
        out = RULESET.resolve(m, state, doc, rolls)
        assert out.ok, (steps, out.violations)
        events += out.events
        state = out.state
        assert steps < 40, "the game should be over within a Game-Turn"
    return state, events, steps


def turn_48(changes: Mapping[str, str], damage: Mapping[str, int]) -> GameState:
    """The set-up position on Game-Turn 48, at war since turn 1 with the PRC in
    [DTP 11.5101, 11.51021]: the command ship LCC #26 taken out of Yokosuka to the High Seas
    hex 4045 (it must end each ship movement at sea [DTP 11.5091]), ``changes`` (unit -> hex)
    made, ``damage`` (unit -> level) given. The reinforcements are left in their box: they
    stand in no area and score nothing."""
    m = module()
    state = set_up().evolve(turn=48)
    game = Game.of(m, state)
    for unit, hex_id in {"US-LCC-26": "4045", **changes}.items():
        state = move_piece(game, state, unit, hex_id)
    return state.with_data(damage=dict(damage))


def _awards(score: Mapping[str, object]) -> dict[str, int]:
    return {b["id"]: b["vp"] for b in score["bonuses"] if b["vp"]}  # type: ignore[attr-defined]


def _the_end(state: GameState) -> tuple[Mapping[str, object], list[Event]]:
    """The game played out from ``state``: over, and the last step's result event."""
    m = module()
    end, events, steps = play_out(state)
    assert end.phase == flow.GAME_OVER and end.turn == 48 and steps >= 6
    assert RULESET.awaiting(m, end) == ("", "nothing: the game is over [DTP 4.1]")
    assert RULESET.scripted_orders(m, end) is None
    over = [e for e in events if e.kind == "game_over"]
    assert len(over) == 1 and events[-1] is over[0]
    score = RULESET.score(m, end)
    assert score["final"] is True
    return score, events


def test_at_the_end_of_turn_48_sea_control_is_assessed_and_the_east_block_wins() -> None:
    """The end of Game-Turn 48 [DTP 11.5103], worked by hand.

    Position: the set-up on Game-Turn 48; US #1 SSN leaves the Sea of Japan for 4930 (High
    Seas, in no victory area); US #2 SSN, alone for SEATO in the Sea of Okhotsk bastion (4929),
    is at D2; SO CG #2 (ECM 4, in the Sea of Japan) at D1; SEATO earned the '*' award "3 US
    SSNs in the bastion" on four earlier turns (``award_turns``).

    East Block: the Sea of Japan, where SEATO has no ship or sub left and the East Block has
    twelve (CG #2 at D1 still counts: only D2 and worse are removed), 50; the Sea of Okhotsk,
    where SEATO's only ship, US #2 at D2, is removed before the assessment [11.5123] and SO #41
    SSN stands, 50; US #2 at D2, half its ECM 6, 3. Total 103.
    SEATO: SO CG #2 at D1, a quarter of ECM 4, 1; the '*' award four times, 4; none this turn
    (no undamaged US SSN in the bastion). Total 5. The Formosa Strait is held by both (Taiwan's
    DD #145 and SS #147 against the PRC's DE #102 and LSM #122): no award.
    Net 103 - 5 = 98: "East Block wins by 98 VP (East Block 103, SEATO 5): East Block
    Victory [DTP 11.5125]"."""
    state = turn_48({"US-SN-1": "4930"}, {"US-SN-2": 2, "SO-CG-2": 1})
    state = state.with_data(award_turns={"se_okhotsk_ssn": 4})
    before = RULESET.score(module(), state)
    assert before["vp"] == {"EastBlock": "3", "SEATO": "5"}  # no sea control before the end
    assert "result" not in before and before["final"] is False
    score, events = _the_end(state)
    assert score["vp"] == {"EastBlock": "103", "SEATO": "5"}
    assert score["net"] == "98" and score["level"] == "East Block Victory"
    assert _awards(score) == {"eb_sea_of_japan": 50, "eb_sea_of_okhotsk": 50, "se_okhotsk_ssn": 4}
    result = "East Block wins by 98 VP (East Block 103, SEATO 5): East Block Victory [DTP 11.5125]"
    assert score["result"] == result
    awarded = [(e.rule, e.data["award"], e.data["vp"]) for e in events if e.kind == "award"]
    assert awarded == [
        ("DTP 11.5123", "eb_sea_of_japan", 50),
        ("DTP 11.5123", "eb_sea_of_okhotsk", 50),
    ]
    over = events[-1]
    assert over.rule == "DTP 11.5125" and result in over.text
    assert over.data == {
        "winner": "EastBlock",
        "margin": "98",
        "level": "East Block Victory",
        "vp": {"EastBlock": "103", "SEATO": "5"},
        "net": "98",
    }
    board = scoreboard(module(), score, "westpac")
    assert board["final"] and board["result"] == result
    assert [(s["name"], s["total"]) for s in board["sides"]] == [
        ("East Block", 103),
        ("SEATO", 5),
    ]
    assert result in score_line(module(), score, "westpac")


def _quarter_point(extra: Mapping[str, int], *, older: bool = False) -> Mapping[str, object]:
    """The set-up on Game-Turn 48, every area held by both sides (no sea control), with
    US-LCC-26 at D1 and three East Block ships damaged, plus ``extra`` damage; played out.
    ``older``: a game begun before new games recorded ``mixed_fractions_11_5126`` (its
    ``earlier_starts`` reading)."""
    damage = {"US-LCC-26": 1, "SO-CG-7": 1, "SO-DD-8": 2, "SO-SG-51": 1, **extra}
    state = turn_48({}, damage)
    assert state.data["dtp_flags"]["mixed_fractions_11_5126"] is True  # a new game's
    if older:
        flags = {k: v for k, v in state.data["dtp_flags"].items() if k != MIXED}
        state = state.with_data(dtp_flags=flags)
    score, _ = _the_end(state)
    assert not _awards(score)  # each area held by both sides: no sea control [DTP 11.5123]
    return score


def test_a_tie_is_a_tie_with_the_fractions_kept() -> None:
    """[DTP 11.5125] "A tie is a tie", the fractions kept [11.5126], worked by hand.

    East Block: LCC #26 Blue Ridge at D1, double the usual (DTP-EX-11.5091: 10 VP sunk, so ECM
    5): 2 x 5/4 = 5/2. SEATO: SO CG #7 (ECM 3) at D1, 3/4; SO DD #8 (ECM 3) at D2, 3/2; SO SG
    #51 (ECM 1) at D1, 1/4: 5/2. No sea control: US #1 SSN stays in the Sea of Japan, US #2
    and SO #41 in the bastion, Taiwan and the PRC in the Formosa Strait. Net 0: "a tie (East
    Block 2 1/2, SEATO 2 1/2): Tie [DTP 11.5125]" in a new game, whose score says its
    fractions are mixed (the report prints them so); "a tie (East Block 5/2, SEATO 5/2)" in a
    game begun before (``mixed_fractions_11_5126`` off: its reports keep their words)."""
    shown = "a tie (East Block 2 1/2, SEATO 2 1/2): Tie [DTP 11.5125]"
    exact = "a tie (East Block 5/2, SEATO 5/2): Tie [DTP 11.5125]"
    for older, result in ((False, shown), (True, exact)):
        score = _quarter_point({}, older=older)
        assert score["vp"] == {"EastBlock": "5/2", "SEATO": "5/2"}  # exact in the JSON
        assert score["net"] == "0" and score["level"] == "Tie"
        assert score["result"] == result
        assert ("fractions" in score) is not older
        report = scoreboard(module(), score, "westpac")  # the report's table
        assert report["result"] == result
        assert [s["total"] for s in report["sides"]] == (
            ["5/2", "5/2"] if older else ["2 1/2", "2 1/2"]
        )
        # the viewer and state show: mixed numbers either way
        assert scoreboard(module(), score, "westpac", mixed=True)["result"] == shown
        assert shown in score_line(module(), score, "westpac")


def test_a_quarter_point_decides() -> None:
    """The same position with SO AK #79 (a convoy, '*' ECM) at D1 more: one damage level of
    three is a quarter of the convoy's 1 VP [DTP 11.50921, 11.5126], so SEATO has 5/2 + 1/4 =
    11/4 against 5/2: "SEATO wins by 1/4 VP (East Block 2 1/2, SEATO 2 3/4): SEATO Victory
    [DTP 11.5125]"."""
    score = _quarter_point({"SO-AK-79": 1})
    assert score["vp"] == {"EastBlock": "5/2", "SEATO": "11/4"}
    assert Fraction(str(score["net"])) == Fraction(-1, 4) and score["level"] == "SEATO Victory"
    shown = "SEATO wins by 1/4 VP (East Block 2 1/2, SEATO 2 3/4): SEATO Victory [DTP 11.5125]"
    assert score["result"] == shown
    for board in (
        scoreboard(module(), score, "westpac", mixed=True),  # the viewer's
        scoreboard(module(), score, "westpac"),  # the report's
    ):
        assert board["result"] == shown and board["net"] == "-1/4"
        assert [(s["name"], s["total"]) for s in board["sides"]] == [
            ("East Block", "2 1/2"),
            ("SEATO", "2 3/4"),
        ]
    assert shown in score_line(module(), score, "westpac")


def test_the_armistice_ends_the_game_early_with_its_result() -> None:
    """Optional rule [DTP 11.5132], worked by hand: hostilities began on Game-Turn 1, so the
    first armistice roll is on AM turn 22 (the first AM turn 21 turns later); a 1 on that
    first roll ends the game there, and the points are assessed [11.5132].

    Position: the set-up on Game-Turn 21 (night) with the option chosen, US #1 SSN moved out
    of the Sea of Japan to 4930; played out to the end of the turn, then the roll of 1. East
    Block: the Sea of Japan, 50 (the bastion and the Formosa Strait are held by both). SEATO:
    nothing. "East Block wins by 50 VP (East Block 50, SEATO 0): East Block Victory
    [DTP 11.5125]"."""
    m = module()
    state = set_up().evolve(turn=21, options=("11.5132",))
    game = Game.of(m, state)
    for unit, hex_id in {"US-LCC-26": "4045", "US-SN-1": "4930"}.items():
        state = move_piece(game, state, unit, hex_id)
    end, events, _ = play_out(state, dice=(1,))
    assert end.phase == flow.GAME_OVER and end.turn == 22
    assert RULESET.awaiting(m, end)[0] == ""
    assert any(e.rule == "DTP 11.5132" for e in events)
    score = RULESET.score(m, end)
    assert score["vp"] == {"EastBlock": "50", "SEATO": "0"}
    result = "East Block wins by 50 VP (East Block 50, SEATO 0): East Block Victory [DTP 11.5125]"
    assert score["result"] == result
    assert events[-1].kind == "game_over" and result in events[-1].text


def test_the_result_is_named_only_once_the_game_is_over() -> None:
    """Before the end the score has a level ("now") but no result, and sea control is not
    counted [DTP 11.5123]; the report's table then has no result line."""
    m = module()
    state = turn_48({"US-SN-1": "4930"}, {})
    score = RULESET.score(m, state)
    assert "result" not in score and not _awards(score)
    assert scoreboard(m, score, "westpac")["result"] is None
