"""Write the rules coverage pages: ``python -m referee.coverage.generate [--check] [RULESET...]``.

For every ruleset package with a ``cases.toml`` (or the ones named), this joins the declared
cases with the cases its code cites and the conformance cases and tests that show them
(:mod:`referee.coverage.page`) and writes ``docs/rules-coverage/<ruleset>.md`` (for people)
and ``<ruleset>.json`` (what ``referee rules`` prints). It refuses, listing every fault, when
the declaration is out of step: a case the code or a conformance case cites that no row
declares, a declared test that does not exist, an enforced case nothing shows. ``--check``
writes nothing and exits 1 when a page differs from what it would write
(``tests/test_rules_coverage.py`` runs the same check).

A guide for the author of a ruleset's page (the next ruleset, or one without a page yet):

1. Take the rulebook's numbered cases from the rules digest (``../shared/rules``: the
   digest's rule ids, plus the section headings the code cites, such as ``4.0``) and write one
   ``[[case]]`` per case in ``referee/rules/<id>/cases.toml``: ``id`` as the code cites it
   (``"8.21"``; a kit that amends another rulebook prefixes its own, ``"DTP 8.21"``),
   ``title`` (a short paraphrase of the rule), ``status`` (see
   :mod:`referee.coverage.cases`), and ``reason`` for every status but ``enforced`` and
   ``provisional``: a sentence a moderator can act on ("the players check it", "the referee
   does not ...; the players apply it").
2. ``[meta]``: ``ruleset``, ``rulebook``, ``source`` (where the case list comes from),
   ``catalogues`` (globs of the conformance JSON files whose ``cites`` count), ``flags``
   (the files declaring the ruleset's switches), ``groups`` (``"8" = "8.0 Combat"``).
3. Do not list where a case is applied or which conformance cases show it: the generator
   finds both. Declare ``where`` only for a case the code applies without citing it, and
   ``tests`` (``tests/x.py::test_name``) for unit tests that show a case.
4. A provisional case names its ``interpretation`` (the id or case of its row in
   ``docs/interpretations.md``) and its ``switch`` (a field of the flags dataclass).
5. Run this module, read every fault it lists, fix the declaration (or the code), run it
   again, and commit the page with the change that moved it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee.coverage.cases import CasesError, load_cases
from referee.coverage.page import Coverage, build, to_markdown
from referee.safeio import write_text_atomic

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "referee" / "rules"
PAGES = ROOT / "docs" / "rules-coverage"


def declared_rulesets() -> list[str]:
    """The rulesets whose package declares its cases (sorted)."""
    return sorted(p.parent.name for p in RULES.glob("*/cases.toml"))


def coverage_of(ruleset: str) -> Coverage:
    """The coverage of one ruleset from this checkout."""
    package = RULES / ruleset
    cases = load_cases(package / "cases.toml")
    if cases.ruleset != ruleset:
        raise CasesError(f"{package / 'cases.toml'}: [meta] ruleset is {cases.ruleset!r}")
    return build(cases, ROOT, package)


def page_files(cov: Coverage) -> dict[Path, str]:
    """The two files of a ruleset's page and their text."""
    data = cov.to_json()
    return {
        PAGES / f"{cov.cases.ruleset}.json": json.dumps(data, indent=1, ensure_ascii=False) + "\n",
        PAGES / f"{cov.cases.ruleset}.md": to_markdown(data),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m referee.coverage.generate", description=__doc__)
    ap.add_argument("rulesets", nargs="*", help="rulesets (default: every declared one)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = ap.parse_args(argv)
    status = 0
    for ruleset in args.rulesets or declared_rulesets():
        try:
            cov = coverage_of(ruleset)
        except (CasesError, OSError) as e:
            print(f"{ruleset}: {e}", file=sys.stderr)
            status = 1
            continue
        if cov.out_of_step:
            print(f"{ruleset}: the declaration is out of step with the code:", file=sys.stderr)
            for p in cov.out_of_step:
                print(f"  {p}", file=sys.stderr)
            status = 1
            continue
        for path, text in page_files(cov).items():
            old = path.read_text(encoding="utf-8") if path.is_file() else None
            if old == text:
                continue
            if args.check:
                print(f"{path.relative_to(ROOT)} is stale: run {ap.prog}", file=sys.stderr)
                status = 1
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_text_atomic(path, text)
                print(f"wrote {path.relative_to(ROOT)}")
        s = cov.summary()
        print(f"{ruleset}: " + ", ".join(f"{n} {k}" for k, n in s.items() if n))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
