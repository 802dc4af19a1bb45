"""The sequence of play [5.0] as data: the engine's phase records, declared once.

The referee walks them (``sequence.py``: what happens between phases) and the VASSAL turn
tracker shows them (``schema.SEQUENCE``, read from here). Kept apart from ``sequence.py`` so
the schema reads them without the rules.
"""

from __future__ import annotations

from referee.engine.sequence import Phase, SequenceOfPlay
from referee.rules.sixth_fleet_2019.game import NATO, SOVIET
from referee.rules.sixth_fleet_2019.vocabulary import ACTIONS, EVENTS

PHASES: SequenceOfPlay[None] = SequenceOfPlay(
    (
        Phase(
            "soviet_events", "Soviet Random Events Phase", "5.1", side=SOVIET, sections=(EVENTS,)
        ),
        Phase("soviet_actions", "Soviet Action Phase", "5.2", side=SOVIET, sections=(ACTIONS,)),
        Phase("nato_events", "NATO Random Events Phase", "5.1", side=NATO, sections=(EVENTS,)),
        Phase("nato_actions", "NATO Action Phase", "5.2", side=NATO, sections=(ACTIONS,)),
        Phase("turn_record", "Turn Record Phase", "5.3", "nobody"),
    )
)
"""[5.0]: each phase is one side's (its events file, then its actions file); the Turn
Record Phase is the referee's alone."""
