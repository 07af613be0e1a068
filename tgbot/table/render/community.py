"""What /stats, /top and /notify answer, and the message that tells a subscriber the next game
opened."""

from __future__ import annotations

from engine.games.base import Game, Games
from engine.roomid import RoomId
from engine.store.stats import Line
from tgbot.egress.outgoing import Button, Outgoing
from tgbot.i18n import _, ngettext
from tgbot.table.render.common import Look, user_text


def game_name(game: str, games: Games) -> str:
    """A game as players know it (its own name, the same in every language)."""
    found = games.get(game)
    return found.title if found is not None else game


def _figures(figures: dict[str, int]) -> str:
    shown = [
        ngettext("{n} game", "{n} games", figures.get("games", 0)),
        ngettext("{n} win", "{n} wins", figures.get("wins", 0)),
    ]
    values = [figures.get("games", 0), figures.get("wins", 0)]
    if "points" in figures:
        shown.append(ngettext("{n} point", "{n} points", figures["points"]))
        values.append(figures["points"])
    if "finds" in figures:
        shown.append(ngettext("{n} find", "{n} finds", figures["finds"]))
        values.append(figures["finds"])
    if "stolen" in figures:
        shown.append(ngettext("{n} vote stolen", "{n} votes stolen", figures["stolen"]))
        values.append(figures["stolen"])
    if "correct" in figures:
        shown.append(ngettext("{n} correct guess", "{n} correct guesses", figures["correct"]))
        values.append(figures["correct"])
    if "exact" in figures:
        shown.append(ngettext("{n} exact hit", "{n} exact hits", figures["exact"]))
        values.append(figures["exact"])
    if "vp" in figures:
        shown.append(ngettext("{n} victory point", "{n} victory points", figures["vp"]))
        values.append(figures["vp"])
    if "guessed" in figures:
        shown.append(ngettext("{n} secret guessed", "{n} secrets guessed", figures["guessed"]))
        values.append(figures["guessed"])
    if "exposed" in figures:
        shown.append(ngettext("{n} own secret found", "{n} own secrets found",
                              figures["exposed"]))  # fmt: skip
        values.append(figures["exposed"])
    if "fewest" in figures:
        shown.append(_("fewest chunks at an end: {n}"))
        values.append(figures["fewest"])
    if "best" in figures:
        shown.append(ngettext("best round: {n} point", "best round: {n} points", figures["best"]))
        values.append(figures["best"])
    return " · ".join(text.format(n=n) for text, n in zip(shown, values, strict=True))


def stats(name: str, games: dict[str, dict[str, int]], hosted: Games) -> str:
    """A player's lifetime figures, a line per game they finished (named as the `hosted`
    games call themselves)."""
    if not games:
        return _("📊 {name} has no finished games yet.").format(name=user_text(name))
    lines = [_("📊 <b>{name}</b>").format(name=user_text(name))]
    for game, figures in sorted(games.items()):
        lines.append(f"<b>{game_name(game, hosted)}</b>: {_figures(figures)}")
    return "\n".join(lines)


def top(game: Game, board: list[Line]) -> str:
    """A group's leaderboard of one game over the last 90 days; equal lines share a rank. A
    game that counts no points (Wunchunk) shows the games played instead; one that counts
    victory points (Hunch!) names them so."""
    title = game.title
    if not board:
        return _("No finished game of {game} here in the last 90 days. Start one with /newgame.") \
            .format(game=title)  # fmt: skip
    lines = [_("🏆 <b>{game}</b>, the last 90 days").format(game=title)]
    rank, previous = 0, None
    for place, line in enumerate(board, 1):
        if (line.wins, line.points) != previous:
            rank, previous = place, (line.wins, line.points)
        if "points" in game.figures:
            second = ngettext("{n} point", "{n} points", line.points).format(n=line.points)
        elif "vp" in game.figures:  # a game's victory points are its points
            second = ngettext("{n} victory point", "{n} victory points", line.points).format(
                n=line.points)
        else:
            second = ngettext("{n} game", "{n} games", line.games).format(n=line.games)
        shown = [ngettext("{n} win", "{n} wins", line.wins).format(n=line.wins), second]
        if line.fewest is not None:
            shown.append(_("fewest chunks at an end: {n}").format(n=line.fewest))
        figures = " · ".join(shown)
        lines.append(
            _("{rank}. {name} — {figures}").format(
                rank=rank, name=user_text(line.name), figures=figures
            )
        )
    return "\n".join(lines)


def next_game(group: str, where: RoomId, user_id: int, look: Look) -> Outgoing:
    """The private message telling a subscriber that a lobby opened in their group."""
    text = _(
        "🔔 A new game is open in <b>{group}</b>. Join it with the button, or in the group.\n"
        "This was a one-time message: send /notify in the group to be told about the next one."
    ).format(group=user_text(group))
    join = Button(text=_("Join"), url=look.link(f"j{where}"))
    return Outgoing(chat_id=user_id, text=text, buttons=[[join]])
