"""The private messages: the storyteller's and the decoys' hands, the way back for a spectator,
and prompts closed once their moment is over."""

from __future__ import annotations

from engine.model import OVER_PHASES, Room, SeatStatus
from tgbot.egress.outgoing import Button, Outgoing, dm_key
from tgbot.i18n import N_, Texts, _
from tgbot.table.render.common import (
    Look,
    in_seat_language,
    message,
    title,
    topic_field,
)


def heading(room: Room, round_no: int, game: str) -> str:
    """"Hues and Cues · Round 3 in <group>", the start of every private prompt of a round of
    the `game` so called: the game is named, so prompts of two games in one private chat never
    mix."""
    return _("<b>{game} · Round {n}</b> in <b>{group}</b>").format(
        game=game, n=round_no, group=title(room))


CLOSED_REASONS = Texts(
    {
        "left": N_("you left the game."),
        "ended": N_("the game ended, so nothing is awaited from you any more."),
    }
)


@in_seat_language
def closed_prompt(room: Room, index: int, round_no: int, reason: str, game: str) -> Outgoing:
    """A private prompt of the `game` so called whose moment is over (`reason`: one of
    CLOSED_REASONS): its buttons go, and it says what happened."""
    return closed_with(room, index, round_no, CLOSED_REASONS[reason], game)


def closed_with(room: Room, index: int, round_no: int, why: str, game: str) -> Outgoing:
    """A seat's private prompt of a round of the `game` so called, without its buttons,
    saying `why`."""
    seat = room.seats[index]
    return message(
        room,
        chat_id=seat.user_id,
        key=dm_key(seat.user_id, round_no),
        text=_("{heading}: {why}").format(heading=heading(room, round_no, game), why=why),
    )


@in_seat_language
def spectator_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A sitting-out seat's private message with its way back."""
    return away_dm(room, index, look, _(
        "You missed two hints in a row in <b>{group}</b>, so you sit out for now. "
        "Press the button or send /back in the group to play again."
    ))  # fmt: skip


def away_dm(room: Room, index: int, look: Look, sitting_out: str) -> Outgoing:
    """A seat's private message about sitting out, in any game: why (`sitting_out`, with
    `{group}`) and the way back; or that it plays again, or that the game is over."""
    seat = room.seats[index]
    rows: list[list[Button]] = []
    if room.phase in OVER_PHASES:
        text = _("The game in <b>{group}</b> is over.").format(group=title(room))
    elif seat.status is SeatStatus.SPECTATING:
        text = sitting_out.format(group=title(room))
        back = look.button(_("I'm back"), "back", room.chat_id, room.game_id, *topic_field(room))
        rows = [[back]]
    else:
        text = _("Welcome back! You play from the next round in <b>{group}</b>.").format(
            group=title(room)
        )
    return message(
        room, chat_id=seat.user_id, key=f"dm:{seat.user_id}:away", text=text, buttons=rows
    )


