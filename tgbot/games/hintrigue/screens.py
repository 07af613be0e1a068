"""Hintrigue's Telegram side, registered for the table: its effects, buttons, settings rows,
pictures and messages (`group`, `private`) beside this module."""

from __future__ import annotations

from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of
from engine.model import Phase as TablePhase
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Outgoing
from tgbot.games.hintrigue import buttons, cards, effects, group, private
from tgbot.games.hintrigue.pictures import ResultsPicture, results_picture
from tgbot.games.hintrigue.refusals import REFUSALS
from tgbot.games.hintrigue.settings import ROWS, SETTINGS, settings_text
from tgbot.i18n import _, texts
from tgbot.table import render
from tgbot.table.render import Look
from tgbot.table.screens import Screens


def _reminder(room: Room, look: Look) -> Outgoing | None:
    if phase_of(room) is Phase.VOTING:
        return group.table(room, look)
    return group.round_message(room, look)


def where_it_stands(room: Room, user_id: int) -> str:
    """What a seated player is told when nothing waits for them in private."""
    group = render.title(room)
    if room.phase is TablePhase.LOBBY and room.creator == user_id:
        return _(
            "You are connected to the game in <b>{group}</b>. Press Start in the group once "
            "everybody has joined: your cards come here."
        ).format(group=group)
    if room.phase is TablePhase.LOBBY:
        return _(
            "You are connected to the game in <b>{group}</b>. When the host starts it, your "
            "cards come here."
        ).format(group=group)
    rnd = round_of(room)
    index = room.seat_of(user_id)
    assert rnd is not None and index is not None
    who = render.names(room)
    if room.seats[index].status is SeatStatus.LEFT:
        return _("You left the game in <b>{group}</b>.").format(group=group)
    if index not in rnd.participants:
        now = _("you play from the next round.")
    elif phase_of(room) is Phase.HINT:
        now = _("{name} is choosing a card and a hint.").format(name=who[rnd.storyteller])
    elif phase_of(room) is Phase.DECOYS:
        now = _("the others are choosing their decoys.")
    elif phase_of(room) is Phase.VOTING:
        now = (
            _("the others vote on the table in the group.")
            if index == rnd.storyteller
            else _("voting is open: vote on the table in the group.")
        )
    else:
        now = _("the reveal is in the group; the next round starts soon.")
    return _("You are in the game in <b>{group}</b>. Nothing waits for you here right now: "
             "{now}").format(group=group, now=now)  # fmt: skip


def _settings_help() -> str:
    return _(
        "Settings: seats=3–10 rotations=1–5 hand=4–8 timers=on|off hint=15–900 decoy=15–900 "
        "vote=15–900 reveal=2–60 join=0–600 deck=default|short language=en|it|es|fr|de|pt|ru "
        "pictures=on|off"
    )


def _too_late(room: Room, index: int) -> str | None:
    """A refused hint from a storyteller whose time had just run out: the game waits on
    somebody else's hint now, or on no hint at all."""
    rnd = round_of(room)
    if own_seats(room)[index].missed_hints == 0 or (
        phase_of(room) is Phase.HINT and rnd is not None and rnd.storyteller == index
    ):
        return None
    return _("Too late: time ran out before your hint, so your turn passed.")


SCREENS = Screens(
    pictures=(ResultsPicture,),
    refusals=REFUSALS,
    name="hintrigue",
    blurb=lambda: _("<b>Hintrigue</b> (tell a story, bluff with cards)"),
    secrets=lambda: _("cards and hints"),
    messages=effects.messages,
    settings_text=settings_text,
    setting_rows=ROWS,
    settings=SETTINGS,
    rules=lambda: texts.RULES,
    settings_help=_settings_help,
    waiting_prompt=private.waiting_prompt,
    where_it_stands=where_it_stands,
    standings=group.standings_text,
    skipped=group.skip_notice,
    came_back=group.back_notice,
    reminder=_reminder,
    text_given=None,  # the hint's answer names the card: the effects send it (`private.hint_given`)
    too_late=_too_late,
    joined=lambda: cards.ANSWERS["JOINED_IN"],
    button_kinds=buttons.KINDS,
    private_buttons=buttons.PRIVATE,
    kinds_without_game=buttons.WITHOUT_GAME,
    buttons=buttons.BUTTONS,
    results_picture=results_picture,
    results_text=group.fooled_text,
    private_why=lambda: _(
        "Everybody must open a private chat with me before the start: that is where the cards "
        "are dealt."
    ),
)
