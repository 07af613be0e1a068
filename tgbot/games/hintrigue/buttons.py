"""Hintrigue's buttons: the storyteller's card and the decoys in private, the vote on the
table in the group. Each press is answered at once."""

from __future__ import annotations

from collections.abc import Callable

from telegram import CallbackQuery, Update

from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.games.hintrigue.events import VoteCast
from engine.store import Outcome
from tgbot.games.hintrigue import cards
from tgbot.table.handlers.buttons import button_command, game_of, named_room
from tgbot.table.handlers.common import Context, room_of
from tgbot.table.screens import ButtonHandler

KINDS = {
    "card": 4,  # private: chat, round, card (storyteller's choice), game[, topic]
    "decoy": 4,  # private: chat, round, card, game[, topic]
    "vote": 3,  # group table: round, card, game
}
"""Its callback kinds and their number of fields (the game's id last)."""
PRIVATE = frozenset({"card", "decoy"})
"""Those on private messages: they carry the room's forum topic after the game's id."""
WITHOUT_GAME = frozenset(KINDS)
"""All three were sent before games had ids: such buttons lack the game's id, and still
count."""


def _scene(outcome: Outcome, card: int) -> str:
    """How a card looks in the room the command left."""
    assert outcome.room is not None
    return cards.card(outcome.room, card)


def _from_hand(
    kind: type[ChooseCard] | type[PlayDecoy], accepted: Callable[[], str], what: str
) -> ButtonHandler:
    """A private button of a card in the presser's hand (`accepted`: the answer's text, with
    `{card}`, read in the presser's language)."""

    async def pressed(
        update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
    ) -> None:
        _chat, round_no, card = args[:3]
        command = kind(
            user_id=query.from_user.id, card=card, round_no=round_no, game_id=game_of(args, 3)
        )
        await button_command(
            update, context, query, named_room(args, 4), command,
            lambda outcome: accepted().format(card=_scene(outcome, card)),
        )  # fmt: skip

    pressed.__doc__ = what
    return pressed


on_card = _from_hand(
    ChooseCard, lambda: cards.ANSWERS["CARD_CHOSEN"], "The storyteller's card, in private."
)
on_decoy = _from_hand(PlayDecoy, lambda: cards.ANSWERS["DECOY_ACCEPTED"], "A decoy, in private.")


async def on_vote(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A vote on the table message in the group."""
    round_no, card = args[:2]

    def accepted(outcome: Outcome) -> str:
        changed = any(isinstance(e, VoteCast) and e.changed for e in outcome.events)
        return cards.ANSWERS["VOTE_CHANGED" if changed else "VOTE_ACCEPTED"].format(
            card=_scene(outcome, card)
        )

    await button_command(
        update,
        context,
        query,
        room_of(update),
        Vote(user_id=query.from_user.id, card=card, round_no=round_no, game_id=game_of(args, 2)),
        accepted,
    )


BUTTONS: dict[str, ButtonHandler] = {"card": on_card, "decoy": on_decoy, "vote": on_vote}
assert set(BUTTONS) == set(KINDS) >= PRIVATE | WITHOUT_GAME
