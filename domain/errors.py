"""Errors raised by ``decide``: the only way the rules say "no".

Three kinds, narrow like python-chess's ``InvalidMoveError`` / ``IllegalMoveError``:

* :class:`InvalidCommand` — the command is malformed (missing field, wrong type). HTTP 400.
* :class:`ImpossibleCommand` — physically impossible (an unknown card, a card that is not where the
  command says it is). Always rejected, even in ``record`` mode. HTTP 422.
* :class:`RuleViolation` — legal to do with real cards but forbidden by the rules. Rejected in
  ``strict`` mode; recorded with its code in ``record`` mode. HTTP 422.
"""

from __future__ import annotations


class DomainError(ValueError):
    """Base of every error the rules engine raises; carries a stable ``code``."""

    status_hint = 422

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, rule={self.rule!r})"

    def to_dict(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        return out


class InvalidCommand(DomainError):
    """The command is not well formed (``request/...`` codes)."""

    status_hint = 400

    def __init__(self, code: str, message: str, fields: dict[str, list[str]] | None = None) -> None:
        super().__init__(code, message)
        self.fields = fields or {}


class ImpossibleCommand(DomainError):
    """The command names something that cannot be: always rejected (``command/...`` codes)."""


class RuleViolation(DomainError):
    """The command breaks a rule of the game (``rule/...`` codes, with the RULES.md section)."""

    def __init__(self, code: str, message: str, rule: str) -> None:
        super().__init__(code, message, rule)
