"""What the naval rules hand to the host game [30.15a]: each hand-off numbered and recorded
with its event, for the host series to resolve (artillery support, an assault, an air combat
or AA fire), its result coming back as a signed order. Combat, air missions, coastal fire and
the Soviet defence all hand off through :func:`handoff`."""

from __future__ import annotations

from typing import Any

from referee.rules.naval_module.work import Work


def handoff(w: Work, kind: str, rule: str, text: str, **data: Any) -> str:
    """Record what goes to the host game: a numbered hand-off and its event [30.15a]."""
    offs = list(w.facts.handoffs)
    hid = f"H{len(w.facts.handoff_log) + len(offs) + 1}"
    offs.append({"id": hid, "kind": kind, **data})
    w.put(handoffs=offs)
    w.note("handoff", rule, f"{hid} for the host game: {text}", handoff=hid, kind=kind, **data)
    return hid
