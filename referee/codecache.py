"""The code Python's ``dataclasses`` compiles, cached beside the bytecode (``__pycache__``).

For every dataclass, ``dataclasses`` writes its ``__init__``, ``__repr__``, ``__eq__``,
``__hash__`` and (frozen) ``__setattr__``/``__delattr__`` as source text and compiles each with
``exec`` when the class is created, on every start. The program defines some 180 frozen
dataclasses; compiling those texts was a fifth of the CPU time of a warm ``referee build``
and a quarter of ``referee validate`` (docs/performance.md). Python keeps the bytecode of
modules in ``__pycache__`` but not these; this module does the same for them: the code
compiled from each text, marshalled in ``referee/__pycache__``, keyed by the text itself
and the interpreter's version.

Nothing else changes: the same text compiles to the same code, so the functions are exactly
those ``dataclasses`` would make, and only string sources go through the cache. Like
bytecode, the file is written only when Python may write bytecode
(``PYTHONDONTWRITEBYTECODE``, ``-B``) and the folder is writable, atomically (a temporary
file, then a rename); a missing, damaged or foreign file is ignored and rewritten.
:func:`install` runs when the package is imported, before any of its dataclasses exist.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import dataclasses
import marshal
import os
import sys
from types import CodeType
from typing import Any

CACHE_FILE = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    "__pycache__",
    f"dataclass-code.{sys.implementation.cache_tag}.marshal",
)
"""Where the compiled texts are kept (beside the package's own bytecode)."""

_HEADER = f"referee dataclass code 2\0{sys.version}"
_state: dict[str, Any] = {"stored": None, "new": 0, "path": CACHE_FILE}


def _load(path: str) -> dict[str, bytes]:
    """The stored texts with their marshalled code (unmarshalled only when asked for, so a
    command pays for the classes it makes); ``{}`` for a missing, damaged or foreign file."""
    try:
        with open(path, "rb") as f:
            data = marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not (isinstance(data, tuple) and len(data) == 2 and data[0] == _HEADER):
        return {}
    table = data[1]
    return table if isinstance(table, dict) else {}


def _code(stored: dict[str, bytes], source: str) -> CodeType:
    """The code of ``source``: from the stored table, else compiled (and added to it)."""
    blob = stored.get(source)
    if type(blob) is bytes:
        with contextlib.suppress(EOFError, ValueError, TypeError):
            code = marshal.loads(blob)
            if type(code) is CodeType:
                return code
    code = compile(source, "<string>", "exec")
    stored[source] = marshal.dumps(code)
    _state["new"] += 1
    return code


def cached_exec(
    source: object, globals: dict[str, Any] | None = None, locals: Any = None, /
) -> None:
    """``exec`` as ``dataclasses`` calls it, with the compiled code of a source text taken
    from the cache when that exact text was compiled before."""
    if globals is None:  # as exec would from inside dataclasses: its own globals
        globals = vars(dataclasses)
    if type(source) is str:
        stored = _state["stored"]
        if stored is None:
            stored = _state["stored"] = _load(_state["path"])
        source = _code(stored, source)
    builtins.exec(source, globals, locals)  # type: ignore[call-overload]


def save() -> None:
    """Write the cache if this process compiled a text it did not hold (at exit)."""
    stored = _state["stored"]
    if not _state["new"] or stored is None or sys.dont_write_bytecode:
        return
    path = _state["path"]
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            marshal.dump((_HEADER, stored), f)
        os.replace(tmp, path)
        _state["new"] = 0
    except OSError:
        with contextlib.suppress(OSError):
            os.remove(tmp)


def install() -> None:
    """Route ``dataclasses``' own ``exec`` calls through :func:`cached_exec` (a module
    global named ``exec`` shadows the builtin for the code of that module only)."""
    if vars(dataclasses).get("exec") is not cached_exec:
        dataclasses.exec = cached_exec  # type: ignore[attr-defined]
        atexit.register(save)
