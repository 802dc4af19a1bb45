"""Issue 31, "slow inputs": what made a long orders file cost 2 ms an order.

``Module.piece`` rebuilt every counter of the roster (170 in Carrier Battlegroup) on each
call, and the rules ask it for every unit of every order: 4,323 ``strike`` lines took
9.75 s of CPU to validate. The pieces of a roster are now built once. The figures (before,
after, the 1 MB file the parser accepts) are in docs/performance.md (bench/bench_hostile.py).
"""

from __future__ import annotations

from pathlib import Path

from referee.source.loader import load_module

SRC = Path(__file__).resolve().parent.parent / "module_src" / "carrier_battlegroup"


def test_pieces_are_built_once_per_roster():
    module, _ = load_module(SRC)
    assert module is not None
    first = module.piece("US-A6.1")
    assert module.piece("US-A6.1") is first  # no rebuilding per call
    every = module.pieces()
    assert every["US-A6.1"] is first and next(iter(every)) == next(iter(module.pieces()))
    every.clear()  # the caller's own copy: the module's pieces are untouched
    assert module.piece("US-A6.1") is first and module.pieces()


def test_another_roster_gets_its_own_pieces():
    import dataclasses

    module, _ = load_module(SRC)
    assert module is not None
    fewer = dataclasses.replace(module, units=module.units[:3])
    assert len(fewer.pieces()) < len(module.pieces())
    assert set(fewer.pieces()) <= set(module.pieces())
