"""A game's positions in our module: where counters sit, and saves both ways.

``placement`` maps hexes, boxes and displays to VASSAL points and back; ``savewriter`` and
``decks`` compose a ``.vsav`` from the module's palette; ``save`` writes an adjudicated
position (``position.vsav``) and ``setups`` a scenario's set-up save inside the module;
``survey`` reads a save back in the game's terms, and ``vlog_import`` / ``vlog_named`` turn
a player's log into an orders file. Builds on :mod:`referee.vassal.module` and
:mod:`referee.vassal.codec`.
"""
