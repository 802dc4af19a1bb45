"""A ruleset's coverage page: its declared cases joined with what its code and tests show.

:func:`build` makes the page's data (:class:`Coverage`, the JSON ``referee rules --json``
prints) and the list of ways the declaration is out of step with the code
(:func:`out_of_step`, which the generator refuses and a test fails on);
:func:`to_markdown` renders it for a moderator. Pure apart from reading the package's source
and the catalogues named in its ``cases.toml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.coverage.cases import STATUSES, CaseList, CaseRow
from referee.coverage.citations import cited_by_package, rows_for
from referee.coverage.evidence import catalogue_cites, test_exists

SHOWN_CASES = 8
"""How many conformance cases a Markdown row lists before "and N more" (the JSON has all)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One case as the page shows it."""

    case: CaseRow
    where: tuple[str, ...]
    conformance: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        c = self.case
        out: dict[str, Any] = {
            "id": c.id,
            "title": c.title,
            "status": c.status,
            "where": list(self.where),
            "conformance": list(self.conformance),
            "tests": list(c.tests),
        }
        for key in ("reason", "interpretation", "switch", "see"):
            if getattr(c, key):
                out[key] = getattr(c, key)
        return out


@dataclass(frozen=True, slots=True)
class Coverage:
    """The page's data and what is out of step (empty when the page may be written)."""

    cases: CaseList
    rows: tuple[Row, ...]
    out_of_step: tuple[str, ...]

    def summary(self) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for r in self.rows:
            counts[r.case.status] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        c = self.cases
        return {
            "ruleset": c.ruleset,
            "rulebook": c.rulebook,
            "source": c.source,
            "summary": self.summary(),
            "groups": dict(c.groups),
            "rows": [r.to_json() for r in self.rows],
        }


def _flag_names(root: Path, files: tuple[str, ...]) -> set[str]:
    """The switch names the ruleset's flag files declare (dataclass fields)."""
    names: set[str] = set()
    for f in files:
        text = (root / f).read_text(encoding="utf-8")
        names.update(re.findall(r"^    ([a-z_][a-z0-9_]*): ", text, re.M))
    return names


def _where_exists(root: Path, package: Path, ref: str) -> bool:
    return (package / ref).is_file() or (root / ref).is_file()


def _row_problems(row: Row, root: Path, package: Path, switches: set[str]) -> list[str]:
    c = row.case
    out = [f"{c.id}: test {t} does not exist" for t in c.tests if not test_exists(root, t)]
    out += [
        f"{c.id}: `where` {w} is no file of the package or the repository"
        for w in c.where
        if not _where_exists(root, package, w)
    ]
    if c.status in ("enforced", "provisional", "partly") and not row.where:
        out.append(f"{c.id}: {c.status}, but no code cites it and no `where` is declared")
    if c.status in ("enforced", "provisional") and not (row.conformance or c.tests):
        out.append(f"{c.id}: {c.status}, but no conformance case or test shows it")
    if c.switch and c.switch not in switches:
        out.append(f"{c.id}: switch {c.switch} is declared by no flags file")
    return out


def build(cases: CaseList, root: Path, package: Path) -> Coverage:
    """The coverage of ``cases`` (a ruleset's declaration), reading the code of ``package``
    and the catalogues under ``root`` (the repository)."""
    ids = [r.id for r in cases.rows]
    code = cited_by_package(package)
    cites = catalogue_cites(root, cases.catalogues)
    where: dict[str, set[str]] = {i: set() for i in ids}
    shown: dict[str, set[str]] = {i: set() for i in ids}
    problems: list[str] = []
    for citation, modules in sorted(code.items()):
        named = rows_for(citation, ids)
        if not named:
            problems.append(f"{citation}: cited by {', '.join(sorted(modules))} but not a row")
        for i in named:
            where[i].update(f"{m}.py" for m in modules)
    for citation, files in sorted(cites.items()):
        named = rows_for(citation, ids)
        if not named:
            problems.append(f"{citation}: cited by conformance case {files[0]} but not a row")
        for i in named:
            shown[i].update(files)
    switches = _flag_names(root, cases.flags)
    rows = []
    for c in cases.rows:
        row = Row(c, tuple(sorted(where[c.id] | set(c.where))), tuple(sorted(shown[c.id])))
        problems += _row_problems(row, root, package, switches)
        rows.append(row)
    return Coverage(cases, tuple(rows), tuple(problems))


# ---- Markdown ------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _short_case(path: str) -> str:
    """``tests/conformance/sixth_fleet_1975/010-8.21-....json`` -> ``sixth_fleet_1975/010``."""
    parts = path.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    return f"{parts[-2]}/{stem.split('-', 1)[0]}"


def _shown_by(row: dict[str, Any]) -> str:
    cases = [f"`{_short_case(p)}`" for p in row["conformance"]]
    if len(cases) > SHOWN_CASES:
        cases = [*cases[:SHOWN_CASES], f"and {len(cases) - SHOWN_CASES} more"]
    tests = [
        f"`{_short_case(t)}`"
        if t.startswith("tests/conformance/")
        else f"`{t.removeprefix('tests/')}`"
        for t in row["tests"]
    ]
    return ", ".join(cases + tests)


def _what(row: dict[str, Any]) -> str:
    status = STATUSES[row["status"]]
    bits = [f"**{status}**"]
    if row.get("interpretation"):
        bits.append(f"reading: {row['interpretation']}")
    if row.get("switch"):
        bits.append(f"switch `{row['switch']}`")
    if row.get("reason"):
        bits.append(row["reason"])
    if row.get("see"):
        bits.append(f"see {row['see']}")
    return "; ".join(bits)


def _group_of(case_id: str, groups: dict[str, str]) -> str:
    bare = case_id.split(" ", 1)[1] if " " in case_id else case_id
    major = bare.split(".", 1)[0]
    prefix = case_id.split(" ", 1)[0] + " " if " " in case_id else ""
    return groups.get(prefix + major) or groups.get(major) or f"{prefix}{major}.0"


def to_markdown(page: dict[str, Any]) -> str:
    """The page a moderator reads (``page`` is :meth:`Coverage.to_json`'s shape)."""
    lines = [
        f"# Rules coverage: {page['rulebook']} (`{page['ruleset']}`)",
        "",
        "<!-- generated by `python -m referee.coverage.generate` from the ruleset's cases.toml,"
        " its code and its tests; do not edit -->",
        "",
        "One row per numbered case of the rulebook: **enforced** (the modules that apply it "
        "and the conformance cases and tests that show it), **provisional** (applied under a "
        "reading declared in `docs/interpretations.md`, with the switch that changes it), "
        "**partly enforced** or **not built** (what the referee does not do, so the players "
        "must), or nothing for a referee to do (**host game**, **players**, "
        "**nothing to apply**, **deleted by the kit**).",
        "",
        f"Case list: {page['source']}.",
        "",
        "| status | cases |",
        "|---|---|",
    ]
    lines += [f"| {STATUSES[k]} | {n} |" for k, n in page["summary"].items() if n]
    lines.append(f"| total | {sum(page['summary'].values())} |")
    current = None
    for row in page["rows"]:
        group = _group_of(row["id"], page["groups"])
        if group != current:
            current = group
            lines += ["", f"## {group}", "", "| case | rule | status | where | shown by |"]
            lines.append("|---|---|---|---|---|")
        where = ", ".join(f"`{w}`" for w in row["where"])
        lines.append(
            f"| {_cell(row['id'])} | {_cell(row['title'])} | {_cell(_what(row))} "
            f"| {where} | {_shown_by(row)} |"
        )
    return "\n".join(lines) + "\n"
