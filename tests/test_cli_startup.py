"""Start-up cost of the command line: ``referee validate`` (what CI runs per orders file)
imports none of the heavy libraries, and Typer's options parse without pydantic while
referee/commands/fastparams.py can serve this Typer; the fast path changes no result or
message."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from referee.cli import app

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "module_src" / "sixth_fleet"


def test_validate_imports_no_heavy_library(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    made = CliRunner().invoke(
        app, ["state", "new", str(SRC), "--scenario", "short", "-o", str(state)]
    )
    assert made.exit_code == 0, made.output
    orders = SRC / "examples" / "01-nato-setup.txt"
    args = ["validate", "--state", str(state), "--module", str(SRC), str(orders)]
    probe = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from referee.commands.fastparams import install\n"
        "from referee.cli import app\n"
        f"r = CliRunner().invoke(app, {args!r})\n"
        "assert r.exit_code in (0, 1), r.output\n"
        "heavy = ['PIL', 'lxml', 'reportlab'] + (['pydantic'] if install() else [])\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_fast_path_keeps_typers_messages() -> None:
    runner = CliRunner()
    bad_choice = runner.invoke(app, ["validate", "--state", "s.json", "--format", "bogus", "x"])
    assert bad_choice.exit_code == 2
    assert "'bogus' is not one of 'text', 'github', 'json'" in bad_choice.output
    low = runner.invoke(app, ["build", "--example", "sixth_fleet", "--dpi", "10"])
    assert low.exit_code == 2
    assert "greater than or equal to 50" in low.output
    word = runner.invoke(app, ["build", "--example", "sixth_fleet", "--dpi", "abc"])
    assert word.exit_code == 2
    assert "valid integer" in word.output


def test_the_fast_path_gives_typers_list_of_paths() -> None:
    """``adjudicate GAME ORDERS...``: several paths convert as Typer's own adapter does."""
    from pathlib import Path

    import typer.core as core
    from typer._coercion import build_runtime_param, resolve_type_descriptor
    from typer.models import ArgumentInfo

    from referee.commands import fastparams

    assert fastparams.install()
    desc = resolve_type_descriptor(list[Path], ArgumentInfo(default=...))
    fast = core.build_runtime_param(desc)
    slow = build_runtime_param(desc)
    value = ("orders/a.txt", "b.txt", "-")
    want = slow._coerce_value(value, param=None, ctx=None)
    got = fast._coerce_value(value, param=None, ctx=None)
    assert (
        got == want
        and type(got) is type(want)
        and all(type(p) is type(q) for p, q in zip(got, want, strict=True))
    )
    assert "memo" in type(fast).__dataclass_fields__ and "slow" not in fast.memo  # no adapter
