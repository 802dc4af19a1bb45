"""The sequence of play the Sixth Fleet ruleset declares as data (``RulesetSchema.sequence``,
read by the VASSAL turn tracker) is the sequence its referee walks [4.0][12.1][12.2].

Plays the 10 Game-Turn Scenario with the scripted player and follows every step the engine
takes: each ``state.phase`` is a declared step, and within each Game-Turn the steps come in
the declared order, each of the declared player.
"""

from __future__ import annotations

from pathlib import Path

from referee.engine.ruleset import get_ruleset
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
        doc = rs.parse_orders(text, "o.txt")
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


def _walk(source: Path, scenario_id: str, steps: int) -> list[tuple[int, str, str]]:
    """Plays ``scenario_id`` with the scripted player: each (Game-Turn, ``state.phase``, the
    phasing side) the referee waits on, in order."""
    module, _ = load_module(source)
    assert module is not None
    rs = get_ruleset(module.ruleset)
    secret = dicemod.SeedSecret.new("seq", 64, b"\x07" * 32)
    hidden_secret = dicemod.SeedSecret.new("seq-hidden", 64, b"\x09" * 32)
    state = rs.new_game(module, scenario_id, "g", ())
    seen: list[tuple[int, str, str]] = []
    for k in range(1, steps):
        phasing = state.data.get("phasing")
        seen.append((state.turn, state.phase, str(phasing or state.active_side or "")))
        text = orders_for(module, state, rs)
        if text is None:
            break
        doc = rs.parse_orders(text, "o.txt")
        # Carrier Battlegroup hides rolls from the player [4.0]: a hidden seed of its own
        hidden = hidden_secret.seed(k)
        dice = dicemod.CommittedDice(secret.seed(k), k, orders_sha256(text), hidden_seed=hidden)
        state = rs.resolve(module, state, doc, dice).state
    return seen


def _declared_index(steps: tuple, phase: str, role: str) -> int | None:
    return next(
        (i for i, s in enumerate(steps) if phase in (s.id, *s.within) and s.player in ("", role)),
        None,
    )


def test_the_naval_module_declares_the_phases_its_referee_walks() -> None:
    """Naval module: every step the referee waits on (sub-steps such as the host game's
    air combat [31.13] or the coast artillery [27.12] included) is a declared phase of the
    phasing player, Naval Readiness [25.32] to Combat [29.0], the first player's turn
    before the second's, each Game-Turn in the declared order."""
    from referee.rules.naval_module.sequence import PHASES

    schema = ruleset_schema("naval_module")
    assert schema is not None
    steps = schema.sequence
    assert [s.player for s in steps] == ["first"] * 5 + ["second"] * 5
    covered = {i for s in steps for i in (s.id, *s.within)}
    assert covered == {p.id for p in PHASES}  # every referee step has its phase
    src = SRC.parent / "naval_module"
    seen = _walk(src, "kerch_feodosia", 60)
    role = {"Axis": "first", "Soviet": "second"}  # the scenario's first_player is Axis
    order = []
    for turn, phase, phasing in seen:
        if phase == "game_over":
            continue
        index = _declared_index(steps, phase, role[phasing])
        assert index is not None, (turn, phase, phasing)
        order.append((turn, index))
    turns = {t for t, _ in order}
    assert len(turns) >= 2
    for turn in turns:
        indices = [i for t, i in order if t == turn]
        assert indices == sorted(indices), (turn, indices)
        assert {steps[i].player for i in indices} == {"first", "second"}


def test_carrier_battlegroup_declares_its_sequence_of_play() -> None:
    """Carrier Battlegroup [4.0] set-up then [5.0]'s ten phases, in the rulebook's order;
    every step the referee waits on is one of them (set-up the once-steps, a turn's orders
    the Intelligence Phase where a turn begins)."""
    schema = ruleset_schema("carrier_battlegroup")
    assert schema is not None
    steps = schema.sequence
    assert [s.name for s in steps if not s.once] == [
        "Intelligence Phase",
        "Logistics Phase",
        "Movement Phase",
        "Incident Phase",
        "USN Launch Phase",
        "Combat Phase",
        "Objective Phase",
        "Recovery Phase",
        "Victory Phase",
        "End of Turn",
    ]
    assert all(s.rule == "5.0" for s in steps if not s.once)
    assert all(s.rule == "4.0" for s in steps if s.once)
    seen = _walk(SRC.parent / "carrier_battlegroup", "mission", 12)
    phases = [p for _, p, _ in seen if p != "over"]
    assert {"setup", "outfit", "turn"} <= set(phases)
    for turn, phase, _ in seen:
        if phase == "over":
            continue
        index = _declared_index(steps, phase, "")
        assert index is not None, (turn, phase)
        assert steps[index].once == (turn == 0), (turn, phase)
