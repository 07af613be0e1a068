"""Hunch!'s group messages of the secrets, clue and hunch phases, and the standings: each says
what happens now, whom the game waits for and the time left. Every one is rendered from the
rules' group view: never a secret or a hunch before its reveal."""

from __future__ import annotations

from engine.games.hunch.model import ROUNDS, Phase, State
from engine.games.hunch.table import state_of
from engine.games.hunch.turns import group_result as result_of
from engine.games.hunch.views import GroupView, group_view
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import MAX_CAPTION, Outgoing, caption_length
from tgbot.games.hunch import words
from tgbot.games.hunch.pictures import MatrixPicture
from tgbot.i18n import _, ngettext
from tgbot.table.render.common import (
    Look,
    in_group_language,
    names,
    time_left,
    to_group,
    user_text,
)
from tgbot.table.render.group import listed, standings_lines

SECRETS_KEY = "hsecrets"
ROCKET = "🚀"
SHORT_NAME = 12
"""How long a name may be in a caption that would not fit with whole names."""


def round_key(game_round: int) -> str:
    return f"round:{game_round}"


def clues_key(game_round: int) -> str:
    return f"clues:{game_round}"


def hunch_key(game_round: int) -> str:
    return f"hunch:{game_round}"


def in_turn(view: GroupView) -> list[int]:
    """Every seat in seat order from the starting player."""
    count = len(view.seats)
    return [(view.starting + step) % count for step in range(count)]


def waiting_line(room: Room, view: GroupView, look: Look, who: list[str] | None = None) -> str:
    """ "Waiting for Ann and Bob (45 s left)." """
    shown = who or names(room)
    return _("Waiting for {names}{left}.").format(
        names=listed([shown[i] for i in view.waiting]), left=time_left(room, look))


def picture_of(room: Room, state: State) -> MatrixPicture | None:
    """The matrix as a picture, when the room's pictures are on."""
    if not room.settings.pictures or not state.matrix:
        return None
    return MatrixPicture.of(state)


@in_group_language
def secrets_message(room: Room, look: Look, auto: list[int] | None = None) -> Outgoing:
    """The secrets phase: everybody chooses a word of each dealt card in private; once over,
    whose secrets were drawn at random (`auto`)."""
    state = state_of(room)
    view = group_view(state)
    who = names(room)
    dealt = len(state.seats[0].secrets)
    lines = [_("<b>Hunch!</b> · the secrets"),
             ngettext("Each of you got {n} target card in private: choose one of its three "
                      "words as your secret.",
                      "Each of you got {n} target cards in private: choose one of the three "
                      "words of each as your secrets.", dealt).format(n=dealt),
             _("The dealt cards join the matrix of 12 cards that everybody sees; the others "
               "will try to guess your secrets among its 36 words.")]  # fmt: skip
    if view.phase is Phase.SECRETS:
        lines.append(waiting_line(room, view, look, who))
    elif view.phase is Phase.ABANDONED and not view.matrix:
        lines.append(_("The game is over."))
    else:
        lines.append(_("Every secret is chosen: the matrix is below."))
        if auto:
            lines.append(_("Chosen at random for {names}.").format(
                names=listed([who[i] for i in auto])))  # fmt: skip
    return to_group(room, key=SECRETS_KEY, text="\n".join(lines))


@in_group_language
def round_message(room: Room, look: Look, game_round: int | None = None) -> Outgoing:
    """A round's matrix (a picture, its words in the caption) and its clue phase: who writes
    clues, the time left; once the clues are in, that they are below."""
    state = state_of(room)
    number = game_round or state.game_round
    short = [user_text(seat.name, SHORT_NAME) for seat in room.seats]
    for who in (names(room), short):
        text = "\n".join(_round_lines(room, state, look, number, who))
        if caption_length(text) <= MAX_CAPTION:
            break
    return to_group(room, key=round_key(number), text=text, picture=picture_of(room, state))


def _round_lines(room: Room, state: State, look: Look, number: int,
                 who: list[str]) -> list[str]:  # fmt: skip
    view = group_view(state)
    lines = [_("<b>Hunch! · Round {n} of {total}</b> · starting player: {rocket} {name}").format(
        n=number, total=ROUNDS, rocket=ROCKET, name=who[view.starting]),
        _("<b>The matrix</b>"), *words.matrix_lines(state), ""]  # fmt: skip
    if view.phase is Phase.CLUES and view.game_round == number:
        lines.append(_("<b>Clue phase.</b> Each of you draws two clue cards in private and "
                       "writes a clue on each: one that fits many words of the matrix sells "
                       "best."))  # fmt: skip
        lines.append(waiting_line(room, view, look, who))
    elif view.phase in (Phase.FINISHED, Phase.ABANDONED):
        lines.append(_("The game is over."))
    else:
        lines.append(_("The clue phase is over: the clues are below."))
    return lines


@in_group_language
def clues_message(room: Room, look: Look) -> Outgoing:
    """The clues of a round, by writer in selling order, and how the trading goes."""
    state = state_of(room)
    view = group_view(state)
    who = names(room)
    number = view.game_round
    lines = [_("<b>Hunch! · Round {n}: the clues</b>").format(n=number)]
    for index in in_turn(view):
        own = [c for c in view.clues if c.writer == index and c.round == number]
        if own:
            lines.append(f"{who[index]}: " + " · ".join(words.clue_text(c) for c in own))
        elif view.seats[index].status is not SeatStatus.LEFT:
            lines.append(_("{name}: no clue to sell.").format(name=who[index]))
    lines += ["", _("<b>Trading.</b> Each player in turn, from {rocket} {name} on, sells their "
                    "clues in an auction in the group. The highest bidder pays the seller and "
                    "puts one of the clues before one of their secrets.").format(
        rocket=ROCKET, name=who[view.starting])]  # fmt: skip
    return to_group(room, key=clues_key(number), text="\n".join(lines))


def table_lines(room: Room, view: GroupView, who: list[str]) -> list[str]:
    """Each seat's secrets in play with the clues before them (never their words), coins and
    VP: the table as everybody sees it."""
    lines = []
    for index in in_turn(view):
        line = view.seats[index]
        if line.status is SeatStatus.LEFT:
            continue
        lines.append(_("<b>{name}</b> · {coins} 🪙 · {vp} VP").format(
            name=who[index], coins=line.coins, vp=line.vp))  # fmt: skip
        for secret in line.secrets:
            if secret.status != "hidden":
                continue
            clues = [c for c in view.clues if (c.owner, c.secret) == (index, secret.slot)]
            shown = ", ".join(words.clue_text(c, with_category=False) for c in clues)
            easy = " ⭐" if secret.easy else ""
            lines.append(_("  secret {n}{easy}: {clues}").format(
                n=secret.slot + 1, easy=easy, clues=shown or _("no clue yet")))  # fmt: skip
    return lines


@in_group_language
def hunch_message(room: Room, look: Look, game_round: int | None = None) -> Outgoing:
    """The hunch phase: the table of secrets with their clues, how many hunches each seat
    places and has placed (never where), whom the game waits for and the time left."""
    state = state_of(room)
    view = group_view(state)
    who = names(room)
    number = game_round or view.game_round
    lines = [_("<b>Hunch! · Round {n}: hunches</b>").format(n=number),
             ngettext("Each of you places {n} hunch in private: a word of the matrix on a "
                      "secret of another player.",
                      "Each of you places {n} hunches in private, each on a different secret "
                      "of another player: a word of the matrix.", number).format(n=number),
             "", *table_lines(room, view, who), ""]  # fmt: skip
    if view.phase is Phase.HUNCH and view.game_round == number:
        placed = [f"{who[i]} {view.seats[i].hunches_placed}/{state.allowance(i)}"
                  for i in in_turn(view) if i in state.in_phase]  # fmt: skip
        lines.append(_("Hunches placed: {counts}.").format(counts=", ".join(placed)))
        lines.append(waiting_line(room, view, look, who))
    elif view.phase in (Phase.FINISHED, Phase.ABANDONED) and not view.revealed:
        lines.append(_("The game is over."))
    else:
        lines.append(_("The hunches are revealed below."))
    return to_group(room, key=hunch_key(number), text="\n".join(lines))


def standings_text(room: Room) -> str:
    """Standings by VP, then coins; with the secrets guessed. At the end, every secret told
    and the group result."""
    state = state_of(room)
    view = group_view(state)

    def figures(index: int) -> str:
        seat = state.seats[index]
        return " · ".join([
            f"{seat.vp} VP", f"{seat.coins} 🪙",
            ngettext("{n} secret guessed", "{n} secrets guessed", seat.guessed).format(
                n=seat.guessed),
        ])  # fmt: skip

    text = standings_lines(room, view.standings, figures)
    if view.phase is Phase.FINISHED:
        text += "\n\n" + secrets_told(room, view)
    return text


def secrets_told(room: Room, view: GroupView) -> str:
    """Every seat's secrets, once the game is over, and the group's result."""
    who = names(room)
    lines = [_("<b>The secrets</b>")]
    for line in view.seats:
        told = [words.word(state_of(room), s.word) + (" ✅" if s.status == "guessed" else "")
                for s in line.secrets if s.word is not None]  # fmt: skip
        if told:
            lines.append(f"{who[line.index]}: " + ", ".join(user_text(t) for t in told))
    lines.append(group_result(view.guessed_total, len(view.seats)))
    return "\n".join(lines)


def group_result(guessed: int, seats: int) -> str:
    """The seed's group result for the secrets guessed among all seats."""
    texts = [
        _("Luckily, you can only get better…"),
        _("You can do better."),
        _("Not bad, I guess."),
        _("You are certainly a good team."),
        _("Overwhelmingly good!"),
        _("Are you sure you did not cheat?"),
    ]
    return ngettext("Together you guessed {n} secret: {verdict}",
                    "Together you guessed {n} secrets: {verdict}", guessed).format(
        n=guessed, verdict=texts[result_of(guessed, seats)])  # fmt: skip
