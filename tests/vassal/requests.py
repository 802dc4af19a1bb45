"""What the test files ask of a bundled module's one shared real-VASSAL run, by module: the
registry behind ``@plays`` (VPlay, :mod:`tests.vassal.vplay_run`) and ``@checks`` (the
checker, :mod:`tests.vassal.vcheck_run`). Each test file declares its request at import (a
decorator on the function that builds it), so the first test that reads a module's run
knows every request of the session and makes them all in one run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

B = TypeVar("B", bound=Callable[..., object])


class Requests(Generic[B]):
    """Requests by module name, then by request name, in the order they were declared."""

    def __init__(self, what: str) -> None:
        self.what = what  # "VPlay", "vcheck": for the message of a name declared twice
        self.by_module: dict[str, dict[str, B]] = {}

    def declare(self, *names: str, request: str) -> Callable[[B], B]:
        """A decorator: ``build`` is the request ``request`` of each module of ``names``."""

        def declare(build: B) -> B:
            for name in names:
                known = self.by_module.setdefault(name, {}).setdefault(request, build)
                assert known is build, f"two {self.what} requests named {request!r} for {name}"
            return build

        return declare

    def of(self, name: str, request: str) -> dict[str, B]:
        """Every request declared for module ``name``, which must include ``request``."""
        wanted = self.by_module.get(name, {})
        assert request in wanted, f"no {self.what} request {request!r} declared for {name}"
        return wanted
