"""Compile a module source into a VASSAL 3.7 module: ``build/<module-id>-<version>.vmod``.

:func:`build_module` is the one entry point. It plans the module
(:mod:`referee.vassal.module.plan`),
renders every picture (counter faces through the same renderer as the printed sheets, the
board, the charts, the module's own markers and holding boxes), writes ``buildFile.xml`` and
``moduledata`` (:mod:`referee.vassal.module.buildfile`) and zips it all atomically and reproducibly
(:mod:`referee.vassal.codec.zipwrite`). Any failure leaves no ``.vmod`` behind.

Pictures are independent of each other, so on a multi-core machine a worker process draws
the board (the longest picture by far) while this process draws the rest, and any further
workers share the counter faces; each result is keyed by its image name, so the archive does
not depend on which process drew what or finished first (:func:`render_plan`). Pictures whose
inputs have not changed since an earlier build come from the picture cache
(:mod:`referee.cache`, keys in :mod:`referee.render.artcache`) and are not drawn at all.

Hook for scenario set-ups: pass ``extra_files=[("skirmish.vsav", data)]`` and
``setups=[PredefinedSetup("Skirmish", "skirmish.vsav")]``; the files are stored in the
archive root and each set-up appears in VASSAL's New Game list (§2, §3.5).
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lxml import etree

from referee.cache import Cache, active
from referee.errors import UserError
from referee.source.model import Module
from referee.vassal.codec.zipwrite import write_zip_atomic
from referee.vassal.module.buildfile import PredefinedSetup, buildfile_xml, moduledata_xml
from referee.vassal.module.module_extras import (
    check_extra_pictures,
    check_extras,
    check_unit_images,
)
from referee.vassal.module.own_art import render_own_art
from referee.vassal.module.palette import face_image
from referee.vassal.module.piece_versions import CURRENT
from referee.vassal.module.plan import (
    DEFAULT_DPI,
    ChartDef,
    ModulePlan,
    plan_module,
)
from referee.vassal.module.reduced import ReducedFace
from referee.vassal.module.tools import HELP_FILE, help_html

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = [
    "BuildResult",
    "PredefinedSetup",
    "RenderPlan",
    "build_module",
    "module_entries",
    "picture_count",
    "plan_build",
    "render_plan",
    "vmod_name",
    "write_module",
]

PARALLEL_MIN_FACES: Final = 48
"""From this many counter faces on, a worker pool pays for itself even with a small board."""
PARALLEL_MIN_BOARD_PIXELS: Final = 1_000_000
"""From this many board pixels on (about 0.1 s of drawing), the board alone pays for a worker
process (about 0.01 to 0.02 s to fork and tear down)."""
FACES_PER_TASK: Final = 8
"""Fewest counter faces in one task: fewer, and sending the task costs more than drawing."""
MAX_WORKERS: Final = 8
IN_FLIGHT_PER_WORKER: Final = 2
"""Tasks handed to each worker at a time: one to draw and one waiting, so a worker never
idles while this process is busy with a task of its own."""

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class BuildResult:
    """What a build produced (the ``--json`` summary of ``referee build``)."""

    path: Path
    counters: int
    images: int
    bytes: int
    seconds: float

    def to_json(self) -> dict[str, object]:
        return {
            "path": str(self.path),
            "counters": self.counters,
            "images": self.images,
            "bytes": self.bytes,
            "seconds": round(self.seconds, 3),
        }


def vmod_name(module: Module) -> str:
    """``<module-id>-<version>.vmod``, with anything unsafe in a file name replaced."""
    raw = f"{module.id}-{module.version}"
    return re.sub(r"[^A-Za-z0-9._-]", "_", raw) + ".vmod"


CHARTS: Final = (("crt", "CRT"), ("tec", "TEC"))
"""The first tabs of the module's chart window, with their titles: the Combat Results
Table [8.8] and the Terrain Effects Chart [10.0]; every other chart of the print set
follows (:func:`chart_defs`)."""


def chart_defs(module: Module) -> tuple[ChartDef, ...]:
    """Every chart the renderer offers for this module, as tabs of the chart window: CRT and
    TEC first, then the sequence of play, the ruleset's cards, the victory table, any named
    table, and each scenario's turn record and set-up cards
    (:func:`referee.render.charts.build_charts`).

    The names are decided here from the module itself rather than by asking the renderer,
    which would lay out every chart (and load the PDF fonts) before a single picture can
    start: a tenth of a second of a cold ``referee build`` spent before the board worker
    starts. A test holds the two to the same answer.
    """
    from referee.render.chart_texts import ruleset_texts
    from referee.render.charts import setup_sides
    from referee.render.tablechart import chart_name, generic_tables

    offered = {"crt": module.tables.crt is not None, "tec": True}
    out = [ChartDef(title, f"chart_{name}.png", name) for name, title in CHARTS if offered[name]]
    texts = ruleset_texts(module.ruleset)
    if texts.get("sequence"):
        out.append(ChartDef("Sequence of Play", "chart_sequence.png", "sequence"))
    for card in texts.get("card", []):  # the ruleset's play-aid cards, in print order
        name = str(card.get("name", ""))
        out.append(ChartDef(str(card.get("title", name)), _chart_file(name), name))
    if module.tables.victory:
        out.append(ChartDef("Victory", "chart_victory.png", "victory"))
    for table in generic_tables(module):
        name = chart_name(table.name)
        out.append(ChartDef(table.title or table.name, _chart_file(name), name))
    for scn in module.scenarios.values():
        out.append(ChartDef(f"{scn.name}: turns", _chart_file(f"turns-{scn.id}"),
                            f"turns-{scn.id}"))  # fmt: skip
        for side in setup_sides(scn):
            name = f"setup-{scn.id}-{side.lower()}"
            out.append(ChartDef(f"{scn.name}: {side} set-up", _chart_file(name), name))
    return tuple(out)


def _chart_file(name: str) -> str:
    """The image of a chart: ``chart_<name>.png`` with anything unsafe in a file name
    replaced (the renderer's chart names come from scenario and table ids)."""
    return "chart_" + re.sub(r"[^A-Za-z0-9._-]", "_", name) + ".png"


def plan_build(
    module: Module, *, dpi: int = DEFAULT_DPI, piece_version: int = CURRENT
) -> ModulePlan:
    """The plan of the module :func:`write_module` writes (charts included); ``piece_version``
    another piece version than the newest, for the saves of a game that records it
    (:mod:`referee.vassal.module.piece_versions`)."""
    return plan_module(module, dpi=dpi, charts=chart_defs(module), piece_version=piece_version)


def build_module(
    module: Module,
    out_dir: Path,
    *,
    dpi: int = DEFAULT_DPI,
    extra_files: Sequence[tuple[str, bytes]] = (),
    setups: Sequence[PredefinedSetup] = (),
    progress: Progress | None = None,
    workers: int | None = None,
) -> BuildResult:
    """Write ``out_dir/<module-id>-<version>.vmod`` and say what went in.

    ``extra_files`` are ``(entry name, bytes)`` stored in the archive root (scenario
    ``.vsav`` files); ``setups`` become PredefinedSetup entries of the New Game list and
    must name files given in ``extra_files``. ``progress`` is called with the number of
    pictures finished since the last call (a bar over :func:`picture_count` pictures).
    ``workers`` caps the rendering processes (default: the CPU count; ``1``: no pool).
    Raises :class:`UserError` for anything wrong with the input; then no file is written.
    """
    started = time.perf_counter()
    plan = plan_build(module, dpi=dpi)
    return write_module(
        plan,
        out_dir,
        extra_files=extra_files,
        setups=setups,
        progress=progress,
        workers=workers,
        started=started,
    )


def write_module(
    plan: ModulePlan,
    out_dir: Path,
    *,
    extra_files: Sequence[tuple[str, bytes]] = (),
    setups: Sequence[PredefinedSetup] = (),
    progress: Progress | None = None,
    workers: int | None = None,
    started: float | None = None,
) -> BuildResult:
    """Render, assemble and atomically write the module of ``plan`` (see :func:`build_module`)."""
    t0 = time.perf_counter() if started is None else started
    entries = module_entries(plan, extra_files, setups, progress=progress, workers=workers)
    target = out_dir / vmod_name(plan.module)
    size = write_zip_atomic(target, entries)
    return BuildResult(
        path=target,
        counters=len(plan.unit_slots),
        images=sum(1 for n in entries if n.startswith("images/")),
        bytes=size,
        seconds=time.perf_counter() - t0,
    )


def picture_count(plan: ModulePlan) -> int:
    """How many pictures :func:`module_entries` draws (the progress bar's length)."""
    return len(plan.image_names())


def module_entries(
    plan: ModulePlan,
    extra_files: Sequence[tuple[str, bytes]] = (),
    setups: Sequence[PredefinedSetup] = (),
    *,
    progress: Progress | None = None,
    workers: int | None = None,
    extra_pictures: Sequence[tuple[str, Callable[[], bytes]]] = (),
) -> dict[str, bytes]:
    """Every archive entry of the module: ``buildFile.xml``, ``moduledata``, ``images/...``
    and the extra files.

    ``extra_pictures`` are ``(image name, draw)`` for pictures a caller adds to ``images/``
    (the scenario set-up area, say): each ``draw()`` runs in this process while the workers
    draw the board, so it costs no wall time on a multi-core machine.
    """
    extras = check_extras(extra_files, setups)
    module = plan.module
    check_unit_images(module)
    tick: Progress = progress or (lambda n: None)
    images = _render_pictures(plan, tick, workers, check_extra_pictures(extra_pictures, plan))
    missing = sorted(set(plan.image_names()) - set(images))
    if missing:  # a plan/renderer mismatch is our bug, not the user's
        raise RuntimeError(f"images named but not rendered: {missing}")
    try:
        buildfile = buildfile_xml(plan, setups)
        moduledata = moduledata_xml(module.name, module.version, module.description)
    except (ValueError, etree.LxmlError) as exc:
        raise UserError(
            f"cannot write the module's XML: {exc}",
            hint="remove control characters from names and descriptions in the source",
        ) from None
    entries = {"buildFile.xml": buildfile, "moduledata": moduledata, HELP_FILE: help_html(plan)}
    entries.update((f"images/{name}", data) for name, data in images.items())
    entries.update(extras)
    return entries


# ---- rendering -----------------------------------------------------------------------------

_WORKER_MODULE: Module | None = None
_WORKER_DPI: int = 0

Task = tuple[str, tuple[tuple[int, bool], ...] | tuple[ReducedFace, ...] | str]
"""``("faces", ((row, back), ...))``, ``("reduced", (face, ...))`` (a damaged counter's
reduced faces, :mod:`referee.vassal.module.reduced`), ``("board", "")`` or
``("chart", name)``."""


def _init_worker(module: Module | None, dpi: int) -> None:
    global _WORKER_MODULE, _WORKER_DPI
    _WORKER_MODULE, _WORKER_DPI = module, dpi


UNCACHED: Final = "!"
"""Prefix :func:`_draw` puts on a picture's name when it had to be drawn from the whole
module (its renderer read a field its cache key leaves out): it must not be cached."""


def _draw(task: Task) -> list[tuple[str, bytes]]:
    """Draw one task's pictures; returns ``(image name, png)`` pairs.

    The board, the charts and the faces are drawn from a module narrowed to what their cache
    keys cover
    (:func:`referee.render.artcache.narrowed`); should that fail, from the whole module, and
    the name is marked :data:`UNCACHED`."""
    from referee.render.artcache import (
        BOARD_READS,
        FACE_DRAW_READS,
        NotDeclared,
        chart_reads,
        narrowed,
    )
    from referee.render.board import board_png
    from referee.render.charts import chart_png
    from referee.render.counters import counter_png

    module, dpi = _WORKER_MODULE, _WORKER_DPI
    assert module is not None
    kind, arg = task
    if kind == "board":
        try:
            return [("", board_png(narrowed(module, BOARD_READS), dpi))]
        except NotDeclared:
            return [(UNCACHED, board_png(module, dpi))]
    if kind == "chart":
        assert isinstance(arg, str)
        try:
            return [(arg, chart_png(narrowed(module, chart_reads(arg)), arg, dpi=dpi))]
        except NotDeclared:
            pass
        return [(UNCACHED + arg, chart_png(module, arg, dpi=dpi))]
    assert not isinstance(arg, str)
    out = []
    faces = narrowed(module, FACE_DRAW_READS)
    drawn = [(f.unit, False, f.image) for f in arg if isinstance(f, ReducedFace)]
    for row in arg:
        if not isinstance(row, ReducedFace):
            unit = module.units[row[0]]
            drawn.append((unit, row[1], face_image(unit, row[1])))
    for unit, back, name in drawn:
        try:
            out.append((name, counter_png(faces, unit, back=back, dpi=dpi)))
        except NotDeclared:
            out.append((UNCACHED + name, counter_png(module, unit, back=back, dpi=dpi)))
    return out


@dataclass(frozen=True, slots=True)
class RenderPlan:
    """The drawing tasks in queue order and how many processes share them (1: no pool)."""

    tasks: tuple[Task, ...]
    processes: int


def render_plan(
    plan: ModulePlan, workers: int | None, done: frozenset[str] = frozenset()
) -> RenderPlan:
    """How the module art is split up: the tasks in queue order, and whether to use a pool.

    The board comes first because it is by far the longest single picture (a 60-megapixel
    canvas at 150 dpi, about 0.7 s), then the charts, then the counter faces in chunks small
    enough that the processes finish together. Pictures named in ``done`` (found in the
    cache) are left out, and a pool is used only if what is left pays for one.
    """
    module = plan.module
    index = {u.id: i for i, u in enumerate(module.units)}
    faces = [(index[u.id], back) for u, back in plan.faces if face_image(u, back) not in done]
    processes = max(1, min(workers or os.cpu_count() or 1, MAX_WORKERS))
    board = plan.board_image not in done
    board_pixels = plan.board_size[0] * plan.board_size[1] if board else 0
    parallel = processes > 1 and (
        len(faces) >= PARALLEL_MIN_FACES or board_pixels >= PARALLEL_MIN_BOARD_PIXELS
    )
    chunk = max(FACES_PER_TASK, len(faces) // (processes * 16)) if parallel else 1
    tasks: list[Task] = [("board", "")] if board else []
    tasks += [("chart", c.source) for c in plan.charts if c.image not in done]
    tasks += [("faces", tuple(faces[i : i + chunk])) for i in range(0, len(faces), chunk)]
    reduced = [f for f in plan.reduced if f.image not in done]
    tasks += [("reduced", tuple(reduced[i : i + chunk])) for i in range(0, len(reduced), chunk)]
    return RenderPlan(tuple(tasks), processes if parallel else 1)


def _render_pictures(
    plan: ModulePlan,
    tick: Progress,
    workers: int | None,
    extra_pictures: Sequence[tuple[str, Callable[[], bytes]]],
) -> dict[str, bytes]:
    """Every picture of the module, by image name.

    With a pool, the ``processes - 1`` worker processes are handed tasks from the front of
    the queue (the board first; :data:`IN_FLIGHT_PER_WORKER` at a time, as they finish),
    while this process draws the module's own small pictures and ``extra_pictures`` and then
    takes tasks from the back. Tasks are handed out, never taken back, so none can be drawn
    twice or lost in a race. Each picture is a pure function of the module and the dpi and is
    stored under its own name, so which process drew it, and when, cannot change a byte of
    the archive. Should a worker die (killed, out of memory), the tasks it had are drawn here.

    Pictures found in the picture cache are taken from it and not drawn; what is drawn is
    stored in it afterwards (see :func:`_cached_pictures`).
    """
    module = plan.module
    cache = active()
    keys = _picture_keys(plan) if cache.enabled else {}
    out = _cached_pictures(cache, keys, tick)
    from_cache = frozenset(out)
    work = render_plan(plan, workers, from_cache)
    names = {("chart", c.source): c.image for c in plan.charts}
    uncached: set[str] = set()

    def collect(task: Task, part: list[tuple[str, bytes]]) -> None:
        for name, data in part:
            plain = name.removeprefix(UNCACHED)
            key = plan.board_image if task[0] == "board" else names.get((task[0], plain), plain)
            if plain != name:
                uncached.add(key)
            out[key] = data
        tick(len(part))

    _init_worker(module, plan.dpi)
    try:
        queue = deque(work.tasks)
        if work.processes > 1:
            _draw_with_pool(plan, work.processes - 1, queue, collect, extra_pictures, out, tick)
        else:
            while queue:
                task = queue.popleft()
                collect(task, _draw(task))
            _draw_here(plan, extra_pictures, out, tick)
    finally:
        _init_worker(None, 0)
    for name, key in keys.items():
        if key is not None and name in out and name not in uncached | from_cache:
            cache.put("png", key, out[name])
    return out


def _picture_keys(plan: ModulePlan) -> dict[str, str | None]:
    """The cache key of every picture the workers draw, by image name (``None``: not
    cacheable)."""
    from referee.render.artcache import (
        FACE_DRAW_READS,
        board_key,
        chart_key,
        face_context,
        face_key,
        narrowed,
    )

    module, dpi = plan.module, plan.dpi
    keys: dict[str, str | None] = {plan.board_image: board_key(module, dpi)}
    for c in plan.charts:
        keys[c.image] = chart_key(module, c.source, dpi)
    context = face_context(narrowed(module, FACE_DRAW_READS), dpi)
    for unit, back in plan.faces:
        keys[face_image(unit, back)] = face_key(module, context, unit, back)
    for face in plan.reduced:
        keys[face.image] = face_key(module, context, face.unit, False)
    return keys


def _cached_pictures(cache: Cache, keys: dict[str, str | None], tick: Progress) -> dict[str, bytes]:
    """The pictures of ``keys`` that the cache holds (each a whole PNG whose bytes match the
    SHA-256 stored with them)."""
    from referee.cache import valid_png

    out: dict[str, bytes] = {}
    for name, key in keys.items():
        data = None if key is None else cache.get("png", key)
        if data is not None and valid_png(data):
            out[name] = data
    if out:
        tick(len(out))
    return out


def _draw_here(
    plan: ModulePlan,
    extra_pictures: Sequence[tuple[str, Callable[[], bytes]]],
    out: dict[str, bytes],
    tick: Progress,
) -> None:
    """The pictures that are always drawn in this process: the module's own and the extras."""
    out.update(render_own_art(plan, tick))
    for name, draw in extra_pictures:
        out[name] = draw()
        tick(1)


def _draw_with_pool(
    plan: ModulePlan,
    n_workers: int,
    queue: deque[Task],
    collect: Callable[[Task, list[tuple[str, bytes]]], None],
    extra_pictures: Sequence[tuple[str, Callable[[], bytes]]],
    out: dict[str, bytes],
    tick: Progress,
) -> None:
    """Share ``queue`` between ``n_workers`` processes (from the front) and this one (from
    the back); see :func:`_render_pictures`.

    A feeder thread hands the workers their tasks as they finish, so a worker never waits
    for this process to finish a long task of its own (the first counter face works out the
    type sizes of the whole roster). ``deque`` pops from either end are atomic, so each task
    is taken exactly once, by one side or the other.
    """
    # imported here: a build that draws no more than a few pictures needs no pool (start-up)
    from concurrent.futures import ProcessPoolExecutor

    hand = _HandOut(n_workers, queue, collect)
    lost: list[Task] = []
    with ProcessPoolExecutor(
        max_workers=n_workers, initializer=_init_worker, initargs=(plan.module, plan.dpi)
    ) as pool:
        running: set[Future[list[tuple[str, bytes]]]] = set()
        # the first hand-out here, in the main thread: with the "fork" start method the pool
        # forks every worker on its first task, and a fork must not happen while a thread of
        # ours might hold a lock (the child would wait on it forever)
        hand.fill(pool, running)
        feeder = threading.Thread(
            target=hand.feed, args=(pool, running), name="referee-feeder", daemon=True
        )
        feeder.start()
        try:
            _draw_here(plan, extra_pictures, out, tick)
            while not hand.stop.is_set():
                lost += hand.collect_finished(block=False)
                try:
                    task = queue.pop()
                except IndexError:
                    break
                collect(task, _draw(task))
        except BaseException:
            hand.stop.set()
            raise
        finally:
            feeder.join()
        lost += hand.collect_finished(block=True)  # raises a worker's error, if any
    for task in lost:
        collect(task, _draw(task))


class _HandOut:
    """The tasks handed to the pool's workers, in order, and what became of them: the feeder
    thread hands out more as they finish (``fill``, ``feed``); this process collects the
    finished ones in the order handed out (``collect_finished``)."""

    def __init__(
        self,
        n_workers: int,
        queue: deque[Task],
        collect: Callable[[Task, list[tuple[str, bytes]]], None],
    ) -> None:
        self.n_workers, self.queue, self.collect = n_workers, queue, collect
        self.handed: list[tuple[Task, Future[list[tuple[str, bytes]]]]] = []
        self.stop = threading.Event()  # an error anywhere: hand out nothing more
        self.broken = threading.Event()  # a worker died: this process draws the rest
        self.seen = 0

    def limit(self, running: set[Future[list[tuple[str, bytes]]]]) -> int:
        """Nothing waits behind the board: a lone worker would draw it only after the
        board, while this process might be idle."""
        board = any(task[0] == "board" for task, f in self.handed if f in running)
        return IN_FLIGHT_PER_WORKER * self.n_workers - board

    def fill(
        self, pool: ProcessPoolExecutor, running: set[Future[list[tuple[str, bytes]]]]
    ) -> None:
        """Hand the workers tasks from the front of the queue, up to the limit."""
        from concurrent.futures.process import BrokenProcessPool

        while not (self.stop.is_set() or self.broken.is_set()) and len(running) < self.limit(
            running
        ):
            try:
                task = self.queue.popleft()
            except IndexError:
                return
            try:
                future = pool.submit(_draw, task)
            except BrokenProcessPool:
                self.queue.appendleft(task)  # not lost: this process will draw it
                self.broken.set()
                return
            self.handed.append((task, future))
            running.add(future)

    def feed(
        self, pool: ProcessPoolExecutor, running: set[Future[list[tuple[str, bytes]]]]
    ) -> None:
        """The feeder thread: as tasks finish, note errors and hand out more."""
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                error = future.exception()
                if isinstance(error, BrokenProcessPool):
                    self.broken.set()
                elif error is not None:
                    self.stop.set()
            self.fill(pool, running)

    def collect_finished(self, block: bool) -> list[Task]:
        """Collect the workers' finished tasks in the order handed out; returns the tasks a
        dead worker had."""
        from concurrent.futures.process import BrokenProcessPool

        lost = []
        while self.seen < len(self.handed):
            task, future = self.handed[self.seen]
            if not (block or future.done()):
                break
            try:
                self.collect(task, future.result())
            except BrokenProcessPool:
                lost.append(task)
            self.seen += 1
        return lost
