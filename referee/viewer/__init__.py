"""The game viewer: one offline HTML file per side to step through a game on the map.

``data`` computes what a side may see (pure), ``archive`` reads a game archive for it (the
I/O edge, with ``verify``'s signature checks), ``page`` draws the board and writes the HTML.
The command is ``referee viewer`` (:mod:`referee.commands.viewer`); ``docs/pbem.md`` says
how players use it.
"""
