"""The lobby message and its settings keyboard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lobby import EXTEND_S, SHARED_SETTINGS, unreachable_seats
from engine.model import Phase, Room
from engine.settings import BOUNDS, LANGUAGES
from tgbot import i18n
from tgbot.egress.outgoing import Button, Outgoing
from tgbot.i18n import N_, Texts, _, ngettext
from tgbot.table.render.common import (
    NAME_MAX,
    Look,
    duration,
    in_group_language,
    names,
    seconds_left,
    to_group,
    user_text,
)
from tgbot.table.render.group import listed
from tgbot.table.setting import Setting

if TYPE_CHECKING:  # the line-up is built from the games' screens, which render with this
    from tgbot.table.screens import Lineup

def _timer(seconds: int) -> str:
    return _("off") if not seconds else duration(seconds)


SHARED_SETTINGS_ROWS: dict[str, Setting] = {
    "max_seats": Setting(
        0, N_("max players"), N_("How many players may join: 3–10."),
        bounds=BOUNDS["max_seats"],
    ),
    "timers": Setting(
        3, N_("timers"), N_("With timers off, nobody is ever rushed; the host can /skip."),
        switch=True,
    ),
    "language": Setting(
        9,
        N_("language"),
        N_(
            "The language of the group's messages. Each player can choose their own for "
            "private messages with /language in a private chat with me."
        ),
        choices=LANGUAGES,
        shown=lambda value: i18n.LANGUAGES.get(value, str(value)),
    ),
    "join_s": Setting(
        10,
        N_("join time"),
        N_(
            "How long the lobby waits for players before it starts by itself: up to 10 min. "
            "Off: the host starts it, and a lobby left alone for a day closes."
        ),
        bounds=BOUNDS["join_s"],
        step=30,
        shown=_timer,
    ),
    "pictures": Setting(
        11,
        N_("pictures"),
        N_("With pictures on, boards and results also come as pictures; the text says the same."),
        switch=True,
    ),
}  # fmt: skip
"""The settings every game plays with, on every game's keyboard (its rows are numbered in
the buttons: a new setting takes a new index)."""
AI_LABEL = N_("AI players")


CLOSED_BECAUSE = Texts({
    "too_few": N_("Fewer than {n} players joined in time. /newgame opens a new lobby."),
    "idle": N_("Nothing happened here for a day. /newgame opens a new lobby."),
})


@in_group_language
def lobby(room: Room, look: Look, settings_mode: bool = False) -> Outgoing:
    """The lobby message: players, who still has to open a private chat, settings, buttons."""
    who = names(room)
    missing = unreachable_seats(room) if room.phase is Phase.LOBBY else []
    least = look.lineup.game(room).min_seats
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
            _("Press Join to play. The host or a group admin presses Start ({n} players or "
              "more).").format(n=least)
        )
        if missing or waiting:
            lines.append(look.lineup.of(room).private_why())
        left = seconds_left(room.deadline, look) if room.settings.join_s else None
        if left is not None:
            when = (
                _("It starts by itself in {time} (/extend: {more} more).")
                if len(room.seats) >= least
                else _("It closes in {time} unless {n} players have joined (/extend: {more} "
                       "more).")
            )
            more = duration(EXTEND_S * room.timer_scale)  # a minute, as the timers really run
            lines.append(when.format(time=duration(left), more=more, n=least))
        rows = (
            _settings_rows(room, look)
            if settings_mode
            else [
                [look.button(_("Join"), "join", game), look.button(_("Leave"), "leave", game)],
                [look.button(_("Start"), "start", game), look.button(_("Settings"), "menu", game)],
                [look.button(_("🤖 Add AI"), "addai", game)] * look.lineup.of(room).ai_players
                + ([look.button(_("Remove AI"), "rmai", game)] if room.ai_seats() else []),
                [_game_button(room, look)],
            ]
        )
        rows = [row for row in rows if row]
    else:
        rows = []
        if room.phase is Phase.CLOSED and room.end_reason in CLOSED_BECAUSE:
            lines.append(CLOSED_BECAUSE[room.end_reason].format(n=least))
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
    """The Game button: the lobby becomes one of the next game that seats its players (host
    or admin)."""
    games = look.lineup.games
    order = list(games)
    at = order.index(room.game)
    following = next(
        (k % len(order) for k in range(at + 1, at + len(order))
         if games[order[k % len(order)]].max_seats >= len(room.seats)),
        (at + 1) % len(order),
    )  # fmt: skip
    label = _("🎲 Game: {game} (change)").format(game=look.lineup.game(room).title)
    return look.button(label, "game", following, room.game_id)


def setting_values(room: Room) -> dict[str, int | bool | str]:
    """Every setting of the lobby by name: the table's, and its game's own where it has them."""
    values = room.settings.model_dump()
    if room.game_settings is not None:  # its copies of the table's shared settings aside
        own = room.game_settings.model_dump().items()
        values.update((k, v) for k, v in own if k not in SHARED_SETTINGS)
    return values


def setting_shown(room: Room, name: str, lineup: Lineup) -> str:
    """A setting's value as players read it (timers as long as they really run)."""
    if name == "ai":  # not a setting kept in the room: the AI seats it leaves
        return str(len(room.ai_seats()))
    value = setting_values(room)[name]
    row = lineup.setting(room.game, name)
    if row.switch:
        return _("on") if value else _("off")
    if row.shown is not None:
        return row.shown(value * room.timer_scale if name.endswith("_s") else value)
    if name.endswith("_s"):
        return duration(value * room.timer_scale)
    return str(value)


def setting_line(room: Room, name: str, lineup: Lineup) -> str:
    """A setting's label with its value: "rotations: 2"."""
    label = AI_LABEL if name == "ai" else lineup.setting(room.game, name).label
    return _("{setting}: {value}").format(
        setting=_(label), value=setting_shown(room, name, lineup)
    )


def _steps(row: Setting, value: int) -> tuple[int, int]:
    """The values a number setting's − and + buttons set."""
    if row.values:
        at = row.values.index(value) if value in row.values else 0
        return row.values[max(0, at - 1)], row.values[min(len(row.values) - 1, at + 1)]
    assert row.bounds is not None
    low, high = row.bounds
    return max(low, value - row.step), min(high, value + row.step)


def _settings_rows(room: Room, look: Look) -> list[list[Button]]:
    rows = []
    game = room.game_id
    current = setting_values(room)
    lineup = look.lineup
    for name in lineup.of(room).setting_rows:
        row = lineup.setting(room.game, name)
        value = current[name]
        label = setting_line(room, name, lineup)
        if row.switch:
            rows.append([look.button(label, "set", row.index, int(not value), game)])
        elif row.choices:
            following = (row.choices.index(value) + 1) % len(row.choices)
            rows.append([look.button(label, "set", row.index, following, game)])
        else:
            assert row.bounds is not None, name
            lower, higher = _steps(row, value)
            rows.append(
                [
                    look.button("−", "set", row.index, lower, game),
                    look.button(label, "info", row.index),
                    look.button("+", "set", row.index, higher, game),
                ]
            )
    rows.append([look.button(_("Done"), "done", game)])
    return rows
