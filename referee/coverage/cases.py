"""A ruleset's declared list of numbered cases: ``referee/rules/<id>/cases.toml``.

The file is the rulebook's case list (taken once from the rules digest, with the section
headings the code cites added) and, per case, what the referee does about it:

``enforced``
    checked or carried out by the code. The page shows where (the modules that cite it, or
    ``where`` when the code applies it without naming it) and the conformance cases and
    tests that show it; at least one is required.
``provisional``
    carried out under a declared reading: ``interpretation`` names its entry in
    ``docs/interpretations.md``; ``switch`` the flag the code reads, when there is one.
``partly``
    enforced in part: ``reason`` says, for a moderator, what is not.
``host`` / ``player``
    nothing for a referee to do: the host game's or the players' own business (``reason``).
``text``
    descriptive text, design notes or definitions used by other cases (``reason``).
``not-built``
    a rule the referee does not apply (``reason``).
``deleted``
    a case of the rulebook a kit amends that the kit deletes (``reason``: which case replaces
    it, if any).

Every field is checked here, with the file and the case in each message, so a mistake in the
declaration is a clear error and never a half-made page.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

STATUSES: dict[str, str] = {
    "enforced": "enforced",
    "provisional": "provisional (a declared reading)",
    "partly": "partly enforced",
    "host": "host game",
    "player": "players",
    "text": "nothing to apply",
    "not-built": "not built",
    "deleted": "deleted by the kit",
}
"""Each status and how the page names it, in the order the summary lists them."""

NEEDS_REASON = frozenset({"partly", "host", "player", "text", "not-built", "deleted"})
_ROW_KEYS = frozenset(
    {"id", "title", "status", "where", "tests", "reason", "interpretation", "switch", "see"}
)
_META_KEYS = frozenset({"ruleset", "rulebook", "source", "catalogues", "flags", "groups"})


class CasesError(ValueError):
    """A ``cases.toml`` that does not say what the page needs; the message names the place."""


@dataclass(frozen=True, slots=True)
class CaseRow:
    """One numbered case as declared (the page adds what the code and the tests show)."""

    id: str
    title: str
    status: str
    where: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    reason: str = ""
    interpretation: str = ""
    switch: str = ""
    see: str = ""


@dataclass(frozen=True, slots=True)
class CaseList:
    """A ruleset's whole declaration: ``catalogues`` are globs (from the repository root) of
    the conformance cases whose ``cites`` count as evidence; ``flags`` the files that declare
    the ruleset's switches; ``groups`` the headings rows are shown under (``"8" = "Combat"``)."""

    ruleset: str
    rulebook: str
    source: str
    rows: tuple[CaseRow, ...]
    catalogues: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    groups: dict[str, str] = field(default_factory=dict)


def _strs(raw: object, where: str) -> tuple[str, ...]:
    if isinstance(raw, str):
        return (raw,)
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise CasesError(f"{where}: expected a string or a list of strings")
    return tuple(raw)


def _row(raw: object, where: str) -> CaseRow:
    if not isinstance(raw, dict):
        raise CasesError(f"{where}: expected a table")
    unknown = sorted(set(raw) - _ROW_KEYS)
    if unknown:
        raise CasesError(f"{where}: unknown key(s) {', '.join(unknown)}")
    for key in ("id", "title", "status"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise CasesError(f"{where}: `{key}` must be a non-empty string")
    where = f"{where} ({raw['id']})"
    status = raw["status"]
    if status not in STATUSES:
        raise CasesError(f"{where}: status {status!r}; expected one of {', '.join(STATUSES)}")
    texts = {k: raw.get(k, "") for k in ("reason", "interpretation", "switch", "see")}
    for key, value in texts.items():
        if not isinstance(value, str):
            raise CasesError(f"{where}: `{key}` must be a string")
    if status in NEEDS_REASON and not texts["reason"].strip():
        raise CasesError(f"{where}: a {status!r} case needs a `reason` a moderator can read")
    if status == "provisional" and not texts["interpretation"].strip():
        raise CasesError(f"{where}: a provisional case names its `interpretation`")
    return CaseRow(
        id=raw["id"],
        title=raw["title"],
        status=status,
        where=_strs(raw.get("where", []), f"{where}: where"),
        tests=_strs(raw.get("tests", []), f"{where}: tests"),
        **texts,
    )


def parse_cases(data: dict[str, object], name: str) -> CaseList:
    """The declaration in ``data`` (a parsed ``cases.toml``; ``name`` for messages)."""
    meta = data.get("meta")
    if not isinstance(meta, dict):
        raise CasesError(f"{name}: a [meta] table is required")
    unknown = sorted(set(meta) - _META_KEYS)
    if unknown:
        raise CasesError(f"{name}: [meta]: unknown key(s) {', '.join(unknown)}")
    for key in ("ruleset", "rulebook", "source"):
        if not isinstance(meta.get(key), str):
            raise CasesError(f"{name}: [meta] `{key}` must be a string")
    groups = meta.get("groups", {})
    if not isinstance(groups, dict) or not all(isinstance(v, str) for v in groups.values()):
        raise CasesError(f"{name}: [meta] `groups` must map a case prefix to a heading")
    raw_rows = data.get("case")
    if not isinstance(raw_rows, list) or not raw_rows:
        raise CasesError(f"{name}: at least one [[case]] is required")
    rows = tuple(_row(r, f"{name}: [[case]] #{i + 1}") for i, r in enumerate(raw_rows))
    seen: set[str] = set()
    for r in rows:
        if r.id in seen:
            raise CasesError(f"{name}: case {r.id} is declared twice")
        seen.add(r.id)
    return CaseList(
        ruleset=meta["ruleset"],
        rulebook=meta["rulebook"],
        source=meta["source"],
        rows=rows,
        catalogues=_strs(meta.get("catalogues", []), f"{name}: [meta] catalogues"),
        flags=_strs(meta.get("flags", []), f"{name}: [meta] flags"),
        groups=dict(groups),
    )


def load_cases(path: Path) -> CaseList:
    """Read and check ``path`` (a ruleset's ``cases.toml``)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise CasesError(f"{path}: {e}") from e
    return parse_cases(data, str(path))
