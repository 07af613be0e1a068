"""The private messages: the storyteller's and the decoys' hands, the way back for a spectator."""

from __future__ import annotations

import html

from engine.model import Phase, Room, SeatStatus
from engine.views import seat_view
from tgbot.outgoing import Button, Outgoing, dm_key
from tgbot.render.common import Look, card, names, title, until
from tgbot.texts import _


def hand_buttons(room: Room, index: int, kind: str, look: Look) -> list[list[Button]]:
    """The seat's hand as buttons, two per row, the chosen card marked."""
    view = seat_view(room, index)
    rnd = room.round
    assert rnd is not None
    buttons = [
        look.button(
            ("✅ " if c == view.chosen else "") + card(room, c), kind, room.chat_id, rnd.no, c
        )
        for c in view.hand
    ]
    return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]


def storyteller_dm(room: Room, index: int, look: Look) -> Outgoing:
    """The storyteller's private message: choose a card, then send the hint."""
    rnd = room.round
    assert rnd is not None
    seat = room.seats[index]
    lines = [
        _("<b>Round {n}</b> in <b>{group}</b>: you are the storyteller.").format(
            n=rnd.no, group=title(room)
        )
    ]
    rows: list[list[Button]] = []
    if room.phase is Phase.HINT:
        if rnd.chosen is None:
            lines.append(
                _("Choose a card{until}, then send your hint here as a message.").format(
                    until=until(room.deadline)
                )
            )
        else:
            lines.append(
                _(
                    "Chosen: {card}. Now send your hint as a message (you may still "
                    "change the card){until}."
                ).format(card=card(room, rnd.chosen), until=until(room.deadline))
            )
        rows = hand_buttons(room, index, "card", look)
    elif rnd.hint is not None and index in rnd.plays:
        lines.append(
            _("Your card {card} with the hint «{hint}» is on the table.").format(
                card=card(room, rnd.plays[index]), hint=html.escape(rnd.hint)
            )
        )
    return Outgoing(
        chat_id=seat.user_id,
        key=dm_key(seat.user_id, rnd.no),
        text="\n".join(lines),
        buttons=rows,
        unreachable=(seat.user_id, rnd.no, Phase.HINT.value),
    )


def decoy_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A player's private message for the decoy: the hint and the hand."""
    rnd = room.round
    assert rnd is not None
    seat = room.seats[index]
    who = names(room)
    lines = [
        _("<b>Round {n}</b> in <b>{group}</b>: {name}'s hint is <b>«{hint}»</b>.").format(
            n=rnd.no, group=title(room), name=who[rnd.storyteller], hint=html.escape(rnd.hint or "")
        )
    ]
    rows: list[list[Button]] = []
    played = rnd.plays.get(index)
    if played is None and room.phase is Phase.DECOYS:
        lines.append(_("Choose a decoy from your hand{until}:").format(until=until(room.deadline)))
        rows = hand_buttons(room, index, "decoy", look)
    elif played is not None:
        how = _("chosen for you when time ran out") if index in rnd.auto else _("your choice")
        lines.append(
            _("Your decoy: {card} ({how}). Vote on the table in the group.").format(
                card=card(room, played), how=how
            )
        )
    return Outgoing(
        chat_id=seat.user_id,
        key=dm_key(seat.user_id, rnd.no),
        text="\n".join(lines),
        buttons=rows,
        unreachable=(seat.user_id, rnd.no, Phase.DECOYS.value),
    )


def spectator_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A sitting-out seat's private message with its way back."""
    seat = room.seats[index]
    if seat.status is SeatStatus.SPECTATING:
        text = _(
            "You missed two hints in a row in <b>{group}</b>, so you sit out for now. "
            "Press the button or send /back in the group to play again."
        ).format(group=title(room))
        rows = [[look.button(_("I'm back"), "back", room.chat_id)]]
    else:
        text = _("Welcome back! You play from the next round in <b>{group}</b>.").format(
            group=title(room)
        )
        rows = []
    return Outgoing(chat_id=seat.user_id, key=f"dm:{seat.user_id}:away", text=text, buttons=rows)
