"""The sequence of play the Sixth Fleet ruleset declares as data (``RulesetSchema.sequence``,
read by the VASSAL turn tracker) is the sequence its referee walks [4.0][12.1][12.2].

Plays the 10 Game-Turn Scenario with the scripted player and follows every step the engine
takes: each ``state.phase`` is a declared step, and within each Game-Turn the steps come in
the declared order, each of the declared player.
"""

from __future__ import annotations

from pathlib import Path

from referee.engine.ruleset import get_ruleset, parse_orders_for
from referee.engine.scripted import orders_for, orders_sha256
from referee.pbem import dice as dicemod
from referee.source.loader import load_module
from referee.source.schema import ruleset_schema

SRC = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet"


def test_the_referee_walks_the_declared_sequence() -> None:
    module, _ = load_module(SRC)
    assert module is not None
    schema = ruleset_schema(module.ruleset)
    assert schema is not None
    steps = schema.sequence
    rs = get_ruleset(module.ruleset)
    scenario = module.scenarios["short"]
    second = next(s for s in scenario.setup_order if s != scenario.first_player)
    role = {scenario.first_player: "first", second: "second"}
    secret = dicemod.SeedSecret.new("seq", 64, b"\x07" * 32)
    state = rs.new_game(module, "short", "g", ())
    seen: list[tuple[int, int]] = []  # (turn, declared step index)
    for k in range(1, 40):
        if state.phase != "game-over":
            matches = [
                i
                for i, s in enumerate(steps)
                if s.id == state.phase and s.player in ("", role.get(state.active_side or ""))
            ]
            assert matches, (state.phase, state.active_side)
            if not seen or seen[-1] != (state.turn, matches[0]):  # a step may take several
                seen.append((state.turn, matches[0]))
        text = orders_for(module, state, rs)
        if text is None or state.turn > 4:
            break
        doc = parse_orders_for(rs, text, "o.txt")
        dice = dicemod.CommittedDice(secret.seed(k), k, orders_sha256(text))
        state = rs.resolve(module, state, doc, dice).state
    assert state.turn > 3
    # set-up is the declared once-step; within each Game-Turn the order is the declared one
    assert {i for t, i in seen if t == 0} == {i for i, s in enumerate(steps) if s.once}
    for turn in {t for t, _ in seen if t > 0}:
        order = [i for t, i in seen if t == turn]
        assert order == sorted(order), (turn, order)
    # Game-Turn 1 is only the second player's Movement Phase [12.1]; Game-Turn 2 is the four
    # Player-Turn phases in the declared order [4.0]
    assert [(steps[i].id, steps[i].player) for t, i in seen if t == 1] == [("movement", "second")]
    assert [(steps[i].id, steps[i].player) for t, i in seen if t == 2] == [
        ("combat", "first"),
        ("movement", "first"),
        ("combat", "second"),
        ("movement", "second"),
    ]


def test_the_2019_schema_declares_the_2019_sequence() -> None:
    """DG Sixth Fleet (2019) [5.0]: the schema's steps are the phases its referee walks."""
    from referee.rules.sixth_fleet_2019.sequence import PHASES

    schema = ruleset_schema("sixth_fleet_2019")
    assert schema is not None
    assert [(s.id, s.name, s.rule) for s in schema.sequence] == [
        (p.id, p.title, p.rule) for p in PHASES
    ]
