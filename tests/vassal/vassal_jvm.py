"""Real VASSAL runs of the tests in one JVM per test process (``java/VBatch.java``).

A test asks for a run as it would start the shared checker (``vcheck VMOD SAVES...``, through
:func:`vcheck`) or the player harness (``VPlay VMOD ARGS...``, through
``tests.vassal.vplay_run.run_vplay``); the run goes to a JVM started on the first request of
the test process and kept until it ends, one for the checker's JVM options and one for the
player's. Each run has a class loader of its own over VASSAL and every library (fresh static
state: VASSAL's module singleton, image cache, logging and the checker's problem list), a new
configuration folder and its own output files, as a JVM of its own would; what is shared is
the JVM, the JDK and one Xvfb. A whole test session makes about 40 runs; each saves a JVM and
Xvfb start and the JDK's warm-up (docs/performance.md, "The test suite").

:func:`vcheck` gives the checker's verdict as its script does (exit 0 clean, 1 problems, 2
missing prerequisite or crash; the same summary and problem lines on stderr).
``REFEREE_TEST_JVM=each`` runs every request in a JVM of its own, as before (the checker's
script, ``java VPlay``): the same records, for comparing.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import re
import select
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from tests.conftest import once_per_session

ROOT = Path(__file__).resolve().parents[2]
VCHECK = ROOT.parent / "shared" / "tools" / "vassal-check" / "vcheck"
CHECKER = VCHECK.parent
SOURCE = Path(__file__).with_name("java") / "VBatch.java"
# a JVM whose heap after a run (garbage collected) is above this is replaced before the next
# run: a safety net, should something of a run outlive it (``VBatch.cleanUp`` ends what is
# known to: its threads, its drag listeners; with RUN_HEAP a JVM keeps 20-60 MB between runs)
HEAP_LIMIT_MB = 1000
# The batch JVM's own options: soft references are cleared at every collection, as weak ones
# are. A run's finished module stays reachable through VASSAL's and the JDK's soft caches
# (images, reflection data), which a collection keeps while the heap has room, so the heap
# grew by 70-90 MB a run and the JVM was replaced at HEAP_LIMIT_MB after about 12 runs; the
# caches' entries are made again when wanted (the same values). Measured beside the old heap
# (docs/performance.md, "The test suite"): 15 runs, median of 3, 36.7 s of CPU before (one
# JVM replaced), 34.8 s after (none); on the largest map VASSAL draws again what its caches
# dropped (three Westpac runs 11.8 -> 12.5 s).
RUN_HEAP = ("-Xmx2g", "-XX:SoftRefLRUPolicyMSPerMB=0")


def one_jvm_each() -> bool:
    """Whether every run starts a JVM of its own (``REFEREE_TEST_JVM=each``)."""
    return os.environ.get("REFEREE_TEST_JVM", "") == "each"


def library_jars() -> list[str]:
    """The checker's jars, then the Debian jars of its ``classpath.txt``, as ``vcheck`` has
    them; the missing ones are named by :func:`missing`."""
    listed = (CHECKER / "classpath.txt").read_text(encoding="utf-8").splitlines()
    jars = [str(CHECKER / "vcheck.jar"), str(CHECKER / "vassal-3.7.26.jar")]
    return jars + [ln for ln in listed if ln.strip() and not ln.startswith("#")]


def checker_java() -> str | None:
    """The Java that ``vcheck`` picks: Debian's Java 17 first, else the one on the PATH."""
    for java in sorted(Path("/usr/lib/jvm").glob("java-17-openjdk-*/bin/java")):
        if os.access(java, os.X_OK):
            return str(java)
    return shutil.which("java")


def missing() -> list[str]:
    """What ``vcheck`` would name as missing (empty when everything is installed)."""
    if not VCHECK.is_file():
        return [str(VCHECK)]
    gone = [t for t in ("xvfb-run", "xauth") if shutil.which(t) is None]
    if checker_java() is None:
        gone.insert(0, "java")
    for f in ("vcheck.jar", "vassal-3.7.26.jar", "logback.xml", "classpath.txt"):
        if not (CHECKER / f).is_file():
            gone.append(str(CHECKER / f))
    if (CHECKER / "classpath.txt").is_file():
        gone += [j for j in library_jars()[2:] if not Path(j).is_file()]
    return gone


@dataclass
class _Jvm:
    """One batch JVM under its own Xvfb, and the runs it has made."""

    proc: subprocess.Popen[bytes]
    work: Path
    runs: int = 0
    cpu_ms: int = 0  # the JVM's CPU time after its last run


@dataclass
class _Pool:
    jvms: dict[str, _Jvm] = field(default_factory=dict)

    def close(self, flavour: str | None = None) -> None:
        for name in [flavour] if flavour else list(self.jvms):
            jvm = self.jvms.pop(name, None)
            if jvm is None:
                continue
            try:
                assert jvm.proc.stdin is not None
                jvm.proc.stdin.close()
                jvm.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                _kill(jvm.proc)
            # reaped, the whole JVM's time is now this process's children's: its runs' share
            # leaves cpu_seconds (it was counted twice, in the test that ended the JVM)
            _CPU[0] -= jvm.cpu_ms / 1000
            shutil.rmtree(jvm.work, ignore_errors=True)


_POOL = _Pool()
atexit.register(_POOL.close)


_CPU = [0.0]


def cpu_seconds() -> float:
    """CPU time (user and system) the live batch JVMs of this process have spent on runs so
    far, counted when each run ends: a JVM is this process's child, but its time is counted
    as the process's children's only once it has ended and been reaped (``_Pool.close``),
    and from then on there alone (with its start, its idle time and its Xvfb's), so its runs
    leave this count then."""
    return _CPU[0]


def close_all() -> None:
    """End every batch JVM of this process (the next run starts a new one)."""
    _POOL.close()


# the JVM options of each kind of run, as the checker's script and ``run_vplay`` gave them
FLAVOURS = {
    "vcheck": ("-Dawt.useSystemAAFontSettings=on",),
    "vplay": (),
}


def _kill(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, 9)
    proc.wait()


def _compiled(javac: str) -> Path:
    """``VBatch.java`` compiled once per test session (it needs the JDK alone)."""
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]

    def compile_into(folder: Path) -> str:
        classes = folder / "classes"
        classes.mkdir()
        subprocess.run(
            [javac, "--release", "17", "-nowarn", "-d", str(classes), str(SOURCE)],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
        return str(classes)

    return Path(once_per_session(f"vbatch-classes-{digest}", compile_into)[1])


def _start(flavour: str, java: str, classpath: list[str]) -> _Jvm:
    javac = shutil.which("javac")
    assert javac, "javac is needed to compile the batch driver"
    work = Path(tempfile.mkdtemp(prefix=f"vbatch-{flavour}-"))
    proc = subprocess.Popen(
        [shutil.which("xvfb-run") or "xvfb-run", "-a", "-s", "-screen 0 1600x1200x24", java,
         *RUN_HEAP, "-Djava.security.manager=allow", f"-Duser.home={work}",
         f"-DVASSAL.conf={work / 'vassal'}",
         f"-Dlogback.configurationFile={CHECKER / 'logback.xml'}", *FLAVOURS[flavour],
         "-cp", str(_compiled(javac)), "VBatch", os.pathsep.join(classpath)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=(work / "jvm.stderr").open("wb"), start_new_session=True,
    )  # fmt: skip
    return _Jvm(proc, work)


def run_in_jvm(
    flavour: str,
    java: str,
    classpath: list[str],
    main: str,
    args: list[str],
    out: Path,
    timeout: float,
) -> int:
    """``java MAIN ARGS...`` as a run of the test process's batch JVM of ``flavour`` (started
    on first use; ``classpath`` and ``java`` are fixed by the first call of each flavour): its
    standard output in ``out``, its standard error in ``out.stderr``; its exit status (2 when
    it ended without one). A run over ``timeout`` seconds stops the JVM and raises
    :class:`subprocess.TimeoutExpired`, as ``subprocess.run`` would."""
    jvm = _POOL.jvms.get(flavour)
    if jvm is None or jvm.proc.poll() is not None:
        _POOL.close(flavour)
        jvm = _POOL.jvms[flavour] = _start(flavour, java, classpath)
    assert jvm.proc.stdin is not None and jvm.proc.stdout is not None
    conf = jvm.work / f"conf-{jvm.runs}"
    jvm.runs += 1
    fields = [main, str(out), str(conf), *args]
    assert not any("\t" in f or "\n" in f for f in fields), fields
    jvm.proc.stdin.write(("\t".join(fields) + "\n").encode("utf-8"))
    jvm.proc.stdin.flush()
    ready, _, _ = select.select([jvm.proc.stdout], [], [], timeout)
    line = jvm.proc.stdout.readline().decode("utf-8") if ready else ""
    if not line.startswith("DONE\t"):
        stderr = (jvm.work / "jvm.stderr").read_bytes().decode("utf-8", "replace")[-3000:]
        _kill(jvm.proc)
        _POOL.close(flavour)
        if not ready:
            raise subprocess.TimeoutExpired([main, *args], timeout)
        raise RuntimeError(f"the batch JVM ended during {main} {args}: {stderr}")
    _, status, heap, cpu_ms = line.rstrip("\n").split("\t")
    _CPU[0] += (int(cpu_ms) - jvm.cpu_ms) / 1000
    jvm.cpu_ms = int(cpu_ms)
    shutil.rmtree(conf, ignore_errors=True)
    if int(heap) > HEAP_LIMIT_MB:
        _POOL.close(flavour)
    return int(status)


def vcheck(
    files: list[Path] | list[str],
    out: Path,
    *,
    args: str = "",
    allow: str | None = None,
    timeout: float = 600,
) -> subprocess.CompletedProcess[str]:
    """``vcheck FILES...`` (a module, then saves and logs) with ``VCHECK_OUT=out``,
    ``VCHECK_ARGS=args`` and ``VCHECK_ALLOW=allow``: its exit status and what it printed on
    stderr, as the checker's script gives them, run in the test process's batch JVM."""
    argv = [str(VCHECK), *map(str, files)]
    if one_jvm_each():
        env = dict(os.environ, VCHECK_OUT=str(out), VCHECK_ARGS=args)
        env.pop("VCHECK_ALLOW", None)
        if allow is not None:
            env["VCHECK_ALLOW"] = allow
        return subprocess.run(
            argv, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    gone = missing()
    if gone:
        setup = CHECKER / "setup"
        return subprocess.CompletedProcess(
            argv, 2, "", f"vcheck: missing {' '.join(gone)}; run {setup} first\n"
        )
    for f in files:
        if not Path(f).is_file():
            return subprocess.CompletedProcess(argv, 2, "", f"vcheck: no such file: {f}\n")
    java = checker_java()
    assert java is not None
    resolved = [str(Path(f).resolve()) for f in files]
    for _ in range(2):  # once more on the watchdog's race only (EMPTY_DIALOG)
        status = run_in_jvm(
            "vcheck", java, library_jars(), "VCheck", [*resolved, *args.split()], out, timeout
        )
        got = _verdict(argv, status, out, allow)
        if got.returncode != 1 or not only_the_empty_dialog_race(out.read_text(encoding="utf-8")):
            break
    return got


EMPTY_DIALOG: Final = ["dialog", "title='null' text=''"]
"""The one problem a run is played again for: a dialog with neither title nor text. The
checker's dialog watchdog looks at the open windows every 150 ms and judges each window once;
it can meet VASSAL's side-choice wizard (which it accepts by its text) before Swing has filled
the text in, and then reports this empty dialog (seen in a VPlay run of the 2019 module and a
check of the imported tour module; the same runs were clean again). A second run that shows
it again, or any other problem, still fails."""


def only_the_empty_dialog_race(out: str) -> bool:
    """Whether the run's only problems are :data:`EMPTY_DIALOG` (see there)."""
    found = [ln.split("\t")[1:3] for ln in out.splitlines() if ln.startswith("PROBLEM\t")]
    return bool(found) and all(r == EMPTY_DIALOG for r in found)


def _verdict(
    argv: list[str], status: int, out: Path, allow: str | None
) -> subprocess.CompletedProcess[str]:
    """The checker script's verdict on a run's output file (``vcheck``'s own lines)."""
    text = out.read_text(encoding="utf-8") if out.is_file() else ""
    tags = [ln.split("\t", 1)[0] for ln in text.splitlines()]
    if "SUMMARY" not in tags:
        err = Path(f"{out}.stderr")
        tail = err.read_text(encoding="utf-8", errors="replace")[-2000:] if err.is_file() else ""
        return subprocess.CompletedProcess(
            argv, 2, "", f"vcheck: harness crashed (rc={status}); see {out} and {err}\n{tail}"
        )
    problems = [ln for ln in text.splitlines() if ln.split("\t", 1)[0] == "PROBLEM"]
    if allow:
        problems = [p for p in problems if not re.search(allow, p)]
    found = re.search(r"loaded by VASSAL ([0-9.]*)", text)
    lines = [
        f"vcheck: VASSAL {found.group(1) if found else ''}: {tags.count('SLOT')} piece slots, "
        f"{tags.count('LOAD')} set-up(s)/save(s) loaded, {tags.count('PIECE')} piece "
        f"placements; full output: {out}"
    ]
    if problems:
        lines.append(f"vcheck: VASSAL reported {len(problems)} problem(s):")
        lines += ["  " + p.split("\t", 1)[1] for p in problems]
    else:
        lines.append("vcheck: OK, VASSAL loaded everything cleanly")
    return subprocess.CompletedProcess(argv, 1 if problems else 0, "", "\n".join(lines) + "\n")
