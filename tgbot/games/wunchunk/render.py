"""Wunchunk's messages: the board in the group (one picture, edited once per turn, its caption
saying whose turn it is, how many stones it may place, each seat's chunks and crumbs and the
time left), the seat on turn's private message (the board with its pending stones, typed cells
or colour, row and place buttons, Undo and End turn), and the end.

Every message of this game carries its board picture, whatever the pictures setting says
(SPEC 13: the game cannot be played without it); its caption says the same facts in words.
"""

from __future__ import annotations

from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.board import Cell
from engine.games.wunchunk.events import TurnPassed
from engine.games.wunchunk.model import Phase, State
from engine.games.wunchunk.table import state_of
from engine.games.wunchunk.typed import COLOURS
from engine.games.wunchunk.views import SeatView, group_view, seat_view
from engine.model import Phase as TablePhase
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import MAX_CAPTION, Button, Outgoing, caption_length, dm_key
from tgbot.games import common
from tgbot.games.wunchunk.pictures import Stone, WunchunkBoardPicture
from tgbot.i18n import N_, Texts, _, ngettext
from tgbot.table.render.common import (
    Look,
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
from tgbot.table.render.private import away_dm

BOARD_KEY = "wboard"
"""The key of the game's one board message in the group (edited turn after turn)."""
ROWS_VIEW = 99
"""The row a `wrow` button names to show the rows again (a row of the board is 0–14)."""
ROW_BUTTONS = 5
"""Row letters per keyboard line."""
PLACE_BUTTONS = 5
"""Places per keyboard line."""
SHORT_NAME = 12
"""How long a name may be in a caption that would not fit with whole names."""

DOTS = ("🔴", "🔵", "🟢", "🟡")
"""Each seat's colour as a dot, in texts and on buttons (the pictures draw the same colours)."""
COLOUR_NAMES = Texts(
    {
        "red": N_("red"),
        "blue": N_("blue"),
        "green": N_("green"),
        "yellow": N_("yellow"),
    }
)
END_REASONS = Texts(
    {
        "board_full": N_("The board is full: the game is over."),
        "all_passed": N_("Everybody passed one after another: the game is over."),
    }
)


def colour_label(colour: int) -> str:
    """A colour as players read it: "🔵 2 blue"."""
    return f"{DOTS[colour]} {colour + 1} {COLOUR_NAMES[COLOURS[colour]]}"


def stone_names(stones: list[tuple[Cell, int]], n: int, colour: int | None = None) -> str:
    """Stones as cells, each with its colour's dot unless it is `colour`: "g5, g6, 🔵f7"."""
    return ", ".join(
        ("" if c == colour else DOTS[c]) + hexes.cell_name(cell, n) for cell, c in stones
    )


def picture(view: SeatView | None, state: State) -> WunchunkBoardPicture:
    """The board as a seat (with its pending stones) or the group sees it."""
    last = {cell for cell, _ in state.last_stones()}
    stones = [Stone(cell=cell, colour=colour, mark="last" if cell in last else "")
              for cell, colour in state.stones().items()]  # fmt: skip
    if view is not None:
        stones += [Stone(cell=cell, colour=colour, mark="pending") for cell, colour in view.pending]
    return WunchunkBoardPicture(size=state.size, stones=stones)


def score_text(groups: list[int]) -> str:
    """A seat's score list as players read it: "2 chunks · 1 crumb · groups 1/2/0"."""
    chunks = groups[0] if groups else 0
    crumbs = groups[1] if len(groups) > 1 else 0
    return " · ".join([
        ngettext("{n} chunk", "{n} chunks", chunks).format(n=chunks),
        ngettext("{n} crumb", "{n} crumbs", crumbs).format(n=crumbs),
    ])  # fmt: skip


def score_list(groups: list[int]) -> str:
    """The whole list the SPEC compares, left to right: "(2; 1, 3, 0, 1)"."""
    chunks, *sizes = groups or [0]
    return f"({chunks}; {', '.join(map(str, sizes))})" if sizes else f"({chunks})"


@in_group_language
def board_message(room: Room, look: Look) -> Outgoing:
    """The game's board message in the group: the board with the last turn's stones marked;
    whose turn it is, how many stones it may place and the time left; each seat's chunks and
    crumbs. Names are shortened when ten long ones would not fit a caption."""
    state = state_of(room)
    short = [user_text(seat.name, SHORT_NAME) for seat in room.seats]
    for who in (names(room), short):
        text = "\n".join(_board_lines(room, state, look, who))
        if caption_length(text) <= MAX_CAPTION:
            break
    watch = look.watch_button(room, _("👀 Watch the board")) if state.phase is Phase.TURN else None
    return to_group(room, key=BOARD_KEY, text=text, picture=picture(None, state),
                    buttons=[[watch]] if watch is not None else [])  # fmt: skip


def _board_lines(room: Room, state: State, look: Look, who: list[str]) -> list[str]:
    view = group_view(state)
    n = state.size
    lines = [_("<b>Wunchunk</b> · turn {n} · board of {size}").format(
        n=view.round_no or 1, size=n)]  # fmt: skip
    for line in view.seats:
        status = {SeatStatus.LEFT: _(" (left)"), SeatStatus.SPECTATING: _(" (sitting out)")}.get(
            line.status, "")  # fmt: skip
        lines.append(f"{DOTS[line.index]} {line.index + 1} {who[line.index]}{status}: "
                     + score_text(line.groups))  # fmt: skip
    if state.passed:
        lines.append(_("Passed in a row: {names}.").format(
            names=listed([who[i] for i in state.passed])))  # fmt: skip
    elif view.last:
        lines.append(_("Last stones: {stones}.").format(stones=stone_names(view.last, n)))
    if view.turn is not None:
        turn = view.turn
        if view.allotment:
            lines.append(ngettext(
                "{dot} {name} plays: up to {n} stone, of any colour{left}.",
                "{dot} {name} plays: up to {n} stones, of any colours{left}.", view.allotment,
            ).format(dot=DOTS[turn], name=who[turn], n=view.allotment,
                     left=time_left(room, look)))  # fmt: skip
        else:
            lines.append(_("{dot} {name} has no chunk, so places no stone: a pass{left}.").format(
                dot=DOTS[turn], name=who[turn], left=time_left(room, look)))  # fmt: skip
        if view.balancing:
            lines.append(_("Balancing rule: this turn may not end with more {dot} chunks than it "
                           "began with.").format(dot=DOTS[turn]))  # fmt: skip
    elif state.phase in (Phase.REVEAL, Phase.FINISHED) and state.end_reason in END_REASONS:
        lines.append(END_REASONS[state.end_reason])
    elif room.phase is TablePhase.ABANDONED or state.phase is Phase.ABANDONED:
        lines.append(_("The game ended."))
    return lines


def standings_text(room: Room) -> str:
    """Standings by the score lists (fewest chunks first); tied seats share their rank."""
    state = state_of(room)
    view = group_view(state)

    def figures(index: int) -> str:
        groups = state.seats[index].groups
        return f"{DOTS[index]} " + score_text(groups) + " " + score_list(groups)

    legend = _("Score lists: (chunks; groups of 1, of 2, of 3…), the smallest first.")
    return standings_lines(room, view.standings, figures) + "\n" + legend


def heading(room: Room, round_no: int) -> str:
    """ "Wunchunk · Turn 7 in <group>": the start of every private message of a turn."""
    return _("<b>Wunchunk · Turn {n}</b> in <b>{group}</b>").format(n=round_no, group=title(room))


def _args(room: Room, round_no: int, *fields: int) -> tuple[int, ...]:
    return (room.chat_id, round_no, *fields, room.game_id, *topic_field(room))


def _private(room: Room, index: int, round_no: int, **fields: object) -> Outgoing:
    seat = room.seats[index]
    return message(room, chat_id=seat.user_id, key=dm_key(seat.user_id, round_no),
                   unreachable=(seat.user_id, round_no, Phase.TURN.value), **fields)  # fmt: skip


def colours_row(room: Room, look: Look, round_no: int, colour: int, row: int) -> list[Button]:
    """One button per seat's colour: the one stones go in now is ticked."""
    return [
        look.button(("✅ " if c == colour else "") + f"{DOTS[c]} {c + 1}", "wcol",
                    *_args(room, round_no, c, row))
        for c in range(len(room.seats))
    ]  # fmt: skip


def rows_keyboard(room: Room, look: Look, round_no: int, n: int, colour: int,
                  free: set[int]) -> list[list[Button]]:  # fmt: skip
    """The rows that still have an empty cell, by letter: the first step of a stone."""
    geometry = hexes.geometry(n)
    buttons = [
        look.button(hexes.LETTERS[row], "wrow", *_args(room, round_no, colour, row))
        for row, numbers in enumerate(geometry.rows)
        if any(number in free for number in numbers)
    ]
    return [buttons[i : i + ROW_BUTTONS] for i in range(0, len(buttons), ROW_BUTTONS)]


def places_keyboard(room: Room, look: Look, round_no: int, n: int, colour: int, row: int,
                    free: set[int]) -> list[list[Button]]:  # fmt: skip
    """The empty cells of one row, by name (a press places a stone there), and the way back."""
    geometry = hexes.geometry(n)
    buttons = [
        look.button(geometry.names[number], "wput", *_args(room, round_no, colour, number))
        for number in geometry.rows[row]
        if number in free
    ]
    rows = [buttons[i : i + PLACE_BUTTONS] for i in range(0, len(buttons), PLACE_BUTTONS)]
    rows.append([look.button(_("◀ Rows"), "wrow", *_args(room, round_no, colour, ROWS_VIEW))])
    return rows


def free_cells(state: State) -> set[int]:
    """The numbers of the cells with neither a stone nor a pending one."""
    pending = {number for number, _ in state.round.pending} if state.round else set()
    return {i for i, c in enumerate(state.board) if c == "." and i not in pending}


@in_seat_language
def turn_dm(room: Room, index: int, look: Look, colour: int | None = None,
            row: int | None = None, fresh: bool = False, app: bool = False
            ) -> Outgoing:  # fmt: skip
    """The seat on turn's private message: the board with its pending stones, how many it may
    still place, and its ways to place them: typed cells, or a colour, a row and a place; Undo,
    End turn (or Pass). Once its turn is over, what it did, without buttons. `app`: its text
    as the board app shows it, without the ways to place stones in the chat."""
    state = state_of(room)
    view = seat_view(state, index)
    rnd = state.round
    assert rnd is not None
    n = state.size
    head = heading(room, rnd.no)
    own = index if colour is None else colour
    if view.turn != index or room.seats[index].status is SeatStatus.LEFT:
        return turn_closed(room, index, rnd.no, _("this turn is over."))
    placed = len(view.pending)
    left = view.allotment - placed
    lines = [_("{heading}: your turn. Your colour: {colour}.").format(
        heading=head, colour=colour_label(index))]  # fmt: skip
    if view.allotment == 0:
        lines.append(_("Your colour has no chunk, so you place no stone this turn: press Pass."))
    else:
        lines.append(ngettext(
            "Place up to {n} stone, of any colour{left}.",
            "Place up to {n} stones, of any colours{left}.", view.allotment,
        ).format(n=view.allotment, left=time_left(room, look)))  # fmt: skip
    if view.pending:
        lines.append(_("Placed so far: {stones} ({k} of {n}).").format(
            stones=stone_names(view.pending, n, index), k=placed, n=view.allotment))  # fmt: skip
    if view.balancing:
        lines.append(_("Balancing rule: your turn may not end with more chunks of your colour "
                       "than it began with ({n}).").format(n=rnd.chunks_before))  # fmt: skip
    rows: list[list[Button]] = []
    if left > 0 and app:
        return _private(room, index, rnd.no, text="\n".join(lines))
    if left > 0:
        lines.append(_("Type cells like {example}, a colour's number before a cell for its "
                       "stone ({other}), or use the buttons: colour, row, place.").format(
            example=_examples(state), other=_other_example(state, index)))  # fmt: skip
        if len(room.seats) > 1:
            rows.append(colours_row(room, look, rnd.no, own, row if row is not None else ROWS_VIEW))
        free = free_cells(state)
        if row is not None and row != ROWS_VIEW and 0 <= row < 2 * n - 1:
            lines.append(_("Row {row}, stone {dot}: choose the place.").format(
                row=hexes.LETTERS[row], dot=DOTS[own]))  # fmt: skip
            rows += places_keyboard(room, look, rnd.no, n, own, row, free)
        else:
            lines.append(_("Stone {dot}: choose the row.").format(dot=DOTS[own]))
            rows += rows_keyboard(room, look, rnd.no, n, own, free)
    opening = look.app_button(room, _("🖐 Open the board"))
    if opening is not None and left > 0:
        rows.insert(0, [opening])
    actions = []
    if view.pending:
        actions.append(look.button(_("↩️ Undo"), "wund", *_args(room, rnd.no)))
        actions.append(look.button(_("✅ End turn"), "wend", *_args(room, rnd.no)))
    else:
        actions.append(look.button(_("⏭ Pass"), "wend", *_args(room, rnd.no)))
    rows.append(actions)
    return _private(room, index, rnd.no, text="\n".join(lines), buttons=rows,
                    picture=picture(view, state), fresh=fresh)  # fmt: skip


def _examples(state: State) -> str:
    """Two empty cells' names side by side, as an example of a typed turn."""
    geometry = hexes.geometry(state.size)
    free = sorted(free_cells(state))
    shown = [geometry.names[i] for i in free[len(free) // 2 : len(free) // 2 + 2]] or ["a1"]
    return "<code>" + " ".join(shown) + "</code>"


def _other_example(state: State, index: int) -> str:
    other = (index + 1) % max(2, len(state.seats))
    geometry = hexes.geometry(state.size)
    free = sorted(free_cells(state))
    cell = geometry.names[free[0]] if free else "a1"
    return f"<code>{other + 1}:{cell}</code>"


@in_seat_language
def turn_closed(room: Room, index: int, round_no: int, why: str) -> Outgoing:
    """A seat's turn message once its turn is over, without buttons, saying `why`."""
    seat = room.seats[index]
    text = _("{heading}: {why}").format(heading=heading(room, round_no), why=why)
    return message(room, chat_id=seat.user_id, key=dm_key(seat.user_id, round_no), text=text)


def played_text(stones: list[tuple[Cell, int]], n: int, index: int) -> str:
    """What a seat's closed turn message says it did."""
    if not stones:
        return _("you placed no stone this turn.")
    return _("you placed {stones}.").format(stones=stone_names(stones, n, index))


PASS_REASONS = Texts(
    {
        "pass": N_("you passed."),
        "empty_turn": N_("you passed."),
        "timeout": N_("time ran out, so your turn passed."),
        "skipped": N_("your turn was skipped."),
        "unreachable": N_("I could not reach you in private, so your turn passed."),
        "left": N_("you left the game."),
    }
)
"""What a seat's closed turn message says of a turn in which it placed no stone."""


def waiting_prompt(room: Room, index: int, look: Look) -> Outgoing | None:
    """The private message the game waits on from a seat now, if any."""
    state = room.play
    if not isinstance(state, State):
        return None
    if state.seats[index].status is SeatStatus.SPECTATING:
        return spectator_dm(room, index, look)
    if index not in state.waiting_for():
        return None
    return turn_dm(room, index, look)


def where_it_stands(room: Room, user_id: int) -> str:
    """What a seated player is told in private when nothing waits for them."""
    state = room.play
    if not isinstance(state, State):
        return _(
            "You are connected to the game in <b>{group}</b>. When it starts, you build your "
            "turns here."
        ).format(group=title(room))
    index = state.seat_of(user_id)
    rnd = state.round
    if index is None or rnd is None:
        return ""
    if state.seats[index].status is SeatStatus.LEFT:
        return _("You left the game in <b>{group}</b>.").format(group=title(room))
    if state.phase is Phase.TURN:
        doing = _("{name} is playing a turn.").format(name=names(room)[rnd.seat])
    else:
        doing = _("the game is over; the result is in the group.")
    return _("You are in the game in <b>{group}</b>. Nothing waits for you here right now: "
             "{now}").format(group=title(room), now=doing)  # fmt: skip


@in_seat_language
def spectator_dm(room: Room, index: int, look: Look) -> Outgoing:
    """A sitting-out seat's private message with its way back."""
    return away_dm(room, index, look, _(
        "You missed two turns in a row in <b>{group}</b>, so you sit out for now: your turns "
        "pass. Press the button or send /back in the group to play again."
    ))  # fmt: skip


@in_group_language
def unreachable_notice(room: Room, index: int, look: Look) -> Outgoing:
    """Tell the group that a player must open a private chat with the bot."""
    return common.unreachable_notice(room, index, look, _(
        "I cannot write to {name} in private, so their turn passes. {name}: open {link} and "
        "press Start, then the game can reach you."
    ))  # fmt: skip


def skip_notice(room: Room, events: list[object], by: str) -> str | None:
    """What /skip did, for the group: whose turn `by` skipped."""
    who = names(room)
    for event in events:
        if isinstance(event, TurnPassed) and event.reason == "skipped":
            return _("{by} skipped {name}'s turn: a pass.").format(by=by, name=who[event.seat])
    return None
