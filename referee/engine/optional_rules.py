"""The optional rules a game is played with (``referee new --option CASE``), one way for every
ruleset.

A module declares the optional rules its players may choose (``[[optional_rule]]``, checked
against its schema's ``optional_rules``), and ``referee new`` refuses one the module lacks. A
ruleset then says which of them it *plays*, and where: a tuple of :class:`OptionalRule`, each
with the test of the scenarios it applies to. Its ``new_game`` passes the options asked for
through :func:`chosen_options`, which refuses the rest with a message that says why, and keeps
the answer in ``GameState.options`` (sorted, once each), where the rules read it
(``"14.3" in state.options``) and ``verify`` replays it from ``game.toml``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.source.model import Module


def everywhere(module: Module, scenario: str) -> str | None:
    """An optional rule that applies to every scenario of every module of its ruleset."""
    return None


@dataclass(frozen=True, slots=True)
class OptionalRule:
    """One optional rule a ruleset plays: ``id`` is its case, the word of ``--option``;
    ``name`` its title; ``not_here(module, scenario)`` the reason it does not apply to that
    scenario (a sentence for the refusal), or ``None`` where it does."""

    id: str
    name: str
    not_here: Callable[[Module, str], str | None] = everywhere


def chosen_options(
    ruleset_name: str,
    played: Sequence[OptionalRule],
    module: Module,
    scenario: str,
    options: Iterable[str],
) -> tuple[str, ...]:
    """``options`` as a new game keeps them (sorted, once each), after refusing (a
    :class:`~referee.errors.UserError`) one the ruleset does not play, or one that does not
    apply to ``scenario``."""
    from referee.errors import UserError

    known = {r.id: r for r in played}
    chosen = tuple(sorted(set(options)))
    for o in chosen:
        rule = known.get(o)
        if rule is None:
            raise UserError(
                f"{ruleset_name} does not play optional rule {o!r}",
                hint="optional rules it plays: " + (", ".join(sorted(known)) or "none"),
            )
        why = rule.not_here(module, scenario)
        if why is not None:
            raise UserError(
                f"optional rule {o} ({rule.name}) does not apply to scenario {scenario!r}: {why}",
                hint="leave out --option " + o,
            )
    return chosen
