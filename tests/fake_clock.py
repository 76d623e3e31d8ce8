"""The service's clock set by a test: ``T0`` and ``at(minutes)`` after it, and the ``now``
fixture (``tests/conftest.py``) that sets ``service.games.utc_now`` to ``now(minutes)`` after
``T0`` (requests read it too). Nothing waits: the events' keeper is asked at given moments."""

from __future__ import annotations

from datetime import timedelta

from domain.tournament import clock

T0 = "2030-01-01T10:00:00Z"


def at(minutes: float) -> str:
    return clock.iso(clock.moment(T0) + timedelta(minutes=minutes))
