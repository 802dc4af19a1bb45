"""The sequence of play the Sixth Fleet ruleset declares as data (``RulesetSchema.sequence``,
read by the VASSAL turn tracker) is the sequence its referee walks [4.0][12.1][12.2].

Plays the 10 Game-Turn Scenario with the scripted player and follows every step the engine
takes: each ``state.phase`` is a declared step, and within each Game-Turn the steps come in
the declared order, each of the declared player.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.engine.ruleset import get_ruleset
from referee.engine.scripted import orders_for, orders_sha256
from referee.engine.sequence import SequenceOfPlay
from referee.pbem import dice as dicemod
from referee.source.loader import load_module
from referee.source.schema import PhaseDecl, ruleset_schema

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


def _sequences(ruleset_id: str) -> tuple[SequenceOfPlay[Any], ...]:
    """The engine sequences of play a bundled ruleset's turn tracker is read from (DTP's
    set-up is SPI's [11.0], which DTP keeps)."""
    from referee.rules.carrier_battlegroup.sequence import SEQUENCE as CBG
    from referee.rules.naval_module.sequence import PHASES as NAVAL
    from referee.rules.sixth_fleet_1975.sequence import SEQUENCE as SPI
    from referee.rules.sixth_fleet_2019.phases import PHASES as DG
    from referee.rules.sixth_fleet_dtp.sequence import PHASES as DTP

    return {
        "carrier_battlegroup": (CBG,),
        "naval_module": (NAVAL,),
        "sixth_fleet_1975": (SPI,),
        "sixth_fleet_2019": (DG,),
        "sixth_fleet_dtp": (DTP, SPI),
    }[ruleset_id]


def _assert_tracker_is_sequence(
    steps: tuple[PhaseDecl, ...], sequences: tuple[SequenceOfPlay[Any], ...]
) -> None:
    """Every tracker step is a phase of its own of one of ``sequences``, with that phase's
    title and case, its ``once``, and the phases played within it; every phase of the first
    sequence (``extra`` left out) is a tracker step or played within one."""
    for step in steps:
        seq = next((q for q in sequences if step.id in q), None)
        assert seq is not None, f"tracker step {step.id!r} is no phase of the sequence"
        phase = seq[step.id]
        assert phase.within is None, step.id
        title = phase.title[:1].upper() + phase.title[1:]
        assert (step.name, step.rule, step.once) == (title, phase.rule, phase.once), step
        assert step.within == seq.parts(phase.id), step
    shown = {i for s in steps for i in (s.id, *s.within)}
    game_over = {"game-over"}  # 1975's end of the game [13.0], no step of a Game-Turn
    assert {p.id for p in sequences[0]} - game_over <= shown


@pytest.mark.parametrize(
    "ruleset_id",
    [
        "carrier_battlegroup",
        "naval_module",
        "sixth_fleet_1975",
        "sixth_fleet_2019",
        "sixth_fleet_dtp",
    ],
)
def test_every_tracker_is_its_rulesets_sequence_of_play(ruleset_id: str) -> None:
    """The VASSAL turn tracker's steps (``RulesetSchema.sequence``) are the phases of the
    sequence of play the referee walks, titles and cases, declared once: the two cannot
    disagree."""
    schema = ruleset_schema(ruleset_id)
    assert schema is not None and schema.sequence
    _assert_tracker_is_sequence(schema.sequence, _sequences(ruleset_id))


def test_a_declared_games_tracker_is_its_declared_sequence() -> None:
    """A declared game [G2]: the tracker's steps are the engine's sequence made from its
    ``[[game.phase]]`` declarations."""
    from referee.source.gamedecl import sequence_of_play

    module, _ = load_module(SRC.parent / "strait_patrol")
    assert module is not None and module.game is not None and module.schema is not None
    seq = sequence_of_play(module.game.phases, "sequence")
    _assert_tracker_is_sequence(module.schema.sequence, (seq,))


def test_every_bundled_ruleset_is_held_to_its_sequence() -> None:
    """A new bundled ruleset joins the test above (the declared one is the test after it)."""
    from referee.source.schema import known_rulesets

    bundled = set()
    for rid in known_rulesets():
        schema = ruleset_schema(rid)
        rules = schema.rules if schema is not None else None
        if rules is not None and rules.__module__.startswith("referee.rules."):
            bundled.add(rid)
    assert bundled - {"declared"} == {
        "carrier_battlegroup",
        "naval_module",
        "sixth_fleet_1975",
        "sixth_fleet_2019",
        "sixth_fleet_dtp",
    }


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
