"""Steps whose files ``verify`` proved on this machine before: not rendered again.

``verify`` renders every file of every step again (reports, views, the awaited side's
options, the position picture and save) and compares the bytes. A player runs it after each
report, so a game of N steps costs some N²/2 renderings over its life, and in Westpac a
step's renderings (its ``options-SIDE.json`` above all) are nearly all of ``verify``'s time.
When the whole comparison of a step succeeds, the step is remembered in the cache (kind
``proof``) under the SHA-256 of everything that comparison depended on:

* the step's ``report.json`` SHA-256: through the hash chain, this report and every report
  before it, hence the record the files are rendered from and the position before and after
  the step (``state_sha256``), which every run still replays and checks;
* the folder's file list with each file's SHA-256 (``manifest.json``, signed by the referee),
  against which this run has already checked every file on disk before it asks;
* the program (:func:`referee.cache.code_fingerprint`: the package, its templates, the Python
  and library versions), the ruleset's class, the module source's hash, the game's picture
  resolution, whether it hides information and which parts this run could not open.

The renderers are pure (the same record and position give the same bytes: the project's
determinism rule), so a run that finds the key would render the same bytes and compare them
with the same files: skipping that step's rendering proves the same thing. Only a step whose
every file was proved is remembered (not one rendered with older templates, nor one with a
file listed as unchecked), and the record checks (signatures, chain, dice, replay, score,
awaiting) run for every step as before. Trust: the cache's own (:mod:`referee.cache`): an
entry is used only when its header and hash match, in a folder only the user can write, so
only the user, who could change the program itself, could plant one. ``referee verify
--no-cache`` renders every step again.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.cache import active, code_fingerprint, digest

KIND = "proof"
PROVED = b"rendered files proved\n"
VERSION = "verify renderings 1"


def step_key(
    rsha: str,
    listed: Mapping[str, str],
    *,
    ruleset: object,
    module_sha256: str,
    picture_dpi: int,
    hides: bool,
    skip: frozenset[str] | set[str] = frozenset(),
) -> str:
    """The key of one step's proof (the module docstring says why each part is in it)."""
    kind = type(ruleset)
    return digest(
        VERSION,
        code_fingerprint(),
        f"{kind.__module__}.{kind.__qualname__}",
        module_sha256,
        rsha,
        sorted((str(n), str(h)) for n, h in listed.items()),
        picture_dpi,
        hides,
        sorted(skip),
    )


def proved(key: str) -> bool:
    """Whether an earlier ``verify`` on this machine proved the step of ``key``."""
    cache = active()
    return cache.enabled and cache.get(KIND, key) == PROVED


def remember(key: str) -> None:
    """Record that this run proved every file of the step of ``key``."""
    cache = active()
    if cache.enabled:
        cache.put(KIND, key, PROVED)
