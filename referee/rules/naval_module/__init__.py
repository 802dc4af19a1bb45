"""The naval units module (rules 25.0-32.0) of an East-Front land-war series, seed 004."""
