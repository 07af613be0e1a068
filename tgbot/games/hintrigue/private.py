"""Hintrigue's private messages: the storyteller's and the decoys' hands, the answer to a
hint, and the prompt a seat is waiting on."""

from __future__ import annotations

from engine.games.hintrigue.game import GAME as HINTRIGUE
from engine.games.hintrigue.model import Phase, Round, phase_of, round_of
from engine.games.hintrigue.turns import open_prompts
from engine.games.hintrigue.views import seat_view
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Button, Outgoing, dm_key
from tgbot.games.hintrigue.cards import card
from tgbot.games.hintrigue.group import VOID_REASONS
from tgbot.i18n import _
from tgbot.table.render.common import (
    Look,
    in_seat_language,
    message,
    names,
    time_left,
    topic_field,
    user_text,
)
from tgbot.table.render.private import closed_with, heading, spectator_dm


def hand_buttons(room: Room, index: int, kind: str, look: Look) -> list[list[Button]]:
    """The seat's hand as buttons, two per row, the chosen card marked."""
    view = seat_view(room, index)
    rnd = round_of(room)
    assert rnd is not None
    buttons = [
        look.button(
            ("✅ " if c == view.chosen else "") + card(room, c),
            kind,
            room.chat_id,
            rnd.no,
            c,
            room.game_id,
            *topic_field(room),
        )
        for c in view.hand
    ]
    return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]


@in_seat_language
def storyteller_dm(room: Room, index: int, look: Look) -> Outgoing:
    """The storyteller's private message: choose a card, then send the hint."""
    rnd = round_of(room)
    assert rnd is not None
    seat = room.seats[index]
    head = heading(room, rnd.no, HINTRIGUE.title)
    lines = [_("{heading}: you are the storyteller.").format(heading=head)]
    rows: list[list[Button]] = []
    if phase_of(room) is Phase.HINT and seat.status is not SeatStatus.LEFT:
        if rnd.chosen is None:
            lines.append(
                _("Choose a card{left}, then send your hint here as a message.").format(
                    left=time_left(room, look)
                )
            )
        else:
            lines.append(
                _(
                    "Chosen: {card}. Now send your hint as a message{left}; you may still "
                    "change the card."
                ).format(card=card(room, rnd.chosen), left=time_left(room, look))
            )
        rows = hand_buttons(room, index, "card", look)
    elif rnd.hint is not None and index in rnd.plays:
        lines.append(
            _("Your card {card} with the hint «{hint}» is on the table.").format(
                card=card(room, rnd.plays[index]), hint=user_text(rnd.hint)
            )
        )
    return _prompt(room, seat.user_id, rnd.no, lines, rows, Phase.HINT)


@in_seat_language
def decoy_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A player's private message for the decoy: the hint and the hand."""
    rnd = round_of(room)
    assert rnd is not None
    seat = room.seats[index]
    who = names(room)
    lines = [
        _("{heading}: {name}'s hint is <b>«{hint}»</b>.").format(
            heading=heading(room, rnd.no, HINTRIGUE.title),
            name=who[rnd.storyteller],
            hint=user_text(rnd.hint or ""),
        )
    ]
    rows: list[list[Button]] = []
    played = rnd.plays.get(index)
    if played is None and phase_of(room) is Phase.DECOYS and seat.status is not SeatStatus.LEFT:
        lines.append(_("Choose a decoy from your hand{left}:").format(left=time_left(room, look)))
        rows = hand_buttons(room, index, "decoy", look)
    elif played is not None:
        how = _("your choice")
        if index in rnd.auto:
            how = _("chosen for you: skipped") if Phase.DECOYS in rnd.skipped else _(
                "chosen for you when time ran out"
            )
        lines.append(
            _("Your decoy: {card} ({how}). Vote on the table in the group.").format(
                card=card(room, played), how=how
            )
        )
    return _prompt(room, seat.user_id, rnd.no, lines, rows, Phase.DECOYS)


def _prompt(room: Room, user_id: int, round_no: int, lines: list[str], rows: list[list[Button]],
            phase: Phase) -> Outgoing:  # fmt: skip
    """A player's private message of a round, waited on in `phase` (reported if unreachable)."""
    return message(room, chat_id=user_id, key=dm_key(user_id, round_no), text="\n".join(lines),
                   buttons=rows, unreachable=(user_id, round_no, phase.value))  # fmt: skip


def given_key(user_id: int, round_no: int) -> str:
    """The key of the answer to a storyteller's hint ("Hint given…"), closed when no next
    round's prompt follows it."""
    return f"{dm_key(user_id, round_no)}:given"  # private, as every "dm:" key


@in_seat_language
def hint_given(room: Room, index: int, rnd: Round) -> Outgoing:
    """The answer to the storyteller's typed hint, below it: the card and the hint that are
    now theirs on the table (it closes the prompt above: a card pressed there is refused)."""
    seat = room.seats[index]
    lines = [
        _("{heading}: you are the storyteller.").format(
            heading=heading(room, rnd.no, HINTRIGUE.title)
        ),
        _("Hint given. The others are choosing their decoys."),
        _("Your card {card} with the hint «{hint}» is on the table.").format(
            card=card(room, rnd.plays[index]), hint=user_text(rnd.hint or "")
        ),
    ]
    return message(room, chat_id=seat.user_id, key=given_key(seat.user_id, rnd.no),
                   text="\n".join(lines))  # fmt: skip


@in_seat_language
def hint_given_closed(room: Room, index: int, rnd: Round) -> Outgoing:
    """The answer to the storyteller's hint once its round is over: it no longer says the
    others are choosing (edited only: an AI's hint had no answer)."""
    seat = room.seats[index]
    text = _("{heading}: your hint «{hint}» was given; this round is over.").format(
        heading=heading(room, rnd.no, HINTRIGUE.title), hint=user_text(rnd.hint or ""))
    return message(room, chat_id=seat.user_id, key=given_key(seat.user_id, rnd.no), text=text,
                   edit_only=True)  # fmt: skip


def waiting_prompt(room: Room, index: int, look: Look) -> Outgoing | None:
    """The private message the game waits on from a seat now, if any."""
    rnd = round_of(room)
    if rnd is None:
        return None
    if room.seats[index].status is SeatStatus.SPECTATING:
        return spectator_dm(room, index, look)
    if index == rnd.storyteller and phase_of(room) is Phase.HINT:
        return storyteller_dm(room, index, look)
    if phase_of(room) is Phase.DECOYS and index in open_prompts(room):
        return decoy_dm(room, index, look)
    return None


@in_seat_language
def void_prompt(room: Room, index: int, round_no: int, storyteller: int, reason: str) -> Outgoing:
    """A prompt of a round that became void."""
    if index == storyteller and reason == "missed_hint":
        why = _("time ran out before your hint, so your turn passed. Your cards stay yours.")
    elif index == storyteller and reason == "skipped":
        why = _("your turn was skipped. Your cards stay yours.")
    else:
        why = _("the round is void: {why} Your cards stay yours.").format(
            why=VOID_REASONS[reason].format(name=names(room)[storyteller])
        )
    return closed_with(room, index, round_no, why, HINTRIGUE.title)
