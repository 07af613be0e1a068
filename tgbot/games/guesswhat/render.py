"""Guess What!'s messages: the board (one per turn, edited as it goes), the reveal, the final
standings in the group; the active player's and the guessers' private prompts."""

from __future__ import annotations

from collections.abc import Callable

from engine.games.guesswhat import icon
from engine.games.guesswhat.model import COLUMN_NAMES, ROWS, Phase, State
from engine.games.guesswhat.table import GAME, state_of
from engine.games.guesswhat.turns import CARRIED_CLUE_S
from engine.games.guesswhat.views import group_view, seat_view
from engine.model import Phase as TablePhase
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import MAX_CAPTION, Button, Outgoing, caption_length, dm_key
from tgbot.games import common
from tgbot.games.guesswhat.pictures import GuessBoardPicture, GuessLine, GuessRevealPicture
from tgbot.i18n import N_, Texts, _, ngettext
from tgbot.table.render.common import (
    Look,
    duration,
    in_group_language,
    in_seat_language,
    message,
    names,
    time_left,
    title,
    to_group,
    topic_field,
    user_text,
)
from tgbot.table.render.group import listed, plain_names, standings_lines
from tgbot.table.render.private import away_dm, closed_with, heading

REDRAW_MODE = 1 << 9
"""The bit of a redraw selection (`gsel` buttons) that says the selection is open; bits 0–8
are the board positions chosen."""

VOID_REASONS = Texts({
    "missed_clue": N_("{name} did not give a clue in time."),
    "skipped": N_("{name}'s turn was skipped."),
    "active_left": N_("{name} left the game."),
    "unreachable": N_("{name} could not be reached in private."),
})


COUNTDOWN_ROOM = 100
"""Room kept in a reveal's caption for the line saying when the next turn starts, so that the
reveal with and without it is sent the same way."""


def board_key(round_no: int) -> str:
    """The key of a turn's board message in the group."""
    return f"board:{round_no}"


def shown(number: int | None) -> str:
    """An icon as it looks everywhere (— for none)."""
    return icon(number).emoji if number is not None else "—"


def triple(icons: list[int | None] | list[int]) -> str:
    """Three icons by column: "A 🐋 · B 🎻 · C 🌙"."""
    return " · ".join(f"{COLUMN_NAMES[c]} {shown(i)}" for c, i in enumerate(icons))


def board_lines(state: State) -> list[str]:
    """The board, a line per column: "<b>A</b>  🐋  🎻  🌙"."""
    board = state.board
    return [
        f"<b>{name}</b>  " + "  ".join(shown(n) for n in board[c * ROWS : (c + 1) * ROWS])
        for c, name in enumerate(COLUMN_NAMES)
    ]


def board_picture(state: State) -> GuessBoardPicture:
    """The board as a picture: columns A, B and C of three icons."""
    return GuessBoardPicture(icons=[icon(n).emoji for n in state.board])


def reveal_picture(room: Room) -> GuessRevealPicture:
    """The reveal as a picture: the board with the active player's icons marked, and each
    confirmed guess with a mark per icon."""
    state = state_of(room)
    rnd = state.round
    assert rnd is not None
    who = plain_names(room)
    return GuessRevealPicture(
        icons=[icon(n).emoji for n in state.board],
        answer=[shown(i) for i in rnd.picks],
        active=who[rnd.active],
        clue=rnd.clue or "",
        guesses=[
            GuessLine(name=who[seat], icons=[shown(i) for i in guess])
            for seat, guess in sorted(rnd.guesses.items())
        ],
    )


@in_group_language
def board_message(room: Room, look: Look, round_no: int | None = None) -> Outgoing:
    """A turn's group message: the board, whose turn it is, the clue once given, who has
    confirmed (never what) and the time left. With pictures on it is a photo of the board from
    the start, the text its caption: later edits change the caption, and the photo only when
    icons are replaced."""
    state = state_of(room)
    view = group_view(state)
    rnd = state.round
    assert rnd is not None
    who = names(room)
    number = round_no if round_no is not None else rnd.no
    lines = [
        _("<b>Guess What!</b> · round {n} · {name}'s turn").format(n=number, name=who[rnd.active])
    ]
    if number != rnd.no:
        # An earlier turn's message, closed: its board passed on to the next turn.
        lines.append(_("The turn passed on."))
        return to_group(room, key=board_key(number), text="\n".join(lines))
    lines += ["", *board_lines(state), ""]
    picture = board_picture(state) if room.settings.pictures else None
    if state.phase is Phase.CLUE:
        if rnd.redrawn:
            lines.append(_("{name} replaced three icons.").format(name=who[rnd.active]))
        lines.append(
            _("{name} picks one icon in each column and gives a clue in private{left}.").format(
                name=who[rnd.active], left=time_left(room, look)
            )
        )
    elif rnd.clue:  # none when the game ended before it was given
        lines.append(_("Clue: <b>«{clue}»</b>").format(clue=user_text(rnd.clue)))
    if state.phase is Phase.GUESS:
        lines.append(
            _("Everybody else: find the three icons in our private chat and confirm{left}.")
            .format(left=time_left(room, look))
        )  # fmt: skip
        if view.confirmed:
            lines.append(
                _("Confirmed: {names}.").format(names=listed([who[i] for i in view.confirmed]))
            )
        if view.waiting_for:
            lines.append(
                _("Waiting for {names}.").format(names=listed([who[i] for i in view.waiting_for]))
            )
    elif state.phase is Phase.REVEAL or rnd.points is not None:
        lines.append(_("Guessing is over: the answer is below."))
    elif room.phase is TablePhase.ABANDONED:
        lines.append(_("The game ended during this round."))
    return to_group(room, key=board_key(number), text="\n".join(lines), picture=picture)


@in_group_language
def void_message(room: Room, round_no: int, active: int, reason: str) -> Outgoing:
    """A turn that passed without a clue: its board message says why."""
    name = names(room)[active]
    lines = [
        _("<b>Guess What!</b> · round {n} · {name}'s turn").format(n=round_no, name=name),
        VOID_REASONS[reason].format(name=name) + " " + _("The turn passes on."),
    ]
    return to_group(room, key=board_key(round_no), text="\n".join(lines))


@in_group_language
def reveal(room: Room, look: Look, settled: bool = False) -> list[Outgoing]:
    """The reveal: the active player's three icons, each confirmed guess with its mark, the
    points of the turn, the standings, and when the next turn starts. With pictures on, a photo
    of the board and the guesses with this text as its caption; a text too long for a caption
    (many players with long names) comes below the picture, which then comes first with a
    short caption of its own (not edited again once the reveal is settled)."""
    state = state_of(room)
    rnd = state.round
    assert rnd is not None and rnd.points is not None
    who = names(room)
    answer = [i for i in rnd.picks if i is not None]
    lines = [
        _("<b>Round {n}: the answer</b>").format(n=rnd.no),
        _("{name}'s icons for «{clue}»: {icons}").format(
            name=who[rnd.active], clue=user_text(rnd.clue or ""), icons=triple(answer)
        ),
        "",
    ]
    for seat, guess in sorted(rnd.guesses.items()):
        mark = "✅" if seat in rnd.correct else "❌"
        lines.append(f"{mark} {who[seat]}: {triple(guess)}")
    if not rnd.guesses:
        lines.append(_("Nobody confirmed a guess."))
    gained = [f"{who[i]} +{n}" for i, n in sorted(rnd.points.items(), key=lambda p: (-p[1], p[0]))
              if n]  # most points first (then seat order)
    lines += ["", _("Points: {points}").format(points=", ".join(gained)) if gained
              else _("No points this round.")]  # fmt: skip
    if state.settings.connoisseurs and rnd.correct and rnd.points.get(rnd.active, 0) == 0:
        lines.append(_("Everybody found it, so {name} scores nothing (connoisseurs).").format(
            name=who[rnd.active]))  # fmt: skip
    lines += ["", standings_text(room)]
    too_long = caption_length("\n".join(lines)) > MAX_CAPTION - COUNTDOWN_ROOM
    if not settled and state.phase is Phase.REVEAL and state.deadline is not None:
        # Said once: the next turn's messages follow it (the state keeps no earlier turn).
        pause = state.deadline - (look.now if look.now is not None else state.phase_at)
        lines.append(_("The next turn starts by itself in {time}.").format(time=duration(pause)))
    key, text = f"reveal:{rnd.no}", "\n".join(lines)
    if not room.settings.pictures:
        return [to_group(room, key=key, text=text)]
    if not too_long:
        return [to_group(room, key=key, text=text, picture=reveal_picture(room))]
    if settled:
        return [to_group(room, key=key, text=text)]
    caption = _("<b>Round {n}: the answer</b> in a picture; the message below says it all in "
                "words.").format(n=rnd.no)  # fmt: skip
    return [
        to_group(room, key=f"reveal-picture:{rnd.no}", text=caption, picture=reveal_picture(room)),
        to_group(room, key=key, text=text),
    ]


def standings_text(room: Room) -> str:
    """Standings with points and correct guesses; tied seats share their rank."""
    state = state_of(room)

    def figures(index: int) -> str:
        seat = state.seats[index]
        return " · ".join([
            ngettext("{n} point", "{n} points", seat.score).format(n=seat.score),
            ngettext("{n} correct guess", "{n} correct guesses", seat.correct).format(
                n=seat.correct),
        ])  # fmt: skip

    return standings_lines(room, group_view(state).standings, figures)


def _grid(room: Room, button: Callable[[int, str, int], Button]) -> list[list[Button]]:
    """The board as a keyboard: a button row per board row, columns A, B, C side by side;
    `button(position, column name, icon)` makes each."""
    board = state_of(room).board
    return [
        [
            button(column * ROWS + row, name, board[column * ROWS + row])
            for column, name in enumerate(COLUMN_NAMES)
        ]
        for row in range(ROWS)
    ]


def _icon_rows(room: Room, look: Look, kind: str, marked: list[int | None]) -> list[list[Button]]:
    """The board's buttons of a pick or a guess; the icons in `marked` carry a tick."""
    rnd = state_of(room).round
    assert rnd is not None

    def button(_position: int, name: str, number: int) -> Button:
        tick = "✅ " if number in marked else ""
        args = (room.chat_id, rnd.no, number, room.game_id, *topic_field(room))
        return look.button(f"{tick}{name} {shown(number)}", kind, *args)

    return _grid(room, button)


def redraw_time(state: State) -> str:
    """" You then have 30 s for your clue.": the clue time a redraw leaves, as it really runs
    (none with timers off)."""
    if not state.settings.timers:
        return ""
    return " " + _("You then have {time} for your clue.").format(
        time=duration(CARRIED_CLUE_S * state.timer_scale))


@in_seat_language
def active_dm(room: Room, index: int, look: Look, selection: int = 0) -> Outgoing:
    """The active player's private message: pick one icon per column (changeable until the
    clue), replace three icons once, send the clue as a message."""
    state = state_of(room)
    view = seat_view(state, index)
    rnd = state.round
    assert rnd is not None
    seat = room.seats[index]
    lines = [_("{heading}: it is your turn.").format(heading=heading(room, rnd.no, GAME.title))]
    rows: list[list[Button]] = []
    if state.phase is Phase.CLUE and rnd.active == index and seat.status is not SeatStatus.LEFT:
        if selection & REDRAW_MODE:
            chosen = [state.board[p] for p in range(9) if selection >> p & 1]
            lines.append(
                _("Choose three icons to replace, then press Replace.") + redraw_time(state)
            )
            lines.append(_("Chosen: {icons}").format(icons=" ".join(shown(i) for i in chosen)))
            rows = _redraw_rows(room, look, selection)
        else:
            lines.append(
                _("Pick one icon in each column{left}, then send your clue here as a message: "
                  "a word, an expression, a title or a name (at most 100 characters).")
                .format(left=time_left(room, look))
            )  # fmt: skip
            lines.append(_("Your picks: {icons}").format(icons=triple(view.picks)))
            rows = _icon_rows(room, look, "gpick", view.picks)
            if view.can_redraw:
                rows.append(
                    [look.button(_("🔄 Replace three icons"), "gsel", room.chat_id, rnd.no,
                                 REDRAW_MODE, room.game_id, *topic_field(room))]  # fmt: skip
                )
    elif rnd.clue is not None and rnd.active == index:
        lines.append(
            _("Your clue «{clue}» is given. Your icons: {icons}").format(
                clue=user_text(rnd.clue), icons=triple(list(rnd.picks))
            )
        )
    return message(
        room,
        chat_id=seat.user_id,
        key=dm_key(seat.user_id, rnd.no),
        text="\n".join(lines),
        buttons=rows,
        unreachable=(seat.user_id, rnd.no, Phase.CLUE.value),
    )


def _redraw_rows(room: Room, look: Look, selection: int) -> list[list[Button]]:
    """The board's buttons while choosing the three icons to replace: each press toggles its
    icon in the selection the buttons carry (three at most)."""
    rnd = state_of(room).round
    assert rnd is not None

    def button(position: int, name: str, number: int) -> Button:
        tick = "♻️ " if selection >> position & 1 else ""
        toggled = selection ^ (1 << position)
        if bin(toggled & 511).count("1") > 3:
            toggled = selection
        args = (room.chat_id, rnd.no, toggled, room.game_id, *topic_field(room))
        return look.button(f"{tick}{name} {shown(number)}", "gsel", *args)

    rows = _grid(room, button)
    where = (room.chat_id, rnd.no)
    last = [look.button(_("Cancel"), "gsel", *where, 0, room.game_id, *topic_field(room))]
    if bin(selection & 511).count("1") == 3:
        args = (*where, selection, room.game_id, *topic_field(room))
        last.insert(0, look.button(_("Replace"), "gredraw", *args))
    return [*rows, last]


@in_seat_language
def guesser_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A guesser's private message: the clue, the board as buttons, Confirm once three are
    picked; once confirmed, the guess as recorded."""
    state = state_of(room)
    view = seat_view(state, index)
    rnd = state.round
    assert rnd is not None
    seat = room.seats[index]
    who = names(room)
    lines = [
        _("{heading}: {name}'s clue is <b>«{clue}»</b>.").format(
            heading=heading(room, rnd.no, GAME.title),
            name=who[rnd.active],
            clue=user_text(rnd.clue or ""),
        )
    ]
    rows: list[list[Button]] = []
    guessing = state.phase is Phase.GUESS and index in state.guessers()
    if view.confirmed:
        lines.append(
            _("Your guess is recorded: {icons}. The answer comes in the group.").format(
                icons=triple(view.guess)
            )
        )
    elif guessing:
        lines.append(
            _("Pick one icon in each column, then confirm{left}. A confirmed guess is final.")
            .format(left=time_left(room, look))
        )  # fmt: skip
        lines.append(_("Your guess: {icons}").format(icons=triple(view.guess)))
        rows = _icon_rows(room, look, "gguess", view.guess)
        if all(i is not None for i in view.guess):
            rows.append(
                [look.button(_("✔️ Confirm"), "gok", room.chat_id, rnd.no, room.game_id,
                             *topic_field(room))]  # fmt: skip
            )
    else:
        lines.append(_("Guessing is over; you did not confirm a guess."))
    return message(
        room,
        chat_id=seat.user_id,
        key=dm_key(seat.user_id, rnd.no),
        text="\n".join(lines),
        buttons=rows,
        unreachable=(seat.user_id, rnd.no, Phase.GUESS.value),
    )


def waiting_prompt(room: Room, index: int, look: Look) -> Outgoing | None:
    """The private message the game waits on from a seat now, if any."""
    state = room.play
    if not isinstance(state, State):
        return None  # the lobby: nothing yet
    if state.seats[index].status is SeatStatus.SPECTATING:
        return spectator_dm(room, index, look)
    rnd = state.round
    if rnd is None or state.phase not in (Phase.CLUE, Phase.GUESS):
        return None
    if state.phase is Phase.CLUE and rnd.active == index:
        return active_dm(room, index, look)
    if state.phase is Phase.GUESS and index in state.guessers():
        return guesser_dm(room, index, look)
    return None


def where_it_stands(room: Room, user_id: int) -> str:
    """What a seated player is told in private when nothing waits for them."""
    state = room.play
    if not isinstance(state, State):
        return _(
            "You are connected to the game in <b>{group}</b>. When it starts, you pick your "
            "icons and your guesses here."
        ).format(group=title(room))
    return common.where_it_stands(room, state, user_id, lambda: _now(room, state))


def _now(room: Room, state: State) -> str:
    rnd = state.round
    assert rnd is not None
    if state.phase is Phase.CLUE:
        return _("{name} is choosing three icons and a clue.").format(name=names(room)[rnd.active])
    if state.phase is Phase.GUESS:
        return _("everybody else is guessing «{clue}».").format(clue=user_text(rnd.clue or ""))
    return _("the answer is in the group; the next round starts soon.")


@in_seat_language
def void_prompt(room: Room, index: int, round_no: int, reason: str) -> Outgoing:
    """The active player's prompt of a turn that passed without its clue."""
    if reason == "missed_clue":
        why = _("time ran out before your clue, so your turn passed.")
    elif reason == "skipped":
        why = _("your turn was skipped.")
    else:
        why = VOID_REASONS[reason].format(name=names(room)[index])
    return closed_with(room, index, round_no, why, GAME.title)


@in_seat_language
def spectator_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A sitting-out seat's private message with its way back."""
    return away_dm(room, index, look, _(
        "You missed two clues in a row in <b>{group}</b>, so you sit out for now. "
        "Press the button or send /back in the group to play again."
    ))  # fmt: skip


@in_group_language
def unreachable_notice(room: Room, index: int, look: Look) -> Outgoing:
    """Tell the group that a player must open a private chat with the bot."""
    return common.unreachable_notice(room, index, look, _(
        "I cannot write to {name} in private, so they miss this turn. {name}: open {link} and "
        "press Start, then the game can reach you."
    ))  # fmt: skip
