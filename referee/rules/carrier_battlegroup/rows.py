"""Whole rows of the module's named tables, with the key, for tables of several fields."""

from __future__ import annotations

from typing import Any

from referee.source.tablemodel import NamedTable


def row_record(table: NamedTable, key: object) -> tuple[dict[str, Any], str]:
    """The row the table's lookup rules give for ``key``: (fields with ``"key"``, how)."""
    found = table.lookup(row=key, col=table.column_keys[0].text)
    i = table.row_keys.index(found.row)
    return {**table.record(i), "key": found.row.text}, found.how


def all_rows(table: NamedTable) -> list[dict[str, Any]]:
    """Every row, in file order, with its key as ``"key"``."""
    return [{**table.record(i), "key": k.text} for i, k in enumerate(table.row_keys)]
