"""Importing this module registers the three classic rulesets (docs/rules.md B) in
``domain.RULESETS``: ``MUNCHLOG_RULESETS=domain.classic.plugin`` loads them in a server."""

from domain.classic import register_classic

register_classic()
