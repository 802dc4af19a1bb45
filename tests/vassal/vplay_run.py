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
from pathlib import Path

import pytest

from tests.conftest import bundled_vmod, once_per_session
from tests.vassal.vassal_jvm import one_jvm_each, run_in_jvm
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


def cbg_played(args: tuple[str, ...]) -> str:
    """Carrier Battlegroup's module built once per session and played by ``VPlay ARGS``
    once (the dice, tables and tracks tests read the same run): its output records."""
    from referee.source.loader import load_module

    root = Path(__file__).resolve().parents[2]

    def play(folder: Path) -> str:
        module, _ = load_module(root / "module_src" / "carrier_battlegroup")
        assert module is not None
        vmod = bundled_vmod("carrier_battlegroup")
        code, out = run_vplay(vmod, list(args), folder)
        if code != 0:
            raise AssertionError(f"VPlay exit {code}: {records(out, 'PROBLEM')}")
        return out

    key = hashlib.sha256("\0".join(args).encode()).hexdigest()[:12]
    return once_per_session(f"vplay-cbg-{key}", play)[1]
