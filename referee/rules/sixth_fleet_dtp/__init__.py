"""The DTP revised rules for SPI Sixth Fleet (``sixth_fleet_dtp``): one module per part of the
kit, reusing the SPI ruleset's functions where DTP keeps a case (``docs/rulesets.md``)."""
