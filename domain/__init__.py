"""munchlog's game model: events, the fold, rulesets, the judge. No I/O, no clock, no randomness
in the rules. ``domain.game`` (the storage aggregates) is the only module that knows about
eventsourcing; import it by name.

The kernel imports no game family: the app registers them at start
(:func:`domain.family.load_families`: the CCG's ``domain.ccg``, classic's
``domain.classic``, and those ``MUNCHLOG_RULESETS`` names).

>>> rs = find_ruleset(DEFAULT_RULESET)
>>> sorted(rs.command_types)[:3]
['activate', 'allocate', 'attack']
"""

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

#: The ruleset a request that names none gets, the demo's, and a stored game's that names none
#: (the Munchkin CCG's, a fact of the stored records: tests/test_legacy_store.py).
DEFAULT_RULESET = "munchkin-ccg"

__all__ = [
    "DEFAULT_RULESET",
    "EVENT_TYPES",
    "RULESETS",
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
    "decide_dispute",
    "decide_ruling",
    "event_from_dict",
    "evolve",
    "find_ruleset",
    "initial_state",
    "knowledge",
    "register",
    "ruleset_of",
]
