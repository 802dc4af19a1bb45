"""A real-VASSAL run (VPlay, vcheck) is played again only for the empty-dialog race."""

from __future__ import annotations

from tests.vassal.vassal_jvm import only_the_empty_dialog_race


def test_only_a_run_whose_one_problem_is_an_empty_dialog_is_played_again() -> None:
    empty = "PROBLEM\tdialog\ttitle='null' text=''\n"
    assert only_the_empty_dialog_race("SUMMARY\tPROBLEMS\t1\n" + empty)
    assert not only_the_empty_dialog_race("SUMMARY\tOK\t0\n")
    assert not only_the_empty_dialog_race("PROBLEM\tdialog\ttitle='Error' text='Bad Data'\n")
    assert not only_the_empty_dialog_race(empty + "PROBLEM\tlog-WARN(VASSAL)\tNo more than one\n")
