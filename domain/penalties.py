"""The penalty guide munchlog's judges follow (docs/rules.md F.5): the penalties, the infractions
a ruling may name, which penalties end the game for the penalised seat, and the upgrade of a
repeated infraction.

Neither Munchkin game publishes a penalty guide, so munchlog follows the one organized play for
trading card games is run by, as docs/rules.md F does with the Magic Tournament Rules: the Magic
Infraction Procedure Guide (IPG). Its infractions keep their section numbers here
(:data:`INFRACTIONS`); a ruling names one (``infraction``), and the judge's penalty is upgraded
when the player's earlier penalties for the same infraction in the event reach the count the
guide gives (:func:`escalate`):

* Game Play Errors (IPG section 2, the introduction): the third or subsequent Warning for an
  offense of the same category becomes a Game Loss; Failure to Maintain Game State (2.6) is
  never upgraded.
* Tournament Errors (IPG section 3, the introduction): a Warning becomes a Game Loss when the
  player already received a Warning for an offense of the same category.
* Unsporting Conduct — Minor (IPG 4.1, Additional Remedy): subsequent infractions result in a
  Game Loss. Unsporting Conduct — Major (IPG 4.2): a Match Loss, upgraded to a Disqualification
  when the offense is repeated.

The count is the caller's (``earlier``): how many penalties of the same kind, for the same
infraction, the same player was given before in the event (:func:`given`). Pure: the guide is
data, the count an argument.

>>> escalate("warning", "tournament_error.slow_play", 1)
'game_loss'
>>> escalate("warning", "game_play_error.game_rule_violation", 1)
'warning'
>>> escalate("warning", "game_play_error.failure_to_maintain_game_state", 5)
'warning'

A recorded ruling is told to people with the guide's words (:func:`infraction_label`,
:func:`upgrade_label`, :func:`described`): the infraction's name and IPG section, and for an
upgraded penalty the least count the guide upgrades at. The count itself is not stored (the
ruling keeps only what was given, ``escalated_from``), so it reads "at least the 2nd":

>>> infraction_label("tournament_error.slow_play")
'Slow Play (IPG 3.3)'
>>> upgrade_label("tournament_error.slow_play", "warning", "game_loss")
'upgraded from warning as a repeat: at least the 2nd warning for it in the event'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The penalties a ruling may give, mildest first (IPG 1.1 defines all but the caution, which
#: the older guides and Regular REL use for a mistake no one needs to track).
PENALTIES = ("caution", "warning", "game_loss", "match_loss", "disqualification")
#: Penalties that end the game for the penalised seat at once: it leaves the game as a
#: concession would (the Digital IPG 1.1 asks a player given a Game Loss to concede the game).
ENDS_GAME = frozenset({"game_loss", "match_loss", "disqualification"})
#: Penalties that lose the penalised player's current match, not only its game (IPG 1.1: a
#: Match Loss is applied to the match during which the offense occurred; a Disqualification
#: removes the player from the tournament): an event reads them from its games' rulings
#: (``domain.tournament.rules.pairing_result``, docs/rules.md F.5).
ENDS_MATCH = frozenset({"match_loss", "disqualification"})


@dataclass(frozen=True, slots=True)
class Upgrade:
    """A repeated infraction's upgrade: a ``given`` penalty becomes ``to`` once the player was
    given ``after`` earlier ones of it for the same infraction in the event."""

    given: str
    after: int
    to: str


#: IPG section 2: "the third or subsequent warning" (two earlier ones).
GAME_PLAY_ERROR = Upgrade("warning", 2, "game_loss")
#: IPG section 3: a Warning after a Warning for the same category.
TOURNAMENT_ERROR = Upgrade("warning", 1, "game_loss")
#: IPG 4.1: "Subsequent" minor unsporting conduct is a Game Loss.
MINOR_CONDUCT = Upgrade("warning", 1, "game_loss")
#: IPG 4.2: a repeated major unsporting conduct is a Disqualification.
MAJOR_CONDUCT = Upgrade("match_loss", 1, "disqualification")


@dataclass(frozen=True, slots=True)
class Infraction:
    """One infraction of the guide: its IPG section, its name there, and its upgrade."""

    section: str
    name: str
    upgrade: Upgrade | None


#: The infractions a ruling may name, ``<class>.<infraction>`` after the IPG's names.
INFRACTIONS: dict[str, Infraction] = {
    "game_play_error.missed_trigger": Infraction("2.1", "Missed Trigger", GAME_PLAY_ERROR),
    "game_play_error.looking_at_extra_cards": Infraction(
        "2.2", "Looking at Extra Cards", GAME_PLAY_ERROR
    ),
    "game_play_error.hidden_card_error": Infraction("2.3", "Hidden Card Error", GAME_PLAY_ERROR),
    "game_play_error.mulligan_procedure_error": Infraction(
        "2.4", "Mulligan Procedure Error", GAME_PLAY_ERROR
    ),
    "game_play_error.game_rule_violation": Infraction(
        "2.5", "Game Rule Violation", GAME_PLAY_ERROR
    ),
    "game_play_error.failure_to_maintain_game_state": Infraction(
        "2.6", "Failure to Maintain Game State", None
    ),
    "tournament_error.tardiness": Infraction("3.1", "Tardiness", TOURNAMENT_ERROR),
    "tournament_error.outside_assistance": Infraction(
        "3.2", "Outside Assistance", TOURNAMENT_ERROR
    ),
    "tournament_error.slow_play": Infraction("3.3", "Slow Play", TOURNAMENT_ERROR),
    "tournament_error.decklist_problem": Infraction("3.4", "Decklist Problem", TOURNAMENT_ERROR),
    "tournament_error.deck_problem": Infraction("3.5", "Deck Problem", TOURNAMENT_ERROR),
    "tournament_error.limited_procedure_violation": Infraction(
        "3.6", "Limited Procedure Violation", TOURNAMENT_ERROR
    ),
    "tournament_error.communication_policy_violation": Infraction(
        "3.7", "Communication Policy Violation", TOURNAMENT_ERROR
    ),
    "tournament_error.marked_cards": Infraction("3.8", "Marked Cards", TOURNAMENT_ERROR),
    "tournament_error.insufficient_shuffling": Infraction(
        "3.9", "Insufficient Shuffling", TOURNAMENT_ERROR
    ),
    "unsporting_conduct.minor": Infraction("4.1", "Unsporting Conduct — Minor", MINOR_CONDUCT),
    "unsporting_conduct.major": Infraction("4.2", "Unsporting Conduct — Major", MAJOR_CONDUCT),
    "unsporting_conduct.improperly_determining_a_winner": Infraction(
        "4.3", "Improperly Determining a Winner", None
    ),
    "unsporting_conduct.bribery_and_wagering": Infraction("4.4", "Bribery and Wagering", None),
    "unsporting_conduct.aggressive_behavior": Infraction("4.5", "Aggressive Behavior", None),
    "unsporting_conduct.theft_of_tournament_material": Infraction(
        "4.6", "Theft of Tournament Material", None
    ),
    "unsporting_conduct.stalling": Infraction("4.7", "Stalling", None),
    "unsporting_conduct.cheating": Infraction("4.8", "Cheating", None),
}


def escalate(kind: str, infraction: str | None, earlier: int) -> str:
    """The penalty a ruling records when the judge gives ``kind`` for ``infraction`` and the
    player was given ``earlier`` penalties of that kind for it before (in the event): the
    infraction's upgrade once ``earlier`` reaches its count, else ``kind`` as given. No
    infraction, one not in :data:`INFRACTIONS`, a kind the upgrade is not for, or none to
    count: ``kind`` as given."""
    found = INFRACTIONS.get(infraction) if infraction is not None else None
    upgrade = found.upgrade if found is not None else None
    if upgrade is not None and kind == upgrade.given and earlier >= upgrade.after:
        return upgrade.to
    return kind


def given(ruling: Mapping[str, Any]) -> str | None:
    """The penalty the judge gave in a recorded ruling (``state["disputes"][...]["rulings"]``),
    before any upgrade: what a later ruling counts (an upgraded Warning still counts as one)."""
    kind = ruling.get("escalated_from") or ruling.get("penalty")
    return None if kind is None else str(kind)


def counts_towards(ruling: Mapping[str, Any], seat: str, infraction: str, kind: str) -> bool:
    """Whether the recorded ``ruling`` is an earlier penalty of ``kind`` for ``infraction``
    given to ``seat`` (the player's seat in that ruling's game)."""
    return (
        ruling.get("player") == seat
        and ruling.get("infraction") == infraction
        and given(ruling) == kind
    )


def is_ruling(event: Mapping[str, Any]) -> bool:
    """Whether ``event`` (anything with the ``type`` of a stored event: a record's event, an
    export's item) is a judge's ruling (``domain.judge.RulingRecorded``).

    >>> is_ruling({"type": "RulingRecorded"}), is_ruling({"type": "DisputeOpened"})
    (True, False)
    """
    return str(event.get("type", "")).endswith("RulingRecorded")


def match_rulings(state: Mapping[str, Any]) -> list[tuple[int, str, str]]:
    """``(version, seat, penalty)`` of every ruling in a game's ``state`` whose penalty loses
    the penalised seat its match (:data:`ENDS_MATCH`), in the order they were recorded.

    >>> match_rulings({"disputes": {"d1": {"rulings": [
    ...     {"version": 9, "penalty": "match_loss", "player": "B"}]},
    ...     "d2": {"rulings": [{"version": 4, "penalty": "warning", "player": "A"}]}}})
    [(9, 'B', 'match_loss')]
    """
    found = [
        (int(ruling["version"]), str(ruling["player"]), str(ruling["penalty"]))
        for dispute in (state.get("disputes") or {}).values()
        for ruling in dispute.get("rulings") or []
        if ruling.get("penalty") in ENDS_MATCH and ruling.get("player") is not None
    ]
    return sorted(found)


# ---------------------------------------------------------------------------- in words


def infraction_label(infraction: str) -> str:
    """The infraction as people read it, ``"Slow Play (IPG 3.3)"``; one the guide does not
    have (:data:`INFRACTIONS`) as it is stored."""
    found = INFRACTIONS.get(infraction)
    return infraction if found is None else f"{found.name} (IPG {found.section})"


def repeat_at_least(infraction: str | None, given: str | None, kind: str | None) -> int | None:
    """For a ruling whose ``given`` penalty the guide upgraded to ``kind`` for ``infraction``:
    the least count of such penalties to the player in the event this one can be (the guide's
    count of earlier ones, plus itself: 2 for a second Tournament Error Warning, 3 for a Game
    Play Error's third). ``None`` when the guide has no such upgrade (not upgraded, or an
    infraction or upgrade the guide no longer has): the ruling then says nothing of a count."""
    found = INFRACTIONS.get(infraction) if infraction is not None else None
    upgrade = found.upgrade if found is not None else None
    if upgrade is None or (upgrade.given, upgrade.to) != (given, kind):
        return None
    return upgrade.after + 1


def ordinal(n: int) -> str:
    """``2`` -> ``"2nd"``, ``11`` -> ``"11th"``, ``23`` -> ``"23rd"``."""
    last = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{'th' if n % 100 in (11, 12, 13) else last}"


def upgrade_label(infraction: str | None, given: str, kind: str) -> str:
    """``"upgraded from warning"``, with the guide's count when it has this upgrade:
    ``"... as a repeat: at least the 2nd warning for it in the event"``."""
    text = f"upgraded from {given}"
    least = repeat_at_least(infraction, given, kind)
    if least is not None:
        text += f" as a repeat: at least the {ordinal(least)} {given} for it in the event"
    return text


def described(ruling: Mapping[str, Any]) -> dict[str, Any]:
    """What the guide tells of a recorded ruling (``state["disputes"][...]["rulings"]``) beyond
    its stored fields: the infraction's ``infraction_name`` and ``ipg_section`` when the guide
    has it, and ``repeat_at_least`` (:func:`repeat_at_least`) when its penalty was upgraded.
    Nothing for a ruling naming no infraction."""
    out: dict[str, Any] = {}
    infraction = ruling.get("infraction")
    found = INFRACTIONS.get(infraction) if infraction is not None else None
    if found is not None:
        out["infraction_name"] = found.name
        out["ipg_section"] = found.section
    if ruling.get("escalated_from"):
        least = repeat_at_least(infraction, ruling["escalated_from"], ruling.get("penalty"))
        if least is not None:
            out["repeat_at_least"] = least
    return out
