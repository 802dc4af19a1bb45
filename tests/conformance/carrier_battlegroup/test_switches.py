"""Every switch of Carrier Battlegroup's ``Readings`` is tested both ways (issue 32): a test
with it on and one with it off (or the older play a game begun before records), each named
here and existing; a switch added without its pair fails."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from referee.rules.carrier_battlegroup.readings import FLAG_GENERATIONS, Readings

HERE = Path(__file__).resolve().parent

BOTH_WAYS: dict[str, tuple[str, str]] = {
    # switch: (file::test with it on, file::test with it off)
    "objective_ends_early": (
        "test_issue32_cases::test_5_0_step_10_completing_the_objective_early_ends_the_scenario",
        "test_issue32_cases::test_5_0_step_10_older_reading_plays_every_turn",
    ),
    "chits_on_entering": (
        "test_issue32_cases::test_16_1_extra_chits_only_in_the_turn_the_cvbg_enters_the_space",
        "test_issue32_cases::test_16_1_older_reading_draws_the_extra_chits_every_turn_there",
    ),
    "incident_units_leave": (
        "test_issue32_cases::test_18_1_step_4_incident_units_with_no_contact_leave_at_the_end_"
        "of_the_turn",
        "test_issue32_cases::test_18_1_step_4_older_reading_leaves_them_in_the_space",
    ),
    "land_aircraft_to_base": (
        "test_issue32_cases::test_9_2_a_land_based_aircraft_bought_at_sea_is_placed_on_a_nato_base",
        "test_issue32_cases::test_9_2_a_land_based_aircraft_bought_at_sea_is_placed_on_a_nato_base",
    ),
    "contact_chit_gives_edge": (
        "test_issue32_readings::test_18_0_reading_on_a_contact_chit_gives_the_usn_the_tactical_edge",
        "test_issue32_readings::test_18_0_reading_off_the_edge_is_read_on_the_contact_chart",
    ),
    "ssn_escort_never_targeted": (
        "test_issue32_readings::test_21_3_reading_on_a_usn_ssn_is_no_target_of_soviet_fire",
        "test_issue32_readings::test_21_3_reading_off_a_usn_ssn_stands_on_the_ssgn_line",
    ),
    "missiles_lost_per_damage_point": (
        "test_issue32_readings::test_15_1_reading_on_one_carried_missile_lost_per_damage_point",
        "test_issue32_readings::test_15_1_reading_off_one_carried_missile_lost_per_hit",
    ),
    "battle_result_without_missiles": (
        "test_issue32_readings::test_20_2_step_5_reading_on_missiles_are_left_out_of_the_result",
        "test_issue32_readings::test_20_2_step_5_reading_off_missiles_count_and_a_fired_one_is_"
        "lost",
    ),
    "strikes_stop_at_sbgs": (
        "test_issue32_partly::test_12_4_a_strike_stops_at_an_sbg_on_its_way",
        "test_issue32_partly::test_12_4_a_game_begun_before_the_ruling_keeps_strikes_flying_over",
    ),
    "breakoff_by_the_player": (
        "test_issue32_partly::test_18_2_the_cvbg_breaks_off_into_the_space_the_player_names",
        "test_issue32_partly::test_18_2_older_play_only_the_cvbg_breaks_off_toward_the_nearest_"
        "base",
    ),
    "label_readings": (
        "test_issue32_readings::test_18_0_reading_on_a_contact_chit_gives_the_usn_the_tactical_edge",
        "test_issue32_readings::test_a_game_begun_before_the_labels_replays_its_reports_unchanged",
    ),
    "special_crews_3_5": (
        "test_issue32_partly::test_3_5_the_camera_crew_publicizes_a_usn_win",
        "test_issue32_partly::test_3_5_older_play_the_camera_crew_scores_nothing",
    ),
    "systems_at_0_22_2": (
        "test_issue32_partly::test_22_2_ew_at_0_ceases_to_function_no_crew_revives_it_and_no_"
        "intelligence",
        "test_issue32_partly::test_22_2_older_play_the_carrier_rolls_its_intelligence_at_ew_0",
    ),
    "landings_23_2": (
        "test_issue32_partly::test_23_2_landed_marines_leave_the_carrier_and_stand_ashore",
        "test_issue32_partly::test_23_2_landed_marines_leave_the_carrier_and_stand_ashore",
    ),
}


def test_every_switch_has_its_pair_and_the_tests_exist() -> None:
    assert {f.name for f in dataclasses.fields(Readings)} == set(BOTH_WAYS)
    for switch, pair in BOTH_WAYS.items():
        for ref in pair:
            file, name = ref.split("::")
            text = (HERE / f"{file}.py").read_text("utf-8")
            assert f"def {name}(" in text, (switch, ref)


def test_every_recorded_ruling_is_a_switch() -> None:
    names = {f.name for f in dataclasses.fields(Readings)}
    for generation in FLAG_GENERATIONS:
        assert set(generation) <= names
