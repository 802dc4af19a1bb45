"""Rulesets: one package per rule system, registered by id (see ``docs/rulesets.md``)."""
