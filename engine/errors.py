"""Typed rule errors: every refused command names why, in a machine-readable code."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Why a command was refused; the Telegram side turns each into a short answer."""

    NO_GAME = "no_game"
    GAME_EXISTS = "game_exists"
    NOT_IN_GAME = "not_in_game"
    IN_OTHER_GAME = "in_other_game"
    ALREADY_JOINED = "already_joined"
    ROOM_FULL = "room_full"
    TOO_MANY_FOR_GAME = "too_many_for_game"
    HAS_LEFT = "has_left"
    TOO_LATE_TO_JOIN = "too_late_to_join"
    NOT_ALLOWED = "not_allowed"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    PRIVATE_CHAT_MISSING = "private_chat_missing"
    BAD_SETTING = "bad_setting"
    WRONG_PHASE = "wrong_phase"
    NOT_STORYTELLER = "not_storyteller"
    NOT_IN_ROUND = "not_in_round"
    STORYTELLER_CANNOT_VOTE = "storyteller_cannot_vote"
    NOT_SPECTATING = "not_spectating"
    STALE = "stale"
    OTHER_GAME = "other_game"
    TOO_EARLY = "too_early"
    JUST_STARTED = "just_started"
    NO_JOIN_TIMER = "no_join_timer"
    LOBBY_LONGEST = "lobby_longest"
    UNKNOWN_GAME = "unknown_game"
    GUESS_FINAL = "guess_final"
    """A guess confirmed cannot change (in the games where guesses are confirmed)."""


MARKED: set[str] = set()
"""The details marked with `N_` so far: the bot translates these, and shows any other detail
(a name, what a player typed) as it is."""


def N_(template: str) -> str:
    """Mark a detail shown to players for the bot's catalogs (it translates it when shown)."""
    MARKED.add(template)
    return template


Code = StrEnum
"""A refusal's code: the table's (`ErrorCode`), or one a game names in an enum of its own
(its registration's Telegram side gives each its text)."""


class RuleError(Exception):
    """A command that the rules refuse; the room is unchanged.

    `detail` says more: a template marked with `N_` whose `facts` fill it (shown to players
    in their language), or a text given as it is (a name, what a player typed)."""

    def __init__(self, code: StrEnum, detail: str = "", **facts: str | int) -> None:
        self.code = code
        self.template = detail
        self.facts = facts
        self.detail = detail.format(**facts) if facts else detail
        super().__init__(f"{code.value}: {self.detail}" if detail else code.value)
