"""Hintrigue's group messages: the round, the table, the reveal, its standings and who fooled
whom."""

from __future__ import annotations

from typing import Any

from engine.games.hintrigue.events import DecoyPlayed, RoundVoided, SeatReturned
from engine.games.hintrigue.model import Phase, Round, own_seats, phase_of, round_of
from engine.games.hintrigue.views import group_view, missed_voters, waiting_for
from engine.model import OVER_PHASES, Room
from tgbot.egress.outgoing import Button, Outgoing
from tgbot.games.hintrigue.cards import card
from tgbot.i18n import N_, Texts, _, ngettext
from tgbot.table.render.common import (
    Look,
    duration,
    in_group_language,
    names,
    seconds_left,
    time_left,
    to_group,
    user_text,
)
from tgbot.table.render.group import listed, standings_lines

VOID_REASONS = Texts({
    "missed_hint": N_("{name} did not give a hint in time."),
    "skipped": N_("{name}'s turn was skipped."),
    "storyteller_left": N_("{name} left the game."),
    "unreachable": N_("{name} could not be reached in private."),
})
"""Why a round of Hintrigue was void, by its `RoundVoided.reason`."""


@in_group_language
def round_message(room: Room, look: Look) -> Outgoing:
    """The round's group message: storyteller, hint, who we wait for and how long is left."""
    rnd = round_of(room)
    assert rnd is not None
    who = names(room)
    lines = [
        _("<b>Round {n}</b> · storyteller: {name}").format(n=rnd.no, name=who[rnd.storyteller])
    ]
    if rnd.hint is not None:
        lines.append(_("Hint: <b>«{hint}»</b>").format(hint=user_text(rnd.hint)))
    if rnd.auto:  # what happened before where the round stands now
        text = (
            _("{names} skipped: a decoy was chosen at random.")
            if Phase.DECOYS in rnd.skipped
            else _("No decoy came in time from {names}: one was chosen at random.")
        )
        lines.append(text.format(names=listed([who[i] for i in rnd.auto])))
    waiting = listed([who[i] for i in waiting_for(room)])
    if phase_of(room) is Phase.HINT:
        lines.append(
            _("Waiting for {name} to choose a card and give a hint in private{left}.").format(
                name=waiting, left=time_left(room, look)
            )
        )
    elif phase_of(room) is Phase.DECOYS:
        lines.append(_("Everybody else: choose a decoy in our private chat."))
        lines.append(
            _("Waiting for {names}{left}.").format(names=waiting, left=time_left(room, look))
        )
    elif phase_of(room) is Phase.VOTING:
        lines.append(_("All cards are on the table: vote below."))
    elif room.phase in OVER_PHASES and rnd.points is None:
        lines.append(_("The game ended during this round."))
    else:
        lines.append(_("Voting is closed."))
    return to_group(room, key=f"round:{rnd.no}", text="\n".join(lines))


@in_group_language
def void_message(room: Room, round_no: int, storyteller: int, reason: str) -> Outgoing:
    """The round's group message once the round is void."""
    why = VOID_REASONS[reason].format(name=names(room)[storyteller])
    body = _("<b>Round {n}</b> is void: {why} No card moved, no score changed.").format(
        n=round_no, why=why
    )
    return to_group(room, key=f"round:{round_no}", text=body)


@in_group_language
def table(room: Room, look: Look) -> Outgoing:
    """The table message: one button per card while voting is open; who has voted."""
    view = group_view(room)
    rnd = round_of(room)
    assert rnd is not None
    who = names(room)
    lines = [
        _("<b>The table</b> · round {n} · hint <b>«{hint}»</b>").format(
            n=rnd.no, hint=user_text(rnd.hint or "")
        )
    ]
    lines += [f"{i + 1}. {card(room, c)}" for i, c in enumerate(rnd.table)]
    rows: list[list[Button]] = []
    if phase_of(room) is Phase.VOTING:
        lines.append(
            _("Vote for {name}'s card (not your own). You may change your vote.").format(
                name=who[rnd.storyteller]
            )
        )
        if view.voted:
            lines.append(_("Voted: {names}").format(names=listed([who[i] for i in view.voted])))
        lines.append(
            _("Waiting for {names}{left}.").format(
                names=listed([who[i] for i in view.waiting_for]), left=time_left(room, look)
            )
        )
        rows = [
            [look.button(f"{i + 1}. {card(room, c)}", "vote", rnd.no, c, room.game_id)]
            for i, c in enumerate(rnd.table)
        ]
    elif rnd.points is None:
        lines.append(_("The game ended before the votes were counted."))
    else:
        lines.append(_("Voting is closed."))
        if missed := missed_line(room, rnd):
            lines.append(missed)
    return to_group(room, key=f"table:{rnd.no}", text="\n".join(lines), buttons=rows)


def missed_line(room: Room, rnd: Round) -> str | None:
    """Who did not vote, and why voting closed without them."""
    missed = missed_voters(room, rnd)
    if not missed:
        return None
    text = _("Voting was skipped for {names}.") if Phase.VOTING in rnd.skipped else _(
        "Did not vote in time: {names}."
    )
    return text.format(names=listed([names(room)[i] for i in missed]))


def outcome_line(room: Room, rnd: Round) -> str:
    """Why the round's points are what they are, in one line."""
    who = names(room)
    teller = who[rnd.storyteller]
    target = rnd.plays.get(rnd.storyteller)
    finders = [i for i, c in sorted(rnd.votes.items()) if c == target]
    if not rnd.votes:
        return _("Nobody voted: nobody scores for {name}'s card.").format(name=teller)
    if not finders:
        return _("Nobody found {name}'s card: {name} scores nothing, every voter +2.").format(
            name=teller
        )
    if len(finders) == len(rnd.votes):
        return _(
            "Every voter found {name}'s card: {name} scores nothing, every voter +2."
        ).format(name=teller)
    return ngettext(
        "{finders} found {name}'s card: {name} and the finder +3.",
        "{finders} found {name}'s card: {name} and each finder +3.",
        len(finders),
    ).format(finders=listed([who[i] for i in finders]), name=teller)


@in_group_language
def reveal(room: Room, look: Look, rnd: Round | None = None, settled: bool = False) -> Outgoing:
    """Each table card with its owner and voters, why the points are what they are, the
    points and the standings: the table message, its votes closed, turns into it. `settled`:
    the round is over, no countdown is shown."""
    rnd = rnd or round_of(room)
    assert rnd is not None
    who = names(room)
    lines = [
        _("<b>Reveal</b> · round {n} · «{hint}»").format(n=rnd.no, hint=user_text(rnd.hint or ""))
    ]
    for position, shown in enumerate(rnd.table, start=1):
        owner = rnd.owner_of(shown)
        assert owner is not None
        voters = listed([who[i] for i, c in sorted(rnd.votes.items()) if c == shown]) or "—"
        owner_text = (
            _("<b>{name} (storyteller)</b>").format(name=who[owner])
            if owner == rnd.storyteller
            else who[owner]
        )
        lines.append(
            _("{n}. {card} — {owner} · votes: {voters}").format(
                n=position, card=card(room, shown), owner=owner_text, voters=voters
            )
        )
    lines += ["", outcome_line(room, rnd)]
    if missed := missed_line(room, rnd):
        lines.append(missed)
    stolen = sum(1 for c in rnd.votes.values() if c != rnd.plays.get(rnd.storyteller))
    if stolen:
        lines.append(_("Each vote for a decoy: +1 to its owner."))
    lines += ["", _("<b>Points this round</b>")]
    points = sorted((rnd.points or {}).items(), key=lambda kv: (-kv[1], kv[0]))
    lines.append(" · ".join(f"{who[i]} +{p}" for i, p in points))
    lines += ["", standings_text(room)]
    left = seconds_left(room.deadline, look)
    if not settled and phase_of(room) is Phase.REVEAL and left is not None:
        text = _("Final results in {time}.") if rnd.last else _("Next round in {time}.")
        lines.append(text.format(time=duration(left)))
    return to_group(room, key=f"table:{rnd.no}", text="\n".join(lines))


def standings_text(room: Room) -> str:
    """Standings with points, finds and votes stolen; tied seats share their rank."""
    seats, own = room.seats, own_seats(room)

    def figures(index: int) -> str:
        seat, mine = seats[index], own[index]
        return " · ".join(
            [
                ngettext("{n} point", "{n} points", seat.score).format(n=seat.score),
                ngettext("{n} find", "{n} finds", mine.finds).format(n=mine.finds),
                ngettext("{n} vote stolen", "{n} votes stolen", mine.stolen).format(n=mine.stolen),
            ]
        )

    return standings_lines(room, group_view(room).standings, figures)


def fooled_text(room: Room) -> str:
    """Whose decoys fooled whom over the game, one line per seat that fooled anyone ("" when
    no decoy took a vote)."""
    who = names(room)
    lines = [
        _("{name} fooled {names}.").format(
            name=who[index],
            names=", ".join(
                who[voter] if times == 1 else f"{who[voter]} ×{times}"
                for voter, times in sorted(seat.fooled.items())
            ),
        )
        for index, seat in enumerate(own_seats(room))
        if seat.fooled
    ]
    return "\n".join([_("<b>Fooled by decoys</b>"), *lines]) if lines else ""


def skip_notice(room: Room, events: list[Any], by: str) -> str | None:
    """What /skip did, when the message at the bottom of the chat does not say it already (a
    skipped vote is named in the reveal, a skipped reveal is followed by the next round)."""
    who = names(room)
    voided = next((e for e in events if isinstance(e, RoundVoided)), None)
    if voided is not None:
        return _("/skip: {name}'s turn is skipped.").format(name=who[voided.storyteller])
    auto = [e.seat for e in events if isinstance(e, DecoyPlayed) and e.auto]
    if auto:
        return ngettext(
            "/skip: a decoy was chosen at random for {names}.",
            "/skip: decoys were chosen at random for {names}.",
            len(auto),
        ).format(names=listed([who[i] for i in auto]))
    return None


def back_notice(room: Room, events: list[Any]) -> str | None:
    """What /back did, for the group: who plays again from the next round."""
    event = next((e for e in events if isinstance(e, SeatReturned)), None)
    if event is None:
        return None
    return _("Welcome back, {name}: you play from the next round.").format(
        name=names(room)[event.seat]
    )
