"""Errors raised by the rules and the judge's decisions: the only way the domain says "no".

Three kinds, narrow like python-chess's ``InvalidMoveError`` / ``IllegalMoveError``, and one
for a command that names something the game does not have:

* :class:`InvalidCommand` — the command is malformed (missing field, wrong type). HTTP 400.
* :class:`ImpossibleCommand` — physically impossible (an unknown card, a card that is not where the
  command says it is). Always rejected, even in ``record`` mode. HTTP 422.
* :class:`RuleViolation` — legal to do with real cards but forbidden by the rules. Rejected in
  ``strict`` mode; recorded with its code in ``record`` mode. HTTP 422.
* :class:`NotFound` — the command names a dispute or a version the game does not have
  (``dispute/not_found``, ``game/version_not_found``). HTTP 404.
"""

from __future__ import annotations


class CodedError(Exception):
    """An error with a stable ``code`` (a class attribute) and a ``message`` for people: the
    shape of the service's and the storage's errors, which :mod:`api.json_api.errors` maps to HTTP."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DomainError(ValueError):
    """Base of every error the domain raises; carries a stable ``code``."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, rule={self.rule!r})"


class InvalidCommand(DomainError):
    """The command is not well formed (``request/...`` codes)."""

    def __init__(self, code: str, message: str, fields: dict[str, list[str]] | None = None) -> None:
        super().__init__(code, message)
        self.fields = fields or {}


class ImpossibleCommand(DomainError):
    """The command names something that cannot be: always rejected (``command/...`` codes)."""


class RuleViolation(DomainError):
    """The command breaks a rule of the game (``rule/...`` codes, with the docs/rules.md section)."""

    def __init__(
        self, code: str, message: str, rule: str, fields: dict[str, list[str]] | None = None
    ) -> None:
        super().__init__(code, message, rule)
        #: Per-field details, as :class:`InvalidCommand`'s (``rule/not_the_catalog_card``: each
        #: field that differs from the catalog's card, ``"catalog: 3, given: 0"``).
        self.fields = fields or {}


class NotFound(DomainError):
    """The command names something this game does not have (a dispute, an event version)."""


class UnknownVersion(NotFound):
    """A version the game has not reached (``game/version_not_found``)."""

    def __init__(self, version: int, current_version: int) -> None:
        super().__init__(
            "game/version_not_found",
            f"version {version} does not exist; the game is at version {current_version}",
        )
        self.version = version
        self.current_version = current_version
