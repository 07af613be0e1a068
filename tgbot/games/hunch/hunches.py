"""Hunch!'s private hunch message: the other seats' secrets in play with their clues, a button
per secret (choosing one only redraws the message), the matrix's words as buttons for the
chosen secret (a press places or changes the hunch there), and Take back."""

from __future__ import annotations

from engine.games.hunch.model import REMOVED, Phase, State
from engine.games.hunch.table import state_of
from engine.games.hunch.views import seat_view
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Button, Outgoing
from tgbot.games.hunch import words
from tgbot.games.hunch.private import dm, fields, head
from tgbot.i18n import _, ngettext
from tgbot.table.render.common import Look, in_seat_language, names, time_left, user_text

TARGETS_PER_ROW = 3


def hunch_key(user_id: int, game_round: int) -> str:
    return f"dm:{user_id}:h{game_round}"


def target_of(owner: int, slot: int) -> int:
    """A secret as one button field."""
    return owner * 3 + slot


def targets(state: State, index: int) -> list[tuple[int, int]]:
    """The secrets a seat may place a hunch on: (owner, slot), owners in seat order after it."""
    count = len(state.seats)
    owners = [(index + step) % count for step in range(1, count)]
    return [(owner, slot) for owner in owners
            if state.seats[owner].status is not SeatStatus.LEFT
            for slot in state.seats[owner].in_play()]  # fmt: skip


def chosen_target(state: State, index: int, target: int | None) -> tuple[int, int] | None:
    """The secret whose words the message shows: the one chosen, else the first without a
    hunch of the seat, else the first."""
    found = targets(state, index)
    if target is not None and (target // 3, target % 3) in found:
        return target // 3, target % 3
    placed = {(h.owner, h.secret) for h in state.seats[index].hunches}
    free = [t for t in found if t not in placed]
    return (free or found or [None])[0]


@in_seat_language
def hunch_dm(room: Room, index: int, look: Look, target: int | None = None) -> Outgoing:
    """Place the round's hunches: choose a secret, then a word of the matrix."""
    state = state_of(room)
    view = seat_view(state, index)
    who = names(room)
    key = hunch_key(room.seats[index].user_id, state.game_round)
    hunches = {(h.owner, h.secret): h.word for h in state.seats[index].hunches}
    lines = [_("{heading}: hunch phase.").format(heading=head(room, state))]
    if state.phase is not Phase.HUNCH or index not in state.in_phase:
        placed = [f"{words.secret_name(who[o], s)}: «{user_text(words.word(state, w))}»"
                  for (o, s), w in hunches.items()]  # fmt: skip
        lines.append(_("Your hunches: {hunches}. They are revealed in the group.").format(
            hunches="; ".join(placed)) if placed else _("Hunches are over for this round."))
        return dm(room, index, key, "\n".join(lines))
    allowance = view.allowance
    lines.append(ngettext(
        "Place {n} hunch{left}: a word of the matrix on a secret of another player.",
        "Place {n} hunches{left}, each on a different secret of another player: a word of the "
        "matrix.", allowance).format(n=allowance, left=time_left(room, look)))  # fmt: skip
    lines.append(_("Placed: {k} of {n}. You may change them until the phase ends.").format(
        k=len(hunches), n=allowance))  # fmt: skip
    for owner, slot in targets(state, index):
        clues = words.clues_before(state, owner, slot)
        shown = ", ".join(words.clue_text(c, False) for c in clues) or _("no clue")
        line = f"• {words.secret_name(who[owner], slot)}: {shown}"
        if (owner, slot) in hunches:
            line += " — " + _("your hunch: <b>{word}</b>").format(
                word=user_text(words.word(state, hunches[(owner, slot)])))
        lines.append(line)
    chosen = chosen_target(state, index, target)
    rows = target_rows(room, look, state, index, chosen)
    if chosen is not None:
        lines.append(_("Choose the word for {secret}:").format(
            secret=words.secret_name(who[chosen[0]], chosen[1])))  # fmt: skip
        rows += word_rows(room, look, state, chosen, hunches.get(chosen))
    return dm(room, index, key, "\n".join(lines), rows, Phase.HUNCH)


def target_rows(room: Room, look: Look, state: State, index: int,
                chosen: tuple[int, int] | None) -> list[list[Button]]:  # fmt: skip
    """A button per secret to hunch on (the chosen one marked, those with a hunch ticked)."""
    assert state.round is not None
    who = [seat.name for seat in room.seats]
    placed = {(h.owner, h.secret) for h in state.seats[index].hunches}
    buttons = []
    for owner, slot in targets(state, index):
        mark = "▶ " if (owner, slot) == chosen else ("✅ " if (owner, slot) in placed else "")
        label = f"{mark}{who[owner][:16]} {slot + 1}"
        buttons.append(look.button(label, "htgt", *fields(room, state.round.no,
                                                          target_of(owner, slot))))
    return [buttons[i : i + TARGETS_PER_ROW] for i in range(0, len(buttons), TARGETS_PER_ROW)]


def word_rows(room: Room, look: Look, state: State, chosen: tuple[int, int],
              current: int | None) -> list[list[Button]]:  # fmt: skip
    """The matrix's words, a row per card, for the chosen secret; Take back if placed."""
    assert state.round is not None
    target = target_of(*chosen)
    rows = []
    for card in state.matrix:
        if card == REMOVED:
            continue
        rows.append([look.button(("✅ " if card * 3 + k == current else "") + word, "hhun",
                                 *fields(room, state.round.no, target, card * 3 + k))
                     for k, word in enumerate(words.card_words(state, card))])  # fmt: skip
    if current is not None:
        rows.append([look.button(_("↩️ Take back this hunch"), "hback",
                                 *fields(room, state.round.no, target))])  # fmt: skip
    return rows
