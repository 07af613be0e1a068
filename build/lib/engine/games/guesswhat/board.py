"""The board and the deck: laying nine icons, replacing three, reshuffling the discards."""

from __future__ import annotations

from engine.games.guesswhat.context import Ctx
from engine.games.guesswhat.events import DeckReshuffled
from engine.games.guesswhat.icons import icons
from engine.games.guesswhat.model import BOARD_SIZE


def shuffle_deck(ctx: Ctx) -> None:
    """Put every icon, shuffled, into the draw pile."""
    state = ctx.state
    state.draw = list(range(len(icons())))
    ctx.rng.shuffle(state.draw)
    state.discard = []
    state.board = []


def draw_one(ctx: Ctx) -> int:
    """Draw an icon; an empty draw pile is first refilled with the shuffled discards (icons on
    the board are never among them: they are discarded only once they left the board)."""
    state = ctx.state
    if not state.draw:
        state.draw, state.discard = state.discard, []
        ctx.rng.shuffle(state.draw)
        ctx.emit(DeckReshuffled(icons=len(state.draw)))
    return state.draw.pop()


def lay_board(ctx: Ctx) -> None:
    """Replace the whole board with nine new icons (drawn before the old ones are discarded,
    so no icon of the old board comes straight back)."""
    state = ctx.state
    old = state.board
    state.board = [draw_one(ctx) for _ in range(BOARD_SIZE)]
    state.discard.extend(old)


def replace(ctx: Ctx, positions: list[int]) -> None:
    """Replace the icons at these board positions with new ones, then discard the old ones."""
    state = ctx.state
    old = [state.board[p] for p in positions]
    for position in positions:
        state.board[position] = draw_one(ctx)
    state.discard.extend(old)
