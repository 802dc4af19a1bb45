"""Writing our VASSAL module: a module source compiled into ``build/<id>-<version>.vmod``.

``plan`` decides everything the module will say, ``palette`` and ``traits`` make its pieces,
``buildfile`` and ``tools`` write the component tree, ``grid`` and ``layers`` name its
places, ``levels``, ``tracker``, ``displays``, ``setup_area``, ``artwork`` and ``own_art``
add markers, the turn tracker, display windows, the set-up area and the module's own
pictures, and ``module_writer`` (with ``module_extras``) writes the archive. Imports only
:mod:`referee.vassal.codec` of the other VASSAL packages.
"""
