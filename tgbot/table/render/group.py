"""The group's messages: the round, the table, the reveal, the final standings, notices."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.model import Phase, Room, SeatStatus
from tgbot.egress.outgoing import MAX_CAPTION, Outgoing, caption_length
from tgbot.i18n import _, ngettext
from tgbot.table.render.common import (
    Look,
    in_group_language,
    message,
    names,
    to_group,
)


def listed(items: list[str]) -> str:
    """Names as a list: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(items) <= 1:
        return "".join(items)
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def ranks(room: Room, order: list[int]) -> list[int]:
    """Each listed seat's rank by points: tied seats share it (1, 1, 3)."""
    scores = [room.seats[i].score for i in order]
    return [1 + sum(other > score for other in scores) for score in scores]


def standings_lines(room: Room, order: list[int], figures: Callable[[int], str]) -> str:
    """Standings in `order`, each seat with its status and `figures`; tied seats share their
    rank (any game)."""
    who = names(room)
    lines = [_("<b>Standings</b>")]
    for rank, index in zip(ranks(room, order), order, strict=True):
        seat = room.seats[index]
        status = {SeatStatus.LEFT: _(" (left)"), SeatStatus.SPECTATING: _(" (sitting out)")}.get(
            seat.status, ""
        )
        lines.append(
            _("{rank}. {name}{status} — {figures}").format(
                rank=rank, name=who[index], status=status, figures=figures(index)
            )
        )
    return "\n".join(lines)


@in_group_language
def final(room: Room, look: Look) -> list[Outgoing]:
    """The final message of any game: winners together, or why the game ended without one;
    its button puts the presser on the list for the group's next lobby. With pictures on, the
    game's results picture (`Screens.results_picture`, if it has one) with the text as its
    caption; a text too long for a caption (ten players with long names) goes below the
    picture, which then comes first, as a message of its own."""
    who = names(room)
    if room.phase is Phase.FINISHED:
        won = look.lineup.game(room).winners(room)
        head = ngettext(
            "🏆 <b>{names}</b> wins!", "🏆 <b>{names}</b> win together!", len(won)
        ).format(names=listed([who[i] for i in won]))
    elif room.end_reason == "stopped":
        head = _("The game was stopped. No winner this time.")
    elif room.end_reason == "topic_gone":
        head = _("The topic of this game was deleted, so the game is abandoned. No winner.")
    elif (active := room.active_seats()) and all(room.seats[i].ai for i in active):
        head = _("Nobody but AI players is playing any more, and they do not play on alone: the "
                 "game is abandoned. No winner.")  # fmt: skip
    else:
        head = _("Fewer than {n} players are left: the game is abandoned. No winner.").format(
            n=look.lineup.game(room).min_seats)
    game = look.lineup.of(room)
    lines = [_("<b>Game over</b>"), head, "", game.standings(room)]
    picture = None
    if game.results_picture is not None and room.settings.pictures and room.seats:
        picture = game.results_picture(room)
    if picture is not None and game.results_text and (facts := game.results_text(room)):
        lines += ["", facts]  # the picture's facts, as text too
    text = "\n".join([*lines, "", _("Play again with /newgame.")])
    alone: list[Outgoing] = []
    if picture is not None and caption_length(text) > MAX_CAPTION:
        caption = _("🏆 The results in a picture: the message below says it all in words.")
        alone = [_final_message(room, look, key="results", text=caption, picture=picture)]
        picture = None
    return [*alone, _final_message(room, look, key="final", text=text, picture=picture)]


def _final_message(room: Room, look: Look, **fields: Any) -> Outgoing:
    if room.end_reason == "topic_gone":  # said in the General topic, the topic being gone
        return message(room, chat_id=room.chat_id, **fields)
    if fields["key"] != "final":
        return to_group(room, **fields)
    notify = look.button(_("🔔 Notify me of the next game"), "notify", room.game_id)
    return to_group(room, buttons=[[notify]], **fields)


def plain_names(room: Room) -> list[str]:
    """Seat names as they are (for pictures, which escape nothing), told apart like `names`."""
    counts = Counter(seat.name for seat in room.seats)
    return [
        seat.name + (f" (@{seat.username})" if seat.username else f" #{index + 1}")
        if counts[seat.name] > 1
        else seat.name
        for index, seat in enumerate(room.seats)
    ]


@in_group_language
def left_notice(room: Room, index: int) -> Outgoing:
    """Tell the group that a player left the running game (before what their leaving did)."""
    text = _("{name} left the game.").format(name=names(room)[index])
    return to_group(room, text=text)


@in_group_language
def late_join_notice(room: Room, index: int) -> Outgoing:
    """Tell the group that a player joined the running game."""
    text = _("{name} joined the game and plays from the next round.").format(
        name=names(room)[index]
    )
    return to_group(room, text=text)


@in_group_language
def unreachable_notice(room: Room, index: int, look: Look) -> Outgoing:
    """Tell the group that a player must open a private chat with the bot."""
    text = _(
        "I cannot write to {name} in private, so their move was made for them. {name}: "
        "open {link} and press Start, then the game can reach you."
    ).format(name=names(room)[index], link=look.anchor(f"r{room.room_id}"))
    return to_group(room, text=text)


STOP_KEY = "stop"
"""The key of the /stop confirmation of a room's game (one at a time: asked again, it comes
back to the bottom of the chat)."""


@in_group_language
def stop_closed(room: Room) -> Outgoing:
    """The /stop question of a game that is over, without its buttons (edited only: a game
    nobody asked to stop has none)."""
    text = _("/stop: the lobby was closed.") if room.play is None \
        else _("/stop: the game is over.")  # fmt: skip
    return to_group(room, key=STOP_KEY, text=text, edit_only=True)


@in_group_language
def stop_started(room: Room) -> Outgoing:
    """The lobby's /stop question once its game started: closing the lobby is moot, and a
    press must not stop the game (edited only: a lobby nobody asked to stop has none)."""
    text = _("/stop: the game has started; send /stop again to end it.")
    return to_group(room, key=STOP_KEY, text=text, edit_only=True)


def score(room: Room | None, stats: dict[str, int], look: Look) -> str:
    """The /score answer: the current or last game's standings and the group's lifetime stats."""
    parts = []
    started = room is not None and room.play is not None
    if room is not None and room.phase is not Phase.LOBBY and started:
        state = {
            Phase.FINISHED: _("The last game (finished)"),
            Phase.ABANDONED: _("The last game (ended early)"),
        }.get(room.phase, _("This game"))
        parts += [f"<b>{state}</b>", look.lineup.of(room).standings(room)]
    elif room is not None and room.phase is Phase.LOBBY:
        parts.append(_("The game has not started yet: the lobby is open."))
    else:
        parts.append(_("No game has been played here lately."))
    if stats:
        games = stats.get("games", 0)
        parts += [
            "",
            _("This group so far: {games} · {points} · {finds} · {stolen}.").format(
                games=ngettext("{n} game", "{n} games", games).format(n=games),
                points=ngettext("{n} point", "{n} points", stats.get("points", 0)).format(
                    n=stats.get("points", 0)
                ),
                finds=ngettext("{n} find", "{n} finds", stats.get("finds", 0)).format(
                    n=stats.get("finds", 0)
                ),
                stolen=ngettext("{n} vote stolen", "{n} votes stolen", stats.get("stolen", 0))
                .format(n=stats.get("stolen", 0)),
            ),
        ]
    return "\n".join(parts)
