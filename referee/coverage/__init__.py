"""Rules coverage: which numbered case of a rulebook the referee enforces, and how we know.

A ruleset package declares its rulebook's numbered cases in ``cases.toml`` (``cases.py``
reads it); ``citations.py`` finds the cases its code cites; ``evidence.py`` finds the
conformance cases and tests that cite each; ``page.py`` joins the three into a coverage page
(Markdown for people, JSON for scripts). ``generate.py`` writes ``docs/rules-coverage/`` and
``referee rules RULESET`` prints it. Nothing here imports a ruleset: it reads files.
"""
