"""Tournaments (issue #27)."""
