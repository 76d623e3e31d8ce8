"""Tournaments (issue #27): an event's standings (:mod:`domain.tournament.standings`)."""
