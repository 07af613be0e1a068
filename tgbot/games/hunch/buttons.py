"""Hunch!'s buttons: in private, the secrets, replacing a clue card, placing a bought or kept
clue, the bargain choices, and the hunches (a secret chosen only redraws the presser's
message); in the group, the bidder's +1, +2, +5 and Pass on the auction message, whose presses
by anyone else are answered to them alone. Each press is answered at once."""

from __future__ import annotations

from telegram import CallbackQuery, Update

from engine.games.hunch import commands as hc
from engine.games.hunch.model import Phase, State
from engine.store import Outcome
from tgbot.games.hunch import words
from tgbot.games.hunch.hunches import hunch_dm
from tgbot.games.hunch.private import NO, YES
from tgbot.i18n import _, texts
from tgbot.table.handlers.buttons import (
    answer,
    button_command,
    game_of,
    named_room,
    prompt_room,
    show_prompt,
)
from tgbot.table.handlers.common import Context, room_of
from tgbot.table.screens import ButtonHandler

KINDS = {
    "hsec": 4,  # private: chat, step, card * 3 + word (a secret), game
    "hrep": 4,  # private: chat, step, clue card, game (replace it)
    "hplc": 5,  # private: chat, step, clue id, secret * 3 + answer, game (a bought clue)
    "hkeep": 5,  # private: chat, step, clue id, secret * 3 + answer, game (bargain: keep)
    "hcoin": 3,  # private: chat, step, game (bargain: take 2 coins)
    "hxtra": 3,  # private: chat, step, game (bargain: an extra hunch)
    "heasy": 4,  # private: chat, step, secret, game (bargain: "this is very easy")
    "htgt": 4,  # private: chat, step, owner * 3 + secret, game (show that secret's words)
    "hhun": 5,  # private: chat, step, owner * 3 + secret, word id, game (a hunch)
    "hback": 4,  # private: chat, step, owner * 3 + secret, game (take the hunch back)
    "hbid": 3,  # group auction: step, amount, game
    "hpass": 2,  # group auction: step, game
}
PRIVATE = frozenset(KINDS) - {"hbid", "hpass"}


def _word(outcome: Outcome, word_id: int) -> str:
    state = outcome.room.play if outcome.room is not None else None
    return words.word(state, word_id) if isinstance(state, State) else "?"


async def on_secret(update: Update, context: Context, query: CallbackQuery,
                    args: tuple[int, ...]) -> None:  # fmt: skip
    """A word of a dealt card chosen as a secret."""
    step, value = args[1:3]
    command = hc.ChooseSecret(user_id=query.from_user.id, round_no=step, card=value // 3,
                              word=value % 3, game_id=game_of(args, 3))  # fmt: skip

    def chosen(outcome: Outcome) -> str:
        state = outcome.room.play if outcome.room is not None else None
        if not isinstance(state, State):
            return ""
        index = state.seat_of(query.from_user.id)
        card = state.seats[index].secrets[value // 3].card if index is not None else 0
        return _("Secret: {word}").format(word=words.word(state, card * 3 + value % 3))

    await button_command(update, context, query, named_room(args, 4), command, chosen)


async def on_replace(update: Update, context: Context, query: CallbackQuery,
                     args: tuple[int, ...]) -> None:  # fmt: skip
    """A clue card replaced by another (once per round)."""
    command = hc.ReplaceClueCard(user_id=query.from_user.id, round_no=args[1], card=args[2],
                                 game_id=game_of(args, 3))  # fmt: skip
    await button_command(update, context, query, named_room(args, 4), command,
                         _("Card replaced."))  # fmt: skip


def _answer(code: int) -> bool | None:
    return {YES: True, NO: False}.get(code % 3)


def _placing(kind: type[hc.PlaceClue] | type[hc.KeepClue], what: str) -> ButtonHandler:
    async def pressed(update: Update, context: Context, query: CallbackQuery,
                      args: tuple[int, ...]) -> None:  # fmt: skip
        step, clue, code = args[1:4]
        command = kind(user_id=query.from_user.id, round_no=step, clue=clue, secret=code // 3,
                       answer=_answer(code), game_id=game_of(args, 4))  # fmt: skip
        await button_command(update, context, query, named_room(args, 5), command,
                             _("Clue placed."))  # fmt: skip

    pressed.__doc__ = what
    return pressed


on_place = _placing(hc.PlaceClue, "A bought clue put before a secret (a question answered).")
on_keep = _placing(hc.KeepClue, "Bargain: a leftover clue kept before a secret.")


async def on_coins(update: Update, context: Context, query: CallbackQuery,
                   args: tuple[int, ...]) -> None:  # fmt: skip
    """Bargain: 2 coins from the supply."""
    command = hc.TakeCoins(user_id=query.from_user.id, round_no=args[1],
                           game_id=game_of(args, 2))  # fmt: skip
    await button_command(update, context, query, named_room(args, 3), command,
                         _("You took 2 coins."))  # fmt: skip


async def on_extra(update: Update, context: Context, query: CallbackQuery,
                   args: tuple[int, ...]) -> None:  # fmt: skip
    """Bargain (advanced): an extra hunch for 2 coins."""
    command = hc.BuyHunch(user_id=query.from_user.id, round_no=args[1], game_id=game_of(args, 2))
    await button_command(update, context, query, named_room(args, 3), command,
                         _("One more hunch this round."))  # fmt: skip


async def on_easy(update: Update, context: Context, query: CallbackQuery,
                  args: tuple[int, ...]) -> None:  # fmt: skip
    """Bargain (advanced): 2 coins on a secret, "this is very easy"."""
    command = hc.MarkEasy(user_id=query.from_user.id, round_no=args[1], secret=args[2],
                          game_id=game_of(args, 3))  # fmt: skip
    await button_command(update, context, query, named_room(args, 4), command,
                         _("2 coins on your secret."))  # fmt: skip


async def on_target(update: Update, context: Context, query: CallbackQuery,
                    args: tuple[int, ...]) -> None:  # fmt: skip
    """A secret to hunch on chosen: only the presser's message changes (its words)."""
    opened = await prompt_room(context, query, args, State, values=1)
    if opened is None:
        return
    svc, room, state = opened
    index = room.seat_of(query.from_user.id)
    if index is None or state.phase is not Phase.HUNCH or index not in state.in_phase:
        await answer(query, texts.STALE_BUTTON, alert=True)
        return
    await show_prompt(svc, query, room, lambda look: hunch_dm(room, index, look, args[2]))


async def on_hunch(update: Update, context: Context, query: CallbackQuery,
                   args: tuple[int, ...]) -> None:  # fmt: skip
    """A hunch placed (or changed): a matrix word on another seat's secret."""
    step, target, word = args[1:4]
    command = hc.PlaceHunch(user_id=query.from_user.id, round_no=step, owner=target // 3,
                            secret=target % 3, word=word, game_id=game_of(args, 4))  # fmt: skip
    await button_command(update, context, query, named_room(args, 5), command,
                         lambda done: _("Hunch: {word}").format(word=_word(done, word)))


async def on_take_back(update: Update, context: Context, query: CallbackQuery,
                       args: tuple[int, ...]) -> None:  # fmt: skip
    """A hunch taken back."""
    target = args[2]
    command = hc.TakeBackHunch(user_id=query.from_user.id, round_no=args[1], owner=target // 3,
                               secret=target % 3, game_id=game_of(args, 3))  # fmt: skip
    await button_command(update, context, query, named_room(args, 4), command,
                         _("Hunch taken back."))  # fmt: skip


async def on_bid(update: Update, context: Context, query: CallbackQuery,
                 args: tuple[int, ...]) -> None:  # fmt: skip
    """A bid on the auction message in the group (only the bidder on turn may)."""
    step, amount = args[:2]
    command = hc.Bid(user_id=query.from_user.id, round_no=step, amount=amount,
                     game_id=game_of(args, 2))  # fmt: skip
    await button_command(update, context, query, room_of(update), command,
                         _("You bid {n} coins.").format(n=amount))  # fmt: skip


async def on_pass(update: Update, context: Context, query: CallbackQuery,
                  args: tuple[int, ...]) -> None:  # fmt: skip
    """A pass on the auction message: out of this auction."""
    command = hc.PassBid(user_id=query.from_user.id, round_no=args[0], game_id=game_of(args, 1))
    await button_command(update, context, query, room_of(update), command, _("You passed."))


BUTTONS: dict[str, ButtonHandler] = {
    "hsec": on_secret,
    "hrep": on_replace,
    "hplc": on_place,
    "hkeep": on_keep,
    "hcoin": on_coins,
    "hxtra": on_extra,
    "heasy": on_easy,
    "htgt": on_target,
    "hhun": on_hunch,
    "hback": on_take_back,
    "hbid": on_bid,
    "hpass": on_pass,
}
assert set(BUTTONS) == set(KINDS)
