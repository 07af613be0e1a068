"""Rendering: room views into HTML messages and inline keyboards. Every user string is escaped."""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.decks import scene
from engine.model import Phase, Room, SeatStatus
from engine.settings import BOUNDS
from engine.views import group_view, seat_view, waiting_for
from tgbot import callback
from tgbot.outgoing import Button, Outgoing, dm_key
from tgbot.texts import _, ngettext

SETTING_ROWS = (
    "max_seats",
    "rotations",
    "hand_size",
    "timers",
    "hint_s",
    "decoy_s",
    "vote_s",
    "reveal_s",
    "deck",
)
SETTING_STEPS = {
    "max_seats": 1,
    "rotations": 1,
    "hand_size": 1,
    "hint_s": 15,
    "decoy_s": 15,
    "vote_s": 15,
    "reveal_s": 2,
}
DECK_NAMES = ("default", "short")
SETTING_LABELS = {
    "max_seats": _("max players"),
    "rotations": _("rotations"),
    "hand_size": _("hand size"),
    "timers": _("timers"),
    "hint_s": _("hint seconds"),
    "decoy_s": _("decoy seconds"),
    "vote_s": _("vote seconds"),
    "reveal_s": _("reveal seconds"),
    "deck": _("deck"),
}


@dataclass(frozen=True)
class Look:
    """What rendering needs besides the room: the bot's username and the signing key."""

    bot_username: str
    key: bytes

    def button(self, text: str, kind: str, *args: int) -> Button:
        """A signed callback button."""
        return Button(text=text, data=callback.encode(self.key, kind, *args))

    def link(self, payload: str) -> str:
        """A deep link into the private chat with the bot."""
        return f"https://t.me/{self.bot_username}?start={payload}"


def names(room: Room) -> list[str]:
    """Seat names, HTML-escaped, told apart by @username (or seat number) when they clash."""
    counts = Counter(seat.name for seat in room.seats)
    result = []
    for index, seat in enumerate(room.seats):
        name = seat.name
        if counts[name] > 1:
            name += f" (@{seat.username})" if seat.username else f" #{index + 1}"
        result.append(html.escape(name))
    return result


def card(room: Room, number: int) -> str:
    """A card as it looks everywhere: its scene."""
    return scene(room.settings.deck, number)


def until(deadline: float | None) -> str:
    """When a phase times out, in UTC."""
    if deadline is None:
        return ""
    moment = datetime.fromtimestamp(deadline, UTC).strftime("%H:%M:%S")
    return _(" until {time} UTC").format(time=moment)


def title(room: Room) -> str:
    """The group's title, escaped."""
    return html.escape(room.title or _("your group"))


def settings_text(room: Room) -> str:
    """The settings in one line."""
    s = room.settings
    timers = (
        _("timers: hint {h}s, decoy {d}s, vote {v}s").format(h=s.hint_s, d=s.decoy_s, v=s.vote_s)
        if s.timers
        else _("timers off")
    )
    return _(
        "up to {seats} players · {rot} rotations · {hand} cards · {timers} · reveal {rv}s"
        " · deck {deck}"
    ).format(
        seats=s.max_seats,
        rot=s.rotations,
        hand=s.hand_size,
        timers=timers,
        rv=s.reveal_s,
        deck=s.deck,
    )


def lobby(room: Room, look: Look, settings_mode: bool = False) -> Outgoing:
    """The lobby message: players, settings and its buttons."""
    who = names(room)
    lines = [
        _("<b>Hintrigue</b> — a new game is open!"),
        "",
        _("Players ({n}):").format(n=len(room.seats)),
    ]
    lines += [
        f"• {who[i]}" + (_(" (host)") if s.user_id == room.creator else "")
        for i, s in enumerate(room.seats)
    ]
    lines += ["", settings_text(room)]
    if room.phase is Phase.LOBBY:
        lines.append(_("Press Join to play. The host or an admin presses Start (3+ players)."))
        rows = (
            _settings_rows(room, look)
            if settings_mode
            else [
                [look.button(_("Join"), "join"), look.button(_("Leave"), "leave")],
                [look.button(_("Start"), "start"), look.button(_("Settings"), "menu")],
            ]
        )
    else:
        lines.append(
            _("The lobby is closed.") if room.phase is Phase.CLOSED else _("The game has started.")
        )
        rows = []
    return Outgoing(chat_id=room.chat_id, key="lobby", text="\n".join(lines), buttons=rows)


def _settings_rows(room: Room, look: Look) -> list[list[Button]]:
    rows = []
    current = room.settings.model_dump()
    for index, name in enumerate(SETTING_ROWS):
        value = current[name]
        shown = (_("on") if value else _("off")) if name == "timers" else value
        label = f"{SETTING_LABELS[name]}: {shown}"
        if name == "timers":
            rows.append([look.button(label, "set", index, int(not value))])
        elif name == "deck":
            other = DECK_NAMES.index(value) ^ 1
            rows.append([look.button(label, "set", index, other)])
        else:
            low, high = BOUNDS[name]
            step = SETTING_STEPS[name]
            rows.append(
                [
                    look.button(f"− {label}", "set", index, max(low, value - step)),
                    look.button("+", "set", index, min(high, value + step)),
                ]
            )
    rows.append([look.button(_("Done"), "done")])
    return rows


def round_message(room: Room) -> Outgoing:
    """The round's group message: storyteller, hint, who we wait for and until when."""
    rnd = room.round
    assert rnd is not None
    who = names(room)
    lines = [
        _("<b>Round {n}</b> · storyteller: {name}").format(n=rnd.no, name=who[rnd.storyteller])
    ]
    if rnd.hint is not None:
        lines.append(_("Hint: <b>«{hint}»</b>").format(hint=html.escape(rnd.hint)))
    waiting = ", ".join(who[i] for i in waiting_for(room))
    if room.phase is Phase.HINT:
        lines.append(
            _("Waiting for {name} to choose a card and give a hint{until}.").format(
                name=waiting, until=until(room.deadline)
            )
        )
    elif room.phase is Phase.DECOYS:
        lines.append(
            _("Everybody else: choose a decoy in our private chat.")
            + "\n"
            + _("Waiting for: {names}{until}.").format(names=waiting, until=until(room.deadline))
        )
    elif room.phase is Phase.VOTING:
        lines.append(_("All cards are on the table: vote below."))
    else:
        lines.append(_("Voting is closed."))
    return Outgoing(chat_id=room.chat_id, key=f"round:{rnd.no}", text="\n".join(lines))


def void_message(room: Room, round_no: int, storyteller: int, reason: str) -> Outgoing:
    """The round's group message once the round is void."""
    who = names(room)[storyteller]
    text = {
        "missed_hint": _("{name} did not give a hint in time."),
        "skipped": _("{name}'s turn was skipped."),
        "storyteller_left": _("{name} left the game."),
        "unreachable": _("{name} could not be reached in private."),
    }[reason].format(name=who)
    body = _("<b>Round {n}</b> is void: {why} No card moved, no score changed.").format(
        n=round_no, why=text
    )
    return Outgoing(chat_id=room.chat_id, key=f"round:{round_no}", text=body)


def table(room: Room, look: Look) -> Outgoing:
    """The table message: one button per card while voting is open; who has voted."""
    view = group_view(room)
    rnd = room.round
    assert rnd is not None
    who = names(room)
    lines = [
        _("<b>The table</b> · round {n} · hint <b>«{hint}»</b>").format(
            n=rnd.no, hint=html.escape(rnd.hint or "")
        )
    ]
    lines += [f"{i + 1}. {card(room, c)}" for i, c in enumerate(rnd.table)]
    rows: list[list[Button]] = []
    if room.phase is Phase.VOTING:
        lines.append(
            _("Vote for {name}'s card (not your own). You may change your vote.").format(
                name=who[rnd.storyteller]
            )
        )
        if view.voted:
            lines.append(_("Voted: {names}").format(names=", ".join(who[i] for i in view.voted)))
        lines.append(
            _("Waiting for: {names}{until}.").format(
                names=", ".join(who[i] for i in view.waiting_for), until=until(room.deadline)
            )
        )
        rows = [
            [look.button(f"{i + 1}. {card(room, c)}", "vote", rnd.no, c)]
            for i, c in enumerate(rnd.table)
        ]
    else:
        lines.append(_("Voting is closed."))
    return Outgoing(
        chat_id=room.chat_id, key=f"table:{rnd.no}", text="\n".join(lines), buttons=rows
    )


def reveal(room: Room) -> Outgoing:
    """Each table card with its owner and voters, the round's points, the standings."""
    view = group_view(room)
    rnd = room.round
    assert rnd is not None
    who = names(room)
    lines = [
        _("<b>Reveal</b> · round {n} · «{hint}»").format(n=rnd.no, hint=html.escape(rnd.hint or ""))
    ]
    for line in view.reveal:
        mark = "⭐ " if line.storyteller else ""
        voters = ", ".join(who[i] for i in line.voters) or "—"
        lines.append(
            _("{mark}{card} — {owner} · votes: {voters}").format(
                mark=mark, card=card(room, line.card), owner=who[line.owner], voters=voters
            )
        )
    lines += ["", _("<b>Points this round</b>")]
    lines += [f"{who[i]} +{p}" for i, p in sorted(view.points.items(), key=lambda kv: -kv[1])]
    lines += ["", standings_text(room)]
    if room.phase is Phase.REVEAL:
        lines.append(_("Next turn in {s} seconds.").format(s=room.settings.reveal_s))
    return Outgoing(chat_id=room.chat_id, key=f"reveal:{rnd.no}", text="\n".join(lines))


def standings_text(room: Room) -> str:
    """Standings with points, finds and votes stolen."""
    view = group_view(room)
    who = names(room)
    lines = [_("<b>Standings</b>")]
    for place, index in enumerate(view.standings, start=1):
        seat = room.seats[index]
        status = {SeatStatus.LEFT: _(" (left)"), SeatStatus.SPECTATING: _(" (sitting out)")}.get(
            seat.status, ""
        )
        lines.append(
            _("{place}. {name}{status} — {points} pts · {finds} finds · {stolen} stolen").format(
                place=place,
                name=who[index],
                status=status,
                points=seat.score,
                finds=seat.finds,
                stolen=seat.stolen,
            )
        )
    return "\n".join(lines)


def final(room: Room) -> Outgoing:
    """The final message: winners together, or why the game ended without one."""
    view = group_view(room)
    who = names(room)
    if room.phase is Phase.FINISHED:
        winners = ", ".join(who[i] for i in view.winners)
        head = ngettext(
            "🏆 <b>{names}</b> wins!", "🏆 <b>{names}</b> win together!", len(view.winners)
        ).format(names=winners)
    elif room.end_reason == "stopped":
        head = _("The game was stopped. No winner this time.")
    else:
        head = _("Fewer than three players are left: the game is abandoned. No winner.")
    text = "\n".join(
        [_("<b>Game over</b>"), head, "", standings_text(room), "", _("Play again with /newgame.")]
    )
    return Outgoing(chat_id=room.chat_id, key="final", text=text)


def hand_buttons(room: Room, index: int, kind: str, look: Look) -> list[list[Button]]:
    """The seat's hand as buttons, two per row, the chosen card marked."""
    view = seat_view(room, index)
    rnd = room.round
    assert rnd is not None
    buttons = [
        look.button(
            ("✅ " if c == view.chosen else "") + card(room, c), kind, room.chat_id, rnd.no, c
        )
        for c in view.hand
    ]
    return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]


def storyteller_dm(room: Room, index: int, look: Look) -> Outgoing:
    """The storyteller's private message: choose a card, then send the hint."""
    rnd = room.round
    assert rnd is not None
    seat = room.seats[index]
    lines = [
        _("<b>Round {n}</b> in <b>{group}</b>: you are the storyteller.").format(
            n=rnd.no, group=title(room)
        )
    ]
    rows: list[list[Button]] = []
    if room.phase is Phase.HINT:
        if rnd.chosen is None:
            lines.append(
                _("Choose a card{until}, then send your hint here as a message.").format(
                    until=until(room.deadline)
                )
            )
        else:
            lines.append(
                _(
                    "Chosen: {card}. Now send your hint as a message (you may still "
                    "change the card){until}."
                ).format(card=card(room, rnd.chosen), until=until(room.deadline))
            )
        rows = hand_buttons(room, index, "card", look)
    elif rnd.hint is not None and index in rnd.plays:
        lines.append(
            _("Your card {card} with the hint «{hint}» is on the table.").format(
                card=card(room, rnd.plays[index]), hint=html.escape(rnd.hint)
            )
        )
    return Outgoing(
        chat_id=seat.user_id,
        key=dm_key(seat.user_id, rnd.no),
        text="\n".join(lines),
        buttons=rows,
        unreachable=(seat.user_id, rnd.no, Phase.HINT.value),
    )


def decoy_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A player's private message for the decoy: the hint and the hand."""
    rnd = room.round
    assert rnd is not None
    seat = room.seats[index]
    who = names(room)
    lines = [
        _("<b>Round {n}</b> in <b>{group}</b>: {name}'s hint is <b>«{hint}»</b>.").format(
            n=rnd.no, group=title(room), name=who[rnd.storyteller], hint=html.escape(rnd.hint or "")
        )
    ]
    rows: list[list[Button]] = []
    played = rnd.plays.get(index)
    if played is None and room.phase is Phase.DECOYS:
        lines.append(_("Choose a decoy from your hand{until}:").format(until=until(room.deadline)))
        rows = hand_buttons(room, index, "decoy", look)
    elif played is not None:
        how = _("chosen for you when time ran out") if index in rnd.auto else _("your choice")
        lines.append(
            _("Your decoy: {card} ({how}). Vote on the table in the group.").format(
                card=card(room, played), how=how
            )
        )
    return Outgoing(
        chat_id=seat.user_id,
        key=dm_key(seat.user_id, rnd.no),
        text="\n".join(lines),
        buttons=rows,
        unreachable=(seat.user_id, rnd.no, Phase.DECOYS.value),
    )


def spectator_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A sitting-out seat's private message with its way back."""
    seat = room.seats[index]
    if seat.status is SeatStatus.SPECTATING:
        text = _(
            "You missed two hints in a row in <b>{group}</b>, so you sit out for now. "
            "Press the button or send /back in the group to play again."
        ).format(group=title(room))
        rows = [[look.button(_("I'm back"), "back", room.chat_id)]]
    else:
        text = _("Welcome back! You play from the next round in <b>{group}</b>.").format(
            group=title(room)
        )
        rows = []
    return Outgoing(chat_id=seat.user_id, key=f"dm:{seat.user_id}:away", text=text, buttons=rows)


def late_join_notice(room: Room, index: int) -> Outgoing:
    """Tell the group that a player joined the running game."""
    text = _("{name} joined the game and plays from the next round.").format(
        name=names(room)[index]
    )
    return Outgoing(chat_id=room.chat_id, text=text)


def unreachable_notice(room: Room, index: int, look: Look) -> Outgoing:
    """Tell the group that a player must open a private chat with the bot."""
    text = _(
        "I cannot write to {name} in private, so their move was made for them. {name}: "
        "open {link} and press Start, then the game can reach you."
    ).format(name=names(room)[index], link=look.link(f"r{room.chat_id}"))
    return Outgoing(chat_id=room.chat_id, text=text)


def score(room: Room | None, stats: dict[str, int]) -> str:
    """The /score answer: the current or last game's standings and the group's lifetime stats."""
    parts = []
    if room is not None and room.phase is not Phase.LOBBY:
        state = {
            Phase.FINISHED: _("last game (finished)"),
            Phase.ABANDONED: _("last game (ended early)"),
        }.get(room.phase, _("this game"))
        parts += [f"<b>{state}</b>", standings_text(room)]
    else:
        parts.append(_("No game has been played here lately."))
    if stats:
        parts += [
            "",
            _(
                "This group so far: {games} games, {points} points, {finds} finds, "
                "{stolen} votes stolen."
            ).format(
                games=stats.get("games", 0),
                points=stats.get("points", 0),
                finds=stats.get("finds", 0),
                stolen=stats.get("stolen", 0),
            ),
        ]
    return "\n".join(parts)
