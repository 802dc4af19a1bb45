"""Helpers shared by the command modules: resolving a module source argument, JSON output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from referee.errors import UserError


def resolve_source(src: Path | None, example: str | None) -> Path:
    """The module source folder named by ``SRC`` or ``--example NAME``."""
    from referee.resources import example_names, example_path

    if example:
        p = example_path(example)
        if p is None:
            raise UserError(
                f"no bundled example {example!r}",
                hint="bundled examples: " + ", ".join(example_names()),
            )
        return p
    if src is None:
        raise UserError(
            "name a module source folder, or use --example NAME",
            hint="e.g. referee check module_src/sixth_fleet",
        )
    return src


def load_checked(src: Path, *, quiet: bool = False):
    """Load a module source; on any error print every diagnostic and exit 1 (as `check`)."""
    from referee.source.loader import load_module

    module, diags = load_module(src)
    if module is None:
        for d in diags.items:
            typer.echo(str(d), err=True)
        n = len(diags.errors)
        typer.echo(
            f"{src}: {n} error{'s' if n != 1 else ''}; fix them and try again "
            "(run `referee check` for the full list)",
            err=True,
        )
        raise typer.Exit(1)
    if not quiet:
        for d in diags.warnings:
            typer.echo(str(d), err=True)
    return module


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
