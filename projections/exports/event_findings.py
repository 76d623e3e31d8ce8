"""What checking an event's export finds (:class:`EventCheck`), apart from the checks: both
:mod:`projections.exports.event_check` and :mod:`projections.exports.event_rounds` fill one,
and import it from here, not from each other."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the export: ``where`` it is and ``what`` is wrong."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass
class EventCheck:
    """What :func:`check_event_export` found: the ``problems``, what it ``checked`` and found
    right (a line each), and ``notes`` on what this export could not let it check."""

    event_id: str
    problems: list[Problem] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def problem(self, where: str, what: str) -> None:
        self.problems.append(Problem(where, what))
