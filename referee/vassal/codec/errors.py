"""The one exception raised when VASSAL data is refused.

Saves, logs and module archives arrive from other players by e-mail, so every reader in
``referee.vassal`` treats them as untrusted. Whatever goes wrong (not a zip, a zip bomb, a
path-traversal entry name, hostile XML, a broken obfuscation layer) ends up as a
:class:`VassalFormatError`. It is a :class:`referee.safeio.UnsafeInput`, which the CLI
already turns into one line on stderr instead of a traceback.
"""

from __future__ import annotations

import os

from referee.safeio import UnsafeInput

__all__ = ["VassalFormatError"]


def _one_line(text: str) -> str:
    """Collapse whitespace and control characters so the message stays on one line."""
    cleaned = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(cleaned.split())


class VassalFormatError(UnsafeInput):
    """Refusal of a VASSAL file: ``path``, what is wrong (``message``) and what to do (``hint``).

    ``str(err)`` is a single line, ``"<path>: <message> (hint: <hint>)"``, safe to print to
    a terminal even when the message quotes hostile input (control characters and line
    breaks are flattened to spaces).
    """

    def __init__(self, path: str | os.PathLike[str], message: str, hint: str = "") -> None:
        super().__init__(os.fspath(path), message, hint or None)

    def __str__(self) -> str:
        return _one_line(super().__str__())

    def __reduce__(self) -> tuple[type[VassalFormatError], tuple[str, str, str]]:
        return (type(self), (self.path, self.message, self.hint or ""))
