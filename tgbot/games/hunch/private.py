"""Hunch!'s private messages of the secrets, clue, placement and bargain steps: each starts
with the game, its round and group, says what to do and the time left, and carries the
buttons (the words of the dealt cards, the clue cards to replace, the clues and secrets to put
them before). Once its moment is over it is edited into what was done, without buttons."""

from __future__ import annotations

from engine.games.hunch import deck
from engine.games.hunch.model import Clue, Phase, State
from engine.games.hunch.table import state_of
from engine.games.hunch.views import SeatView, seat_view
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Button, Outgoing
from tgbot.games.hunch import words
from tgbot.games.hunch.words import TITLE
from tgbot.i18n import _, ngettext
from tgbot.table.render.common import (
    Look,
    in_seat_language,
    message,
    names,
    time_left,
    topic_field,
    user_text,
)
from tgbot.table.render.private import heading

NO_ANSWER, YES, NO = 0, 1, 2
"""A placement button's answer to a question clue (none for another clue)."""


def secrets_key(user_id: int) -> str:
    return f"dm:{user_id}:s"


def clues_key(user_id: int, game_round: int) -> str:
    return f"dm:{user_id}:c{game_round}"


def place_key(user_id: int, game_round: int, seller: int) -> str:
    return f"dm:{user_id}:p{game_round}-{seller}"


def bargain_key(user_id: int, game_round: int) -> str:
    return f"dm:{user_id}:b{game_round}"


def fields(room: Room, step: int, *values: int) -> tuple[int, ...]:
    """A private button's fields: the group, the step, its values, the game (and topic)."""
    return (room.chat_id, step, *values, room.game_id, *topic_field(room))


def dm(room: Room, index: int, key: str, text: str, buttons: list[list[Button]] | None = None,
       phase: Phase | None = None, **options: object) -> Outgoing:  # fmt: skip
    """A seat's private message; one awaiting an answer names its step for a failed delivery."""
    seat = room.seats[index]
    state = state_of(room)
    unreachable = None
    if phase is not None and state.round is not None:
        unreachable = (seat.user_id, state.round.no, phase.value)
    return message(room, chat_id=seat.user_id, key=key, text=text, buttons=buttons or [],
                   unreachable=unreachable, **options)  # fmt: skip


def head(room: Room, state: State) -> str:
    return heading(room, state.game_round, TITLE)


def own_secrets(state: State, view: SeatView) -> str:
    """The seat's secrets in play with the clues before them: "1. rose («red»)"."""
    parts = []
    for slot, word_id in enumerate(view.own_secrets):
        secret = state.seats[view.seat].secrets[slot]
        if word_id is None or secret.status != "hidden":
            continue
        clues = words.clues_before(state, view.seat, slot)
        shown = f"{slot + 1}. <b>{user_text(words.word(state, word_id))}</b>"
        if clues:
            shown += " (" + ", ".join(words.clue_text(c, False) for c in clues) + ")"
        parts.append(shown)
    return _("Your secrets: {secrets}").format(secrets="; ".join(parts) or "—")


@in_seat_language
def secrets_dm(room: Room, index: int, look: Look) -> Outgoing:
    """Choose a word of each dealt card as a secret (changeable until everybody chose)."""
    state = state_of(room)
    view = seat_view(state, index)
    key = secrets_key(room.seats[index].user_id)
    chosen = [words.word(state, w) if w is not None else "—" for w in view.own_secrets]
    open_ = (state.phase is Phase.SECRETS and index in state.in_phase
             and room.seats[index].status is not SeatStatus.LEFT)  # fmt: skip
    if not open_:
        text = _("{heading}: your secrets are {secrets}. Keep them to yourself: the others try "
                 "to guess them.").format(heading=head(room, state),
                                          secrets=", ".join(f"<b>{user_text(w)}</b>"
                                                            for w in chosen))  # fmt: skip
        return dm(room, index, key, text)
    lines = [_("{heading}: choose your secrets.").format(heading=head(room, state)),
             _("Press one word of each card{left}: the others will try to guess it from the "
               "clues you put before it. You may change until everybody has chosen.").format(
                 left=time_left(room, look))]  # fmt: skip
    step = state.round.no if state.round is not None else 1
    rows = []
    for slot, card in enumerate(view.dealt):
        picked = state.seats[index].secrets[slot].word
        rows.append([look.button(("✅ " if picked == position else "") + word, "hsec",
                                 *fields(room, step, slot * 3 + position))
                     for position, word in enumerate(words.card_words(state, card))])  # fmt: skip
    if all(w is not None for w in view.own_secrets):
        lines.append(_("Your secrets: {secrets}. Waiting for the others.").format(
            secrets=", ".join(f"<b>{user_text(w)}</b>" for w in chosen)))  # fmt: skip
    return dm(room, index, key, "\n".join(lines), rows, Phase.SECRETS)


def _own_clues(state: State, index: int) -> list[Clue]:
    return [c for c in state.clues if c.writer == index and c.round == state.game_round]


@in_seat_language
def clues_dm(room: Room, index: int, look: Look) -> Outgoing:
    """Write a clue on each clue card by sending it as a message; replace one card once."""
    state = state_of(room)
    view = seat_view(state, index)
    key = clues_key(room.seats[index].user_id, state.game_round)
    lines = [_("{heading}: clue phase.").format(heading=head(room, state)),
             own_secrets(state, view)]  # fmt: skip
    if state.phase is not Phase.CLUES or index not in state.in_phase:
        mine = _own_clues(state, index)
        if mine:
            lines.append(_("Your clues are on offer in the group: {clues}.").format(
                clues=", ".join(words.clue_text(c) for c in mine)))  # fmt: skip
        else:
            lines.append(_("You wrote no clue this round."))
        return dm(room, index, key, "\n".join(lines))
    lines.append(_("Your clue cards:"))
    for number, (card, text) in enumerate(zip(view.hand, view.texts, strict=True)):
        written = f"«{user_text(text)}» ✅" if text else "—"
        lines.append(f"{number + 1}. <b>{words.category(card)}</b>: {written}")
    if None in view.texts:
        card = view.texts.index(None)
        lines.append(_("Send the clue for card {n} as a message (1 to 40 characters){left}. It "
                       "fits the card's category as you see it, and names no word of the matrix "
                       "(nor a word that begins with one of four letters or more).").format(
            n=card + 1, left=time_left(room, look)))  # fmt: skip
        if deck.is_question(view.hand[card]):
            lines.append(_("A question: its buyer answers it yes or no for their secret."))
    else:
        lines.append(_("Both clues are written. A new message rewrites the clue of card {n}, "
                       "or of card {other} when it starts with «{other}: »; they are shown once "
                       "everybody has written theirs{left}.").format(
            n=len(view.texts), other=1, left=time_left(room, look)))  # fmt: skip
    rows = []
    if not view.replaced and state.round is not None:
        rows = [[look.button(_("🔄 Replace card {n} ({category})").format(
            n=number + 1, category=words.category(card)), "hrep",
            *fields(room, state.round.no, number))] for number, card in enumerate(view.hand)]
        lines.append(_("You may replace one of your clue cards, once this round."))
    return dm(room, index, key, "\n".join(lines), rows, Phase.CLUES)  # fmt: skip


def placing_buttons(room: Room, look: Look, state: State, index: int, clues: list[Clue],
                    kind: str) -> list[list[Button]]:  # fmt: skip
    """A button per clue and secret in play (a question's: one for yes, one for no)."""
    assert state.round is not None
    seat = state.seats[index]
    rows = []
    for clue in clues:
        for slot in seat.in_play():
            word_id = seat.secrets[slot].word_id
            secret = words.word(state, word_id) if word_id is not None else "?"
            label = f"«{clue.text}» ({words.category(clue.card)}) → {secret}"
            if deck.is_question(clue.card):
                rows.append([look.button(f"{label}: {answer}", kind,
                                         *fields(room, state.round.no, clue.id, slot * 3 + code))
                             for answer, code in ((_("yes"), YES), (_("no"), NO))])  # fmt: skip
            else:
                rows.append([look.button(label, kind, *fields(room, state.round.no, clue.id,
                                                              slot * 3 + NO_ANSWER))])  # fmt: skip
    return rows


@in_seat_language
def place_dm(room: Room, index: int, look: Look, seller: int | None = None,
             done: str | None = None) -> Outgoing:  # fmt: skip
    """The buyer of an auction chooses one of the seller's clues and the secret for it (with
    its answer, for a question); once done, what it did (`done`)."""
    state = state_of(room)
    auction = state.auction
    seller = seller if seller is not None else (auction.seller if auction else 0)
    key = place_key(room.seats[index].user_id, state.game_round, seller)
    who = names(room)
    open_ = (state.phase is Phase.PLACE and auction is not None and auction.buyer == index
             and auction.seller == seller)  # fmt: skip
    if not open_:
        text = _("{heading}: {done}").format(heading=head(room, state),
                                             done=done or _("this sale is over."))  # fmt: skip
        return dm(room, index, key, text)
    assert auction is not None
    offer = [c for c in state.clues if c.writer == seller and c.owner is None
             and c.round == state.game_round]  # fmt: skip
    lines = [_("{heading}: you bought {name}'s clues for {n} 🪙.").format(
        heading=head(room, state), name=who[seller], n=auction.price),
        _("Choose one clue and the secret to put it before{left}; a question takes your answer "
          "for that secret.").format(left=time_left(room, look)),
        own_secrets(state, seat_view(state, index))]  # fmt: skip
    rows = placing_buttons(room, look, state, index, offer, "hplc")
    return dm(room, index, key, "\n".join(lines), rows, Phase.PLACE)


@in_seat_language
def bargain_dm(room: Room, index: int, look: Look, done: str | None = None) -> Outgoing:
    """The seat's bargain choice: keep a leftover clue before a secret, or take 2 coins (and,
    with the advanced rules, an extra hunch or "this is very easy")."""
    state = state_of(room)
    key = bargain_key(room.seats[index].user_id, state.game_round)
    rnd = state.round
    if state.phase is not Phase.BARGAIN or rnd is None or rnd.seat != index:
        text = _("{heading}: {done}").format(heading=head(room, state),
                                             done=done or _("the bargain round is over."))
        return dm(room, index, key, text)
    seat = state.seats[index]
    left = [c for c in state.clues if c.owner is None and c.writer != index
            and c.round == state.game_round]  # fmt: skip
    lines = [_("{heading}: bargain round, your choice{left}.").format(
        heading=head(room, state), left=time_left(room, look)),
        _("Keep a leftover clue before one of your secrets, or take 2 🪙."),
        own_secrets(state, seat_view(state, index)),
        ngettext("You have {n} coin.", "You have {n} coins.", seat.coins).format(n=seat.coins)]
    rows = placing_buttons(room, look, state, index, left, "hkeep")
    rows.append([look.button(_("💰 Take 2 🪙"), "hcoin", *fields(room, rnd.no))])
    if state.settings.advanced and seat.coins >= 2:
        lines.append(_("Advanced rules: pay 2 🪙 for an extra hunch this round, or put 2 🪙 on a "
                       "secret: if it is guessed this round, you and each finder get 1 more VP."))
        rows.append([look.button(_("🃏 Extra hunch (2 🪙)"), "hxtra", *fields(room, rnd.no))])
        for slot in seat.in_play():
            word_id = seat.secrets[slot].word_id
            secret = words.word(state, word_id) if word_id is not None else "?"
            rows.append([look.button(_("⭐ Very easy: {secret} (2 🪙)").format(secret=secret),
                                     "heasy", *fields(room, rnd.no, slot))])
    return dm(room, index, key, "\n".join(lines), rows, Phase.BARGAIN)  # fmt: skip
