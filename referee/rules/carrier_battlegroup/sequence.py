"""The sequence of play [4.0], [5.0] as data: the engine's phase records, declared once.

Set-up (the referee's steps 1-7, then the player's escorts, purchases and placement, steps
7-9) is played once; then each turn's ten phases of [5.0], in order, each with who acts in it
and the section of the turn's orders it reads. The referee takes one turn's orders as one
file, the ``turn`` step, played within the Intelligence Phase where a turn's orders begin,
and carries out the ten phases in this order (``turn.carry_out_turn``); the Soviet side is
the referee's own procedure, run inside it. :mod:`phases` gives the three steps the player
writes orders for their check and carry-out; the VASSAL turn tracker lists the phases
(``schema.SEQUENCE``, read from here). Kept apart from ``phases.py`` so the schema reads them
without the rules. 5.0 numbers the phases 1) to 10).
"""

from __future__ import annotations

from referee.engine.sequence import Phase, SequenceOfPlay

USN = "USN"
TURN_SECTIONS = ("intelligence", "logistics", "movement", "launch", "objective")

SEQUENCE: SequenceOfPlay[None] = SequenceOfPlay(
    (
        Phase("setup", "set-up steps 1-7", "4.0", side=USN, sections=("setup",), once=True),
        Phase(
            "outfit",
            "escorts, purchases and placement",
            "4.0",
            side=USN,
            sections=("outfit",),
            once=True,
        ),
        Phase(
            "turn",
            "the turn's orders",
            "5.0",
            side=USN,
            sections=TURN_SECTIONS,
            within="intelligence",
        ),
        Phase("intelligence", "Intelligence Phase", "5.0", side=USN, sections=("intelligence",)),
        Phase("logistics", "Logistics Phase", "5.0", side=USN, sections=("logistics",)),
        Phase("movement", "Movement Phase", "5.0", side=USN, sections=("movement",)),
        Phase("incident", "Incident Phase", "5.0", "nobody"),
        Phase("launch", "USN Launch Phase", "5.0", side=USN, sections=("launch",)),
        Phase("combat", "Combat Phase", "5.0", "nobody"),
        Phase("objective", "Objective Phase", "5.0", side=USN, sections=("objective",)),
        Phase("recovery", "Recovery Phase", "5.0", "nobody"),
        Phase("victory", "Victory Phase", "5.0", "nobody"),
        Phase("end", "End of Turn", "5.0", "nobody"),
    )
)
"""[4.0] set-up, then [5.0]'s ten phases; ``turn`` is the step that takes a turn's orders."""
