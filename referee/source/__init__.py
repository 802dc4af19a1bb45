"""Module sources: the plain-text folder a designer edits, its model, loader and checker."""
