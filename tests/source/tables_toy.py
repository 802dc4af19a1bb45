"""The ruleset schema of the table-only toy module (tests/fixtures/modules/tables_toy)."""

from __future__ import annotations

from pathlib import Path

from referee.source.schema import RulesetSchema

TABLES_TOY = Path(__file__).resolve().parents[1] / "fixtures" / "modules" / "tables_toy"
SCHEMA = RulesetSchema(
    id="tables_toy",
    name="Table toy",
    values=("ECM",),
    categories=("ship",),
)


def install() -> None:
    """Let module sources name ruleset ``tables_toy`` (idempotent)."""
    from referee.source import schema

    schema.register(SCHEMA)
