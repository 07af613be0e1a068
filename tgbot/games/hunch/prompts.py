"""What Hunch! tells a player in private besides its prompts (what waits for them, sitting
out, what they did), what the group is told of a player out of reach or a skip, and which
messages a phase shows (for reminders, leavers and the end)."""

from __future__ import annotations

from typing import Any

from engine.games.hunch import events as own
from engine.games.hunch.model import Clue, Phase, State
from engine.games.hunch.table import state_of
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Outgoing
from tgbot.games import common
from tgbot.games.hunch import group, private, trading, words
from tgbot.games.hunch.hunches import hunch_dm, hunch_key
from tgbot.i18n import _
from tgbot.table.render.common import (
    Look,
    in_group_language,
    in_seat_language,
    message,
    names,
    title,
)
from tgbot.table.render.private import CLOSED_REASONS, away_dm, heading


def waiting_prompt(room: Room, index: int, look: Look) -> Outgoing | None:
    """The private message the game waits on from a seat now, if any."""
    state = room.play
    if not isinstance(state, State):
        return None
    if state.seats[index].status is SeatStatus.SPECTATING:
        return spectator_dm(room, index, look)
    if index not in state.waiting_for():
        return None
    prompt = {
        Phase.SECRETS: private.secrets_dm,
        Phase.CLUES: private.clues_dm,
        Phase.PLACE: private.place_dm,
        Phase.BARGAIN: private.bargain_dm,
        Phase.HUNCH: hunch_dm,
    }.get(state.phase)
    return prompt(room, index, look) if prompt is not None else None


def where_it_stands(room: Room, user_id: int) -> str:
    """What a seated player is told in private when nothing waits for them."""
    state = room.play
    if not isinstance(state, State):
        return _(
            "You are connected to the game in <b>{group}</b>. When it starts, you choose your "
            "secrets, write clues and place hunches here."
        ).format(group=title(room))
    index = state.seat_of(user_id)
    if index is None:
        return ""
    if state.seats[index].status is SeatStatus.LEFT:
        return _("You left the game in <b>{group}</b>.").format(group=title(room))
    who = names(room)
    waiting = state.waiting_for()
    if state.phase is Phase.AUCTION and waiting:
        now = _("{name} is bidding in the group.").format(name=who[waiting[0]])
    elif waiting:
        now = _("waiting for {name}.").format(name=who[waiting[0]])
    else:
        now = _("the game goes on in the group.")
    return _("You are in the game in <b>{group}</b>. Nothing waits for you here right now: "
             "{now}").format(group=title(room), now=now)  # fmt: skip


@in_seat_language
def spectator_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A sitting-out seat's private message with its way back."""
    return away_dm(room, index, look, _(
        "You missed two turns in a row in <b>{group}</b>, so you sit out for now. Press the "
        "button or send /back in the group to play again."
    ))  # fmt: skip


@in_group_language
def unreachable_notice(room: Room, index: int, look: Look) -> Outgoing:
    """Tell the group that a player must open a private chat with the bot."""
    return common.unreachable_notice(room, index, look, _(
        "I cannot write to {name} in private, so they miss this step. {name}: open {link} and "
        "press Start, then the game can reach you."
    ))  # fmt: skip


def skip_notice(room: Room, events: list[object], by: str) -> str | None:
    """What /skip did, for the group, when the messages do not say it."""
    who = names(room)
    for event in events:
        if isinstance(event, own.BidPassed) and event.reason == "skipped":
            return _("{by} skipped {name}'s bid: a pass.").format(by=by, name=who[event.seat])
    return None


def placed_text(room: Room, event: own.CluePlaced, clue: Clue) -> str:
    """What a buyer or keeper is told in private it did with a clue."""
    state = state_of(room)
    word_id = state.seats[event.seat].secrets[event.secret].word_id
    secret = words.word(state, word_id) if word_id is not None else "?"
    if event.how == "auto":
        return _("time ran out: {clue} went before your secret {secret}.").format(
            clue=words.clue_text(clue), secret=secret)  # fmt: skip
    return _("you put {clue} before your secret {secret}.").format(
        clue=words.clue_text(clue), secret=secret)  # fmt: skip


def bargain_text(event: Any) -> str:
    """What a seat is told in private of its bargain choice."""
    if isinstance(event, own.CoinsTaken):
        return _("time ran out, so you took 2 🪙.") if event.missed else _("you took 2 🪙.")
    if isinstance(event, own.HunchBought):
        return _("you paid 2 🪙 for an extra hunch this round.")
    return _("you put 2 🪙 on your secret {n}: «this is very easy».").format(n=event.secret + 1)


def prompt_keys(room: Room, phase: str | None, index: int) -> list[str]:
    """The keys of a seat's private prompts a phase may have left open."""
    state = state_of(room)
    user = room.seats[index].user_id
    number = state.game_round
    keys = {
        Phase.SECRETS.value: [private.secrets_key(user)],
        Phase.CLUES.value: [private.clues_key(user, number)],
        Phase.BARGAIN.value: [private.bargain_key(user, number)],
        Phase.HUNCH.value: [hunch_key(user, number)],
    }.get(phase or "", [])
    seller = trading.current_seller(room)
    if phase in (Phase.AUCTION.value, Phase.PLACE.value) and seller is not None:
        keys = [private.place_key(user, number, seller)]
    return keys


def close_prompts(room: Room, phase: str | None, reason: str,
                  seats: list[int] | None = None) -> list[Outgoing]:  # fmt: skip
    """The private prompts of a phase, closed without buttons (only those sent), saying why."""
    state = state_of(room)
    out = []
    for index in seats if seats is not None else range(len(room.seats)):
        seat = room.seats[index]
        if seat.ai:
            continue
        with_language = _closed(room, index, state.game_round, reason)
        for key in prompt_keys(room, phase, index):
            out.append(with_language.model_copy(update={"key": key}))
    return out


@in_seat_language
def _closed(room: Room, index: int, game_round: int, reason: str) -> Outgoing:
    seat = room.seats[index]
    text = _("{heading}: {why}").format(heading=heading(room, game_round, words.TITLE),
                                        why=CLOSED_REASONS[reason])  # fmt: skip
    return message(room, chat_id=seat.user_id, text=text, edit_only=True)


def phase_messages(room: Room, look: Look, was: str | None = None) -> list[Outgoing]:
    """The group message of the phase the game is in (or `was` in when it ended)."""
    state = state_of(room)
    phase = Phase(was) if was in {p.value for p in Phase} else state.phase
    if was in (Phase.AUCTION.value, Phase.PLACE.value):
        seller = trading.current_seller(room)
        return [trading.auction_ended(room, state.game_round, seller)] if seller is not None else []
    if phase is Phase.SECRETS:
        return [group.secrets_message(room, look)]
    if phase is Phase.CLUES:
        return [group.round_message(room, look)]
    if phase in (Phase.AUCTION, Phase.PLACE):
        shown = trading.auction_message(room, look)
        return [shown] if shown is not None else []
    if phase is Phase.BARGAIN:
        return [trading.bargain_message(room, look)]
    if phase is Phase.HUNCH:
        return [group.hunch_message(room, look)]
    return []


def reminder(room: Room, look: Look) -> Outgoing | None:
    """The group message a reminder edits to show the time left."""
    shown = phase_messages(room, look)
    return shown[0] if shown else None
