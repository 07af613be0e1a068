"""Picture benchmark: how long drawing a picture takes on one core, and how big it gets.

Each kind of picture is drawn for many inputs (3 to 10 players, names in several scripts with
emoji, long names, several decoys fooled per seat; Hues and Cues' board (with its phone view),
close-up and card with 3 to 20 cones, some sharing a cell, often near an edge; Guess What!'s
board and its reveal with up to nine guesses; Wunchunk's board of 5 to 8 per side, a third to
all of it filled; Hunch!'s matrix, up to four cards gone, and its reveal of 3 to 6 seats), each
in a language of the bot, as the worker draws them at delivery (PNG encoding included). The
first drawing of a process, which loads the fonts, is reported apart.

Prints `name=value` lines. Run: .venv/bin/python bench/pictures.py [pictures]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games.guesswhat.icons import icons  # noqa: E402
from engine.games.huescues import board  # noqa: E402
from engine.games.hunch import deck  # noqa: E402
from engine.games.wunchunk import board as hexes  # noqa: E402
from engine.settings import LANGUAGES  # noqa: E402
from tgbot import pictures  # noqa: E402
from tgbot.games.guesswhat.pictures import (  # noqa: E402
    GuessBoardPicture,
    GuessLine,
    GuessRevealPicture,
)
from tgbot.games.hintrigue.pictures import ResultRow, ResultsPicture, Tally  # noqa: E402
from tgbot.games.huescues.picture_parts import Cone  # noqa: E402
from tgbot.games.huescues.pictures import (  # noqa: E402
    HuesBoardPicture,
    HuesCardPicture,
    HuesCloseupPicture,
)
from tgbot.games.hunch.pictures import (  # noqa: E402
    MatrixPicture,
    RevealedHunch,
    RevealedSecret,
    RevealPicture,
)
from tgbot.games.wunchunk.pictures import Stone, WunchunkBoardPicture  # noqa: E402

NAMES = [
    "Ann", "Борис 🐻", "שרה כהן", "محمد", "Zoë ✨", "Pedro ❤️", "Jean-Baptiste de la Fontaine",
    "😀🎲🃏🌙", "Ludwig van Beethoven the Second of His Name", "李小龙", "<b>Bob</b> & co", "Ольга",
]  # fmt: skip


def results(rng: random.Random) -> ResultsPicture:
    """A results picture of a random game of 3–10 players."""
    seats = rng.randint(3, 10)
    names = rng.sample(NAMES, min(seats, len(NAMES)))
    points = sorted((rng.randint(0, 40) for _ in names), reverse=True)
    rows = []
    for index, (name, score) in enumerate(zip(names, points, strict=True)):
        others = [n for n in names if n != name]
        three = rng.sample(others, min(3, len(others)))
        rows.append(
            ResultRow(
                rank=1 + sum(p > score for p in points), name=name, points=score,
                finds=rng.randint(0, 8), stolen=rng.randint(0, 12), winner=score == points[0],
                fooled=[Tally(name=n, times=rng.randint(1, 4)) for n in three],
                fooled_by=[Tally(name=n, times=rng.randint(1, 3)) for n in rng.sample(others, 2)],
                status="left" if index == seats - 1 and seats > 3 else "playing",
            )
        )  # fmt: skip
    return ResultsPicture(rows=rows)


def cones(rng: random.Random, second: bool) -> list[Cone]:
    """The cones of 3–10 players after the first cue, or after both, some sharing a cell."""
    seats = rng.randint(3, 10)
    target = rng.randrange(board.CELLS)
    near = board.around(target, 2)
    out = []
    for seat in range(1, seats + 1):
        out.append(Cone(cell=rng.choice(near), seat=seat))
        if second:
            out.append(Cone(cell=rng.choice(near), seat=seat, second=True))
    return out


def hues_board(rng: random.Random) -> HuesBoardPicture:
    """The board after a round's cues: 3–20 cones, the frame around the chosen colour."""
    placed = cones(rng, rng.random() < 0.5)
    return HuesBoardPicture(cones=placed, frame=rng.choice(placed).cell)


def hues_closeup(rng: random.Random) -> HuesCloseupPicture:
    """The close-up around a chosen colour (often near an edge), with the first cones."""
    cell = rng.choice([rng.randrange(board.CELLS), rng.randrange(board.COLUMNS)])
    return HuesCloseupPicture(cell=cell, cones=cones(rng, False))


def hues_card(rng: random.Random) -> HuesCardPicture:
    """A card of four colours."""
    return HuesCardPicture(cells=rng.sample(range(board.CELLS), 4))


def guess_board(rng: random.Random) -> GuessBoardPicture:
    """Guess What!'s board: nine icons of the deck."""
    return GuessBoardPicture(icons=[i.emoji for i in rng.sample(icons(), 9)])


def guess_reveal(rng: random.Random) -> GuessRevealPicture:
    """Guess What!'s reveal with 2–9 guesses, right or wrong icon by icon, and a long clue."""
    board = [i.emoji for i in rng.sample(icons(), 9)]
    answer = [rng.choice(board[c * 3 : c * 3 + 3]) for c in range(3)]
    names = rng.sample(NAMES, rng.randint(3, 10))
    guesses = [
        GuessLine(name=name, icons=[rng.choice(board[c * 3 : c * 3 + 3]) for c in range(3)])
        for name in names[1:]
    ]
    clue = " ".join(rng.choice(["sea", "a long road home", "Людвиг", "שרה", "🎻"]) for _ in "123")
    return GuessRevealPicture(icons=board, answer=answer, active=names[0], clue=clue,
                              guesses=guesses)  # fmt: skip


def wunchunk_board(rng: random.Random) -> WunchunkBoardPicture:
    """Wunchunk's board of 5–8 per side, a third to all of it filled with 2–4 colours, the
    last turn's stones ringed and a turn being built."""
    n = rng.choice(hexes.SIZES)
    cells = list(hexes.cells(n))
    rng.shuffle(cells)
    seats = rng.randint(2, 4)
    filled = cells[: rng.randint(len(cells) // 3, len(cells))]
    marks = ["last"] * 3 + ["pending"] * 3
    return WunchunkBoardPicture(size=n, stones=[
        Stone(cell=cell, colour=rng.randrange(seats), mark=marks[i] if i < len(marks) else "")
        for i, cell in enumerate(filled)
    ])  # fmt: skip


def hunch_matrix(rng: random.Random) -> MatrixPicture:
    """Hunch!'s matrix: 12 cards of a language's deck, up to four of them gone."""
    cards: list[list[str] | None] = [
        list(card) for card in rng.sample(deck.targets(rng.choice(deck.languages())), 12)
    ]
    for place in rng.sample(range(12), rng.randint(0, 4)):
        cards[place] = None
    return MatrixPicture(cards=cards)


CLUES = ["Red", "Is it alive?", "Something you find in a kitchen at night", "Лето", "🎻 jazz",
         "שרה כהן", "Made of wood, mostly"]  # fmt: skip


def hunch_reveal(rng: random.Random) -> RevealPicture:
    """Hunch!'s reveal of round 3 with 3–6 seats: each seat's three hunches (a fourth bought
    now and then) on secrets of others, some right; each secret with 0–4 clues."""
    seats = rng.randint(3, 6)
    names = rng.sample(NAMES, seats)
    words = [w for card in deck.targets("en") for w in card]
    slots = 3 if seats <= 4 else 2
    hunches: dict[tuple[int, int], list[RevealedHunch]] = {}
    right = {(o, k): rng.random() < 0.4 for o in range(seats) for k in range(slots)}
    for guesser in range(seats):
        targets = [(o, k) for o in range(seats) if o != guesser for k in range(slots)]
        for target in rng.sample(targets, 3 + (rng.random() < 0.2)):
            hunches.setdefault(target, []).append(RevealedHunch(
                name=names[guesser], word=rng.choice(words),
                correct=right[target] and rng.random() < 0.6))  # fmt: skip
    secrets = [
        RevealedSecret(owner=names[owner], slot=slot + 1, easy=rng.random() < 0.1,
                       word=rng.choice(words) if any(h.correct for h in found) else None,
                       clues=[rng.choice(CLUES) + (" → yes" if rng.random() < 0.2 else "")
                              for _ in range(rng.randint(0, 4))], hunches=found)
        for (owner, slot), found in sorted(hunches.items())
    ]  # fmt: skip
    return RevealPicture(heading="Round 3: the hunches", secrets=secrets)


KINDS: dict[str, Callable[[random.Random], pictures.Picture]] = {
    "results": results, "hues_board": hues_board, "hues_closeup": hues_closeup,
    "hues_card": hues_card, "guess_board": guess_board, "guess_reveal": guess_reveal,
    "wunchunk_board": wunchunk_board, "hunch_matrix": hunch_matrix,
    "hunch_reveal": hunch_reveal,
}  # fmt: skip


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    largest = 0
    for kind, make in KINDS.items():
        rng = random.Random(7)
        began = time.perf_counter()
        largest = max(largest, len(pictures.render(make(rng), "en")))
        print(f"{kind}_first_render_ms={(time.perf_counter() - began) * 1000:.1f}")
        times = []
        biggest = 0
        for number in range(count):
            picture = make(rng)
            language = LANGUAGES[number % len(LANGUAGES)]
            began = time.perf_counter()
            data = pictures.render(picture, language)
            times.append((time.perf_counter() - began) * 1000)
            biggest = max(biggest, len(data))
        largest = max(largest, biggest)
        print(f"{kind}_pictures={count}")
        print(f"{kind}_render_ms_p50={statistics.median(times):.1f}")
        print(f"{kind}_render_ms_p99={percentile(times, 0.99):.1f}")
        print(f"{kind}_render_ms_max={max(times):.1f}")
        print(f"{kind}_bytes_max={biggest}")
    print(f"picture_bytes_max={largest}")


if __name__ == "__main__":
    main()
