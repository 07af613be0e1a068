"""Hues and Cues decisions of an AI seat: pure, deterministic functions of what the seat may
know (its card, the cues, the first cones once shown), the room's language and a seed.

`colours.tsv` holds one colour-evoking word a line (things, foods, nature, materials; never a
basic colour word) with its sRGB value and its word in the seven languages (`-`: none fits in
that language; further forms for reading after `|`). Colours are compared in CIELAB by
CIEDE2000 (`colourspace`), as people see them rather than as the screen stores them.

- Reading a cue (`read`): any language's word of the table means its colour (so the AI reads
  people's cues in every language), with "light"/"dark"-like words, plural and adjective
  endings, compounds (`hellblau`, `светло-зелёный`) and the basic colour words themselves
  ("reddish"); a cue it cannot read means no colour.
- A guesser (`place_first`, `place_second`) draws a cell from a soft choice (a Gumbel draw,
  temperature `Style.temperature`) over the ΔE of each cell to the cue's colour. Its second
  cone weighs the second cue first, the first cue a little and the first cones a little (the
  cue giver saw them), and never lands on a cell holding a first cone.
- The cue giver (`choose_colour`, `choose_second`) scores a cue by the points that guessers
  reading it like this would score on average, picks the card's colour the table describes
  best (with seeded variety among the near-best) and says the best cue not refused by the
  game's rules; its second cue is a word or a "light"/"dark" form that moves the cones toward
  the chosen cell, or none when every first cone is already in the frame.
- `decide(state, seat, language, seed)`: the game's commands the seat owes now, from what its
  seat may see (`seat_view`) and the game's earlier cues; every cue is asked of the game's own
  check first (`check_cue`), so the engine never refuses one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from engine.errors import RuleError
from engine.games.huescues import board
from engine.games.huescues.commands import (
    ChooseCell,
    ChooseColour,
    Command,
    ConfirmCone,
    GiveCue,
    NoSecondCue,
)
from engine.games.huescues.cues import check_cue
from engine.games.huescues.model import Phase, State
from engine.games.huescues.views import seat_view
from engine.model import Room
from engine.rng import Rng
from workers.ai.colourspace import delta_e, hex_rgb, lab
from workers.ai.mind import seed_for
from workers.ai.vocab import LANGUAGES, normalise

Array = npt.NDArray[np.float64]
Lab = tuple[float, float, float]
Refuses = Callable[[str], bool]
"""The game's check of a cue in the room (its forbidden words, cells, earlier cues): whether
it refuses this text."""

NONE = "-"
_WORD = re.compile(r"[^\W\d_]+")
_CUE_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")


@dataclass(frozen=True)
class Style:
    """How an AI plays Hues and Cues."""

    temperature: float = 3.0
    """The softness of a guesser's choice, in ΔE00: a cell this much farther from the cue's
    colour than the nearest is e (2.7) times less likely to be taken. At 3, AI guessers put
    about 89 % of their cones within two cells of an AI cue giver's colour and 16 % on it
    (`bench/ai.py`)."""
    first_weight: float = 0.3
    """The weight of the first cue's colour in the choice of a second cone."""
    cone_pull: float = 0.6
    """ΔE00 added per cell of distance (up to 5) from the nearest first cone, in the choice of
    a second cone: the first cones narrow where the colour is."""
    colour_slack: float = 0.85
    """The cue giver takes a card colour whose best cue scores at least this share of the
    best one's (one of them, by the seeded generator)."""
    cue_slack: float = 0.92
    """...and one of the two best cues for it when the second scores at least this share."""


DEFAULT_STYLE = Style()


class Entry(NamedTuple):
    """One line of the colour table."""

    number: int
    rgb: tuple[int, int, int]
    words: dict[str, str]
    """What the AI says in each language ("" when no word fits there)."""
    forms: dict[str, tuple[str, ...]]
    """Everything read as this colour, in each language (the word first)."""


class Modifier(NamedTuple):
    """A word that makes a colour lighter or darker: how, and how to say it."""

    name: str
    lightness: float
    chroma: float
    templates: dict[str, str]
    reading: tuple[str, ...]
    """Normalised stems read as this modifier, in any language."""


MODIFIERS = (
    Modifier(
        "light", 16.0, 0.85,
        {"en": "light {}", "it": "{} chiaro", "es": "{} claro", "fr": "{} clair",
         "de": "{} hell", "pt": "{} claro"},
        ("light", "chiar", "clar", "clair", "hell", "светл"),
    ),
    Modifier(
        "pale", 14.0, 0.6, {},
        ("pale", "pallid", "palid", "blass", "бледн", "pastel"),
    ),
    Modifier(
        "dark", -16.0, 1.0,
        {"en": "dark {}", "it": "{} scuro", "es": "{} oscuro", "fr": "{} foncé",
         "de": "{} dunkel", "pt": "{} escuro"},
        ("dark", "deep", "scur", "oscur", "fonce", "sombr", "dunkel", "escur", "темн"),
    ),
)  # fmt: skip
SAID_MODIFIERS = tuple(m for m in MODIFIERS if m.templates)

# The basic colour words (the forbidden cues), read but never said: a person may write
# "reddish", "rötlich" or "светло-зелёный". Normalised stems; a word starting with one reads
# as the colour.
BASIC = (
    ((210, 35, 40), "red redd ross roj roug rot vermelh красн"),
    ((240, 130, 20), "orange aranc naranj orang laranj оранж рыж"),
    ((245, 215, 20), "yellow giall amarill jaun gelb amarel желт"),
    ((40, 165, 70), "green verd vert grun зелен"),
    ((30, 90, 210), "blue blu azul bleu blau син"),
    ((120, 195, 240), "azzurr celest голуб"),
    ((125, 45, 165), "purpl violet viol porpor morad purpur pourpr lila roxo roxa фиолет пурпур"),
    ((245, 140, 180), "pink rosa rosad rose розов"),
    ((120, 75, 40), "brown marron marrom brun braun castanh коричн бур"),
    ((138, 138, 138), "grey gray grigi gris grau cinz сер"),
    ((248, 248, 248), "white bianc blanc weiss branc бел"),
    ((20, 20, 20), "black ner negr noir schwarz pret черн"),
)


def language_of(language: str) -> str:
    """The table's language for a room's (English when the table does not speak it)."""
    return language if language in LANGUAGES else "en"


def tokens(text: str) -> list[str]:
    """A text's words, normalised (case, accents, `ё`), split at hyphens and apostrophes."""
    return _WORD.findall(normalise(text))


def cue_words(text: str) -> int:
    """How many words a cue has, as the game counts them (letters or digits, joined by
    hyphens or apostrophes inside a word)."""
    return len(_CUE_WORD.findall(text))


@cache
def entries() -> tuple[Entry, ...]:
    """The colour table, in the order of its data file."""
    text = resources.files(__package__).joinpath("colours.tsv").read_text(encoding="utf-8")
    lines = text.splitlines()
    header = tuple(lines[0].split("\t"))
    if header != ("rgb", *LANGUAGES):
        raise ValueError(f"colours.tsv: the header is {header}")
    table: list[Entry] = []
    for line_no, line in enumerate(lines[1:], start=2):
        cells = [cell.strip() for cell in line.split("\t")]
        if len(cells) != len(header) or not all(cells):
            raise ValueError(f"colours.tsv line {line_no}: a colour and one text per language")
        forms = {
            language: tuple(f.strip() for f in cell.split("|") if f.strip() != NONE)
            for language, cell in zip(LANGUAGES, cells[1:], strict=True)
        }
        said = {language: f[0] if f else "" for language, f in forms.items()}
        table.append(Entry(len(table), hex_rgb(cells[0]), said, forms))
    return tuple(table)


@cache
def board_lab() -> Array:
    """Every cell's colour in CIELAB, cell by cell."""
    return lab(board.colours())


@cache
def _distances() -> npt.NDArray[np.int64]:
    """The Chebyshev distance between every two cells (`board.distance`, as a matrix)."""
    rows = np.arange(board.CELLS) // board.COLUMNS
    columns = np.arange(board.CELLS) % board.COLUMNS
    return np.asarray(
        np.maximum(
            np.abs(rows[:, None] - rows[None, :]), np.abs(columns[:, None] - columns[None, :])
        ),
        dtype=np.int64,
    )


@cache
def _points() -> Array:
    """The points of a cone on cell i when the chosen cell is j (3, 2, 1 at distance 0, 1,
    2), as a matrix."""
    d = _distances()
    return np.where(d <= 2, 3 - d, 0).astype(np.float64)


def shade(colour: Array, modifier: Modifier) -> Array:
    """A CIELAB colour made lighter or darker (and paler) by a modifier."""
    out = np.array(colour, dtype=np.float64).reshape(3)
    out[0] = min(100.0, max(0.0, out[0] + modifier.lightness))
    out[1:] *= modifier.chroma
    return out


@cache
def variants() -> tuple[Array, Array]:
    """Every colour the AI can say, as rows: each entry as is, then each entry with each said
    modifier (row `entry + k × len(entries)` for the k-th), in CIELAB; and their ΔE00 to every
    cell (rows × 480)."""
    base = _entry_lab()
    rows = [base] + [np.stack([shade(c, m) for c in base]) for m in SAID_MODIFIERS]
    colours = np.concatenate(rows)
    colours.setflags(write=False)
    differences = delta_e(colours, board_lab())
    differences.setflags(write=False)
    return colours, differences


class Phrase(NamedTuple):
    """Something the AI can say: its text, the row of its colour in `variants`, its words."""

    text: str
    row: int
    words: int


@cache
def phrases(language: str) -> tuple[Phrase, ...]:
    """Everything the AI can say in a language: each table word, then each "light"/"dark"
    form of them."""
    language = language_of(language)
    count = len(entries())
    said: list[Phrase] = []
    for e in entries():
        if e.words[language]:
            said.append(Phrase(e.words[language], e.number, cue_words(e.words[language])))
    for k, modifier in enumerate(SAID_MODIFIERS, start=1):
        template = modifier.templates.get(language)
        if template is None:
            continue
        for e in entries():
            if e.words[language]:
                text = template.format(e.words[language])
                said.append(Phrase(text, k * count + e.number, cue_words(text)))
    return tuple(said)


# -- reading ------------------------------------------------------------------------------


@cache
def _reading_tables() -> tuple[dict[str, int], list[tuple[str, int]], list[tuple[str, int]]]:
    """Phrases of the table (normalised) → entry; single words (longest first) for reading
    by prefix; basic colour stems (longest first) → their number in BASIC."""
    exact: dict[str, int] = {}
    for e in entries():
        for forms in e.forms.values():
            for form in forms:
                exact.setdefault(" ".join(tokens(form)), e.number)
    singles = sorted(((k, v) for k, v in exact.items() if " " not in k and len(k) >= 4),
                     key=lambda kv: (-len(kv[0]), kv[0]))  # fmt: skip
    stems = sorted(
        ((normalise(s), i) for i, (_, line) in enumerate(BASIC) for s in line.split()),
        key=lambda kv: (-len(kv[0]), kv[0]),
    )
    return exact, singles, stems


@cache
def _entry_lab() -> Array:
    return lab([e.rgb for e in entries()])


@cache
def _basic_lab() -> Array:
    return lab([rgb for rgb, _ in BASIC])


def _modifier(word: str) -> Modifier | None:
    for modifier in MODIFIERS:
        if any(word.startswith(stem) for stem in modifier.reading):
            return modifier
    return None


def _word_colour(word: str, compound: bool = True) -> Array | None:
    """The colour one normalised word names: a table word or a form of one (plural, adjective,
    a compound starting with it), else a basic colour word or a word made from one, else a
    compound of a table word and another colour word (`skyblue`)."""
    exact, singles, stems = _reading_tables()
    if word in exact:
        return np.asarray(_entry_lab()[exact[word]])
    for form, number in singles:
        if word.startswith(form) or _inflected(word, form):
            return np.asarray(_entry_lab()[number])
    for ending in ("s", "es"):
        if word.endswith(ending) and word[: -len(ending)] in exact:  # `uvas`, `mares`
            return np.asarray(_entry_lab()[exact[word[: -len(ending)]]])
    for stem, number in stems:
        if word.startswith(stem) and (len(stem) >= 4 or len(word) <= len(stem) + 5):
            return np.asarray(_basic_lab()[number])
    if compound:
        for split in range(3, len(word) - 2):
            if word[:split] in exact:
                rest = _word_colour(word[split:], compound=False)
                if rest is not None:
                    return np.asarray((_entry_lab()[exact[word[:split]]] + rest) / 2)
    return None


def _inflected(word: str, form: str) -> bool:
    """Whether a word may be another ending of a table word: `ciliegie` for `ciliegia`,
    `морская` for `морской`."""
    if len(form) < 5 or abs(len(word) - len(form)) > 2:
        return False
    return _common_prefix(word, form) >= len(form) - (1 if len(form) < 7 else 2)


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _parse(text: str) -> tuple[list[Array], list[Modifier]]:
    """The colours a cue names and the modifiers it says, in any of the table's languages."""
    said = tokens(text)
    exact, _, _ = _reading_tables()
    whole = " ".join(said)
    if whole in exact:
        return [_entry_lab()[exact[whole]]], []
    found: list[Array] = []
    shifts: list[Modifier] = []
    i = 0
    while i < len(said):
        pair = " ".join(said[i : i + 2])
        if i + 1 < len(said) and pair in exact:
            found.append(_entry_lab()[exact[pair]])
            i += 2
            continue
        word = said[i]
        i += 1
        colour = _word_colour(word)
        modifier = _modifier(word)
        if modifier is not None and colour is None:
            shifts.append(modifier)
            rest = next((word[len(s) :] for s in modifier.reading if word.startswith(s)), "")
            rest = rest.removeprefix("o").removeprefix("e") if len(rest) > 3 else rest
            inner = _word_colour(rest) if len(rest) >= 3 else None
            if inner is not None:
                found.append(inner)
            continue
        if colour is not None:
            found.append(colour)
    return found, shifts


def read(text: str, before: str | None = None) -> Lab | None:
    """The colour a cue names (CIELAB), in any of the table's languages; None when the cue
    says no colour the AI knows.

    A phrase of the table is read whole (`слоновая кость`); otherwise each word is read on its
    own, the colours found are averaged and the modifiers ("light", "scuro", "dunkel"…) shift
    the result; a compound such as `hellblau` is a modifier and a colour. A second cue that
    only says "lighter" or "più scuro" shifts the cue said `before` it."""
    found, shifts = _parse(text)
    if not found and shifts and before is not None:
        found, _ = _parse(before)
    if not found:
        return None
    colour = np.mean(np.stack(found), axis=0)
    for modifier in shifts:
        colour = shade(colour, modifier)
    return _as_lab(colour)


def _as_lab(colour: Array) -> Lab:
    return float(colour[0]), float(colour[1]), float(colour[2])


def cell_differences(colour: Lab) -> Array:
    """The ΔE00 from a colour to every cell."""
    return np.asarray(delta_e([colour], board_lab())[0])


# -- guessing -----------------------------------------------------------------------------


def _gumbel(rng: Rng, count: int) -> Array:
    uniform = np.array([(rng.next64() >> 11) / 2**53 for _ in range(count)])
    return np.asarray(-np.log(-np.log(np.clip(uniform, 1e-12, 1 - 1e-12))))


def _draw(scores: Array, rng: Rng, temperature: float) -> int:
    """A soft choice of the lowest score: cell i with probability ∝ exp(−score_i / T)."""
    noisy = np.where(np.isfinite(scores), scores / temperature - _gumbel(rng, len(scores)), np.inf)
    return int(np.argmin(noisy))


def first_scores(cue: str) -> Array | None:
    """How far each cell is from the first cue's colour (None: the cue names no colour)."""
    colour = read(cue)
    return None if colour is None else cell_differences(colour)


def second_scores(
    first_cue: str, second_cue: str, first_cones: Collection[int], style: Style = DEFAULT_STYLE
) -> Array:
    """How unlikely each cell is for a second cone (lower is likelier; a first cone's cell is
    infinitely so)."""
    colour = read(second_cue, before=first_cue)
    second = None if colour is None else cell_differences(colour)
    return _second(first_scores(first_cue), second, first_cones, style)


def _cone_distance(first_cones: Collection[int]) -> Array:
    if not first_cones:
        return np.zeros(board.CELLS)
    return np.asarray(np.min(_distances()[:, sorted(set(first_cones))], axis=1), dtype=np.float64)


def _second(
    first: Array | None, second: Array | None, first_cones: Collection[int], style: Style
) -> Array:
    near = _cone_distance(first_cones)
    if second is not None:
        scores = second + (style.first_weight * first if first is not None else 0.0)
        scores = scores + style.cone_pull * np.minimum(near, 5)
    elif first is not None:
        scores = first + 4 * style.cone_pull * np.minimum(near, 5)
    else:  # neither cue says a colour the AI knows: next to the first cones
        scores = 3 * style.temperature * near
    scores = np.array(scores, dtype=np.float64)
    scores[..., sorted(set(first_cones))] = np.inf
    return scores


def place_first(cue: str, seed: int, style: Style = DEFAULT_STYLE) -> int:
    """A guesser's first cone for the first cue (anywhere, when the cue names no colour the AI
    knows)."""
    scores = first_scores(cue)
    rng = Rng(seed)
    if scores is None:
        return rng.below(board.CELLS)
    return _draw(scores, rng, style.temperature)


def place_second(
    first_cue: str,
    second_cue: str,
    first_cones: Collection[int],
    seed: int,
    style: Style = DEFAULT_STYLE,
) -> int:
    """A guesser's second cone: near the second cue's colour, a little toward the first cue's
    and the first cones, never on a first cone's cell."""
    scores = second_scores(first_cue, second_cue, first_cones, style)
    if not np.isfinite(scores).any():
        raise ValueError("every cell holds a first cone")
    return _draw(scores, Rng(seed), style.temperature)


# -- giving cues --------------------------------------------------------------------------


def _softmax_rows(scores: Array, temperature: float) -> Array:
    shifted = -(scores - np.min(scores, axis=1, keepdims=True)) / temperature
    weights = np.exp(shifted)
    return np.asarray(weights / weights.sum(axis=1, keepdims=True))


def candidates(language: str, refuses: Refuses, max_words: int) -> list[Phrase]:
    """What the AI may say now: phrases of the room's language with at most `max_words`
    words that the game would not refuse."""
    return [p for p in phrases(language) if p.words <= max_words and not refuses(p.text)]


def expected_points(phrases_: Sequence[Phrase], targets: Sequence[int], style: Style) -> Array:
    """The points a guesser reading each phrase as a first cue scores on average, for each
    target cell (phrases × targets)."""
    _, differences = variants()
    rows = differences[[p.row for p in phrases_]]
    return _softmax_rows(rows, style.temperature) @ _points()[:, list(targets)]


def choose_colour(
    card: Sequence[int],
    language: str,
    refuses: Refuses,
    seed: int,
    style: Style = DEFAULT_STYLE,
) -> tuple[int, str]:
    """The cue giver's colour (one of the card's) and first cue (one word)."""
    rng = Rng(seed)
    allowed = candidates(language, refuses, 1)
    if not allowed:
        raise ValueError("no cue left to give")
    scores = expected_points(allowed, card, style)
    best_per_cell = scores.max(axis=0)
    top = float(best_per_cell.max())
    near = [i for i in range(len(card)) if best_per_cell[i] >= style.colour_slack * top]
    column = near[rng.below(len(near))]
    order = np.lexsort((np.arange(len(allowed)), -scores[:, column]))
    choice = int(order[0])
    if len(order) > 1 and scores[order[1], column] >= style.cue_slack * scores[order[0], column]:
        choice = int(order[rng.below(2)])
    return card[column], allowed[choice].text


def choose_second(
    target: int,
    first_cue: str,
    first_cones: Collection[int],
    language: str,
    refuses: Refuses,
    seed: int,
    style: Style = DEFAULT_STYLE,
) -> str | None:
    """The cue giver's second cue (one or two words), or None: every first cone is already in
    the frame, or nothing it may say would bring the second cones closer."""
    if first_cones and all(board.distance(c, target) <= 1 for c in first_cones):
        return None
    allowed = candidates(language, refuses, 2)
    if not allowed:
        return None
    _, differences = variants()
    scores = _second(
        first_scores(first_cue), differences[[p.row for p in allowed]], first_cones, style
    )
    expected = _softmax_rows(scores, style.temperature) @ _points()[:, target]
    order = np.lexsort((np.arange(len(allowed)), -expected))
    if expected[order[0]] <= 0.05:
        return None
    choice = int(order[0])
    if len(order) > 1 and expected[order[1]] >= style.cue_slack * expected[order[0]]:
        choice = int(order[Rng(seed).below(2)])
    return allowed[choice].text


# -- a seat's decisions -------------------------------------------------------------------

FREE_CHOICE_CELLS = 8
"""With free choice, the cue giver looks at this many cells drawn by its seed (as if it had a
card of eight) and takes the one it describes best."""


def refusal(state: State, second: bool) -> Refuses:
    """The game's own check of a cue now: the colour words of the game's language and of
    English, cells, the number of words, the game's earlier cues."""

    def refuses(text: str) -> bool:
        try:
            check_cue(text, state.language, second, state.used_cues)
        except RuleError:
            return True
        return False

    return refuses


def state_seed(state: State, seat: int, *identity: object) -> int:
    """The seed of a seat's decision in this phase: `identity` names the game (its chat, topic
    and game id), so the same moment asked twice decides the same."""
    number = state.round.no if state.round is not None else 0
    return seed_for(*identity, number, state.phase.value, seat)


def decide(
    state: State, seat: int, language: str, seed: int, style: Style = DEFAULT_STYLE
) -> list[Command]:
    """The commands the AI at `seat` owes the game now, in order (empty: it owes nothing).

    It knows what its seat may see (`seat_view`: its card and colour as the cue giver, the cues,
    the first cones once shown) and the game's earlier cues, which were said in the group;
    never another seat's colour or cone. It speaks the room's `language` (English when the
    table has no words in it); the game's check (`check_cue`) is asked before a cue is given,
    so a cue is never refused. `seed` identifies the decision (`state_seed`)."""
    rnd = state.round
    if rnd is None or seat not in state.waiting_for():
        return []
    view = seat_view(state, seat)
    user = state.seats[seat].user_id
    if view.phase is Phase.CUE:
        card = view.card
        if not card:  # free choice: any cell
            cells = list(range(board.CELLS))
            Rng(seed ^ 0x5EED).shuffle(cells)
            card = cells[:FREE_CHOICE_CELLS]
        try:
            cell, cue = choose_colour(card, language, refusal(state, False), seed, style)
        except ValueError:
            return []  # nothing left to say: the cue times out
        return [
            ChooseColour(user_id=user, cell=cell, round_no=rnd.no),
            GiveCue(user_id=user, text=cue),
        ]
    if view.phase is Phase.SECOND_CUE and view.colour is not None and view.cues:
        second = choose_second(
            view.colour, view.cues[0], list(view.first_cones.values()), language,
            refusal(state, True), seed, style,
        )  # fmt: skip
        if second is None:
            return [NoSecondCue(user_id=user, round_no=rnd.no)]
        return [GiveCue(user_id=user, text=second)]
    if view.phase is Phase.GUESS and view.cues:
        cell = place_first(view.cues[0], seed, style)
    elif view.phase is Phase.SECOND_GUESS and len(view.cues) >= 2:
        cell = place_second(
            view.cues[0], view.cues[1], list(view.first_cones.values()), seed, style
        )
    else:
        return []
    return [
        ChooseCell(user_id=user, cell=cell, round_no=rnd.no),
        ConfirmCone(user_id=user, round_no=rnd.no),
    ]


def in_room(room: Room, seat: int) -> list[Any]:
    """What the AI at `seat` does now in the room's game (its mind as the workers call it)."""
    state = room.play
    if not isinstance(state, State):
        return []
    seed = state_seed(state, seat, room.chat_id, room.topic, room.game_id)
    return list(decide(state, seat, room.settings.language, seed))
