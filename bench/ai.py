"""AI benchmark: Hintrigue rounds played by AI seats only, through the real engine.

Every game has 4–6 AI seats, a random deck, hand size and room language; each seat's
decisions come from `workers.ai.hintrigue.decide`, as a worker job would ask for them.

Prints `name=value` lines:
- `ai_find_rate`: how often an AI voter finds the AI storyteller's card;
- `chance_rate`: 1 / table size, averaged over the voters (what blind votes would find);
- `ai_decoy_vote_share`: the share of the votes that went to AI decoys;
- `decision_ms_p99`: the 99th percentile of one `decide` call (a seat's whole decision, caches
  cold at first), on one core;
- `guesswhat_correct_rate`: how often an AI guesser finds the three icons of an AI's clue in
  Guess What! (and `guesswhat_decision_ms_p99`);
- `huescues_*`: Hues and Cues rounds of 3–10 AI seats through the real rules (as many rounds
  as asked): the mean Chebyshev distance of the AI cones (first and second) from the chosen
  colour and of a random cone drawn beside each, the share of cones that score (distance 2 or
  less) for both, the share of exact hits, how often the cue giver gave a second cue, and the
  99th percentile of one `decide` call (`huescues_decision_ms_p99`);
- `hunch_*`: Hunch! games of 3–6 AI seats through the real rules, in a random language, until
  at least as many hunches as asked were revealed: how often an AI hunch names the secret
  (`hunch_find_rate`), a blind hunch's chance (one matrix word not on the guesser's own dealt
  cards, averaged over the hunches: `hunch_chance`), and the 99th percentile of one seat's
  decision, its view built (`hunch_decision_p99_ms`); `hunch_refused` counts the AI commands
  the rules refused (0);
- `worker_rss_mb`: the peak resident memory of this process, model loaded.

`--languages` prints instead how well the AI understands hints typed by people in each
language: a hand-written hint per language for known cards, each card put among five other
cards of its set, counts when the card fits best. `bench/ai_hints.tsv` (24 cards) was used
while the gloss dictionary was written (`understood_<language>=`); `bench/ai_hints_heldout.tsv`
(24 cards) was written after it and never tuned on (`heldout_<language>=`).

Run: .venv/bin/python bench/ai.py [rounds] | bench/ai.py --languages
| bench/ai.py --huescues [rounds] (Hues and Cues only)
| bench/ai.py --wunchunk [games] [level] [size] (Wunchunk only: bench/wunchunk_ai.py)
| bench/ai.py --hunch [hunches] (Hunch! only)
"""

from __future__ import annotations

import os
import random
import resource
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.commands import Join, OpenLobby, StartGame, Timeout  # noqa: E402
from engine.games.guesswhat import rules as guesswhat_rules  # noqa: E402
from engine.games.guesswhat.commands import Timeout as GWTimeout  # noqa: E402
from engine.games.guesswhat.model import OVER_PHASES as GW_OVER  # noqa: E402
from engine.games.guesswhat.model import Phase as GWPhase  # noqa: E402
from engine.games.guesswhat.model import Settings as GWSettings  # noqa: E402
from engine.games.hintrigue.model import Phase, phase_of, round_of  # noqa: E402
from engine.games.hintrigue.views import waiting_for  # noqa: E402
from engine.games.huescues import board  # noqa: E402
from engine.games.huescues import rules as huescues_rules  # noqa: E402
from engine.games.huescues.commands import Timeout as HCTimeout  # noqa: E402
from engine.games.huescues.model import OVER_PHASES as HC_OVER  # noqa: E402
from engine.games.huescues.model import Phase as HCPhase  # noqa: E402
from engine.games.huescues.model import Settings as HCSettings  # noqa: E402
from engine.games.hunch import deck as hunch_deck  # noqa: E402
from engine.games.hunch import rules as hunch_rules  # noqa: E402
from engine.games.hunch.commands import Timeout as HuTimeout  # noqa: E402
from engine.games.hunch.model import OVER_PHASES as HU_OVER  # noqa: E402
from engine.games.hunch.model import REMOVED  # noqa: E402
from engine.games.hunch.model import Phase as HuPhase  # noqa: E402
from engine.games.hunch.model import Settings as HuSettings  # noqa: E402
from engine.games.registry import GAMES
from engine.model import OVER_PHASES, Room  # noqa: E402
from engine.rules import apply as apply_at  # noqa: E402
from workers.ai import guesswhat as ai_guesswhat  # noqa: E402
from workers.ai import hintrigue  # noqa: E402
from workers.ai import huescues as ai_huescues  # noqa: E402
from workers.ai import hunch as ai_hunch  # noqa: E402
from workers.ai.mind import seed_for  # noqa: E402
from workers.ai.vocab import LANGUAGES  # noqa: E402
from workers.games import warm_up  # noqa: E402

apply = partial(apply_at, games=GAMES)  # the rules at the bot's table

HINTS = Path(__file__).resolve().parent / "ai_hints.tsv"
HELDOUT = Path(__file__).resolve().parent / "ai_hints_heldout.tsv"
DISTRACTORS = 5


class Tally:
    """What the rounds added up to."""

    def __init__(self) -> None:
        self.rounds = 0
        self.voters = 0
        self.finds = 0
        self.chance = 0.0
        self.votes = 0
        self.decoy_votes = 0
        self.storyteller_scored = 0
        self.decisions: list[float] = []

    def count(self, room: Room) -> None:
        rnd = round_of(room)
        assert rnd is not None and rnd.points is not None
        target = rnd.plays[rnd.storyteller]
        self.rounds += 1
        self.storyteller_scored += rnd.points.get(rnd.storyteller, 0) > 0
        for card in rnd.votes.values():
            self.voters += 1
            self.votes += 1
            self.finds += card == target
            self.decoy_votes += card != target
            self.chance += 1 / len(rnd.table)


def new_game(rng: random.Random, number: int) -> tuple[Room, float]:
    seats = rng.randint(4, 6)
    language = rng.choice(LANGUAGES)
    settings: dict[str, int | bool | str] = {
        "hand_size": rng.randint(4, 8),
        "deck": rng.choice(["default", "default", "short"]),
        "rotations": 2,
    }
    if settings["deck"] == "short":
        settings["hand_size"] = min(int(settings["hand_size"]), 6)
        settings["max_seats"] = 6
    now = 0.0
    room, _ = apply(
        None,
        OpenLobby(
            chat_id=-1_000_000 - number,
            user_id=1,
            name="AI 1",
            seed=rng.getrandbits(63),
            language=language,
            settings=settings,
            game_settings=settings,
        ),
        now,
    )
    for user in range(2, seats + 1):
        room, _ = apply(room, Join(user_id=user, name=f"AI {user}"), now)
    room, _ = apply(room, StartGame(user_id=1), now)
    return room, now


def play_game(
    room: Room, now: float, tally: Tally, rounds_left: int, style: hintrigue.Style
) -> None:
    """Play a game to its end (or until enough rounds are counted), every seat an AI."""
    while room.phase not in OVER_PHASES and tally.rounds < rounds_left:
        if phase_of(room) is Phase.REVEAL:
            tally.count(room)
            assert round_of(room) is not None and room.deadline is not None
            now = room.deadline
            room, _ = apply(room, Timeout(round_no=round_of(room).no, phase=phase_of(room)), now)
            continue
        for seat in waiting_for(room):
            start = time.perf_counter()
            commands = hintrigue.decide(room, seat, style)
            tally.decisions.append(time.perf_counter() - start)
            for command in commands:
                room, _ = apply(room, command, now)  # an AI's command is never refused
        now += 1


def guesswhat_rounds(rounds: int) -> tuple[float, list[float]]:
    """Play Guess What! games of 4–6 AI seats until `rounds` rounds are scored; return how
    often an AI guesser found the AI clue's three icons, and the decision times."""
    rng = random.Random(20261202)
    found = guessers = scored = 0
    times: list[float] = []
    number = 0
    while scored < rounds:
        players = [(user, f"AI {user}") for user in range(1, rng.randint(4, 6) + 1)]
        language = rng.choice(LANGUAGES)
        state, _ = guesswhat_rules.start(
            players, GWSettings(target=20), seed=rng.getrandbits(63), now=0.0
        )
        now = 0.0
        while state.phase not in GW_OVER and scored < rounds:
            turn = state.round
            assert turn is not None
            if state.phase is GWPhase.REVEAL:
                scored += 1
                guessers += len(turn.confirmed)
                found += len(turn.correct)
                assert state.deadline is not None
                now = state.deadline
                state, _ = guesswhat_rules.apply(
                    state, GWTimeout(round_no=turn.no, phase=state.phase), now
                )
                continue
            for seat in state.waiting_for():
                start = time.perf_counter()
                seed = seed_for("bench", number, turn.no, seat)
                commands = ai_guesswhat.decide(state, seat, language, seed)
                times.append(time.perf_counter() - start)
                for command in commands:
                    state, _ = guesswhat_rules.apply(state, command, now)
            now += 1
        number += 1
    return found / guessers, times


class HuesTally:
    """What Hues and Cues rounds added up to: every cone's distance from the chosen colour,
    and a random cone's for each of them."""

    def __init__(self) -> None:
        self.rounds = 0
        self.second_cues = 0
        self.distances: list[int] = []
        self.random: list[int] = []
        self.decisions: list[float] = []


def huescues_rounds(rounds: int) -> HuesTally:
    """Play Hues and Cues games of 3–10 AI seats, through the real rules, until `rounds`
    rounds are scored; a random cone is drawn beside every AI cone for comparison."""
    rng = random.Random(20261203)
    tally = HuesTally()
    number = 0
    while tally.rounds < rounds:
        players = [(user, f"AI {user}") for user in range(1, rng.randint(3, 10) + 1)]
        language = rng.choice(LANGUAGES)
        settings = HCSettings(max_seats=10, free_choice=rng.random() < 0.2)
        state, _ = huescues_rules.start(
            players, settings, seed=rng.getrandbits(63), now=0.0, language=language
        )
        now = 0.0
        while state.phase not in HC_OVER and tally.rounds < rounds:
            turn = state.round
            assert turn is not None
            if state.phase is HCPhase.REVEAL:
                assert turn.colour is not None
                tally.rounds += 1
                tally.second_cues += len(turn.cues) == 2
                for cell in [*turn.cones.values(), *turn.second_cones.values()]:
                    tally.distances.append(board.distance(cell, turn.colour))
                    tally.random.append(board.distance(rng.randrange(board.CELLS), turn.colour))
                assert state.deadline is not None
                now = state.deadline
                state, _ = huescues_rules.apply(
                    state, HCTimeout(round_no=turn.no, phase=state.phase), now
                )
                continue
            for seat in state.waiting_for():
                start = time.perf_counter()
                seed = seed_for("bench", number, turn.no, state.phase.value, seat)
                commands = ai_huescues.decide(state, seat, language, seed)
                tally.decisions.append(time.perf_counter() - start)
                for command in commands:
                    state, _ = huescues_rules.apply(state, command, now)  # never refused
            now += 1
        number += 1
    return tally


def print_huescues(rounds: int) -> None:
    """Print the Hues and Cues figures."""
    tally = huescues_rounds(rounds)
    near = [d <= 2 for d in tally.distances]
    chance = [d <= 2 for d in tally.random]
    print(f"huescues_rounds={tally.rounds}")
    print(f"huescues_cones={len(tally.distances)}")
    print(f"huescues_cone_distance={sum(tally.distances) / len(tally.distances):.2f}")
    print(f"huescues_random_cone_distance={sum(tally.random) / len(tally.random):.2f}")
    print(f"huescues_scoring_share={sum(near) / len(near):.3f}")
    print(f"huescues_random_scoring_share={sum(chance) / len(chance):.3f}")
    print(f"huescues_exact_share={tally.distances.count(0) / len(tally.distances):.3f}")
    print(f"huescues_second_cue_rate={tally.second_cues / tally.rounds:.3f}")
    print(f"huescues_decision_ms_p99={percentile(tally.decisions, 0.99) * 1000:.2f}")


class HunchTally:
    """What Hunch! games added up to: every hunch revealed (found or not, and a blind
    hunch's chance beside it), every decision's time, the commands refused."""

    def __init__(self) -> None:
        self.games = 0
        self.found: list[bool] = []
        self.chance: list[float] = []
        self.decisions: list[float] = []
        self.refused = 0


def hunch_games(hunches: int) -> HunchTally:
    """Play Hunch! games of 3–6 AI seats through the real rules until at least `hunches`
    hunches were revealed."""
    rng = random.Random(20261205)
    tally = HunchTally()
    while len(tally.found) < hunches:
        players = [(user, f"AI {user}") for user in range(1, rng.randint(3, 6) + 1)]
        language = rng.choice(hunch_deck.languages())
        settings = HuSettings(advanced=rng.random() < 0.2)
        state, _ = hunch_rules.start(
            players, settings, seed=rng.getrandbits(63), now=0.0, language=language
        )
        chance: dict[int, float] = {}
        while state.phase not in HU_OVER:
            step = state.round
            assert step is not None
            waiting = state.waiting_for()
            if state.phase is HuPhase.REVEAL or not waiting:
                for line in state.revealed if state.phase is HuPhase.REVEAL else []:
                    for guesser, _, right in line.hunches:
                        tally.found.append(right)
                        tally.chance.append(chance[guesser])
                assert state.deadline is not None
                state, _ = hunch_rules.apply(
                    state, HuTimeout(round_no=step.no, phase=state.phase), state.deadline
                )
                continue
            seat = waiting[0]
            if state.phase is HuPhase.HUNCH:
                own = {secret.card for secret in state.seats[seat].secrets}
                blind = sum(1 for c in state.matrix if c != REMOVED and c not in own) * 3
                chance[seat] = 1 / blind
            start = time.perf_counter()
            commands = ai_hunch.decide_in(state, seat, "bench", tally.games)
            tally.decisions.append(time.perf_counter() - start)
            for command in commands:
                try:
                    state, _ = hunch_rules.apply(state, command, 0.0)
                except Exception:
                    tally.refused += 1
            moved = state.round is not None and state.round.no != step.no
            if not moved and seat in state.waiting_for():
                assert state.deadline is not None  # owed nothing, or refused: its timer
                state, _ = hunch_rules.apply(
                    state, HuTimeout(round_no=step.no, phase=state.phase), state.deadline
                )
        tally.games += 1
    return tally


def print_hunch(hunches: int) -> None:
    """Print the Hunch! figures."""
    tally = hunch_games(hunches)
    print(f"hunch_games={tally.games}")
    print(f"hunch_hunches={len(tally.found)}")
    print(f"hunch_find_rate={sum(tally.found) / len(tally.found):.3f}")
    print(f"hunch_chance={sum(tally.chance) / len(tally.chance):.3f}")
    print(f"hunch_decisions={len(tally.decisions)}")
    print(f"hunch_decision_p50_ms={percentile(tally.decisions, 0.5) * 1000:.2f}")
    print(f"hunch_decision_p99_ms={percentile(tally.decisions, 0.99) * 1000:.2f}")
    print(f"hunch_refused={tally.refused}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def simulate(rounds: int, style: hintrigue.Style = hintrigue.DEFAULT_STYLE) -> tuple[Tally, int]:
    """Play games of AI seats until `rounds` rounds are scored; return the tally and the
    number of games."""
    rng = random.Random(20261201)
    tally = Tally()
    number = 0
    while tally.rounds < rounds:
        room, now = new_game(rng, number)
        play_game(room, now, tally, rounds, style)
        number += 1
    return tally, number


def bench_rounds(rounds: int) -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    warm_up()
    tally, number = simulate(rounds)
    print(f"rounds={tally.rounds}")
    print(f"games={number}")
    print(f"ai_find_rate={tally.finds / tally.voters:.3f}")
    print(f"chance_rate={tally.chance / tally.voters:.3f}")
    print(f"ai_decoy_vote_share={tally.decoy_votes / tally.votes:.3f}")
    print(f"storyteller_scored_rate={tally.storyteller_scored / tally.rounds:.3f}")
    print(f"decisions={len(tally.decisions)}")
    print(f"decision_ms_p50={percentile(tally.decisions, 0.5) * 1000:.2f}")
    print(f"decision_ms_p99={percentile(tally.decisions, 0.99) * 1000:.2f}")
    correct, times = guesswhat_rounds(max(100, rounds // 4))
    print(f"guesswhat_correct_rate={correct:.3f}")
    print(f"guesswhat_decision_ms_p99={percentile(times, 0.99) * 1000:.2f}")
    print_huescues(rounds)
    print(f"worker_rss_mb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")


def understanding(path: Path) -> dict[str, tuple[int, int]]:
    """Per language: how many hand-written hints put among other cards find their card."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    rows = [line.split("\t") for line in lines[1:]]
    cards = [int(row[0]) for row in rows]
    result: dict[str, tuple[int, int]] = {}
    for column, language in enumerate(header[1:], start=1):
        hits = 0
        for i, row in enumerate(rows):
            table = [cards[(i + k) % len(cards)] for k in range(DISTRACTORS + 1)]
            fits = [hintrigue.card_fit("default", c, row[column], language) for c in table]
            hits += max(range(len(table)), key=fits.__getitem__) == 0
        result[language] = (hits, len(rows))
    return result


def main() -> None:
    """Run the benchmark and print its figures."""
    if sys.argv[1:2] == ["--huescues"]:
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        print_huescues(int(sys.argv[2]) if len(sys.argv) > 2 else 1000)
        print(f"worker_rss_mb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")
        return
    if sys.argv[1:2] == ["--hunch"]:
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        print_hunch(int(sys.argv[2]) if len(sys.argv) > 2 else 1000)
        print(f"worker_rss_mb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")
        return
    if sys.argv[1:2] == ["--wunchunk"]:  # bench/wunchunk_ai.py: against random and greedy
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import wunchunk_ai

        sys.argv = [sys.argv[0], *sys.argv[2:]]
        wunchunk_ai.main()
        return
    if sys.argv[1:] == ["--languages"]:
        print(f"chance_rate={1 / (DISTRACTORS + 1):.3f}")
        for name, path in (("understood", HINTS), ("heldout", HELDOUT)):
            for language, (hits, total) in understanding(path).items():
                print(f"{name}_{language}={hits}/{total} ({hits / total:.2f})")
        return
    bench_rounds(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)


if __name__ == "__main__":
    main()
