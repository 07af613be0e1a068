"""What a command's events change on screen: the messages to send or edit, in order. The
table shows its lobby's events; the room's game shows the rest (`tgbot.games`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.events import (
    CreatorChanged,
    GameChosen,
    JoinerLeftOut,
    JoinerWaiting,
    LobbyClosed,
    LobbyExtended,
    LobbyOpened,
    PlayerJoined,
    PlayerLeftLobby,
    PrivateChatOpened,
    SettingsChanged,
)
from engine.model import OVER_PHASES, Room, SeatStatus
from tgbot.egress.outgoing import Outgoing
from tgbot.table import render
from tgbot.table.render import Look
from tgbot.table.render.lobby import left_out

# The table's lobby events, the same for every game: the lobby message shows them.
_TABLE_LOBBY = (
    LobbyOpened,
    PrivateChatOpened,
    PlayerLeftLobby,
    JoinerWaiting,
    CreatorChanged,
    LobbyClosed,
    LobbyExtended,
    SettingsChanged,
    GameChosen,
)


def outgoing_for(
    room: Room, events: list[Any], look: Look, settings_mode: bool = False,
    *, typed_by: int | None = None,
) -> list[Outgoing]:  # fmt: skip
    """Render every message the events touch, in the order the group should see them.

    `typed_by`: the user whose text typed in private the command is; a game that answers such
    text with its own private message (`Screens.text_given` None) sends that one again at the
    bottom of the chat, below the text."""
    out: list[Outgoing] = []
    below = typed_by is not None and look.lineup.of(room).text_given is None

    def add(message: Outgoing) -> None:
        # A later rendering of the same message replaces an earlier one of this command.
        for i, existing in enumerate(out):
            if (
                existing.key is not None
                and existing.key == message.key
                and existing.chat_id == message.chat_id
            ):
                out[i] = message
                return
        out.append(message)

    ai_chats = {seat.user_id for seat in room.seats if seat.ai}
    for event in events:
        for message in _messages(room, event, look, settings_mode):
            if message.chat_id not in ai_chats:  # an AI player reads no private message
                if below and message.chat_id == typed_by and message.key is not None:
                    message = message.model_copy(update={"fresh": True})
                add(message)
    if events and room.phase in OVER_PHASES:  # a /stop question still open is moot now
        add(render.stop_closed(room))
    elif any(getattr(event, "kind", None) == "game_started" for event in events):
        add(render.stop_started(room))  # the lobby's question, if asked, must not stop the game
    return out


def _messages(room: Room, event: Any, look: Look, settings_mode: bool) -> list[Outgoing]:
    """The table shows its lobby's events; the room's game shows the rest."""
    if isinstance(event, _TABLE_LOBBY) or (isinstance(event, PlayerJoined) and not event.late):
        return [render.lobby(room, look, settings_mode)]
    if isinstance(event, JoinerLeftOut):
        return [left_out(room, event.names, look)]
    return look.lineup.of(room).messages(room, event, look, settings_mode)


def game_over(room: Room, look: Look, away: Callable[[Room, int, Look], Outgoing]
              ) -> list[Outgoing]:  # fmt: skip
    """The final message of any game, and the way back of its sitting-out seats closed
    (`away`: the game's message to a spectator)."""
    closed = [away(room, i, look) for i, seat in enumerate(room.seats)
              if seat.status is SeatStatus.SPECTATING]  # fmt: skip
    return [*render.final(room, look), *closed]

