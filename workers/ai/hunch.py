"""Hunch!'s AI seats (SPEC 11.4, 14): pure, seeded decisions from what one seat may see.

A seat decides from its `SeatView` alone (`decide(view, seed)`): the matrix, the clues shown
and where they lie, the auction, its own dealt cards, secrets and clue cards. It never looks
at the game's state, so it cannot read another seat's secret or hunch.

Its word knowledge is two tables of package data, no model:

- `hunch_clues.tsv`: the clues it writes and reads, each a key, a clue card category ("any":
  free choice only) and its text in the seven languages (`|` parts other ways to write it,
  read but never written). The question keys' meanings are `QUESTIONS` below.
- `hunch_words.tsv`: each target word's kind (animal, person, food, place, thing, plant,
  nature, story), its size (1 tiny … 5 huge) and the clue keys that fit it. The size gives
  the clues tiny, small, big and huge; the facts `flies` and `aquatic` answer questions.

What it does, phase by phase:

- Secrets: on each dealt card, the word that most clues fit (the easiest to clue: a guessed
  secret scores for its owner), seeded among equals.
- Clues: for each clue card, a clue of its category that fits many matrix words (a question
  that splits them most evenly), chosen among the best few by the seed, and never one the
  rules' own clue check refuses (`engine.games.hunch.words`). It never replaces a clue card:
  it decides once per phase, and could not see the card it would draw.
- Auctions: what a clue is worth to it is how much it narrows the matrix words fitting one of
  its own secrets (every clue already before that secret counted); it bids one more than the
  highest bid while that stays within its coins and the worth, and passes otherwise. A clue
  that does not fit its secret is worth nothing (it would mislead the others).
- Placing a bought clue, and the bargain round: the clue and secret worth most; a question
  is answered truthfully for that secret; in the bargain round it keeps a leftover clue
  worth something, or else takes the 2 coins (it never buys the advanced choices).
- Hunches: for each other seat's secret in play, the matrix words (not on its own dealt
  cards) are scored against the clues before that secret (+1 a clue that fits, −1.5 one that
  does not, 0 one it cannot read) and the best is named; its hunches go to the secrets whose
  best word stands out most.

A clue a person wrote is read in any language: its whole text as a known clue, else the
known clues among its words; a question it cannot read has no meaning (answered "no" if it
ever must place one, which it avoids: such a clue is worth nothing to it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine.games.hunch import deck, words
from engine.games.hunch.commands import (
    Bid,
    ChooseSecret,
    Command,
    KeepClue,
    PassBid,
    PlaceClue,
    PlaceHunch,
    TakeCoins,
    WriteClue,
)
from engine.games.hunch.model import REMOVED, Clue, Phase, State, card_of, word_id
from engine.games.hunch.views import SeatView, seat_view
from engine.model import Room, SeatStatus
from engine.rng import Rng
from workers.ai.mind import seed_for

LANGUAGES = ("en", "de", "es", "fr", "it", "pt", "ru")
"""The columns of `hunch_clues.tsv`."""
ANY = "any"
"""The category of clues written only on a free-choice card."""
FITS, MISFITS = 1.0, -1.5
"""A hunch's score for each clue before the secret that fits the word, or does not."""
WORTH_COINS = 10.0
"""Coins a clue is worth at most: what it adds to the chance that a guesser who reads the
clues before the secret names its word, times this."""
TOP_CLUES = 3
"""A clue is drawn among this many best of its category."""


@dataclass(frozen=True)
class ClueRow:
    key: str
    category: str
    texts: dict[str, tuple[str, ...]]
    """Per language: the text it writes first, then other ways to write it."""


@dataclass(frozen=True)
class Concept:
    word: int
    english: str
    kind: str
    size: int
    tags: frozenset[str]


def _size_tags(size: int) -> set[str]:
    tags = set()
    if size == 1:
        tags.add("tiny")
    if size <= 2:
        tags.add("small")
    if size >= 4:
        tags.add("big")
    if size == 5:
        tags.add("huge")
    return tags


QUESTIONS: dict[str, Callable[[Concept], bool]] = {
    "q_animal": lambda c: c.kind == "animal",
    "q_person": lambda c: c.kind == "person",
    "q_food": lambda c: c.kind == "food",
    "q_place": lambda c: c.kind == "place",
    "q_thing": lambda c: c.kind == "thing",
    "q_story": lambda c: c.kind == "story",
    "q_big": lambda c: c.size >= 4,
    "q_hand": lambda c: c.size <= 2,
    "q_flies": lambda c: "flies" in c.tags,
    "q_water": lambda c: "aquatic" in c.tags,
}
"""What each question clue asks of a target word: the truth its owner answers."""


def _rows(name: str) -> list[list[str]]:
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return [line.split("\t") for line in lines[1:]]  # the first is the header


@cache
def clue_rows() -> dict[str, ClueRow]:
    """Every clue of the table, by key."""
    rows: dict[str, ClueRow] = {}
    for key, category, *texts in _rows("hunch_clues.tsv"):
        if len(texts) != len(LANGUAGES):
            raise ValueError(f"a clue has a text in every language: {key}")
        parts = [tuple(part.strip() for part in text.split("|")) for text in texts]
        rows[key] = ClueRow(key, category, dict(zip(LANGUAGES, parts, strict=True)))
    missing = set(QUESTIONS) - set(rows)
    if missing:
        raise ValueError(f"questions without a text: {sorted(missing)}")
    return rows


@cache
def concepts() -> tuple[Concept, ...]:
    """What the AI knows of each target word, by word id (the English deck's words, checked)."""
    english = [w for card in deck.targets("en") for w in card]
    known = set(clue_rows()) | {"flies", "aquatic"}
    found: list[Concept] = []
    for number, word, kind, size, tags in _rows("hunch_words.tsv"):
        concept = Concept(int(number), word, kind, int(size),
                          frozenset(tags.split()) | _size_tags(int(size)))  # fmt: skip
        if concept.word != len(found) or english[concept.word] != word:
            raise ValueError(f"hunch_words.tsv is out of step with the deck at {word}")
        if not concept.tags <= known:
            raise ValueError(f"unknown clues for {word}: {sorted(concept.tags - known)}")
        found.append(concept)
    if len(found) != len(english):
        raise ValueError("hunch_words.tsv knows every target word")
    return tuple(found)


def truth(question: str, word: int) -> bool:
    """A question clue's true answer for a target word."""
    return QUESTIONS[question](concepts()[word])


def fits(key: str, word: int) -> bool:
    """Whether a clue of the table fits a target word (a question fits every word)."""
    if key in QUESTIONS:
        return True
    return key in concepts()[word].tags


def _normal(text: str) -> str:
    return " ".join(words.words_of(text))


@cache
def _index() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """Every way to write a clue, folded: whole texts, and texts of one word, to their keys."""
    whole: dict[str, set[str]] = {}
    single: dict[str, set[str]] = {}
    for row in clue_rows().values():
        for texts in row.texts.values():
            for text in texts:
                normal = _normal(text)
                if not normal:
                    continue
                whole.setdefault(normal, set()).add(row.key)
                if " " not in normal and row.key not in QUESTIONS:
                    single.setdefault(normal, set()).add(row.key)
    return ({k: frozenset(v) for k, v in whole.items()},
            {k: frozenset(v) for k, v in single.items()})  # fmt: skip


@cache
def read(text: str) -> frozenset[str]:
    """The clue keys a text means: the whole text as one clue of the table (in any language),
    else the one-word clues among its words; none when it means nothing known."""
    normal = _normal(text)
    whole, single = _index()
    if normal in whole:
        return whole[normal]
    found: set[str] = set()
    for word in normal.split():
        found |= single.get(word, frozenset())
    return frozenset(found)


def clue_truth(clue: Clue, word: int) -> bool | None:
    """A question clue's true answer for a word, as far as the AI reads the question (None: it
    cannot read it)."""
    keys = read(clue.text)
    questions = [k for k in keys if k in QUESTIONS]
    if questions:
        return truth(sorted(questions)[0], word)
    if keys:  # "Is it red?": a known clue among its words
        return any(fits(k, word) for k in keys)
    return None


def consistent(clue: Clue, word: int) -> bool | None:
    """Whether a clue lying before a secret agrees with the secret being `word` (None: the AI
    cannot tell: an unread clue, or a question without an answer)."""
    if deck.is_question(clue.card):
        if clue.answer is None:
            return None
        told = clue_truth(clue, word)
        return None if told is None else told == clue.answer
    keys = read(clue.text)
    if not keys:
        return None
    return any(fits(k, word) for k in keys)


# What the seat sees


def matrix_ids(view: SeatView) -> list[int]:
    """The word ids of the matrix now (cards gone left out)."""
    return [word_id(card, p) for card in view.matrix if card != REMOVED for p in range(3)]


def matrix_texts(view: SeatView) -> list[str]:
    """The matrix words as the rules' clue check compares them."""
    return [deck.word(view.language, w) for w in matrix_ids(view)]


def passes_check(text: str, matrix: Iterable[str]) -> bool:
    """Whether the rules accept a clue (not empty, not too long, naming no matrix word): the
    rules' own functions, as `clues.check_clue` calls them."""
    return (not words.is_empty(text) and not words.too_long(text)
            and words.matrix_word_in(text, matrix) is None)  # fmt: skip


def _user(view: SeatView) -> int:
    return view.seats[view.seat].user_id


def _own_in_play(view: SeatView) -> list[int]:
    return [line.slot for line in view.seats[view.seat].secrets
            if line.status == "hidden" and view.own_secrets[line.slot] is not None]  # fmt: skip


def _clues_before(view: SeatView, owner: int, slot: int) -> list[Clue]:
    return [c for c in view.clues if c.owner == owner and c.secret == slot]


# Secrets


def choose_secrets(view: SeatView, rng: Rng) -> list[Command]:
    """A word on each dealt card not chosen yet: the one that most clues fit."""
    commands: list[Command] = []
    for slot, card in enumerate(view.dealt):
        if view.own_secrets[slot] is not None:
            continue
        richness = [len(concepts()[word_id(card, p)].tags) for p in range(3)]
        best = [p for p in range(3) if richness[p] == max(richness)]
        commands.append(ChooseSecret(user_id=_user(view), round_no=view.step, card=slot,
                                     word=best[rng.below(len(best))]))  # fmt: skip
    return commands


# Clues


def clue_score(key: str, matrix: Sequence[int]) -> float:
    """How good a clue is to offer: the matrix words it fits (a question: the smaller side of
    its yes and no), many but not nearly all."""
    if key in QUESTIONS:
        yes = sum(truth(key, w) for w in matrix)
        return float(min(yes, len(matrix) - yes))
    count = sum(fits(key, w) for w in matrix)
    return float(count) if count <= len(matrix) // 3 else len(matrix) / 3 - count / 10


def candidates_for(category: str) -> list[ClueRow]:
    """The clues a card of `category` takes."""
    rows = clue_rows().values()
    if category == deck.QUESTION:
        return [r for r in rows if r.key in QUESTIONS]
    if category == deck.FREE_CHOICE:
        return [r for r in rows if r.key not in QUESTIONS]
    return [r for r in rows if r.category == category]


def write_clue(category: str, view: SeatView, rng: Rng, taken: set[str]) -> str | None:
    """A clue for a card of `category`: one of the best few that the rules accept (any
    category's, if none of its own passes); None when no clue of the table passes."""
    matrix = matrix_ids(view)
    texts = matrix_texts(view)
    language = view.language if view.language in LANGUAGES else "en"
    for pool in (candidates_for(category), candidates_for(deck.FREE_CHOICE)):
        usable = [(clue_score(r.key, matrix), r.key, r.texts[language][0]) for r in pool
                  if r.key not in taken and passes_check(r.texts[language][0], texts)]  # fmt: skip
        if usable:
            usable.sort(key=lambda item: (-item[0], item[1]))
            best = usable[0][0]
            top = [u for u in usable[:TOP_CLUES] if u[0] >= best * 0.6]
            _, key, text = top[rng.below(len(top))]
            taken.add(key)
            return text
    return None


def write_clues(view: SeatView, rng: Rng) -> list[Command]:
    """A clue on each of its clue cards not written yet."""
    taken: set[str] = set()
    for text in view.texts:
        if text is not None:
            taken |= read(text)
    commands: list[Command] = []
    for index, card in enumerate(view.hand):
        if view.texts[index] is not None:
            continue
        text = write_clue(deck.category_of(card), view, rng, taken)
        if text is not None:
            commands.append(WriteClue(user_id=_user(view), round_no=view.step, card=index,
                                      text=text))  # fmt: skip
    return commands


# Clues' worth to a secret


def answer_for(clue: Clue, word: int) -> bool | None:
    """What the owner of `word` answers to a question clue: the truth (no, for a question it
    cannot read); None for another clue."""
    if not deck.is_question(clue.card):
        return None
    told = clue_truth(clue, word)
    return bool(told)


def worth(view: SeatView, clue: Clue, slot: int) -> float:
    """What putting `clue` before its own secret `slot` adds to the chance that a guesser who
    reads every clue there names it (0: none, or it would not fit)."""
    secret = view.own_secrets[slot]
    assert secret is not None
    placed = clue.model_copy(update={"owner": view.seat, "secret": slot,
                                     "answer": answer_for(clue, secret)})  # fmt: skip
    if consistent(placed, secret) is not True:
        return 0.0
    before = _clues_before(view, view.seat, slot)
    matrix = matrix_ids(view)

    def agreeing(clues: list[Clue]) -> int:
        return sum(all(consistent(c, w) is not False for c in clues) for w in matrix)

    was, now = agreeing(before), agreeing([*before, placed])
    return max(0.0, 1 / max(now, 1) - 1 / max(was, 1))


def best_placement(view: SeatView, clues: Sequence[Clue]) -> tuple[float, Clue, int] | None:
    """The clue and own secret worth most together (the first on a tie)."""
    best: tuple[float, Clue, int] | None = None
    for clue in clues:
        for slot in _own_in_play(view):
            value = worth(view, clue, slot)
            if best is None or value > best[0]:
                best = (value, clue, slot)
    return best


def _offered(view: SeatView, seller: int) -> list[Clue]:
    return [c for c in view.clues
            if c.writer == seller and c.owner is None and c.round == view.game_round]  # fmt: skip


def bid(view: SeatView) -> list[Command]:
    """Raise by one while the seller's best clue for its secrets is worth it; else pass."""
    auction = view.auction
    assert auction is not None
    coins = view.seats[view.seat].coins
    best = best_placement(view, _offered(view, auction.seller))
    limit = 0 if best is None or best[0] <= 0 else max(1, round(best[0] * WORTH_COINS))
    high = auction.high()
    amount = (high[1] if high is not None else 0) + 1
    if amount <= min(limit, coins):
        return [Bid(user_id=_user(view), round_no=view.step, amount=amount)]
    return [PassBid(user_id=_user(view), round_no=view.step)]


def place_bought(view: SeatView) -> list[Command]:
    """Put the seller's clue worth most before its secret, a question answered truthfully."""
    auction = view.auction
    assert auction is not None
    best = best_placement(view, _offered(view, auction.seller))
    if best is None:
        return []
    _, clue, slot = best
    secret = view.own_secrets[slot]
    assert secret is not None
    return [PlaceClue(user_id=_user(view), round_no=view.step, clue=clue.id, secret=slot,
                      answer=answer_for(clue, secret))]  # fmt: skip


def bargain(view: SeatView) -> list[Command]:
    """Keep the leftover clue worth most before a secret, or take the 2 coins."""
    leftovers = [c for c in view.clues if c.owner is None and c.round == view.game_round
                 and c.writer != view.seat]  # fmt: skip
    best = best_placement(view, leftovers)
    if best is None or best[0] <= 0:
        return [TakeCoins(user_id=_user(view), round_no=view.step)]
    _, clue, slot = best
    secret = view.own_secrets[slot]
    assert secret is not None
    return [KeepClue(user_id=_user(view), round_no=view.step, clue=clue.id, secret=slot,
                     answer=answer_for(clue, secret))]  # fmt: skip


# Hunches


def hunch_scores(view: SeatView, owner: int, slot: int) -> dict[int, float]:
    """Each word another seat's secret may be (a matrix word not on its own dealt cards), by
    how well the clues before that secret fit it."""
    own_cards = set(view.dealt)
    clues = _clues_before(view, owner, slot)
    scores: dict[int, float] = {}
    for word in matrix_ids(view):
        if card_of(word) in own_cards:
            continue
        score = 0.0
        for clue in clues:
            agrees = consistent(clue, word)
            if agrees is not None:
                score += FITS if agrees else MISFITS
        scores[word] = score
    return scores


def place_hunches(view: SeatView, rng: Rng) -> list[Command]:
    """Its hunches still to place, each on a different secret of another seat in play: the
    best word of the secrets whose best word stands out most."""
    placed = {(h.owner, h.secret) for h in view.hunches}
    left = view.allowance - len(view.hunches)
    choices: list[tuple[float, float, int, int, int]] = []
    for line in view.seats:
        if line.index == view.seat or line.status is SeatStatus.LEFT:
            continue
        for secret in line.secrets:
            if secret.status != "hidden" or (line.index, secret.slot) in placed:
                continue
            scores = hunch_scores(view, line.index, secret.slot)
            if not scores:
                continue
            top = max(scores.values())
            best = sorted(w for w, s in scores.items() if s == top)
            word = best[rng.below(len(best))]
            choices.append((1 / len(best), rng.next64() / 2**64, line.index, secret.slot, word))
    choices.sort(key=lambda c: (-c[0], c[1]))
    return [PlaceHunch(user_id=_user(view), round_no=view.step, owner=owner, secret=slot,
                       word=word)
            for _, _, owner, slot, word in choices[: max(left, 0)]]  # fmt: skip


# The seat's decision


def decide(view: SeatView, seed: int) -> list[Command]:
    """The commands the AI at the view's seat owes the game now, in order (empty: it owes
    nothing), from the seat's view alone."""
    if view.seat not in view.waiting:
        return []
    rng = Rng(seed)
    phase = view.phase
    if phase is Phase.SECRETS:
        return choose_secrets(view, rng)
    if phase is Phase.CLUES:
        return write_clues(view, rng)
    if phase is Phase.AUCTION and view.auction is not None:
        return bid(view)
    if phase is Phase.PLACE and view.auction is not None:
        return place_bought(view)
    if phase is Phase.BARGAIN:
        return bargain(view)
    if phase is Phase.HUNCH:
        return place_hunches(view, rng)
    return []


def view_seed(view: SeatView, *identity: object) -> int:
    """The seed of a seat's decision in this step: `identity` names the game (its chat, topic
    and game id), so the same decision asked twice is the same."""
    return seed_for(*identity, view.step, view.phase.value, view.seat)


def decide_in(state: State, seat: int, *identity: object) -> list[Command]:
    """`decide` for a seat of a game: its view, and the seed of this step."""
    view = seat_view(state, seat)
    return decide(view, view_seed(view, *identity))


def in_room(room: Room, seat: int) -> list[Any]:
    """What the AI at `seat` does now in the room's game (its mind as the workers call it)."""
    state = room.play
    if not isinstance(state, State):
        return []
    return list(decide_in(state, seat, room.chat_id, room.topic, room.game_id))


__all__ = [
    "QUESTIONS",
    "clue_rows",
    "concepts",
    "consistent",
    "decide",
    "decide_in",
    "fits",
    "in_room",
    "passes_check",
    "read",
    "truth",
    "view_seed",
]
