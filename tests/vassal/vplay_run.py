"""Running ``tests/vassal/java/VPlay.java`` (a player at the table in real VASSAL 3.7.26: keys
pressed as each roster side, maps drawn at 100 %) beside the shared checker: it is compiled
against the checker's jars into a temporary folder and run under Xvfb as ``vcheck`` runs
VASSAL. Skips (or fails under ``CI=true``) where the checker, Java or Xvfb is missing."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import bundled_vmod, once_per_session
from tests.vassal.requests import Requests
from tests.vassal.vassal_jvm import one_jvm_each, only_the_empty_dialog_race, run_in_jvm
from tests.vassal.vcheck_run import VCHECK, unavailable

SOURCE = Path(__file__).with_name("java") / "VPlay.java"


def _classpath(checker: Path) -> list[str]:
    jars = [checker / "vcheck.jar", checker / "vassal-3.7.26.jar"]
    listed = (checker / "classpath.txt").read_text(encoding="utf-8").splitlines()
    return [str(j) for j in jars] + [ln for ln in listed if ln and not ln.startswith("#")]


def run_vplay(vmod: Path, args: list[str], work: Path) -> tuple[int, str]:
    """``VPlay VMOD ARGS...``: (exit code, its output records, in ``work/vplay.txt``), run in
    the test process's batch JVM (:mod:`tests.vassal.vassal_jvm`; ``REFEREE_TEST_JVM=each``:
    a JVM of its own, VASSAL's throwaway configuration in ``work``)."""
    if not VCHECK.is_file():
        pytest.skip(f"the real-VASSAL checker is not here ({VCHECK}); it lives in ../shared")
    checker = VCHECK.parent
    java, javac, xvfb = (shutil.which(t) for t in ("java", "javac", "xvfb-run"))
    if not (java and javac and xvfb):
        unavailable("java, javac and xvfb-run are needed to play a module in real VASSAL")
    cp = _classpath(checker)
    classes = _compiled(javac, cp)
    out = work / "vplay.txt"
    if not one_jvm_each():
        code = run_in_jvm("vplay", java, [str(classes), *cp], "VPlay", [str(vmod), *args], out, 900)
        return code, out.read_text(encoding="utf-8")
    conf = Path(tempfile.mkdtemp(dir=work, prefix="vassal-conf-"))
    with out.open("w", encoding="utf-8") as fh:
        proc = subprocess.run(
            [str(xvfb), "-a", "-s", "-screen 0 1600x1200x24", str(java), "-Xmx2g",
             f"-Duser.home={conf}", f"-DVASSAL.conf={conf / 'vassal'}",
             f"-Dlogback.configurationFile={checker / 'logback.xml'}",
             "-cp", os.pathsep.join([str(classes), *cp]), "VPlay", str(vmod), *args],
            stdout=fh, stderr=subprocess.DEVNULL, timeout=900, check=False,
        )  # fmt: skip
    return proc.returncode, out.read_text(encoding="utf-8")


def _compiled(javac: str, cp: list[str]) -> Path:
    """``VPlay.java`` compiled once per test session for every test and worker (a compile
    costs a Java start and tens of seconds of CPU), keyed by its source and classpath."""
    digest = hashlib.sha256(SOURCE.read_bytes() + "\0".join(cp).encode()).hexdigest()[:16]

    def compile_into(folder: Path) -> str:
        classes = folder / "classes"
        classes.mkdir()
        subprocess.run(
            [javac, "--release", "17", "-nowarn", "-d", str(classes),
             "-cp", os.pathsep.join(cp), str(SOURCE)],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
        return str(classes)

    return Path(once_per_session(f"vplay-classes-{digest}", compile_into)[1])


def records(text: str, tag: str) -> list[list[str]]:
    """The fields after ``tag`` of each of its lines."""
    return [ln.split("\t")[1:] for ln in text.splitlines() if ln.split("\t", 1)[0] == tag]


# ---- one VPlay run per bundled module per session ------------------------------------------
#
# Each VPlay run loads its module into a fresh VASSAL (a class loader of its own, every class
# loaded and compiled again: seconds of CPU before the first key is pressed). So the tests do
# not each start a run: a test file declares what it asks of a module (``@plays(NAME, ...)``:
# the VPlay options, built from the run's folder), and the first test that reads a part
# (:func:`played`) plays every request declared for that module in one run, once for the
# session and both workers (:func:`once_per_session`). VPlay prints ``PART <option> [<save>]``
# before each part; a test reads the run's opening records (``SIDES``) and the parts of its own
# options only, with the same assertions as on a run of its own. Each part that needs a
# position loads its save first (VASSAL's game reset), so one part's key presses do not reach
# the next; the tracks are read before any save is loaded. Running one test file alone plays
# only that file's requests (docs/performance.md, "The test suite").

# VPlay's options and the part each one prints (those of REPEATED may repeat, one part a save)
PART_OF = {
    "--masks": "masks", "--dice": "dice", "--trails": "trails", "--sendto": "sendto",
    "--eliminate": "eliminate", "--trackkeys": "trackkeys", "--cups": "cups",
    "--faces": "faces", "--seen": "seen", "--tracks": "tracks", "--picture": "picture",
    "--turns": "turns",
}  # fmt: skip
REPEATED = ("--picture", "--seen", "--turns")


@dataclass(frozen=True, slots=True)
class Stage:
    """What a request is built from: the bundled module's name and the shared run's folder."""

    name: str
    folder: Path

    def setup(self) -> Path:
        """The module's first scenario set up as a game (``scenario_setup_vsav``), the save the
        trigger, face, Send To and cup requests load; written once in the run's folder."""
        from referee.source.loader import load_module
        from referee.vassal.position.placement import table_for
        from referee.vassal.position.setups import scenario_setup_vsav

        save = self.folder / "setup.vsav"
        if not save.is_file():
            root = Path(__file__).resolve().parents[2]
            module, _ = load_module(root / "module_src" / self.name)
            assert module is not None
            scenario = next(iter(module.scenarios))
            save.write_bytes(scenario_setup_vsav(table_for(module), scenario))
        return save


Request = Callable[[Stage], list[str]]
# module name -> (request's name, its builder), in the order the test files declared them
_REQUESTS: Requests[Request] = Requests("VPlay")


def plays(*names: str, request: str) -> Callable[[Request], Request]:
    """Declare a test file's VPlay request of each bundled module ``names`` (a decorator on
    the function that builds its options from a :class:`Stage`); ``request`` names it for
    :func:`played`. Two requests of one module may not use the same option (but those of
    :data:`REPEATED`): VPlay would play it once."""

    return _REQUESTS.declare(*names, request=request)


def _parts(args: list[str]) -> set[tuple[str, str]]:
    """The parts VPlay prints for ``args``: (part, its save for an option of
    :data:`REPEATED`, else "")."""
    return {
        (PART_OF[a], args[i + 1] if a in REPEATED else "")
        for i, a in enumerate(args)
        if a in PART_OF
    }


def played(name: str, request: str) -> str:
    """The records of ``request`` (declared by :func:`plays`) in the session's one VPlay run of
    the bundled module ``name``: the run's opening records, then each part of the request's
    options, with the ``PROBLEM`` records and ``SUMMARY`` of the whole run. The run must exit
    0: a problem in any part fails every test reading the run, naming the problems."""
    wanted = _REQUESTS.of(name, request)
    key = hashlib.sha256("\0".join(sorted(wanted)).encode()).hexdigest()[:12]

    def play(folder: Path) -> str:
        stage = Stage(name, folder)
        args: list[str] = []
        seen: dict[str, str] = {}
        for asked, build in wanted.items():
            mine = build(stage)
            for option in [a for a in mine if a in PART_OF]:
                if option in seen and option not in REPEATED:
                    raise AssertionError(f"{name}: {asked} and {seen[option]} both ask {option}")
                seen[option] = asked
            args += mine
            (folder / f"request-{asked}.txt").write_text("\n".join(mine), encoding="utf-8")
        code, out = run_vplay(bundled_vmod(name), args, folder)
        if code != 0 and only_the_empty_dialog_race(out):
            code, out = run_vplay(bundled_vmod(name), args, folder)
        if code != 0:
            raise AssertionError(f"VPlay {name} exit {code}: {records(out, 'PROBLEM')}")
        return out

    folder, out = once_per_session(f"vplay-{name}-{key}", play)
    mine = (folder / f"request-{request}.txt").read_text(encoding="utf-8").split("\n")
    return part(out, _parts(mine))


def part(out: str, parts: set[tuple[str, str]]) -> str:
    """The lines of a VPlay run's output before its first ``PART`` record and inside the
    ``parts`` named ((part, save) as :func:`_parts` gives them), with every ``PROBLEM`` and
    ``SUMMARY`` record wherever it is."""
    keep, inside = [], True
    for line in out.splitlines():
        tag = line.split("\t", 1)[0]
        if tag == "PART":
            f = line.split("\t")
            inside = (f[1], f[2] if len(f) > 2 else "") in parts
        elif inside or tag in ("PROBLEM", "SUMMARY"):
            keep.append(line)
    return "\n".join(keep) + "\n"


# the requests several test files read (the table buttons, the dice menu, the tracks)
@plays("sixth_fleet_dtp", "dtp_westpac", "carrier_battlegroup", request="dice")
def _dice(stage: Stage) -> list[str]:
    """Each toolbar menu listed, and every Dice Button pressed 24 times."""
    return ["--dice"]


@plays("carrier_battlegroup", request="tracks")
def _tracks(stage: Stage) -> list[str]:
    """The Tracks counter's +1/-1 buttons pressed (Carrier Battlegroup's VP and Alert)."""
    from referee.vassal.module.properties import TRACKS_PIECE

    return ["--tracks", TRACKS_PIECE]
