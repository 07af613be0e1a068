"""A game's Telegram side, and the line-up of games a bot hosts: what the table's handlers,
effects and jobs call for each game, handed down from the composition root (the table
imports no game)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from telegram import CallbackQuery, Update

from engine.games.base import Game, Games
from engine.model import Room
from tgbot.egress.outgoing import Outgoing
from tgbot.i18n import Texts
from tgbot.i18n.texts import ERRORS
from tgbot.pictures.model import Picture
from tgbot.table.callback import Codec
from tgbot.table.render.common import Look
from tgbot.table.render.lobby import SHARED_SETTINGS_ROWS
from tgbot.table.setting import Setting
from tgbot.webapp.board import BoardApp

ButtonHandler = Callable[[Update, Any, CallbackQuery, tuple[int, ...]], Awaitable[None]]


@dataclass(frozen=True)
class Screens:
    """How one game shows itself in Telegram. Every text is read in the language spoken when
    called (never at import)."""

    name: str
    """The game's name (its `engine.games.base.Game`'s)."""
    messages: Callable[[Room, Any, Look, bool], list[Outgoing]]
    """The messages one event touches (room, event, look, settings keyboard open)."""
    settings_text: Callable[[Room], str]
    """The lobby's settings in one line."""
    setting_rows: tuple[str, ...]
    """The settings keyboard's rows, by setting name (the table's shared ones, or the game's
    own in `settings`)."""
    rules: Callable[[], str]
    """/rules while a lobby or game of it is here (or it is the group's last game)."""
    settings_help: Callable[[], str]
    """The last paragraph of /help: its settings for /settings."""
    waiting_prompt: Callable[[Room, int, Look], Outgoing | None]
    """The private message the game waits on from a seat now (re-sent by /start)."""
    where_it_stands: Callable[[Room, int], str]
    """What a seated player is told in private when nothing waits for them."""
    standings: Callable[[Room], str]
    """The standings of a game running or ended (/score)."""
    reminder: Callable[[Room, Look], Outgoing | None]
    """The group message edited to show the time left shortly before a phase ends."""
    text_given: Callable[[], str] | None
    """The answer to the text a player typed in private that the game took (a hint, a clue);
    None: the game's own private message answers it, sent again at the bottom of the chat
    (the older copy retired), below what the player typed."""
    joined: Callable[[], str]
    """What a player who joined the lobby from its deep link is told (with `{group}`)."""
    private_why: Callable[[], str]
    """Why the lobby wants everybody to open a private chat with the bot first."""
    button_kinds: dict[str, int] = field(default_factory=dict)
    """The game's own callback kinds and their number of fields."""
    private_buttons: frozenset[str] = frozenset()
    """Those of its kinds on private messages (they carry the room's forum topic)."""
    kinds_without_game: frozenset[str] = frozenset()
    """Those of its kinds whose buttons sent before games had ids lack the game id (their last
    field): the codec still takes them."""
    buttons: dict[str, ButtonHandler] = field(default_factory=dict)
    """The game's own button handlers, by callback kind."""
    pictures: tuple[type[Picture], ...] = ()
    """The game's kinds of picture (each draws itself), read back from the outbox by kind."""
    results_picture: Callable[[Room], Picture | None] | None = None
    """The picture the final message carries when the room's pictures are on (None: none)."""
    skipped: Callable[[Room, list[Any], str], str | None] | None = None
    """What /skip did, told in the group (room, the command's events, who skipped, safe to
    show), or None when the messages it changed say it at the bottom of the chat; unset:
    nothing more is told."""
    came_back: Callable[[Room, list[Any]], str | None] | None = None
    """What /back did, told in the group (room, the command's events), or None; unset:
    nothing more is told (the game's own messages say it)."""
    settings: Mapping[str, Setting] = field(default_factory=dict)
    """The game's own settings rows (and the table's, where the game words one its own way)."""
    refusals: Texts[Any] = field(default_factory=lambda: Texts({}))
    """The answers to the game's own refusals (`RuleError` codes of its own enum), by code."""
    aliases: tuple[str, ...] = ()
    """Other names `/newgame` knows the game by (its own name always works)."""
    results_text: Callable[[Room], str] | None = None
    """The results picture's facts in words, added to the final's text with the picture ("":
    nothing to add)."""
    blurb: Callable[[], str] | None = None
    """How the bot's introduction names the game: its title and what it is about, in a few
    words (None: its title alone)."""
    secrets: Callable[[], str] | None = None
    """The secret choices its players make in private, in a few words (for /help there)."""
    too_late: Callable[[Room, int], str | None] | None = None
    """What a player whose typed text was refused is told when it came after their time ran
    out (room, seat; None: the refusal itself)."""
    board_app: BoardApp | None = None
    """The game's part of the board app (None: the app does not show it)."""
    ai_players: bool = True
    """Whether AI players can take its seats (False until its AI players' mind exists: the
    lobby offers no "Add AI", and refuses AI seats, with the reason)."""


class Lineup:
    """The games a bot hosts with their Telegram sides, in the lobby's order: what the table
    renders, decodes and answers with (`tgbot.games.registry.LINEUP` in the bot)."""

    def __init__(self, games: Games, *screens: Screens) -> None:
        self.games = games
        self.screens: Mapping[str, Screens] = {side.name: side for side in screens}
        if list(self.screens) != list(games):
            raise ValueError("every game needs its Telegram side, in the games' order")
        self.codec = Codec.with_games(
            [(side.button_kinds, side.private_buttons, side.kinds_without_game) for side in screens]
        )
        self._settings = {
            side.name: {**SHARED_SETTINGS_ROWS, **side.settings} for side in screens
        }
        self.setting_at: Mapping[int, str] = _indices(self._settings.values())
        """Every setting a settings button may name, by its index."""
        self.refusals = ERRORS.joined(*(side.refusals for side in screens))
        """What players are told of every refusal: the table's and each game's."""
        self.aliases: Mapping[str, str] = {
            alias: side.name for side in screens for alias in side.aliases
        }
        self.pictures: Mapping[str, type[Picture]] = {
            kind.model_fields["kind"].default: kind for side in screens for kind in side.pictures
        }
        """Every kind of picture a message may carry, by its kind."""
        self.buttons: Mapping[str, ButtonHandler] = {
            kind: handler for side in screens for kind, handler in side.buttons.items()
        }
        self.apps: Mapping[str, BoardApp] = {
            side.name: side.board_app for side in screens if side.board_app is not None
        }
        """The games the board app shows, by name."""

    def setting(self, game: str, name: str) -> Setting:
        """A setting row as the game shows it."""
        return self._settings[game][name]

    def any_setting(self, name: str) -> Setting | None:
        """A setting row as the first game that has it shows it: its kind (a switch, choices,
        a number) and label are the same in every game."""
        for rows in self._settings.values():
            if name in rows:
                return rows[name]
        return None

    def of(self, room: Room) -> Screens:
        """The Telegram side of the room's game."""
        return self.screens[room.game]

    def game(self, room: Room) -> Game:
        """The room's game (its rules' registration)."""
        return self.games.named(room.game)


def _indices(games: Any) -> dict[int, str]:
    """Each settings index's one name, checked: a name keeps its index in every game."""
    found: dict[int, str] = {}
    for rows in games:
        for name, row in rows.items():
            if found.setdefault(row.index, name) != name:
                raise ValueError(f"settings index {row.index} is {found[row.index]} and {name}")
    named = {name: index for index, name in found.items()}
    for rows in games:
        for name, row in rows.items():
            if named[name] != row.index:
                raise ValueError(f"setting {name} has two indices")
    return found
