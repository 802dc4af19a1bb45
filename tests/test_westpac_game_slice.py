"""The end of a Westpac game [DTP 11.5] played as a signed PBEM game, then ``verify``.

The whole 48 Game-Turns by email are ``bench/bench_westpac.py``'s (some 600 steps: minutes of
CPU); the suite plays the end of the last Game-Turn. The archive's start is a position reached
lawfully: :class:`LateWestpac` is the DTP ruleset whose ``new_game`` is the scenario's
``new_game`` followed by the game played in-process up to the combat phase of Game-Turn 48
(:data:`START`), every file checked by ``validate`` and carried out by ``resolve`` with
seeded dice, the invariants after each step: the scripted set-up and announcement; through
Game-Turn 47 *passive* files (no move, every combat impulse a pass) except where the phase
asks for more (reinforcements, the variable air unit, rebasing: the scripted player's file;
and the scripted file wherever ``validate`` refuses the passive one, e.g. a command ship that
must put to sea [DTP 11.5091] or ship reinforcements over the limit [DTP 11.5063]); Game-Turn
48's movement phases by the scripted player, so that the two fleets meet. The game is created,
adjudicated and verified with that ruleset, so ``verify`` compares report 000 with that start
(played once per process) and proves every step after it (signatures, hash chain, dice,
replay, every file rendered again); what it does not prove is the in-process play before the
start, which is the rules' own code run the same way.

From there the scripted player (the whole-game tests' seeded random player: attacks, strikes,
bounces, passes, rebasing) plays to the end through the PBEM pipeline: each file signed with
its side's demo key and adjudicated (``adjudicate``: reports, views, options, position picture
and save, signatures). After every step: the invariants of the whole-game benchmark
(:func:`invariants`: one place per unit, damage never down, losses never given back, stacking
with the [DTP 11.5063] exception), the score equal to a recount and the report's score table
agreeing with the events (``agrees``; the damage done before the start is given). At the end
[DTP 11.5103]: the game is over, the result is the one the table gives for the recounted
totals with sea control assessed [DTP 11.5123, 11.5125], named in the last report (its events
with the case, its score table, Markdown and HTML), in the viewer's data and in ``state
show``'s score line; then ``verify`` of the archive.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from referee.engine.core import Event, GameState, SeededDice
from referee.pbem.scoreboard import score_line
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.stacking import AIR_LIMIT, NAVAL_LIMIT, counts
from referee.rules.sixth_fleet_dtp import flow
from referee.rules.sixth_fleet_dtp.ruleset import RULESET, SixthFleetDTP
from referee.rules.sixth_fleet_dtp.victory import level_11_3
from referee.rules.sixth_fleet_dtp.westpac_overstack import KEY as OVER_LIMIT
from referee.rules.sixth_fleet_dtp.westpac_victory import awards_11_5124
from referee.source.model import Module
from tests.conformance.rulesets.dtp_westpac import module
from tests.rules.test_sixth_fleet_dtp_games import check
from tests.rules.test_sixth_fleet_dtp_westpac_score import agrees, sea_control, westpac_recount
from tests.test_westpac_game_end import passive_text

OPTIONS = ("11.5131", "11.5133", "11.5134")  # 11.5132 (the armistice) could end it early
START = (48, "combat")  # the PBEM game begins with the last Game-Turn's combat phase
KEYS = {"EastBlock": "soviet", "SEATO": "nato"}  # demo keys: public seeds, tests only
LEVELS = ("SEATO Victory", "Tie", "East Block Victory")


def invariants(game: Game, before: GameState, after: GameState) -> list[str]:
    """:func:`check` of the whole-game tests, with stacking as Westpac has it: a hex that
    ship reinforcements left over the naval limit may stay so until its owner's ship and sub
    movement ends [DTP 11.5063] (``state.data["over_limit_11_5063"]``)."""
    bad = [b for b in check(game, before, after) if " naval and " not in b]
    allowed = {(s, h) for s, hexes in (after.data.get(OVER_LIMIT) or {}).items() for h in hexes}
    for hex_id in after.stacks:
        for side in game.sides:
            naval, air = counts(game, after, hex_id, side)
            if air > AIR_LIMIT or (naval > NAVAL_LIMIT and (side, hex_id) not in allowed):
                bad.append(f"{side} has {naval} naval and {air} air units in {hex_id}")
    return bad


def played_in_process(module: Module, state: GameState, start: tuple[int, str]) -> GameState:
    """``state`` played in-process until Game-Turn ``start[0]`` reaches phase ``start[1]``:
    the scripted set-up and announcement, passive files where ``validate`` takes them before
    that Game-Turn, the scripted player's elsewhere and in it (the module docstring); seeded
    dice, the invariants after each step."""
    game = Game.of(module, state)
    k = 0
    while (state.turn, state.phase) != start and state.phase != flow.GAME_OVER:
        k += 1
        doc = None
        text = passive_text(module, state) if state.turn < start[0] else None
        if text is not None:
            doc = RULESET.parse_orders(text, f"step-{k}.txt")
            if RULESET.validate(module, state, doc):
                doc = None
        if doc is None:
            text = RULESET.scripted_orders(module, state)
            assert text is not None
            doc = RULESET.parse_orders(text, f"step-{k}.txt")
            assert not RULESET.validate(module, state, doc), (k, text)
        out = RULESET.resolve(module, state, doc, SeededDice(k))
        assert out.ok, (k, out.violations)
        assert not invariants(game, state, out.state), (k, invariants(game, state, out.state))
        state = out.state
    return state


class LateWestpac(SixthFleetDTP):
    """The DTP ruleset whose new game starts at :data:`START` (the module
    docstring): what ``referee new`` would record had the game been begun there."""

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        key = (str(module.root), scenario, game_id, options)
        if key not in _STARTS:  # `referee new` and `verify` ask for it: played once
            start = RULESET.new_game(module, scenario, game_id, options)
            _STARTS[key] = played_in_process(module, start, START)
        return _STARTS[key]


_STARTS: dict[tuple[str, str, str, tuple[str, ...]], GameState] = {}


def _events(report: dict[str, Any]) -> list[Event]:
    return [
        Event(e.get("kind", ""), e.get("rule", ""), e.get("text", ""), e.get("data") or {})
        for e in report.get("events") or []
    ]


def _mixed(v: Fraction) -> str:
    """``v`` as people read it: 49 3/4, 1/4, 50."""
    whole, part = divmod(v.numerator, v.denominator)
    if not part:
        return str(whole)
    return f"{whole} {part}/{v.denominator}" if whole else f"{part}/{v.denominator}"


def _expected_result(game: Game, vp: dict[str, Fraction], shown: bool = False) -> str:
    """The result sentence for the recounted totals [DTP 11.5125], made here independently:
    with exact fractions (199/4, the words of a game begun before new games recorded
    ``mixed_fractions_11_5126``), or ``shown`` in mixed numbers (49 3/4: a new game's record
    and reports, the viewer and ``state show``) [DTP 11.5126]."""
    say = _mixed if shown else str
    names = {s.id: s.name for s in game.module.sides}
    a, b = game.flags.soviet_side, game.flags.nato_side
    net = vp[a] - vp[b]
    level = level_11_3(game.module, net)
    totals = f"{names[a]} {say(vp[a])}, {names[b]} {say(vp[b])}"
    if net == 0:
        return f"a tie ({totals}): {level} [DTP 11.5125]"
    winner, margin = (a, net) if net > 0 else (b, -net)
    return f"{names[winner]} wins by {say(margin)} VP ({totals}): {level} [DTP 11.5125]"


@pytest.mark.slow
def test_the_last_game_turn_by_email_reaches_the_result_and_verifies(tmp_path: Path) -> None:
    from referee.demos.base import demo_key
    from referee.pbem.adjudicate import adjudicate
    from referee.pbem.game import create_game
    from referee.pbem.signing import sign_orders
    from referee.pbem.verify import verify_archive
    from referee.viewer.archive import archive_steps
    from referee.viewer.data import viewer_model

    m, rs = module(), LateWestpac()
    keys = {side: demo_key(name) for side, name in KEYS.items()}
    ref = demo_key("referee")
    game_dir, secret = tmp_path / "game", tmp_path / "referee"
    create_game(
        game_dir,
        m,
        scenario="westpac",
        players={side: k.public for side, k in keys.items()},
        referee_key=ref,
        options=OPTIONS,
        game_id="westpac-end",
        referee_dir=secret,
        seed_root=b"referee tests: the end of a Westpac game",
        ruleset=rs,
    )
    state = GameState.from_json(json.loads((game_dir / "state.json").read_text("utf-8")))
    assert (state.turn, state.phase) == START
    game = Game.of(m, state)
    start_losses = frozenset(
        [str(x["unit"]) for x in state.data.get("losses", ())]
        + list(state.data.get("damage") or {})
        + [f"base {h}" for h in state.data.get("base_damage") or {}]
    )  # what the in-process turns did: no event of this archive tells it
    events: list[Event] = []
    steps = 0
    while True:
        text = RULESET.scripted_orders(m, state)
        if text is None:
            break
        steps += 1
        side = text.split("side: ", 1)[1].split("\n", 1)[0]
        path = tmp_path / "orders.txt"
        path.write_text(sign_orders(text, "orders.txt", keys[side], game_dir).text, "utf-8")
        (step,) = adjudicate(
            game_dir, [path], referee_key=ref, module=m, referee_dir=secret, ruleset=rs
        )
        after = GameState.from_json(json.loads((game_dir / "state.json").read_text("utf-8")))
        assert not invariants(game, state, after), (steps, invariants(game, state, after))
        events += _events(step.report)
        bad = agrees(game, after, events, start_losses)
        assert not bad, (steps, bad)
        assert RULESET.score(m, after)["level"] in LEVELS
        state = after
        assert steps < 60, "one Game-Turn is fewer steps"
    assert state.phase == flow.GAME_OVER and state.turn == START[0]
    assert RULESET.awaiting(m, state)[0] == ""
    # the result the table gives for the recounted totals, sea control assessed now
    vp = westpac_recount(game, state)
    result = _expected_result(game, vp, shown=True)  # a new game: mixed numbers [DTP 11.5126]
    score = RULESET.score(m, state)
    assert score["final"] and score["vp"] == {s: str(v) for s, v in vp.items()}
    assert score["result"] == result
    ends = {a.id for a in awards_11_5124(m) if a.per == "end"}
    assert sum(b["vp"] for b in score["bonuses"] if b["id"] in ends) == sum(
        sea_control(game, state).values()
    )
    # named in the last report: the event with its case, the score table
    last = step.report
    assert last["score"]["result"] == result
    over = [e for e in last["events"] if e["kind"] == "game_over"]
    assert len(over) == 1 and over[0]["rule"] == "DTP 11.5125" and result in over[0]["text"]
    folder = sorted((game_dir / "turns").iterdir())[-1]
    md = (folder / "report.md").read_text("utf-8")  # the reports print the record's words
    assert "## Score (final) [DTP 11.5124]" in md and f"**Result**: {result}." in md
    assert f"<b>Result</b>: {result}." in (folder / "report.html").read_text("utf-8")
    shown = result  # in mixed numbers wherever people read it
    assert shown in score_line(m, score, "westpac")  # `referee state show`
    docs, _, referee = archive_steps(game_dir, m, rs, "SEATO")
    model = viewer_model(m, docs, side="SEATO", referee=referee)
    assert model["steps"][-1]["score"]["result"] == shown  # the viewer
    v = verify_archive(game_dir, m, ruleset=rs)
    assert v.reports == steps + 1 and not v.unchecked
