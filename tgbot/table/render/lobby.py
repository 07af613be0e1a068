"""The lobby message and its settings keyboard."""

from __future__ import annotations

from engine.games.guesswhat.settings import BOUNDS as GUESSWHAT_BOUNDS
from engine.games.huescues.settings import BOUNDS as HUESCUES_BOUNDS
from engine.lobby import EXTEND_S, SHARED_SETTINGS, unreachable_seats
from engine.model import MIN_SEATS, Phase, Room
from engine.settings import BOUNDS, LANGUAGES
from tgbot import i18n
from tgbot.egress.outgoing import Button, Outgoing
from tgbot.i18n import N_, Texts, _, ngettext
from tgbot.table.render.common import (
    NAME_MAX,
    Look,
    deck_name,
    duration,
    in_group_language,
    names,
    seconds_left,
    to_group,
    user_text,
)
from tgbot.table.render.group import listed

HINTRIGUE_ROWS = (
    "max_seats",
    "rotations",
    "hand_size",
    "timers",
    "hint_s",
    "decoy_s",
    "vote_s",
    "reveal_s",
    "deck",
    "language",
    "join_s",
    "pictures",  # rows are numbered in buttons: new ones go last
)
"""Hintrigue's settings keyboard, row by row."""
SETTING_ROWS = (
    *HINTRIGUE_ROWS, "target", "connoisseurs", "clue_s", "guess_s",
    "turns", "free_choice", "cue_s", "second_cue_s", "second_guess_s",
)  # fmt: skip
"""Every setting a settings button may name, by its index (each game shows some of them)."""
SWITCHES = frozenset({"timers", "connoisseurs", "pictures", "free_choice"})
SETTING_BOUNDS = {**HUESCUES_BOUNDS, **GUESSWHAT_BOUNDS, **BOUNDS}
SETTING_STEPS = {
    "max_seats": 1,
    "rotations": 1,
    "hand_size": 1,
    "hint_s": 15,
    "decoy_s": 15,
    "vote_s": 15,
    "reveal_s": 2,
    "join_s": 30,
    "target": 1,
    "clue_s": 15,
    "guess_s": 15,
    "turns": 1,
    "cue_s": 15,
    "second_cue_s": 15,
    "second_guess_s": 15,
}
DECK_NAMES = ("default", "short")
SETTING_LABELS = Texts({
    "max_seats": N_("max players"),
    "rotations": N_("rotations"),
    "hand_size": N_("cards in hand"),
    "timers": N_("timers"),
    "hint_s": N_("hint time"),
    "decoy_s": N_("decoy time"),
    "vote_s": N_("vote time"),
    "reveal_s": N_("reveal time"),
    "deck": N_("deck"),
    "language": N_("language"),
    "join_s": N_("join time"),
    "target": N_("target points"),
    "connoisseurs": N_("connoisseurs"),
    "clue_s": N_("clue time"),
    "guess_s": N_("guess time"),
    "pictures": N_("pictures"),
    "turns": N_("cues per player"),
    "free_choice": N_("free choice of colour"),
    "cue_s": N_("cue time"),
    "second_cue_s": N_("second cue time"),
    "second_guess_s": N_("second guess time"),
    "ai": N_("AI players"),
})
SETTING_HELP = Texts({
    "max_seats": N_("How many players may join: 3–10."),
    "rotations": N_("How many times the storyteller's turn goes round the table: 1–5."),
    "hand_size": N_("How many cards each player holds: 4–8."),
    "timers": N_("With timers off, nobody is ever rushed; the host can /skip."),
    "hint_s": N_("Time for the storyteller's card and hint."),
    "decoy_s": N_("Time for everybody's decoys."),
    "vote_s": N_("Time for the vote."),
    "reveal_s": N_("How long the reveal shows before the next round."),
    "deck": N_("Which cards to play with: default (all) or short."),
    "language": N_(
        "The language of the group's messages. Each player can choose their own for private "
        "messages with /language in a private chat with me."
    ),
    "join_s": N_(
        "How long the lobby waits for players before it starts by itself: up to 10 min. Off: "
        "the host starts it, and a lobby left alone for a day closes."
    ),
    "target": N_("The game ends after the turn in which somebody reaches this many points: 5–20."),
    "connoisseurs": N_(
        "On: when every other player finds the three icons, the active player scores nothing."
    ),
    "clue_s": N_("Time for the active player's three icons and clue."),
    "guess_s": N_("Time for everybody's guesses."),
    "pictures": N_(
        "With pictures on, boards and results also come as pictures; the text says the same."
    ),
    "turns": N_(
        "How many times each player gives the cues: 1–3, or by the number of players (twice "
        "with 3–6, once with 7 or more)."
    ),
    "free_choice": N_("On: the cue giver chooses any colour of the board instead of a card's."),
    "cue_s": N_("Time for the cue giver's colour and first cue."),
    "second_cue_s": N_("Time for the cue giver's second cue (or none)."),
    "second_guess_s": N_("Time for everybody's second cones."),
})


CLOSED_BECAUSE = Texts({
    "too_few": N_("Fewer than 3 players joined in time. /newgame opens a new lobby."),
    "idle": N_("Nothing happened here for a day. /newgame opens a new lobby."),
})


@in_group_language
def lobby(room: Room, look: Look, settings_mode: bool = False) -> Outgoing:
    """The lobby message: players, who still has to open a private chat, settings, buttons."""
    who = names(room)
    missing = unreachable_seats(room) if room.phase is Phase.LOBBY else []
    heading = {
        Phase.LOBBY: _("<b>{game}</b> — a new game is open!"),
        Phase.CLOSED: _("<b>{game}</b> — this lobby is closed."),
    }.get(room.phase, _("<b>{game}</b> — this game has started.")).format(
        game=look.lineup.game(room).title
    )
    lines = [
        heading,
        "",
        ngettext("{n} player:", "{n} players:", len(room.seats)).format(n=len(room.seats)),
    ]
    for i, seat in enumerate(room.seats):
        line = f"• {who[i]}" + (_(" (host)") if seat.user_id == room.creator else "")
        if i in missing:
            line += " — " + _("must open {link} first").format(link=look.anchor(f"r{room.room_id}"))
        lines.append(line)
    waiting = room.waiting if room.phase is Phase.LOBBY else []
    for joiner in waiting:  # pressed Join, not seated until they open the private chat
        lines.append("⏳ " + _("waiting for {name} to open {link}").format(
            name=user_text(joiner.name, NAME_MAX), link=look.anchor(f"j{room.room_id}")))
    lines += ["", look.lineup.of(room).settings_text(room)]
    game = room.game_id
    if room.phase is Phase.LOBBY:
        lines.append(
            _("Press Join to play. The host or a group admin presses Start (3 players or more).")
        )
        if missing or waiting:
            lines.append(look.lineup.of(room).private_why())
        left = seconds_left(room.deadline, look) if room.settings.join_s else None
        if left is not None:
            when = (
                _("It starts by itself in {time} (/extend: {more} more).")
                if len(room.seats) >= MIN_SEATS
                else _("It closes in {time} unless 3 players have joined (/extend: {more} more).")
            )
            more = duration(EXTEND_S * room.timer_scale)  # a minute, as the timers really run
            lines.append(when.format(time=duration(left), more=more))
        rows = (
            _settings_rows(room, look)
            if settings_mode
            else [
                [look.button(_("Join"), "join", game), look.button(_("Leave"), "leave", game)],
                [look.button(_("Start"), "start", game), look.button(_("Settings"), "menu", game)],
                [look.button(_("🤖 Add AI"), "addai", game)]
                + ([look.button(_("Remove AI"), "rmai", game)] if room.ai_seats() else []),
                [_game_button(room, look)],
            ]
        )
    else:
        rows = []
        if room.phase is Phase.CLOSED and room.end_reason in CLOSED_BECAUSE:
            lines.append(CLOSED_BECAUSE[room.end_reason])
    return to_group(room, key="lobby", text="\n".join(lines), buttons=rows)


@in_group_language
def left_out(room: Room, names: list[str], look: Look) -> Outgoing:
    """The group is told who the game started without, and why: they pressed Join but never
    opened a private chat with the bot."""
    shown = listed([user_text(name, NAME_MAX) for name in names])
    text = ngettext(
        "The game started without {names}: they never opened a private chat with me, where "
        "the secret moves are made. To play from a later round, open {link}.",
        "The game started without {names}: they never opened a private chat with me, where "
        "the secret moves are made. To play from a later round, open {link}.",
        len(names),
    ).format(names=shown, link=look.anchor(f"j{room.room_id}"))
    return to_group(room, text=text)


def _game_button(room: Room, look: Look) -> Button:
    """The Game button: the lobby becomes one of the next game (host or admin)."""
    order = list(look.lineup.games)
    following = (order.index(room.game) + 1) % len(order)
    label = _("🎲 Game: {game} (change)").format(game=look.lineup.game(room).title)
    return look.button(label, "game", following, room.game_id)


def setting_values(room: Room) -> dict[str, int | bool | str]:
    """Every setting of the lobby by name: the table's, and its game's own where it has them."""
    values = room.settings.model_dump()
    if room.game_settings is not None:  # its copies of the table's shared settings aside
        own = room.game_settings.model_dump().items()
        values.update((k, v) for k, v in own if k not in SHARED_SETTINGS)
    return values


def setting_shown(room: Room, name: str) -> str:
    """A setting's value as players read it (timers as long as they really run)."""
    if name == "ai":  # not a setting kept in the room: the AI seats it leaves
        return str(len(room.ai_seats()))
    value = setting_values(room)[name]
    if name in SWITCHES:
        return _("on") if value else _("off")
    if name == "join_s" and not value:
        return _("off")
    if name == "turns" and not value:
        return _("by player count")
    if name.endswith("_s"):
        return duration(value * room.timer_scale)
    if name == "language":
        return i18n.LANGUAGES.get(value, str(value))
    if name == "deck":
        return deck_name(str(value))
    return str(value)


def setting_line(room: Room, name: str) -> str:
    """A setting's label with its value: "rotations: 2"."""
    return _("{setting}: {value}").format(
        setting=SETTING_LABELS[name], value=setting_shown(room, name)
    )


def _settings_rows(room: Room, look: Look) -> list[list[Button]]:
    rows = []
    game = room.game_id
    current = setting_values(room)
    for name in look.lineup.of(room).setting_rows:
        index = SETTING_ROWS.index(name)
        value = current[name]
        label = setting_line(room, name)
        if name in SWITCHES:
            rows.append([look.button(label, "set", index, int(not value), game)])
        elif name == "deck":
            other = DECK_NAMES.index(value) ^ 1
            rows.append([look.button(label, "set", index, other, game)])
        elif name == "language":
            following = (LANGUAGES.index(value) + 1) % len(LANGUAGES)
            rows.append([look.button(label, "set", index, following, game)])
        else:
            low, high = SETTING_BOUNDS[name]
            step = SETTING_STEPS[name]
            rows.append(
                [
                    look.button("−", "set", index, max(low, value - step), game),
                    look.button(label, "info", index),
                    look.button("+", "set", index, min(high, value + step), game),
                ]
            )
    rows.append([look.button(_("Done"), "done", game)])
    return rows
