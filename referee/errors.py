"""The one exception type the CLI turns into a clean message and an exit code."""

from __future__ import annotations


class UserError(Exception):
    """Bad input or a refused operation. ``str()`` is the message; ``hint`` says what to do."""

    def __init__(self, message: str, hint: str | None = None, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message + (f" (hint: {self.hint})" if self.hint else "")
