"""Hunch!'s reveal in the group: every hunch of the round, secret by secret, with the clues that
lay before it; the secrets guessed with their words, the VP gained, the standings and when the
next round starts. A picture of the same table comes with it when pictures are on."""

from __future__ import annotations

from engine.games.hunch.model import ROUNDS, Phase, RevealLine, State
from engine.games.hunch.table import state_of
from engine.games.hunch.views import group_view
from engine.model import Room
from tgbot.egress.outgoing import MAX_CAPTION, Outgoing, caption_length
from tgbot.games.hunch import words
from tgbot.games.hunch.group import standings_text
from tgbot.games.hunch.pictures import RevealedHunch, RevealedSecret, RevealPicture
from tgbot.i18n import _
from tgbot.table.render.common import Look, duration, in_group_language, names, to_group, user_text
from tgbot.table.render.group import plain_names

COUNTDOWN_ROOM = 100
"""Room kept in a caption for the line saying when the next round starts."""


def reveal_key(game_round: int) -> str:
    return f"reveal:{game_round}"


def points_of(lines: list[RevealLine], seats: int) -> list[int]:
    """The VP each seat gained at a reveal (SPEC 11.4): +1 a correct hunch; a guessed secret
    +1 to its owner, +1 more when two or more guessed it; "this is very easy" +1 to each."""
    points = [0] * seats
    for line in lines:
        right = [guesser for guesser, _word, correct in line.hunches if correct]
        bonus = 1 if line.easy else 0
        for guesser in right:
            points[guesser] += 1 + bonus
        if right:
            points[line.owner] += 1 + (1 if len(right) >= 2 else 0) + bonus
    return points


def picture_of(room: Room, state: State, lines: list[RevealLine]) -> RevealPicture:
    """The reveal as a picture: each secret with its clues and hunches."""
    who = plain_names(room)
    return RevealPicture(
        heading=_("Round {n}: the hunches").format(n=state.game_round),
        secrets=[
            RevealedSecret(
                owner=who[line.owner], slot=line.secret + 1,
                word=words.word(state, line.word) if line.word is not None else None,
                easy=line.easy,
                clues=[words.plain_clue(c) for c in line.clues],
                hunches=[RevealedHunch(name=who[g], word=words.word(state, w), correct=ok)
                         for g, w, ok in line.hunches],
            )
            for line in lines
        ],
    )  # fmt: skip


def reveal_lines(room: Room, state: State, lines: list[RevealLine]) -> list[str]:
    who = names(room)
    out: list[str] = []
    for line in lines:
        name = words.secret_name(who[line.owner], line.secret)
        easy = " ⭐" if line.easy else ""
        if line.word is not None:
            out.append(_("{secret}{easy}: <b>{word}</b> ✅ guessed").format(
                secret=name, easy=easy, word=user_text(words.word(state, line.word))))
        else:
            out.append(_("{secret}{easy}: not guessed").format(secret=name, easy=easy))
        if line.clues:
            out.append(_("  clues: {clues}").format(
                clues=", ".join(words.clue_text(c, with_category=False) for c in line.clues)))
        hunches = [f"{who[g]} «{user_text(words.word(state, w))}» {'✅' if ok else '❌'}"
                   for g, w, ok in line.hunches]
        if hunches:
            out.append(_("  hunches: {hunches}").format(hunches=", ".join(hunches)))
    return out  # fmt: skip


@in_group_language
def reveal(room: Room, look: Look, settled: bool = False) -> list[Outgoing]:
    """The reveal of the last hunch phase (once the next round started or the game is over,
    `settled`: without its countdown)."""
    state = state_of(room)
    view = group_view(state)
    who = names(room)
    lines_of = view.revealed
    number = view.game_round
    lines = [_("<b>Hunch! · Round {n}: the hunches revealed</b>").format(n=number)]
    lines += reveal_lines(room, state, lines_of) or [_("No hunch was placed this round.")]
    points = points_of(lines_of, len(state.seats))
    gained = [f"{who[i]} +{n}" for i, n in sorted(enumerate(points), key=lambda p: (-p[1], p[0]))
              if n]  # fmt: skip
    lines += ["", _("VP: {points}").format(points=", ".join(gained)) if gained
              else _("Nobody scored this round.")]  # fmt: skip
    lines += ["", standings_text(room)]
    too_long = caption_length("\n".join(lines)) > MAX_CAPTION - COUNTDOWN_ROOM
    if not settled and view.phase is Phase.REVEAL and view.deadline is not None:
        pause = view.deadline - (look.now if look.now is not None else state.phase_at)
        if number >= ROUNDS:
            lines.append(_("The game ends in {time}.").format(time=duration(pause)))
        else:
            lines.append(_("Round {n} starts in {time}.").format(n=number + 1,
                                                                 time=duration(pause)))
    key, text = reveal_key(number), "\n".join(lines)
    if not room.settings.pictures or not lines_of:
        return [to_group(room, key=key, text=text)]
    picture = picture_of(room, state, lines_of)
    if not too_long:
        return [to_group(room, key=key, text=text, picture=picture)]
    if settled:
        return [to_group(room, key=key, text=text)]
    caption = _("<b>Round {n}: the hunches</b> in a picture; the message below says it all in "
                "words.").format(n=number)  # fmt: skip
    return [to_group(room, key=f"reveal-picture:{number}", text=caption, picture=picture),
            to_group(room, key=key, text=text)]  # fmt: skip
