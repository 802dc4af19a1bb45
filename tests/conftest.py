"""Shared test set-up: commands run by the tests use a cache folder of their own.

Commands turn the picture and module-source cache on (:mod:`referee.cache`); the tests must
never read or fill the user's ``~/.cache/referee``, so the whole session shares one
temporary cache folder, every worker process of it too (entries are written atomically, as
for concurrent commands). Sharing it also means every command test after the first runs with
a warm cache, which the byte-identical outputs the tests expect must survive.

Expensive things are made once per session, not once per worker: each demo
(:func:`finished_demo`) and anything else through :func:`once_per_session`; ``make test`` runs
each test file whole on one worker (``--dist loadfile``), so a module-scoped fixture is made
once too.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import resource
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# Hypothesis runs every "hypothesis" entry point of the installed packages when it is imported:
# the one installed is trio's (for trio's own scheduler under Hypothesis; no test here runs
# trio), and it imported trio into every test process's collection, about 0.15-0.25 s of CPU
# a process. Set before any test module imports Hypothesis; a value the user set is kept.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")


@pytest.fixture(autouse=True, scope="session")
def _session_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    previous = os.environ.get("REFEREE_CACHE")
    _SHARED[:] = [session_folder(tmp_path_factory)]
    folder = _SHARED[0] / "referee-cache"
    folder.mkdir(exist_ok=True)
    os.environ["REFEREE_CACHE"] = str(folder)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("REFEREE_CACHE", None)
        else:
            os.environ["REFEREE_CACHE"] = previous


# The JVMs the tests start (real VASSAL through ``vcheck`` and ``VPlay``, ``javac``) are short
# runs: the C1 compiler alone and the serial collector spend about 45 % less CPU on them than
# Java's defaults (a vcheck of the 2019 module: 9.0 s -> 5.1 s of CPU, the same output
# records), and neither changes what a program computes. ``JAVA_TOOL_OPTIONS`` is read by every
# JVM; an option the user set is kept, after these.
JAVA_FOR_TESTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


@pytest.fixture(autouse=True, scope="session")
def _short_jvms() -> Iterator[None]:
    previous = os.environ.get("JAVA_TOOL_OPTIONS")
    os.environ["JAVA_TOOL_OPTIONS"] = " ".join(filter(None, (JAVA_FOR_TESTS, previous)))
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("JAVA_TOOL_OPTIONS", None)
        else:
            os.environ["JAVA_TOOL_OPTIONS"] = previous


def _hypothesis_without_deadlines() -> None:
    """The suite's Hypothesis settings: no deadline and no "too slow" health check. ``make
    test`` runs more workers than the machine has cores (tests/lanes.py), so how long one
    example took says how busy the machine was, not how slow the code is: an example of a
    quarter of a millisecond took 268 ms once and failed its 200 ms deadline. What each
    property checks is unchanged; the speed of the code is measured by ``bench/``."""
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "referee-suite", deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    settings.load_profile("referee-suite")


_hypothesis_without_deadlines()


@dataclass(frozen=True, slots=True)
class DemoRun:
    """One bundled game's demo as ``make demo`` runs it (``python -m referee.demos --only
    NAME``): its output folder (``game/``, ``keys/``, ``orders/``, ``referee/``, ``viewer/``)
    and everything it printed, the runner's table of results included."""

    out: Path
    printed: str

    @property
    def game(self) -> Path:
        return self.out / "game"


# The Sixth Fleet (1975) demo runs with its play aids (``tests/test_demo.py`` reads them; its
# game archive is byte-identical without them, which that file checks); the others without.
WITH_PLAY_AIDS = frozenset({"sixth_fleet"})


def session_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder every process of this test session shares. Under pytest-xdist
    (``make test`` runs four workers) each worker's base folder is ``popen-gwN`` inside the
    controller's, so their parent is common; in a single process it is the base folder."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


# the folder of :func:`session_folder`, recorded by the session's first fixture (autouse)
_SHARED: list[Path] = []


def once_per_session(key: str, make: Callable[[Path], str]) -> tuple[Path, str]:
    """Run ``make(folder)`` once for the whole test session, whichever worker asks first, and
    hand every later caller (in any worker) the same folder and text. A file lock keeps the
    other workers waiting while it runs; a failure is recorded and raised again for each
    caller with the first run's message, not retried. ``key`` names what is made (a file
    name); put a digest of its inputs in it where they could differ within a session."""
    from filelock import FileLock

    assert _SHARED, "once_per_session is for tests and fixtures, after the session starts"
    root = _SHARED[0]
    folder = root / f"once-{key}"
    done, failed = folder / "done.txt", folder / "failed.txt"
    with FileLock(str(root / f"once-{key}.lock")):
        if not done.is_file() and not failed.is_file():
            folder.mkdir(exist_ok=True)
            try:
                text = make(folder)
            except Exception as e:  # not a skip: another caller may skip too
                failed.write_text(f"{type(e).__name__}: {e}", encoding="utf-8")
                raise
            done.write_text(text, encoding="utf-8")
    if failed.is_file():
        pytest.fail(f"{key}, made once for the session, failed: " + failed.read_text("utf-8"))
    return folder, done.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def finished_demo() -> Callable[[str], DemoRun]:
    """The finished demo of a bundled module (``referee.demos``: ``sixth_fleet``,
    ``dtp_denmark_strait``, ``dtp_westpac``, ``sixth_fleet_2019``, ``carrier_battlegroup``,
    ``naval_module``, ``strait_patrol``), played once per test session on first use, through
    the demo runner, and shared by every test that reads it, in every worker process
    (:func:`once_per_session`). Read it; copy it before changing anything."""
    made: dict[str, DemoRun] = {}

    def get(name: str) -> DemoRun:
        if name not in made:
            folder, printed = once_per_session(f"demo-{name}", lambda f: _play(name, f / "out"))
            made[name] = DemoRun(folder / "out", printed)
        return made[name]

    return get


def _play(name: str, out: Path, cache: Path | None = None) -> str:
    """Play one demo as ``make demo`` does (``python -m referee.demos --only NAME``, a process
    of its own, with the session's cache), into ``out``; what it printed (standard output and
    error, in order).

    A process of its own, not the test process: played inside a long-lived test worker, the
    Westpac demo cost about 147 s of CPU against 100 s on its own (3.6 million minor page
    faults against 0.7 million, most of the difference in the system time of its heaviest
    steps), and the worker kept its 800 MB and every object the game left in its caches for
    the rest of the session (docs/performance.md, "The test suite")."""
    import subprocess

    from referee.demos import DEMOS

    demo = next(d for d in DEMOS if d.name == name)
    env = {**os.environ, importlib.import_module(demo.module).OUT_ENV: str(out)}
    if cache is not None:  # played ahead by the controller, which runs no session fixture
        env["REFEREE_CACHE"] = str(cache)
    env["PYTHONUNBUFFERED"] = "1"  # its two streams in the order they were written
    flags = [] if name in WITH_PLAY_AIDS else ["--no-play-aids"]
    ran = subprocess.Popen(
        [sys.executable, "-m", "referee.demos", "--only", name, *flags],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        cwd=Path(__file__).resolve().parents[1],
    )  # fmt: skip
    assert ran.stdout is not None
    with ran.stdout:
        printed = ran.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(ran.pid, 0)  # the demo's own CPU, whatever else ends meanwhile
    ran.returncode = os.waitstatus_to_exitcode(status)
    _DEMO_CPU[name] = usage.ru_utime + usage.ru_stime
    assert ran.returncode == 0, printed[-3000:]
    return printed


# The demos in the order they are played ahead (``--demos-ahead``): the most read first, the
# Westpac demo (the longest, read by one test) last.
DEMOS_AHEAD = (
    "sixth_fleet_2019",
    "naval_module",
    "dtp_denmark_strait",
    "sixth_fleet",
    "carrier_battlegroup",
    "strait_patrol",
    "dtp_westpac",
)
_AHEAD: list[threading.Thread] = []
_CPU_AHEAD: dict[str, float] = {}  # demo -> CPU (user + system) of its play ahead
_DEMO_CPU: dict[str, float] = {}  # demo -> CPU (user + system) of its play by this process


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--demos-ahead",
        action="store_true",
        help="play every demo of finished_demo once, beside the tests, from the session's "
        "start (make test), so a test that reads one rarely waits for its game",
    )
    parser.addoption(
        "--lane",
        action="append",
        default=[],
        metavar="KIND[+KIND]",
        help="with pytest-xdist's --dist loadfile: give the files of KIND (vassal: real "
        "VASSAL; browser: headless Chromium) a worker of their own, the last worker the "
        "first --lane named; the other workers take the other files (tests/lanes.py)",
    )
    parser.addoption(
        "--record-costs",
        action="store_true",
        help="write each test file's CPU in this session to tests/file_costs.txt (the files "
        "not run keep their lines), the order make test hands the files out in",
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    """With ``--demos-ahead``, the process that runs the session (pytest-xdist's controller,
    or the one test process) plays every demo through :func:`once_per_session` on a thread
    of its own, one after another, while the workers run tests. A test that asks for a demo
    takes it when done, or plays it itself if the thread has not come to it yet (the lock
    keeps each demo to one play). Without it a worker that asks for a demo another worker is
    playing waits idle for the whole game: a core of the two lost for a minute. Then, with
    the first demo under way, the controller writes the bytecode every worker would
    otherwise write for itself at collection (:mod:`tests.compile_ahead`)."""
    config = session.config
    workers = getattr(config.option, "numprocesses", None)
    if not workers or hasattr(config, "workerinput"):
        return  # one test process: its children's CPU is counted in its tests
    if config.getoption("demos_ahead"):
        _start_demos_ahead(config)
    from tests.compile_ahead import compile_ahead

    compile_ahead(config)  # before pytest-xdist starts the workers (its hook is trylast)


def _start_demos_ahead(config: pytest.Config) -> None:
    # the controller's base folder, the workers' parent (pytest-xdist reads it the same way)
    base = config._tmp_path_factory.getbasetemp()
    folder = base / "referee-cache"
    folder.mkdir(exist_ok=True)
    _SHARED[:] = [base]

    def play(name: str, f: Path) -> str:
        try:
            return _play(name, f / "out", folder)
        finally:
            _CPU_AHEAD[name] = _DEMO_CPU.get(name, 0.0)

    def play_all() -> None:
        for name in DEMOS_AHEAD:
            try:
                once_per_session(f"demo-{name}", lambda f, n=name: play(n, f))
            except BaseException:  # recorded for the tests that read it (once_per_session)
                return

    _AHEAD.append(threading.Thread(target=play_all, name="demos-ahead", daemon=True))
    _AHEAD[-1].start()


@contextlib.contextmanager
def session_cache() -> Iterator[None]:
    """The session's shared cache folder turned on, as a command turns it on
    (:func:`referee.cache.activated`): a library call inside (a module build above all) reads
    and stores its pictures there, so the same counter, board and chart pictures are drawn
    once a session, not once a build. The library's default stays off; the cache's entries
    give the same bytes as drawing them (``tests/vassal/test_artcache.py`` checks it)."""
    from referee.cache import activated, cache_from_env

    with activated(cache_from_env()):
        yield


@pytest.fixture(autouse=True, scope="module")
def _shared_cache_when_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test file marked ``shared_cache`` (``pytestmark``: a file whose module builds are a
    means, not what it tests) runs inside :func:`session_cache`, its module-scoped fixtures
    too (an autouse fixture is made before the other fixtures of its scope)."""
    if request.node.get_closest_marker("shared_cache") is None:
        yield
        return
    with session_cache():
        yield


def bundled_vmod(name: str) -> Path:
    """The bundled module ``module_src/NAME`` built with its set-ups
    (``build_module_with_setups``, one worker) once per test session, for every test and worker
    that loads it unchanged into real VASSAL (about 2.6 s of CPU a build with a warm picture
    cache, over 20 builds a session before). Read it; a test that changes the module builds
    its own."""

    def build(folder: Path) -> str:
        from referee.source.loader import load_module
        from referee.vassal.position.setups import build_module_with_setups

        module, diags = load_module(Path(__file__).resolve().parents[1] / "module_src" / name)
        assert module is not None, [str(d) for d in diags.items]
        with session_cache():
            return str(build_module_with_setups(module, folder / "vassal", workers=1).path)

    return Path(once_per_session(f"vmod-{name}", build)[1])


def pytest_collection_finish(session: pytest.Session) -> None:
    """The test process's garbage collector, for a long session of many objects: what is
    alive once the tests are collected (the imported code, the collected tests) is frozen
    out of every later collection (``gc.freeze``), and a young collection runs after 20,000
    new container objects instead of 700. What the tests make is freed as before, only less
    often walked while it lives (what is frozen lives for the session anyway). Measured on
    ``tests/pbem`` (two workers): the collector's own time fell from 11.5 s to 3.8 s, the
    run's CPU from 171.9 s to 154.0 s (docs/performance.md, "The test suite")."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark what is slow by what it needs, so ``-m "not slow"`` is the quick subset:
    a test that reads a shared demo game (``finished_demo``, also through ``demo_game`` or a
    file's ``demo_run``) or runs real VASSAL (``vassal``) is ``slow``; one that drives the
    headless browser (``browser``) is ``chromium`` and ``slow``. ``make test`` and CI run all.
    With ``--lane``, a worker records each file's kind for the controller (:mod:`tests.lanes`)."""
    for item in items:
        needs = set(getattr(item, "fixturenames", ()))
        if "browser" in needs:
            item.add_marker(pytest.mark.chromium)
        if needs & {"finished_demo", "browser"} or item.get_closest_marker("vassal"):
            item.add_marker(pytest.mark.slow)
    from tests.lanes import file_kinds, kind_of, write_kinds

    kinds = file_kinds(
        (
            item.nodeid.split("::", 1)[0],
            kind_of((m.name for m in item.iter_markers()), getattr(item, "fixturenames", ())),
        )
        for item in items
    )
    _costly_files_first(items, kinds)
    if config.getoption("lane") and hasattr(config, "workerinput"):
        # the controller's base folder: each worker's is ``popen-gwN`` inside it
        write_kinds(config._tmp_path_factory.getbasetemp().parent, kinds)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``--lane``: pytest-xdist's ``loadfile`` with workers of their own for the files that
    mostly wait (:mod:`tests.lanes`); otherwise pytest-xdist's own scheduler."""
    lanes = config.getoption("lane")
    if not lanes or config.getoption("dist") != "loadfile":
        return None
    from tests.lanes import make_scheduler

    return make_scheduler(config, log, config._tmp_path_factory.getbasetemp(), lanes)


# What each test file cost in a whole run of the suite, for handing the files out costliest
# first: CPU seconds (user + system) as in the suite's table, one ``SECONDS PATH`` line a file,
# written by ``pytest --record-costs`` (a run of some files updates their lines only).
FILE_COSTS = Path(__file__).with_name("file_costs.txt")
# a file not in FILE_COSTS yet (a new one) is guessed from its tests
GUESS_SLOW, GUESS_QUICK = 2.0, 0.05


def read_file_times(path: Path = FILE_COSTS) -> dict[str, tuple[float, float]]:
    """The recorded (CPU, wall) seconds by test file (:data:`FILE_COSTS`): ``CPU WALL PATH``
    lines (a line of an older table, ``CPU PATH``, counts its CPU as its wall too); ``{}``
    when there is none."""
    if not path.is_file():
        return {}
    times: dict[str, tuple[float, float]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            cpu, *wall, name = line.split()  # a test file's path has no space
            times[name] = (float(cpu), float(wall[0]) if wall else float(cpu))
    return times


def _costly_files_first(items: list[pytest.Item], kinds: dict[str, str]) -> None:
    """Order the files by what each cost in a recorded run (:data:`FILE_COSTS`), costliest
    first, each file's own order kept (a file of a lane's kind, real VASSAL or Chromium, by
    its wall time: its worker's time is mostly waiting, so the longest waits go first and the
    lane ends on short files; any other by its CPU): ``make test`` hands whole files to its
    workers in this order (``--dist loadfile --no-loadscope-reorder``), so the last files a
    worker gets are cheap ones and the workers end together (the longest first, the classic
    rule for packing jobs on a few machines). Ordered by their number of slow tests before,
    the files of one or two tests came last, one of them a real-VASSAL test of 22 s and two
    signed DTP games: one worker ran them alone at the end. A file not recorded yet counts
    :data:`GUESS_SLOW` seconds a slow test and :data:`GUESS_QUICK` another. ``kinds``: each
    file's kind (:mod:`tests.lanes`)."""
    from tests.lanes import CPU

    files = [item.nodeid.split("::", 1)[0] for item in items]
    guess: Counter[str] = Counter()
    for path, item in zip(files, items, strict=True):
        guess[path] += GUESS_SLOW if item.get_closest_marker("slow") else GUESS_QUICK
    recorded = {
        path: wall if kinds.get(path, CPU) != CPU else cpu
        for path, (cpu, wall) in read_file_times().items()
    }
    first = {path: k for k, path in enumerate(dict.fromkeys(files))}
    order = {
        id(item): (-recorded.get(p, guess[p]), first[p])
        for p, item in zip(files, items, strict=True)
    }
    items.sort(key=lambda item: order[id(item)])


# CPU time (user + system) by test file, this process's and its children's, and the batch
# JVMs' (:func:`tests.vassal.vassal_jvm.cpu_seconds`): what CI prints as "CPU by folder"
# (docs/performance.md, "The test suite"). A session-scoped fixture's cost falls to the first
# test that asks for it, as in ``--durations``, and its teardown's to the process's last test
# unless the fixture counts it apart (:func:`count_apart`: the headless Chromium); Xvfb's own
# CPU and a child still running when its test ends (the batch JVMs between runs) are not
# counted.
_CPU_BY_FILE: Counter[str] = Counter()
_WALL_BY_FILE: Counter[str] = Counter()  # wall seconds by test file (--record-costs)
_APART: list[float] = [0.0]  # CPU of the running test's protocol counted apart (count_apart)


def count_apart(key: str, cpu: float) -> None:
    """Count ``cpu`` seconds, spent inside the running test's protocol (measured by the
    caller with :func:`cpu_now`), under ``key`` instead of that test's file: the headless
    Chromium's whole CPU, for one, is reaped when the session's browser is quit, in the
    teardown of whichever test a worker ran last (it showed as 23.8 s of
    ``tests/viewer/test_viewer_cache.py``, a test of under 2 s)."""
    _CPU_BY_FILE[key] += cpu
    _APART[0] += cpu


def cpu_now() -> float:
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    jvm = sys.modules.get("tests.vassal.vassal_jvm")
    extra = jvm.cpu_seconds() if jvm is not None else 0.0
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime + extra


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    start, wall, _APART[0] = cpu_now(), time.monotonic(), 0.0
    yield
    path = item.nodeid.split("::", 1)[0]
    _CPU_BY_FILE[path] += cpu_now() - start - _APART[0]
    _WALL_BY_FILE[path] += time.monotonic() - wall


def pytest_sessionfinish(session: pytest.Session) -> None:
    """End the test process's batch JVMs of real VASSAL, if it started any
    (:mod:`tests.vassal.vassal_jvm`), while the process waits for them (their CPU time is
    then counted as the process's children's); a worker of pytest-xdist hands its CPU by
    file to the controller."""
    jvm = sys.modules.get("tests.vassal.vassal_jvm")
    if jvm is not None:
        jvm.close_all()
    for thread in _AHEAD:  # the demos played ahead: their CPU is the controller's children's
        thread.join()
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["cpu_by_file"] = json.dumps(dict(_CPU_BY_FILE))
        output["wall_by_file"] = json.dumps(dict(_WALL_BY_FILE))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object) -> None:
    """The controller of pytest-xdist adds up its workers' CPU by file."""
    output = getattr(node, "workeroutput", {})
    _CPU_BY_FILE.update(json.loads(output.get("cpu_by_file", "{}")))
    _WALL_BY_FILE.update(json.loads(output.get("wall_by_file", "{}")))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """CPU time by folder (a test file at the top of ``tests/`` is its own line when it costs
    over a minute, else counted in ``tests/*.py``), and the 15 costliest files."""
    if not _CPU_BY_FILE:
        return
    folders: Counter[str] = Counter()
    for path, cpu in _CPU_BY_FILE.items():
        parts = path.split("/")
        key = "/".join(parts[:2]) if len(parts) > 2 else path if cpu > 60 else "tests/*.py"
        folders[key] += cpu
    if _CPU_AHEAD:  # --demos-ahead: the demos the controller played, not counted in a test
        folders[f"demos played ahead ({len(_CPU_AHEAD)})"] += sum(_CPU_AHEAD.values())
    write = terminalreporter.write_line
    terminalreporter.section("CPU by folder (user + system, s; the tests' own processes)")
    for key, cpu in folders.most_common():
        write(f"{cpu:9.1f}  {key}")
    write(f"{sum(folders.values()):9.1f}  in all")
    if terminalreporter.config.getoption("record_costs"):
        write_file_costs(_CPU_BY_FILE, wall_by_file=_WALL_BY_FILE)
        write(f"each file's CPU recorded in {FILE_COSTS}")
    terminalreporter.section("the 15 costliest test files (CPU, s)")
    for path, cpu in _CPU_BY_FILE.most_common(15):
        write(f"{cpu:9.1f}  {path}")


def write_file_costs(
    cpu_by_file: Counter[str],
    path: Path = FILE_COSTS,
    wall_by_file: Counter[str] | None = None,
) -> None:
    """Record this session's CPU and wall time of each test file (``--record-costs``) in
    :data:`FILE_COSTS`, costliest CPU first; a file this session did not run keeps its
    recorded line, one that no longer exists loses it. What a test counts apart
    (``count_apart``: the browser) is not a file and is left out."""
    import datetime

    root = path.parent.parent
    times = {p: t for p, t in read_file_times(path).items() if (root / p).is_file()}
    walls = wall_by_file or Counter()
    times.update({p: (c, walls.get(p, c)) for p, c in cpu_by_file.items() if "::" not in p})
    day = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# CPU (user + system, s) and wall time (s) of each test file in a run of the suite",
        "# (CPU as in its table): make test hands the files out costliest first, a real-VASSAL",
        "# or Chromium file by its wall time, any other by its CPU (tests/conftest.py).",
        f"# Written by pytest --record-costs, {day}.",
        *(
            f"{c:7.1f} {w:7.1f}  {p}"
            for p, (c, w) in sorted(times.items(), key=lambda pt: (-pt[1][0], pt[0]))
        ),
    ]
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)
