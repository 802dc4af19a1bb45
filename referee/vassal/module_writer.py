"""Compile a module source into a VASSAL 3.7 module: ``build/<module-id>-<version>.vmod``.

:func:`build_module` is the one entry point. It plans the module (:mod:`referee.vassal.plan`),
renders every picture (counter faces through the same renderer as the printed sheets, the
board, the charts, the module's own markers and holding boxes), writes ``buildFile.xml`` and
``moduledata`` (:mod:`referee.vassal.buildfile`) and zips it all atomically and reproducibly
(:mod:`referee.vassal.zipwrite`). Any failure leaves no ``.vmod`` behind.

Counter faces are independent pictures, so with many of them they are drawn in worker
processes; each result is keyed by its image name, so the archive does not depend on which
worker finished first.

Hook for scenario set-ups: pass ``extra_files=[("skirmish.vsav", data)]`` and
``setups=[PredefinedSetup("Skirmish", "skirmish.vsav")]``; the files are stored in the
archive root and each set-up appears in VASSAL's New Game list (§2, §3.5).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lxml import etree

from referee.errors import UserError
from referee.source.model import Module
from referee.vassal.artwork import (
    attacked_overlay_png,
    holding_board_png,
    marker_png,
    returning_overlay_png,
)
from referee.vassal.buildfile import PredefinedSetup, buildfile_xml, moduledata_xml
from referee.vassal.palette import face_image
from referee.vassal.plan import (
    ATTACKED_OVERLAY,
    DEFAULT_DPI,
    RETURNING_OVERLAY,
    ChartDef,
    ModulePlan,
    plan_module,
)
from referee.vassal.safezip import check_entry_name
from referee.vassal.zipwrite import write_zip_atomic

__all__ = [
    "BuildResult",
    "PredefinedSetup",
    "build_module",
    "module_entries",
    "picture_count",
    "plan_build",
    "vmod_name",
    "write_module",
]

PARALLEL_MIN_FACES: Final = 48
"""Below this many counter faces a worker pool costs more than it saves."""
MAX_EXTRA_BYTES: Final = 64 * 1024 * 1024
RESERVED: Final = ("buildFile.xml", "buildFile", "moduledata")

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
"""Renderer chart names shown in the module's chart window, with their tab titles: the
Combat Results Table [8.8] and the Terrain Effects Chart [10.0]."""


def chart_defs(module: Module) -> tuple[ChartDef, ...]:
    """The module's charts that the renderer offers for this module (CRT, TEC)."""
    from referee.render.charts import chart_names

    offered = set(chart_names(module))
    return tuple(
        ChartDef(title, f"chart_{name}.png", name) for name, title in CHARTS if name in offered
    )


def plan_build(module: Module, *, dpi: int = DEFAULT_DPI) -> ModulePlan:
    """The plan of the module :func:`write_module` writes (charts included)."""
    return plan_module(module, dpi=dpi, charts=chart_defs(module))


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
) -> dict[str, bytes]:
    """Every archive entry of the module: ``buildFile.xml``, ``moduledata``, ``images/...``
    and the extra files."""
    extras = _check_extras(extra_files, setups)
    module = plan.module
    _check_unit_images(module)
    tick: Progress = progress or (lambda n: None)
    images = _render_module_art(plan, tick, workers)
    images.update(_render_own_art(plan, tick))
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
    entries = {"buildFile.xml": buildfile, "moduledata": moduledata}
    entries.update((f"images/{name}", data) for name, data in images.items())
    entries.update(extras)
    return entries


def _check_extras(
    extra_files: Sequence[tuple[str, bytes]], setups: Sequence[PredefinedSetup]
) -> dict[str, bytes]:
    extras: dict[str, bytes] = {}
    for name, data in extra_files:
        problem = check_entry_name(name)
        if problem or name in RESERVED or name.startswith("images/"):
            raise UserError(
                f"extra module file {name!r} is not allowed: {problem or 'reserved name'}",
                hint="store set-ups as plain names such as scenario.vsav",
            )
        if name in extras:
            raise UserError(f"extra module file {name!r} is given twice")
        if len(data) > MAX_EXTRA_BYTES:
            raise UserError(f"extra module file {name!r} is {len(data):,} bytes; too large")
        extras[name] = bytes(data)
    for setup in setups:
        if setup.file is not None and setup.file not in extras:
            raise UserError(
                f"predefined set-up {setup.name!r} names {setup.file!r}, which is not among "
                "the files added to the module",
                hint="pass the .vsav in extra_files",
            )
    return extras


def _check_unit_images(module: Module) -> None:
    """Refuse missing, non-PNG/JPEG or huge roster pictures before anything is drawn (the
    renderer's own checks, run up front so the error comes at once)."""
    from referee.render.counters import unit_image

    for unit in module.units:
        if unit.image:
            unit_image(module, unit)


# ---- rendering -----------------------------------------------------------------------------

_WORKER_MODULE: Module | None = None
_WORKER_DPI: int = 0

Task = tuple[str, tuple[tuple[int, bool], ...] | str]
"""``("faces", ((row, back), ...))``, ``("board", "")`` or ``("chart", name)``."""


def _init_worker(module: Module | None, dpi: int) -> None:
    global _WORKER_MODULE, _WORKER_DPI
    _WORKER_MODULE, _WORKER_DPI = module, dpi


def _draw(task: Task) -> list[tuple[str, bytes]]:
    """Draw one task's pictures; returns ``(image name, png)`` pairs."""
    from referee.render.board import board_png
    from referee.render.charts import chart_png
    from referee.render.counters import counter_png

    module, dpi = _WORKER_MODULE, _WORKER_DPI
    assert module is not None
    kind, arg = task
    if kind == "board":
        return [("", board_png(module, dpi))]
    if kind == "chart":
        assert isinstance(arg, str)
        return [(arg, chart_png(module, arg, dpi=dpi))]
    assert not isinstance(arg, str)
    out = []
    for i, back in arg:
        unit = module.units[i]
        out.append((face_image(unit, back), counter_png(module, unit, back=back, dpi=dpi)))
    return out


def _render_module_art(plan: ModulePlan, tick: Progress, workers: int | None) -> dict[str, bytes]:
    """The board, the charts and every counter face: in worker processes when there are
    many faces (the board is the first task, so it is drawn while the faces are)."""
    module = plan.module
    index = {u.id: i for i, u in enumerate(module.units)}
    faces = [(index[u.id], back) for u, back in plan.faces]
    n_workers = min(workers or os.cpu_count() or 1, 8)
    parallel = n_workers > 1 and len(faces) >= PARALLEL_MIN_FACES
    chunk = max(8, len(faces) // (n_workers * 8)) if parallel else 1
    tasks: list[Task] = [("board", "")]
    tasks += [("chart", c.source) for c in plan.charts]
    tasks += [("faces", tuple(faces[i : i + chunk])) for i in range(0, len(faces), chunk)]
    names = {("chart", c.source): c.image for c in plan.charts}
    out: dict[str, bytes] = {}

    def collect(task: Task, part: list[tuple[str, bytes]]) -> None:
        for name, data in part:
            key = plan.board_image if task[0] == "board" else names.get((task[0], name), name)
            out[key] = data
        tick(len(part))

    if not parallel:
        _init_worker(module, plan.dpi)
        try:
            for task in tasks:
                collect(task, _draw(task))
        finally:
            _init_worker(None, 0)
        return out
    with ProcessPoolExecutor(
        max_workers=n_workers, initializer=_init_worker, initargs=(module, plan.dpi)
    ) as pool:
        for task, part in zip(tasks, pool.map(_draw, tasks), strict=True):
            collect(task, part)
    return out


def _render_own_art(plan: ModulePlan, tick: Progress) -> dict[str, bytes]:
    """The module's own pictures: the layers, the markers and the holding-box board."""
    out: dict[str, bytes] = {}
    side = plan.counter_px
    out[ATTACKED_OVERLAY] = attacked_overlay_png(side)
    tick(1)
    if RETURNING_OVERLAY in plan.image_names():
        out[RETURNING_OVERLAY] = returning_overlay_png(side)
        tick(1)
    for marker in plan.markers:
        out[marker.image] = marker_png(
            side, marker.name.upper(), marker.note, marker.fill, marker.ink
        )
        tick(1)
    if plan.holding is not None:
        out[plan.holding_image] = holding_board_png(plan.holding)
        tick(1)
    return out
