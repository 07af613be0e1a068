"""The group's messages: the round, the table, the reveal, the final standings, notices."""

from __future__ import annotations

import html

from engine.model import Phase, Room, SeatStatus
from engine.views import group_view, waiting_for
from tgbot.outgoing import Button, Outgoing
from tgbot.render.common import Look, card, names, until
from tgbot.texts import _, ngettext


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
