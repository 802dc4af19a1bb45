"""A real-VASSAL run (VPlay, vcheck) is played again only for the empty-dialog race; a
shared run's problems are named by the load they are of."""

from __future__ import annotations

from tests.vassal.vassal_jvm import only_the_empty_dialog_race
from tests.vassal.vcheck_run import problems_by_load


def test_only_a_run_whose_one_problem_is_an_empty_dialog_is_played_again() -> None:
    empty = "PROBLEM\tdialog\ttitle='null' text=''\n"
    assert only_the_empty_dialog_race("SUMMARY\tPROBLEMS\t1\n" + empty)
    assert not only_the_empty_dialog_race("SUMMARY\tOK\t0\n")
    assert not only_the_empty_dialog_race("PROBLEM\tdialog\ttitle='Error' text='Bad Data'\n")
    assert not only_the_empty_dialog_race(empty + "PROBLEM\tlog-WARN(VASSAL)\tNo more than one\n")


def test_a_shared_runs_problems_name_the_load_they_are_of() -> None:
    """A problem in a shared vcheck run is named by its set-up or save (the checker reads a
    save's metadata, and may complain of it, before the save's LOAD line)."""
    out = (
        "PROBLEM\tslot\tPieceSlot 'x' builds no piece\n"
        "LOAD\tsetup:Opening\nPIECE\tsetup:Opening\tMain Map\n"
        "LOAD\t/run/good.vsav\nPROBLEM\tsave-metadata\t/run/bad.vsav: no module data\n"
        "LOAD\t/run/bad.vsav\nPROBLEM\tdecode\t/run/bad.vsav: GameModule.decode returned null\n"
        "PROBLEM\tlog-WARN(VASSAL)\tNo more than one\n"
    )
    assert problems_by_load(out) == [
        "in the module: slot PieceSlot 'x' builds no piece",
        "in /run/bad.vsav: save-metadata /run/bad.vsav: no module data",
        "in /run/bad.vsav: decode /run/bad.vsav: GameModule.decode returned null",
        "in /run/bad.vsav: log-WARN(VASSAL) No more than one",
    ]
