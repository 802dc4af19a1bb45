"""Run ``referee`` commands in-process, cheaply enough for 100,000 fuzzed inputs.

A fuzzed input costs what its commands cost, and most of that was work that repeats without
testing anything new (measured with ``python -m cProfile``, docs/reliability.md):

* **the same module source loaded again for every command.** The loader is a pure function
  of the folder's bytes (the premise of :mod:`referee.source.cached`), so its answer is kept
  in this process under the very key the on-disk cache uses (:func:`source_key`: every file's
  name and bytes, the folder's path, the loader's code). An unmutated source is loaded once
  per process; a mutated copy is loaded once for its ``check`` and its ``state new``. A
  mutated source is a new key, so it is always really loaded: nothing fuzzed is skipped.
  The caller gets its own :class:`Diagnostics` (``check`` appends to it).
* **the on-disk cache.** Without this, every run of a mutated source stored an entry in the
  user's cache folder (which its folder path keeps from ever being read again) and then
  walked that whole folder to prune it. The fuzzer turns the cache off (``REFEREE_CACHE=off``)
  for its process; the cache has its own tests.
* **the zone overlap test of a map, again for every mutated copy of its source.** Whether
  two zone outlines overlap is a pure function of their corners
  (:func:`referee.source.mapkinds.polygons_overlap`, most of the cost of loading a map of
  zones); its answers are kept for the run, so a mutation elsewhere in the source costs only
  the check of what changed. A mutated outline is a new question, answered afresh.
* **Typer building the command line again for every run.** :func:`referee.cli.main` is
  still what runs (its exit codes and its "internal error" are what the fuzzer judges);
  only the Click command it calls is built once per command and kept.
"""

from __future__ import annotations

import contextlib
import os
from collections import OrderedDict
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

#: loaded sources kept: the unmutated ones (seven) and the last few mutated copies
MEMO_SIZE = 24

_MEMO: OrderedDict[str, tuple[Any, list[Any], Path | None]] = OrderedDict()


@contextlib.contextmanager
def speedups() -> Iterator[None]:
    """The speed-ups above while the block runs; everything as it was afterwards (the
    brief run shares its process with the other tests)."""
    import referee.cli as cli
    import referee.source.load_area as load_area
    import referee.source.loader as loader

    saved_env = os.environ.get("REFEREE_CACHE")
    saved = (loader.load_module, cli.app_for, load_area.polygons_overlap)
    os.environ["REFEREE_CACHE"] = "off"
    loader.load_module = _memo_loader(saved[0])  # type: ignore[assignment]
    cli.app_for = _app_for_cached(saved[1])  # type: ignore[assignment]
    load_area.polygons_overlap = lru_cache(maxsize=1 << 18)(saved[2])  # type: ignore[assignment]
    try:
        yield
    finally:
        loader.load_module, cli.app_for, load_area.polygons_overlap = saved  # type: ignore[assignment]
        _MEMO.clear()
        if saved_env is None:
            os.environ.pop("REFEREE_CACHE", None)
        else:
            os.environ["REFEREE_CACHE"] = saved_env


def _memo_loader(load: Any) -> Any:
    from referee.source.cached import source_key
    from referee.source.diagnostics import Diagnostics

    def load_module(root: Path | str) -> tuple[Any, Diagnostics]:
        root = Path(root)
        key = source_key(root) if root.is_dir() else None
        if key is None:
            return load(root)
        if key not in _MEMO:
            module, diags = load(root)
            _MEMO[key] = (module, list(diags.items), diags.root)
            while len(_MEMO) > MEMO_SIZE:
                _MEMO.popitem(last=False)
        _MEMO.move_to_end(key)
        module, items, diag_root = _MEMO[key]
        return module, Diagnostics(root=diag_root, items=list(items))

    load_module.__wrapped__ = load  # type: ignore[attr-defined]
    return load_module


class _Built:
    """A Typer app whose Click command is built once and reused (``app()`` as Typer's
    ``__call__`` does, without rebuilding)."""

    def __init__(self, app: Any) -> None:
        from typer.main import get_command

        self.command = get_command(app)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.command(*args, **kwargs)


def _app_for_cached(app_for: Any) -> Any:
    from referee.commands import COMMAND_NAMES

    built: dict[str, _Built] = {}

    def cached(args: list[str]) -> Any:
        module = COMMAND_NAMES.get(args[0]) if args else None
        if module is None:  # help, unknown commands: as the console script builds them
            return app_for(args)
        if module not in built:
            built[module] = _Built(app_for(args))
        return built[module]

    return cached


def run_cli(args: list[str]) -> tuple[int, str]:
    """``referee ARGS`` in-process through :func:`referee.cli.main`, as the console script
    runs it: the exit code and what was written to standard error."""
    from tests.clirun import run_main

    ran = run_main(args)
    return ran.code, ran.err
