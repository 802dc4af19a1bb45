"""The generic engine core: state, board topology, orders, phases, dice, events.

It imports no ruleset; rulesets are found through :mod:`referee.engine.ruleset`.
"""
