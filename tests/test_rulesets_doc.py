"""The guide to the kernel (``docs/rulesets.md``) and the module map (``docs/architecture.md``)
name only code that exists, and the map names every module of each bundled ruleset.

A renamed or deleted module otherwise leaves the docs pointing at nothing, which is how the
guide came to list a ``carry.py`` that had become the engine's ``Carry``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GUIDES = ("rulesets.md", "architecture.md")
TOP = ("referee", "tests", "bench", "module_src", "docs", "templates")
# a repository path written in backquotes: `referee/engine/steps.py`, `tests/conformance/x/`
PATH = re.compile(r"`((?:" + "|".join(TOP) + r")/[A-Za-z0-9_./*-]+)")
# the example path the coverage section shows for a unit test; a folder made at run time
EXAMPLES = {"tests/x.py", "referee/__pycache__"}
RULESETS = sorted(
    p.name for p in (ROOT / "referee" / "rules").iterdir() if (p / "ruleset.py").is_file()
)


def _exists(path: str) -> bool:
    """A path, or a glob (``tests/rules/test_x_*.py``) that matches something."""
    return any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()


@pytest.mark.parametrize("doc", GUIDES)
def test_every_path_named_exists(doc: str) -> None:
    text = (DOCS / doc).read_text(encoding="utf-8")
    missing = sorted({m for m in PATH.findall(text) if m not in EXAMPLES and not _exists(m)})
    assert not missing, f"docs/{doc} names paths that do not exist: {missing}"


def _map_section(text: str, ruleset: str) -> str:
    """The module map's paragraph and table of one ruleset: from its bold heading naming
    ``referee/rules/<id>/`` to the next bold heading of the map."""
    start = text.index(f"`referee/rules/{ruleset}/`**")
    start = text.rindex("\n**", 0, start)
    end = text.find("\n**", start + 3)
    return text[start : end if end != -1 else len(text)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_module_map_names_every_module(ruleset: str) -> None:
    """``docs/architecture.md`` is the map: each module of a ruleset is in its section, and
    each module its section names is in the package."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = _map_section(text, ruleset)
    package = ROOT / "referee" / "rules" / ruleset
    have = {p.name for p in package.glob("*.py")} - {"__init__.py"}
    named = set(re.findall(r"`([a-z0-9_]+\.py)`", section))
    assert have - named == set(), f"modules missing from the map: {sorted(have - named)}"
    engine = {p.name for p in (ROOT / "referee" / "engine").glob("*.py")}
    stray = named - have - engine
    assert stray == set(), f"the map names modules {ruleset} does not have: {sorted(stray)}"


def test_each_rulesets_section_names_what_its_package_has() -> None:
    """In a ruleset's section of the guide, ``module.name`` (``facts.CbgFacts``,
    ``launch.strike_target_19_1``) is a module of that package defining that name."""
    text = (DOCS / "rulesets.md").read_text(encoding="utf-8")
    bundled = text[text.index("## The bundled rulesets") :]
    wrong = []
    for section in bundled.split("\n### ")[1:]:
        head = re.search(r"`referee/rules/([a-z0-9_]+)/`", section.split("\n", 1)[0])
        assert head is not None, section.split("\n", 1)[0]
        package = ROOT / "referee" / "rules" / head.group(1)
        for module, name in re.findall(r"`([a-z0-9_]+)\.([A-Za-z_][A-Za-z0-9_]*)`", section):
            source = package / f"{module}.py"
            if name == "py" or not source.is_file():
                continue  # a file name (checked above), or another package's module
            defined = rf"^(?:def|class) {name}\b|^{name}\b\s*[:=]|^    def {name}\b"
            if not re.search(defined, source.read_text(encoding="utf-8"), re.M):
                wrong.append(f"{head.group(1)}: {module}.{name}")
    assert not wrong, f"docs/rulesets.md names what its package lacks: {wrong}"
