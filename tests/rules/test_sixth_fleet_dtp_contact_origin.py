"""Strike Contact counts from where the strikers began this turn's air movement, their base
or carrier [DTP 8.15 step 1], not from the hex next to the target they flew to."""

from __future__ import annotations

from referee.engine.core import Event, ScriptedDice
from referee.engine.orders import parse_orders
from referee.rules.sixth_fleet_dtp import flow
from referee.rules.sixth_fleet_dtp.combat_phase import carry_out_impulse_8_2
from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY
from tests.rules.test_sixth_fleet_dtp_combat_phase import impulse, start


def _contact_text(origin: dict[str, str]) -> str:
    game, state = start()
    state = impulse(game, state, "NATO", "attack US-F4C.1 -> SO-M23.1", [2, 4, 4])
    state = impulse(game, state, "Soviet", "attack SO-SG-1 -> US-DD-1 US-CG-2 first-strike", [2, 3])
    state = state.with_data(origin=origin)
    text = "game: g\nturn: 4\nside: NATO\nphase: combat\n\n[combat]\nstrike US-S3.1 -> SO-SG-1\n"
    events: list[Event] = []
    carry_out_impulse_8_2(
        game, state, "NATO", parse_orders(text, "o", VOCABULARY).orders, ScriptedDice([3]), events
    )
    return next(e.text for e in events if e.kind == "contact")


def test_the_row_is_the_distance_from_the_origin() -> None:
    assert "distance 1 is row 1" in _contact_text({})  # it began next to the target (CAP)
    assert "distance 6 is row 6" in _contact_text({"US-S3.1": "0811"})


def test_air_movement_records_where_each_flier_began() -> None:
    game, state = start()
    state = state.evolve(phase="air_movement_b", active_side="NATO")
    text = "game: g\nturn: 4\nside: NATO\n\n[movement]\nmove US-S3.1 0816 0916\n"
    doc = parse_orders(text, "o", VOCABULARY)
    assert flow.check(game, state, "NATO", doc.orders) == []
    after = flow.carry_out(game, state, "NATO", doc.orders, ScriptedDice([]), [])
    assert after.data["origin"] == {"US-S3.1": "0816"}
    assert after.units["US-S3.1"].location == "0916"
