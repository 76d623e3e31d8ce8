"""munchlog's game model: events, the fold, rulesets, the judge. No I/O, no clock, no randomness
in the rules. ``domain.game`` (the storage aggregates) is the only module that knows about
eventsourcing; import it by name.

>>> rs = find_ruleset("munchkin-ccg")
>>> sorted(rs.command_types)[:3]
['activate', 'allocate', 'attack']
"""

# Importing the Munchkin CCG registers its events, fold handlers and ruleset; the three
# classic rulesets (docs/rules.md B) are registered next, after it.
from domain.ccg import CCG, commitment
from domain.ccg.cards import Catalog, check_deck, normalize_card, sample_catalog
from domain.classic import register_classic
from domain.envelope import Record
from domain.errors import (
    DomainError,
    ImpossibleCommand,
    InvalidCommand,
    NotFound,
    RuleViolation,
    UnknownVersion,
)
from domain.events import EVENT_TYPES, Event, event_from_dict
from domain.fold import State, apply_record, evolve, initial_state
from domain.judge import decide_dispute, decide_ruling
from domain.ruleset import RULESETS, Ruleset, Step, find_ruleset, register, ruleset_of
from domain.visibility import knowledge

register_classic()

#: The ruleset a request that names none gets, and the demo's (the Munchkin CCG).
DEFAULT_RULESET = CCG.name

__all__ = [
    "DEFAULT_RULESET",
    "EVENT_TYPES",
    "RULESETS",
    "Catalog",
    "DomainError",
    "Event",
    "ImpossibleCommand",
    "InvalidCommand",
    "NotFound",
    "Record",
    "RuleViolation",
    "Ruleset",
    "State",
    "Step",
    "UnknownVersion",
    "apply_record",
    "check_deck",
    "commitment",
    "decide_dispute",
    "decide_ruling",
    "event_from_dict",
    "evolve",
    "find_ruleset",
    "initial_state",
    "knowledge",
    "normalize_card",
    "register",
    "ruleset_of",
    "sample_catalog",
]
