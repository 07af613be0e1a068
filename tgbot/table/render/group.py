"""The group's messages: the round, the table, the reveal, the final standings, notices."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.games.hintrigue.views import group_view, missed_voters, waiting_for
from engine.model import OVER_PHASES, Phase, Room, Round, SeatStatus
from tgbot.egress.outgoing import MAX_CAPTION, Button, Outgoing, caption_length
from tgbot.i18n import N_, Texts, _, ngettext
from tgbot.table.render.common import (
    Look,
    card,
    duration,
    in_group_language,
    message,
    names,
    seconds_left,
    time_left,
    to_group,
    user_text,
)


def listed(items: list[str]) -> str:
    """Names as a list: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(items) <= 1:
        return "".join(items)
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


@in_group_language
def round_message(room: Room, look: Look) -> Outgoing:
    """The round's group message: storyteller, hint, who we wait for and how long is left."""
    rnd = room.round
    assert rnd is not None
    who = names(room)
    lines = [
        _("<b>Round {n}</b> · storyteller: {name}").format(n=rnd.no, name=who[rnd.storyteller])
    ]
    if rnd.hint is not None:
        lines.append(_("Hint: <b>«{hint}»</b>").format(hint=user_text(rnd.hint)))
    waiting = listed([who[i] for i in waiting_for(room)])
    if room.phase is Phase.HINT:
        lines.append(
            _("Waiting for {name} to choose a card and give a hint in private{left}.").format(
                name=waiting, left=time_left(room, look)
            )
        )
    elif room.phase is Phase.DECOYS:
        lines.append(_("Everybody else: choose a decoy in our private chat."))
        lines.append(
            _("Waiting for {names}{left}.").format(names=waiting, left=time_left(room, look))
        )
    elif room.phase is Phase.VOTING:
        lines.append(_("All cards are on the table: vote below."))
    elif room.phase in OVER_PHASES and rnd.points is None:
        lines.append(_("The game ended during this round."))
    else:
        lines.append(_("Voting is closed."))
    if rnd.auto:
        text = (
            _("{names} skipped: a decoy was chosen at random.")
            if Phase.DECOYS in rnd.skipped
            else _("No decoy came in time from {names}: one was chosen at random.")
        )
        lines.append(text.format(names=listed([who[i] for i in rnd.auto])))
    return to_group(room, key=f"round:{rnd.no}", text="\n".join(lines))


VOID_REASONS = Texts({
    "missed_hint": N_("{name} did not give a hint in time."),
    "skipped": N_("{name}'s turn was skipped."),
    "storyteller_left": N_("{name} left the game."),
    "unreachable": N_("{name} could not be reached in private."),
})


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
    rnd = room.round
    assert rnd is not None
    who = names(room)
    lines = [
        _("<b>The table</b> · round {n} · hint <b>«{hint}»</b>").format(
            n=rnd.no, hint=user_text(rnd.hint or "")
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
    points and the standings. `settled`: the round is over, no countdown is shown."""
    rnd = rnd or room.round
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
    if not settled and room.phase is Phase.REVEAL and left is not None:
        text = _("Final results in {time}.") if rnd.last else _("Next round in {time}.")
        lines.append(text.format(time=duration(left)))
    return to_group(room, key=f"reveal:{rnd.no}", text="\n".join(lines))


def ranks(room: Room, order: list[int]) -> list[int]:
    """Each listed seat's rank by points: tied seats share it (1, 1, 3)."""
    scores = [room.seats[i].score for i in order]
    return [1 + sum(other > score for other in scores) for score in scores]


def standings_text(room: Room) -> str:
    """Standings with points, finds and votes stolen; tied seats share their rank."""
    seats = room.seats

    def figures(index: int) -> str:
        seat = seats[index]
        return " · ".join(
            [
                ngettext("{n} point", "{n} points", seat.score).format(n=seat.score),
                ngettext("{n} find", "{n} finds", seat.finds).format(n=seat.finds),
                ngettext("{n} vote stolen", "{n} votes stolen", seat.stolen).format(n=seat.stolen),
            ]
        )

    return standings_lines(room, group_view(room).standings, figures)


def standings_lines(room: Room, order: list[int], figures: Callable[[int], str]) -> str:
    """Standings in `order`, each seat with its status and `figures`; tied seats share their
    rank (any game)."""
    who = names(room)
    lines = [_("<b>Standings</b>")]
    for rank, index in zip(ranks(room, order), order, strict=True):
        seat = room.seats[index]
        status = {SeatStatus.LEFT: _(" (left)"), SeatStatus.SPECTATING: _(" (sitting out)")}.get(
            seat.status, ""
        )
        lines.append(
            _("{rank}. {name}{status} — {figures}").format(
                rank=rank, name=who[index], status=status, figures=figures(index)
            )
        )
    return "\n".join(lines)


@in_group_language
def final(room: Room, look: Look) -> list[Outgoing]:
    """The final message of any game: winners together, or why the game ended without one;
    its button puts the presser on the list for the group's next lobby. With pictures on, the
    game's results picture (`Screens.results_picture`, if it has one) with the text as its
    caption; a text too long for a caption (ten players with long names) goes below the
    picture, which then comes first, as a message of its own."""
    who = names(room)
    if room.phase is Phase.FINISHED:
        won = look.lineup.game(room).winners(room)
        head = ngettext(
            "🏆 <b>{names}</b> wins!", "🏆 <b>{names}</b> win together!", len(won)
        ).format(names=listed([who[i] for i in won]))
    elif room.end_reason == "stopped":
        head = _("The game was stopped. No winner this time.")
    elif room.end_reason == "topic_gone":
        head = _("The topic of this game was deleted, so the game is abandoned. No winner.")
    else:
        head = _("Fewer than three players are left: the game is abandoned. No winner.")
    game = look.lineup.of(room)
    lines = [_("<b>Game over</b>"), head, "", game.standings(room)]
    picture = None
    if game.results_picture is not None and room.settings.pictures and room.seats:
        picture = game.results_picture(room)
    if picture is not None and game.results_text and (facts := game.results_text(room)):
        lines += ["", facts]  # the picture's facts, as text too
    text = "\n".join([*lines, "", _("Play again with /newgame.")])
    alone: list[Outgoing] = []
    if picture is not None and caption_length(text) > MAX_CAPTION:
        caption = _("🏆 The results in a picture: the message below says it all in words.")
        alone = [_final_message(room, look, key="results", text=caption, picture=picture)]
        picture = None
    return [*alone, _final_message(room, look, key="final", text=text, picture=picture)]


def _final_message(room: Room, look: Look, **fields: Any) -> Outgoing:
    if room.end_reason == "topic_gone":  # said in the General topic, the topic being gone
        return message(room, chat_id=room.chat_id, **fields)
    if fields["key"] != "final":
        return to_group(room, **fields)
    notify = look.button(_("🔔 Notify me of the next game"), "notify", room.game_id)
    return to_group(room, buttons=[[notify]], **fields)


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
        for index, seat in enumerate(room.seats)
        if seat.fooled
    ]
    return "\n".join([_("<b>Fooled by decoys</b>"), *lines]) if lines else ""


def plain_names(room: Room) -> list[str]:
    """Seat names as they are (for pictures, which escape nothing), told apart like `names`."""
    counts = Counter(seat.name for seat in room.seats)
    return [
        seat.name + (f" (@{seat.username})" if seat.username else f" #{index + 1}")
        if counts[seat.name] > 1
        else seat.name
        for index, seat in enumerate(room.seats)
    ]


@in_group_language
def left_notice(room: Room, index: int) -> Outgoing:
    """Tell the group that a player left the running game (before what their leaving did)."""
    text = _("{name} left the game.").format(name=names(room)[index])
    return to_group(room, text=text)


@in_group_language
def late_join_notice(room: Room, index: int) -> Outgoing:
    """Tell the group that a player joined the running game."""
    text = _("{name} joined the game and plays from the next round.").format(
        name=names(room)[index]
    )
    return to_group(room, text=text)


@in_group_language
def unreachable_notice(room: Room, index: int, look: Look) -> Outgoing:
    """Tell the group that a player must open a private chat with the bot."""
    text = _(
        "I cannot write to {name} in private, so their move was made for them. {name}: "
        "open {link} and press Start, then the game can reach you."
    ).format(name=names(room)[index], link=look.anchor(f"r{room.room_id}"))
    return to_group(room, text=text)


STOP_KEY = "stop"
"""The key of the /stop confirmation of a room's game (one at a time: asked again, it comes
back to the bottom of the chat)."""


@in_group_language
def stop_closed(room: Room) -> Outgoing:
    """The /stop question of a game that is over, without its buttons (edited only: a game
    nobody asked to stop has none)."""
    text = _("/stop: the lobby was closed.") if room.round is None and room.play is None \
        else _("/stop: the game is over.")  # fmt: skip
    return to_group(room, key=STOP_KEY, text=text, edit_only=True)


@in_group_language
def stop_started(room: Room) -> Outgoing:
    """The lobby's /stop question once its game started: closing the lobby is moot, and a
    press must not stop the game (edited only: a lobby nobody asked to stop has none)."""
    text = _("/stop: the game has started; send /stop again to end it.")
    return to_group(room, key=STOP_KEY, text=text, edit_only=True)


def score(room: Room | None, stats: dict[str, int], look: Look) -> str:
    """The /score answer: the current or last game's standings and the group's lifetime stats."""
    parts = []
    started = room is not None and (room.round is not None or room.play is not None)
    if room is not None and room.phase is not Phase.LOBBY and started:
        state = {
            Phase.FINISHED: _("The last game (finished)"),
            Phase.ABANDONED: _("The last game (ended early)"),
        }.get(room.phase, _("This game"))
        parts += [f"<b>{state}</b>", look.lineup.of(room).standings(room)]
    elif room is not None and room.phase is Phase.LOBBY:
        parts.append(_("The game has not started yet: the lobby is open."))
    else:
        parts.append(_("No game has been played here lately."))
    if stats:
        games = stats.get("games", 0)
        parts += [
            "",
            _("This group so far: {games} · {points} · {finds} · {stolen}.").format(
                games=ngettext("{n} game", "{n} games", games).format(n=games),
                points=ngettext("{n} point", "{n} points", stats.get("points", 0)).format(
                    n=stats.get("points", 0)
                ),
                finds=ngettext("{n} find", "{n} finds", stats.get("finds", 0)).format(
                    n=stats.get("finds", 0)
                ),
                stolen=ngettext("{n} vote stolen", "{n} votes stolen", stats.get("stolen", 0))
                .format(n=stats.get("stolen", 0)),
            ),
        ]
    return "\n".join(parts)
