"""What the group may see and what one seat may see.

The group sees the matrix (once the secrets are chosen), every clue once shown and where it
lies, the auctions, coins and VP, who is awaited and how many hunches each seat has placed:
never a secret's word before it is guessed (or the game is over), never a hunch before its
reveal, never a clue before the clues are shown. A seat sees, besides, its own dealt cards and
secrets, its clue cards and clues being written, and its hunches."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.games.hunch import deck
from engine.games.hunch.model import Auction, Clue, Hunch, Phase, RevealLine, State
from engine.games.hunch.turns import standings, winners
from engine.model import SeatStatus


class SecretLine(BaseModel):
    """A secret as the group sees it: its word only once guessed, or at the end."""

    model_config = ConfigDict(frozen=True)

    slot: int
    status: str
    word: int | None
    easy: bool


class SeatLine(BaseModel):
    """One seat as the whole group sees it."""

    model_config = ConfigDict(frozen=True)

    index: int
    user_id: int
    name: str
    status: SeatStatus
    coins: int
    vp: int
    secrets: list[SecretLine]
    clues_written: int
    """Clues written so far in the clue phase (not what they say)."""
    hunches_placed: int
    """Hunches placed so far in the hunch phase (not where, nor which word)."""


class GroupView(BaseModel):
    """The game as shown in the group chat."""

    model_config = ConfigDict(frozen=True)

    phase: Phase
    language: str
    game_round: int
    step: int | None
    starting: int
    matrix: list[int]
    """The target cards in their places (−1: a card gone), empty while secrets are chosen."""
    seats: list[SeatLine]
    clues: list[Clue]
    auction: Auction | None
    waiting: list[int]
    revealed: list[RevealLine]
    deadline: float | None
    standings: list[int]
    winners: list[int]
    guessed_total: int
    end_reason: str | None


class SeatView(GroupView):
    """The game as one seat sees it in its private chat."""

    seat: int
    own_secrets: list[int | None]
    """The word id of each of its secrets (None: not chosen yet)."""
    dealt: list[int]
    """Its dealt target cards, in slot order."""
    hand: list[int]
    """Its clue cards in the clue phase."""
    texts: list[str | None]
    replaced: bool
    hunches: list[Hunch]
    allowance: int


def _secret_line(state: State, slot: int, secret_word: int | None, status: str,
                 easy: bool) -> SecretLine:  # fmt: skip
    told = status == "guessed" or state.phase is Phase.FINISHED
    return SecretLine(slot=slot, status=status, word=secret_word if told else None, easy=easy)


def group_view(state: State) -> GroupView:
    hiding = state.phase is Phase.SECRETS
    return GroupView(
        phase=state.phase,
        language=state.language,
        game_round=state.game_round,
        step=state.round.no if state.round is not None else None,
        starting=state.starting,
        matrix=[] if hiding else list(state.matrix),
        seats=[
            SeatLine(
                index=i,
                user_id=s.user_id,
                name=s.name,
                status=s.status,
                coins=s.coins,
                vp=s.vp,
                secrets=[_secret_line(state, k, x.word_id, x.status, x.easy)
                         for k, x in enumerate(s.secrets)],  # fmt: skip
                clues_written=sum(1 for t in s.texts if t),
                hunches_placed=len(s.hunches),
            )
            for i, s in enumerate(state.seats)
        ],
        clues=[c.model_copy() for c in state.clues],
        auction=state.auction.model_copy(deep=True) if state.auction is not None else None,
        waiting=state.waiting_for(),
        revealed=[line.model_copy(deep=True) for line in state.revealed],
        deadline=state.deadline,
        standings=standings(state),
        winners=winners(state) if state.phase is Phase.FINISHED else [],
        guessed_total=state.guessed_total,
        end_reason=state.end_reason,
    )


def seat_view(state: State, seat: int) -> SeatView:
    group = group_view(state)
    own = state.seats[seat]
    return SeatView(
        **dict(group),
        seat=seat,
        own_secrets=[secret.word_id for secret in own.secrets],
        dealt=[secret.card for secret in own.secrets],
        hand=list(own.hand),
        texts=list(own.texts),
        replaced=own.replaced,
        hunches=[h.model_copy() for h in own.hunches],
        allowance=state.allowance(seat) if state.phase is Phase.HUNCH else 0,
    )


def words_of_matrix(state: State) -> list[tuple[str, str, str] | None]:
    """The matrix's cards as words of the game's language (None: a card gone)."""
    cards = deck.targets(state.language)
    return [cards[card] if card >= 0 else None for card in state.matrix]
