"""Carrier Battlegroup: a solitaire game whose Soviet side the referee runs (issue 14).

The rules are the seed text ``003_7bfd3284f2e6e5d9.txt`` (cases 1.0-25.0), digested in the
rules folder's ``other-systems.md`` section 2; the missing charts are named tables of the
module source ``module_src/carrier_battlegroup`` (every assumed value marked ``estimate``).
"""
