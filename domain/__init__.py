"""munchlog's game model: events, state, rules. No I/O, no clock, no randomness in the rules.

>>> rs = find_ruleset("munchkin-ccg")
>>> sorted(rs.command_types)[:3]
['activate', 'allocate', 'attack']
"""

import domain.corrections  # noqa: F401  (registers the judge events)
from domain.cards import Catalog, check_deck, normalize_card, sample_catalog
from domain.errors import DomainError, ImpossibleCommand, InvalidCommand, RuleViolation
from domain.events import EVENT_TYPES, Event, event_from_dict
from domain.rules import RULESETS, Ruleset, find_ruleset
from domain.rules.ccg import commitment
from domain.state import State, evolve, initial_state, replay
from domain.visibility import knowledge

__all__ = [
    "EVENT_TYPES",
    "RULESETS",
    "Catalog",
    "DomainError",
    "Event",
    "ImpossibleCommand",
    "InvalidCommand",
    "RuleViolation",
    "Ruleset",
    "State",
    "check_deck",
    "commitment",
    "event_from_dict",
    "evolve",
    "find_ruleset",
    "initial_state",
    "knowledge",
    "normalize_card",
    "replay",
    "sample_catalog",
]
