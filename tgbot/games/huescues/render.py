"""Hues and Cues' messages: the board of a round (a picture, edited as the round goes), the
reveal (the board with every cone and the frame) and the points in the group; the cue giver's
card and cues and the guessers' cones in private.

Every message of this game carries its board picture, whatever the pictures setting says
(SPEC 13: the game cannot be played without it); its text says the same facts.
"""

from __future__ import annotations

from typing import Any

from engine.games.huescues import board
from engine.games.huescues.events import GuessClosed, RoundVoided, SecondCueSkipped
from engine.games.huescues.model import GUESS_PHASES, Phase, State
from engine.games.huescues.scoring import cone_points
from engine.games.huescues.table import GAME, state_of
from engine.games.huescues.views import group_view, seat_view
from engine.model import Phase as TablePhase
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import MAX_CAPTION, Button, Outgoing, caption_length, dm_key
from tgbot.games import common
from tgbot.games.huescues.picture_parts import Cone
from tgbot.games.huescues.pictures import HuesBoardPicture, HuesCardPicture, HuesCloseupPicture
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
from tgbot.table.render.group import listed, standings_lines
from tgbot.table.render.private import CLOSED_REASONS, away_dm, closed_with, heading

ROWS_VIEW = 99
"""The row a `hrow` button names to show the rows again (a row of the board is 0–15)."""
ROW_BUTTONS = 4
"""Row letters per keyboard line."""
COLUMN_BUTTONS = 6
"""Column numbers per keyboard line."""

VOID_REASONS = Texts({
    "missed_cue": N_("{name} did not give a cue in time."),
    "skipped": N_("{name}'s round was skipped."),
    "giver_left": N_("{name} left the game."),
    "unreachable": N_("{name} could not be reached in private."),
})
NO_SECOND = Texts({
    "declined": N_("{name} gives no second cue."),
    "timeout": N_("{name} gave no second cue in time."),
    "skipped": N_("The second cue was skipped."),
    "giver_left": N_("{name} left: no second cue."),
    "unreachable": N_("{name} could not be reached in private: no second cue."),
    "no_guessers": N_("Nobody is left to guess: no second cue."),
})


def board_key(round_no: int) -> str:
    """The key of a round's board message in the group."""
    return f"board:{round_no}"


def cell_name(cell: int | None) -> str:
    """A cell as players write it: `H15` (— for none)."""
    return board.name(cell) if cell is not None else "—"


def cones(first: dict[int, int], second: dict[int, int] | None = None) -> list[Cone]:
    """The cones to draw, numbered by seat (1-based)."""
    drawn = [Cone(cell=cell, seat=seat + 1) for seat, cell in sorted(first.items())]
    drawn += [Cone(cell=cell, seat=seat + 1, second=True)
              for seat, cell in sorted((second or {}).items())]  # fmt: skip
    return drawn


def cues_text(cues: list[str]) -> str:
    """The cues of a round: «pig» · «candy floss»."""
    return " · ".join(f"«{user_text(cue)}»" for cue in cues)


def legend(who: list[str], cones: dict[int, int]) -> str:
    """Who each numbered cone is, and where: "1 Ann D16 · 3 Bo E17"."""
    return " · ".join(f"{i + 1} {who[i]} {board.name(cell)}" for i, cell in sorted(cones.items()))


def first_cones_line(who: list[str], cones: dict[int, int]) -> str:
    """The first cones a picture shows, in words."""
    return _("First cones: {legend}").format(legend=legend(who, cones))


def cues_line(cues: list[str]) -> str:
    """"Cue: «pig»", or "Cues: «pig» · «candy floss»"."""
    return ngettext("Cue: {cues}", "Cues: {cues}", len(cues)).format(cues=cues_text(cues))


def giver_cues(name: str, cues: list[str]) -> str:
    """"Eve's cue: «pig»", or "Eve's cues: «pig» · «candy floss»"."""
    return ngettext("{name}'s cue: {cues}", "{name}'s cues: {cues}", len(cues)).format(
        name=name, cues=cues_text(cues))  # fmt: skip


SHORT_NAME = 12
"""How long a name may be on a board message that would not fit a caption with whole names."""


@in_group_language
def board_message(room: Room, look: Look) -> Outgoing:
    """A round's group message: the board (with the first cones once shown), the cue giver,
    the cues, who has placed a cone (never where) and the time left. Its text is the photo's
    caption: when ten long names would not fit one, the cones' legend and the tie go (the
    reveal and the tie-break notice say them), then names are shortened."""
    state = state_of(room)
    view = group_view(state)
    rnd = state.round
    assert rnd is not None
    short = [user_text(seat.name, SHORT_NAME) + f" #{i + 1}" for i, seat in enumerate(room.seats)]
    for who, full in ((names(room), True), (short, True), (short, False)):
        text = "\n".join(_board_lines(room, look, who, full))
        if caption_length(text) <= MAX_CAPTION:
            break
    picture = HuesBoardPicture(cones=cones(view.cones))
    watch = look.watch_button(room, _("👀 Watch the board"))
    return to_group(room, key=board_key(rnd.no), text=text, picture=picture,
                    buttons=[[watch]] if watch is not None else [])  # fmt: skip


def _board_lines(room: Room, look: Look, who: list[str], full: bool) -> list[str]:
    state = state_of(room)
    view = group_view(state)
    rnd = state.round
    assert rnd is not None
    giver = who[rnd.giver]
    lines = [_("<b>Hues and Cues</b> · round {n} · cues by {name}").format(n=rnd.no, name=giver)
             + (" · " + _("tie-break {k} of 3").format(k=rnd.extra) if rnd.extra else "")]
    if rnd.extra and full:
        lines.append(_("Tied at the top: {names}. Only they guess and score.").format(
            names=listed([who[i] for i in rnd.tied])))  # fmt: skip
    if state.phase is Phase.CUE:
        lines.append(_("{name} chooses a colour and gives a cue of one word in private{left}.")
                     .format(name=giver, left=time_left(room, look)))  # fmt: skip
    elif rnd.cues:  # none when the game ended before the first was given
        lines.append(cues_line(rnd.cues))
    if view.cones and full:
        lines.append(first_cones_line(who, view.cones))
    if state.phase in GUESS_PHASES:
        if state.phase is Phase.GUESS:
            what = _("Everybody else: place your cone in our private chat{left}.")
        else:
            what = _("Second cones, in our private chat{left}: never on a cell with a first "
                     "cone.")  # fmt: skip
        lines.append(what.format(left=time_left(room, look)))
        if view.placed:
            lines.append(_("Placed: {names}.").format(names=listed([who[i] for i in view.placed])))
        if view.waiting_for:
            lines.append(
                _("Waiting for {names}.").format(names=listed([who[i] for i in view.waiting_for]))
            )
    elif state.phase is Phase.SECOND_CUE:
        lines.append(_("{name} may give a second cue of one or two words{left}.").format(
            name=giver, left=time_left(room, look)))  # fmt: skip
    elif rnd.points is not None:
        if rnd.second_skipped and len(rnd.cues) == 1:
            lines.append(_("No second cue this round."))
        lines.append(_("Guessing is over: the colour is below."))
    elif room.phase is TablePhase.ABANDONED:
        lines.append(_("The game ended during this round."))
    return lines


@in_group_language
def void_message(room: Room, round_no: int, giver: int, reason: str) -> Outgoing:
    """A round that passed without a cue: its board message says why."""
    name = names(room)[giver]
    lines = [
        _("<b>Hues and Cues</b> · round {n} · cues by {name}").format(n=round_no, name=name),
        VOID_REASONS[reason].format(name=name) + " " + _("The round is void."),
    ]
    return to_group(room, key=board_key(round_no), text="\n".join(lines),
                    picture=HuesBoardPicture())  # fmt: skip


def _cone_text(colour: int, cell: int) -> str:
    return _("{cell} +{n}").format(cell=board.name(cell), n=cone_points(colour, cell))


@in_group_language
def reveal(room: Room, look: Look) -> Outgoing:
    """The reveal: the board with every cone and the colour's frame; the colour, the cues and
    each guesser's cones with what they scored."""
    state = state_of(room)
    rnd = state.round
    assert rnd is not None and rnd.points is not None and rnd.colour is not None
    who = names(room)
    lines = [
        _("🎯 <b>Round {n}: the colour was {cell}</b>").format(
            n=rnd.no, cell=board.name(rnd.colour)
        ),
        giver_cues(who[rnd.giver], rnd.cues),
        "",
    ]
    seats = sorted({*rnd.cones, *rnd.second_cones, *state.guessers()})
    for seat in seats:
        placed = [_cone_text(rnd.colour, c) for c in
                  (rnd.cones.get(seat), rnd.second_cones.get(seat)) if c is not None]  # fmt: skip
        lines.append(_("{number}. {name}: {cones}").format(
            number=seat + 1, name=who[seat],
            cones=" · ".join(placed) if placed else _("no cone")))  # fmt: skip
    picture = HuesBoardPicture(cones=cones(rnd.cones, rnd.second_cones), frame=rnd.colour)
    return to_group(room, key=f"reveal:{rnd.no}", text="\n".join(lines), picture=picture)


@in_group_language
def points_message(room: Room, look: Look, settled: bool = False) -> Outgoing:
    """The round's points, the standings, and when the next round starts."""
    state = state_of(room)
    rnd = state.round
    assert rnd is not None and rnd.points is not None
    who = names(room)
    gained = [f"{who[i]} +{n}" for i, n in sorted(rnd.points.items()) if n]
    lines = [
        _("<b>Points of round {n}</b>").format(n=rnd.no),
        ", ".join(gained) if gained else _("No points this round."),
    ]
    guessing = [i for i in rnd.participants
                if i != rnd.giver and state.seats[i].status is not SeatStatus.LEFT]  # fmt: skip
    if rnd.giver_scores and len(guessing) == 2:
        lines.append(_("Two guessers: the cue giver scores double (at most 9)."))
    if rnd.exact:
        lines.append(_("Right on the colour: {names}.").format(
            names=listed([who[i] for i in sorted(set(rnd.exact))])))  # fmt: skip
    lines += ["", standings_text(room)]
    if not settled and state.phase is Phase.REVEAL and state.deadline is not None:
        pause = state.deadline - (look.now if look.now is not None else state.phase_at)
        lines.append(_("The next round starts by itself in {time}.").format(time=duration(pause)))
    return to_group(room, key=f"points:{rnd.no}", text="\n".join(lines))


def skip_notice(room: Room, events: list[Any], by: str) -> str | None:
    """What /skip did, for the group: whose cue or guess `by` skipped (the board message it
    changed may be far up). A skipped reveal says nothing: the next round follows."""
    who = names(room)
    rnd = state_of(room).round
    for event in events:
        if isinstance(event, RoundVoided) and event.reason == "skipped":
            return _("{by} skipped {name}'s cue: the round is void.").format(
                by=by, name=who[event.giver])  # fmt: skip
        if isinstance(event, GuessClosed):
            seats = sorted([*event.unconfirmed, *event.missing])
            text = ngettext("{by} skipped {names}'s guess.", "{by} skipped the guesses of {names}.",
                            len(seats)).format(by=by, names=listed([who[i] for i in seats]))
            if event.unconfirmed:
                text += " " + ngettext(
                    "The cell {names} chose counts as their cone.",
                    "The cells {names} chose count as their cones.", len(event.unconfirmed),
                ).format(names=listed([who[i] for i in event.unconfirmed]))  # fmt: skip
            return text
        if isinstance(event, SecondCueSkipped) and event.reason == "skipped" and rnd is not None:
            return _("{by} skipped {name}'s second cue.").format(by=by, name=who[rnd.giver])
    return None


@in_group_language
def tie_break_notice(room: Room, tied: list[int], extra: int) -> Outgoing:
    """The top total is tied: an extra round follows."""
    who = names(room)
    return to_group(room, text=_(
        "⚖️ {names} are tied at the top. Tie-break round {k} of 3: only they guess and score."
    ).format(names=listed([who[i] for i in tied]), k=extra))  # fmt: skip


def standings_text(room: Room) -> str:
    """Standings with points and exact hits; tied seats share their rank."""
    state = state_of(room)

    def figures(index: int) -> str:
        seat = state.seats[index]
        return " · ".join([
            ngettext("{n} point", "{n} points", seat.score).format(n=seat.score),
            ngettext("{n} exact hit", "{n} exact hits", seat.exact).format(n=seat.exact),
        ])  # fmt: skip

    return standings_lines(room, group_view(state).standings, figures)


def prompt_key(user_id: int, round_no: int, second: bool) -> str:
    """The key of a seat's private prompt of a round: the first cue or guess, or (`second`) the
    second cue or guess, a message of its own below the first."""
    return dm_key(user_id, round_no) + (":2" if second else "")


def second_reached(state: State) -> bool:
    """Whether the round went past its first guess (the second cue's moment came)."""
    rnd = state.round
    return rnd is not None and (
        state.phase in (Phase.SECOND_CUE, Phase.SECOND_GUESS)
        or rnd.second_skipped
        or len(rnd.cues) == 2
        or (state.phase is Phase.REVEAL and rnd.points is not None)
    )


def _private(room: Room, index: int, rnd_no: int, phase: Phase, **fields: object) -> Outgoing:
    seat = room.seats[index]
    second = phase in (Phase.SECOND_CUE, Phase.SECOND_GUESS)
    return message(room, chat_id=seat.user_id, key=prompt_key(seat.user_id, rnd_no, second),
                   unreachable=(seat.user_id, rnd_no, phase.value), **fields)  # fmt: skip


@in_seat_language
def closed(room: Room, index: int, round_no: int, reason: str, second: bool) -> Outgoing:
    """A seat's prompt of a round whose moment is over (`reason`: left, ended), without its
    buttons: the first one, or the second cue's or guess's."""
    seat = room.seats[index]
    text = _("{heading}: {why}").format(heading=heading(room, round_no, GAME.title),
                                        why=CLOSED_REASONS[reason])  # fmt: skip
    return message(room, chat_id=seat.user_id, key=prompt_key(seat.user_id, round_no, second),
                   text=text)  # fmt: skip


def _args(room: Room, round_no: int, *fields: int) -> tuple[int, ...]:
    return (room.chat_id, round_no, *fields, room.game_id, *topic_field(room))


def rows_keyboard(room: Room, look: Look, round_no: int) -> list[list[Button]]:
    """Rows A–P: the first step of choosing a cell by buttons."""
    buttons = [look.button(letter, "hrow", *_args(room, round_no, row))
               for row, letter in enumerate(board.ROWS)]  # fmt: skip
    return [buttons[i : i + ROW_BUTTONS] for i in range(0, len(buttons), ROW_BUTTONS)]


def columns_keyboard(room: Room, look: Look, round_no: int, row: int, kind: str,
                     taken: set[int]) -> list[list[Button]]:  # fmt: skip
    """Columns 1–30 of one row (`kind`: the button that chooses the cell), and the way back to
    the rows; cells in `taken` (a first cone's) are marked."""
    buttons = []
    for column in range(board.COLUMNS):
        cell = board.at(row, column)
        mark = "·" if cell in taken else ""
        buttons.append(look.button(f"{mark}{board.name(cell)}", kind, *_args(room, round_no, cell)))
    rows = [buttons[i : i + COLUMN_BUTTONS] for i in range(0, len(buttons), COLUMN_BUTTONS)]
    rows.append([look.button(_("◀ Rows"), "hrow", *_args(room, round_no, ROWS_VIEW))])
    return rows


def app_row(room: Room, look: Look) -> list[list[Button]]:
    """The button opening the board app, on a prompt that asks for a cell (none when the host
    gave the app no address)."""
    button = look.app_button(room, _("🎨 Open the board"))
    return [[button]] if button is not None else []


def _colour_label(number: int, cell: int, chosen: int | None) -> str:
    """A card's colour on its button: "✅ 2 · H15" once chosen."""
    return ("✅ " if cell == chosen else "") + f"{number} · {board.name(cell)}"


def _choice_help() -> str:
    return _("Type a cell like H15, or choose its row, then its column.")


@in_seat_language
def giver_dm(room: Room, index: int, look: Look, row: int | None = None,
             fresh: bool = False, app: bool = False) -> Outgoing:  # fmt: skip
    """The cue giver's private message: its card's four colours (or, with free choice, any
    cell), then its cue; after the first guess, the board with the first cones and its colour
    framed, for a second cue or none."""
    state = state_of(room)
    view = seat_view(state, index)
    rnd = state.round
    assert rnd is not None
    head = heading(room, rnd.no, GAME.title)
    left = time_left(room, look)
    rows: list[list[Button]] = []
    picture: HuesBoardPicture | HuesCardPicture | HuesCloseupPicture
    shown = cones(view.first_cones)
    present = room.seats[index].status is not SeatStatus.LEFT
    if state.phase is Phase.CUE and present:
        lines = [_("{heading}: you give the cues.").format(heading=head)]
        if not view.free_choice:
            lines.append(_("Choose one of your card's four colours{left}, then send a cue of one "
                           "word here.").format(left=left))  # fmt: skip
            picture = HuesCardPicture(cells=view.card)
            rows = [[look.button(_colour_label(n, cell, view.colour), "hcol",
                                 *_args(room, rnd.no, cell))
                     for n, cell in enumerate(view.card[k: k + 2], start=k + 1)]
                    for k in (0, 2)]  # fmt: skip
        elif view.colour is not None and row is None:
            lines.append(_("Your colour: {cell}. Send a cue of one word here{left}, or change "
                           "the colour.").format(cell=cell_name(view.colour), left=left))
            picture = HuesCloseupPicture(cell=view.colour)
            rows = [[look.button(_("↩️ Change"), "hrow", *_args(room, rnd.no, ROWS_VIEW))]]
        else:
            lines.append(_("Choose any colour of the board{left}.").format(left=left))
            if not app:
                lines.append(_choice_help())
            picture = HuesBoardPicture()
            rows = (columns_keyboard(room, look, rnd.no, row, "hcol", set())
                    if row is not None and row < len(board.ROWS)
                    else rows_keyboard(room, look, rnd.no))  # fmt: skip
        if view.colour is not None and not view.free_choice:
            lines.append(_("Your colour: {cell}.").format(cell=board.name(view.colour)))
        lines.append(_("Not allowed: basic colour words, a row letter A–P, a number 1–30, a cell "
                       "name, a cue given before."))  # fmt: skip
        if view.free_choice:
            rows = app_row(room, look) + rows
        return _private(room, index, rnd.no, Phase.CUE, text="\n".join(lines), buttons=rows,
                        picture=picture, fresh=fresh)  # fmt: skip
    colour = cell_name(view.colour)
    if state.phase is Phase.SECOND_CUE and present:
        lines = [
            _("{heading}: the first cones are down; your colour {cell} is framed.").format(
                heading=head, cell=colour),
            *([first_cones_line(names(room), view.first_cones)] if view.first_cones else []),
            _("Send a second cue of one or two words here{left}, or give none.").format(left=left),
        ]  # fmt: skip
        rows = [[look.button(_("🚫 No second cue"), "hno", *_args(room, rnd.no))]]
        picture = HuesBoardPicture(cones=shown, frame=view.colour)
        return _private(room, index, rnd.no, Phase.SECOND_CUE, text="\n".join(lines),
                        buttons=rows, picture=picture, fresh=fresh)  # fmt: skip
    count = len(rnd.cues)
    if not rnd.cues:
        text = _("{heading}: the round is over.")
    elif state.phase is Phase.REVEAL or rnd.points is not None:
        text = ngettext("{heading}: your cue {cues} for {cell}. The reveal is in the group.",
                        "{heading}: your cues {cues} for {cell}. The reveal is in the group.",
                        count)  # fmt: skip
    else:
        text = ngettext("{heading}: your cue {cues} for {cell}. The others are placing cones.",
                        "{heading}: your cues {cues} for {cell}. The others are placing cones.",
                        count)  # fmt: skip
    text = text.format(heading=head, cues=cues_text(rnd.cues), cell=colour)
    if view.first_cones:
        text += "\n" + first_cones_line(names(room), view.first_cones)
    if second_reached(state):
        picture = HuesBoardPicture(cones=shown, frame=view.colour)
    elif view.free_choice and view.colour is not None:
        picture = HuesCloseupPicture(cell=view.colour)
    elif view.card:
        picture = HuesCardPicture(cells=view.card)
    else:
        picture = HuesBoardPicture()
    phase = Phase.SECOND_CUE if second_reached(state) else Phase.CUE
    return _private(room, index, rnd.no, phase, text=text, picture=picture, fresh=fresh)


@in_seat_language
def guesser_dm(room: Room, index: int, look: Look, row: int | None = None,
               fresh: bool = False, unconfirmed: bool = False, app: bool = False
               ) -> Outgoing:  # fmt: skip
    """A guesser's private message: the board and the cue; a cell typed or chosen by row and
    column comes back as a close-up with Confirm / Change; once confirmed, the cone as placed
    (`unconfirmed`: the guess closed before this seat confirmed its chosen cell)."""
    state = state_of(room)
    view = seat_view(state, index)
    rnd = state.round
    assert rnd is not None
    who = names(room)
    second = len(rnd.cues) == 2
    lines = [_("{heading}: {cues}").format(heading=heading(room, rnd.no, GAME.title),
                                           cues=giver_cues(who[rnd.giver], rnd.cues))]  # fmt: skip
    if view.first_cones:
        lines.append(first_cones_line(who, view.first_cones))
    rows: list[list[Button]] = []
    shown = cones(view.first_cones)
    picture: HuesBoardPicture | HuesCloseupPicture = HuesBoardPicture(cones=shown)
    guessing = state.phase in GUESS_PHASES and index in state.guessers()
    phase = Phase.SECOND_GUESS if second else Phase.GUESS
    if guessing and view.confirmed:
        placed = view.second_cone if state.phase is Phase.SECOND_GUESS else view.cone
        assert placed is not None
        lines.append(_("Your cone is on {cell}: final. The colour comes in the group.").format(
            cell=board.name(placed)))  # fmt: skip
        picture = HuesCloseupPicture(cell=placed, cones=shown)
    elif guessing and view.choice is not None and row is None:
        lines.append(_("You chose {cell}. Confirm it, or change it{left}.").format(
            cell=board.name(view.choice), left=time_left(room, look)))  # fmt: skip
        picture = HuesCloseupPicture(cell=view.choice, cones=shown)
        rows = [[
            look.button(_("✔️ Confirm"), "hok", *_args(room, rnd.no)),
            look.button(_("↩️ Change"), "hrow", *_args(room, rnd.no, ROWS_VIEW)),
        ], *app_row(room, look)]  # fmt: skip
    elif guessing:
        if state.phase is Phase.SECOND_GUESS:
            lines.append(_("Place your second cone{left}: not on a cell with a first cone.")
                         .format(left=time_left(room, look)))  # fmt: skip
        else:
            lines.append(_("Place your cone{left}.").format(left=time_left(room, look)))
        if app:  # the board app: a tap on the board, not the chat's ways
            return _private(room, index, rnd.no, phase, text="\n".join(lines))
        lines.append(_choice_help())
        taken = set(view.first_cones.values()) if state.phase is Phase.SECOND_GUESS else set()
        if row is not None and row < len(board.ROWS):
            lines.append(_("Row {row}: choose the column.").format(row=board.ROWS[row]))
            rows = columns_keyboard(room, look, rnd.no, row, "hcel", taken)
        else:
            rows = app_row(room, look) + rows_keyboard(room, look, rnd.no)
    else:
        placed = [c for c in (view.cone, view.second_cone) if c is not None]
        if unconfirmed:
            lines.append(_("The guess closed before you confirmed: the cell you chose counts "
                           "as your cone."))  # fmt: skip
        if placed:
            lines.append(_("Your cones: {cells}. The colour comes in the group.").format(
                cells=", ".join(board.name(c) for c in placed)))  # fmt: skip
        else:
            lines.append(_("This guess is over; you placed no cone."))
    return _private(room, index, rnd.no, phase, text="\n".join(lines), buttons=rows,
                    picture=picture, fresh=fresh)  # fmt: skip


def waiting_prompt(room: Room, index: int, look: Look) -> Outgoing | None:
    """The private message the game waits on from a seat now, if any."""
    state = room.play
    if not isinstance(state, State):
        return None  # the lobby: nothing yet
    if state.seats[index].status is SeatStatus.SPECTATING:
        return spectator_dm(room, index, look)
    rnd = state.round
    if rnd is None or index not in state.waiting_for():
        return None
    if index == rnd.giver:
        return giver_dm(room, index, look)
    return guesser_dm(room, index, look)


def where_it_stands(room: Room, user_id: int) -> str:
    """What a seated player is told in private when nothing waits for them."""
    state = room.play
    if not isinstance(state, State):
        return _(
            "You are connected to the game in <b>{group}</b>. When it starts, you give your cues "
            "and place your cones here."
        ).format(group=title(room))
    return common.where_it_stands(room, state, user_id, lambda: _now(room, state))


def _now(room: Room, state: State) -> str:
    rnd = state.round
    assert rnd is not None
    if state.phase in (Phase.CUE, Phase.SECOND_CUE):
        return _("{name} is giving a cue.").format(name=names(room)[rnd.giver])
    if state.phase in GUESS_PHASES:
        return _("the others are placing their cones.")
    return _("the colour is in the group; the next round starts soon.")


@in_seat_language
def void_prompt(room: Room, index: int, round_no: int, reason: str) -> Outgoing:
    """The cue giver's prompt of a round that passed without its cue."""
    if reason == "missed_cue":
        why = _("time ran out before your cue, so your round passed.")
    elif reason == "skipped":
        why = _("your round was skipped.")
    else:
        why = VOID_REASONS[reason].format(name=names(room)[index])
    return closed_with(room, index, round_no, why, GAME.title)


@in_seat_language
def spectator_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A sitting-out seat's private message with its way back."""
    return away_dm(room, index, look, _(
        "You missed two cues in a row in <b>{group}</b>, so you sit out for now. "
        "Press the button or send /back in the group to play again."
    ))  # fmt: skip


@in_group_language
def unreachable_notice(room: Room, index: int, look: Look) -> Outgoing:
    """Tell the group that a player must open a private chat with the bot."""
    return common.unreachable_notice(room, index, look, _(
        "I cannot write to {name} in private, so they miss this part of the round. {name}: open "
        "{link} and press Start, then the game can reach you."
    ))  # fmt: skip
