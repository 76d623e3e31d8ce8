"""Tournaments (issue #27, docs/rules.md F): an event drives its games.

* :mod:`domain.tournament.aggregate` — the event as stored (``Tournament``, its secrets);
* :mod:`domain.tournament.rules` — settings, decklists and their salted hash, round 1's key,
  the seat tokens of its games, a match's result from its games;
* :mod:`domain.tournament.pairing` — round 1 drawn, Swiss rounds (one maximum-weight matching);
* :mod:`domain.tournament.tables` — classic tables of 3 to 6;
* :mod:`domain.tournament.rounds` — every round as a function of what the event's export holds
  (the service pairs with it, ``munchlog verify`` draws each round again with it);
* :mod:`domain.tournament.standings` — the Magic Tournament Rules' Appendix C, classic places.
* :mod:`domain.tournament.registrations` — a player's row as an event shows it, its list hashed
  again.
* :mod:`domain.tournament.reports` — results the players report, disputes, a judge's correction
  of a past round (issue #38, F.3);
* :mod:`domain.tournament.checkin` — check-in, no-shows and the drop after two (issue #38, F.7).
"""
