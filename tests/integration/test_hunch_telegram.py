"""Hunch! played only through Telegram updates POSTed to the webhook, three players, timers
off: the lobby (no AI players yet), the secrets chosen on buttons, the matrix as a picture with
its words in the caption, clues typed in private (one refused for naming a matrix word), the
auctions on the group's message (a press by anyone but the bidder answered to them alone), a
bought question clue answered, the bargain round, hunches placed on buttons over three rounds,
the reveals, and the final with every seat's VP as the rules count them, then /stats and /top."""

from __future__ import annotations

import re
import time

import pytest

from engine.games.hunch import deck
from engine.games.hunch.model import Phase, State
from engine.games.hunch.turns import matrix_words
from tests.harness import GROUP, Stack, button, buttons, join_lobby, play_state, wait_for
from tgbot import pictures
from tgbot.games.hunch.pictures import MatrixPicture

pytestmark = pytest.mark.slow

NAMES = ["Ann", "Bob", "Cy"]
CLUES = ("zq", "qx vv")


def state(stack: Stack) -> State:
    return play_state(stack, State)


def labelled(message, label: str) -> str:
    """The data of the button whose label is `label` (ticks and marks aside)."""
    for text, data in buttons(message):
        if re.sub(r"^(✅|▶) ", "", text) == label:
            return data
    raise AssertionError(f"no button {label!r} in {[t for t, _ in buttons(message)]}")


def settled(stack: Stack, check, what: str) -> State:
    def found() -> State | None:
        game = state(stack)
        return game if check(game) else None

    return wait_for(found, 30, what)


def word(game: State, word_id: int) -> str:
    return deck.word(game.language, word_id)


def choose_secrets(stack: Stack, users: list[int]) -> None:
    for user in users:
        for card in range(3):
            dm = wait_for(lambda u=user, k=card: (m := stack.find(u, r"Round 1\b.*choose your "
                          r"secrets")) and len(re.findall("✅", str(m.reply_markup))) == k and m,
                          what="the secrets prompt")  # fmt: skip
            first = buttons(dm)[card * 3][0]
            answer = stack.answer_to(stack.press(user, dm, labelled(dm, first)))
            assert answer == f"Secret: {first}"


def write_clues(stack: Stack, users: list[int], number: int) -> None:
    for user in users:
        for clue in CLUES:
            stack.say(user, user, clue)
            wait_for(lambda u=user, c=clue: stack.find(u, rf"Round {number}\b.*«{c}»"),
                     what="the clue written")  # fmt: skip


def auctions(stack: Stack, users: list[int], number: int, sell_first: bool) -> None:
    """Every auction of the round: in the first one (if `sell_first`) the first bidder bids 1
    and the other passes, and the buyer puts the first clue before its first secret (a
    question answered yes); every other auction passes."""
    first = True
    while (game := state(stack)).phase in (Phase.AUCTION, Phase.PLACE):
        seller, bidder = game.auction.seller, game.round.seat
        step = game.round.no
        message = wait_for(lambda s=step, sl=seller: (m := stack.find(
            GROUP, rf"Round {number}: {NAMES[sl]}'s auction")) and buttons(m)
            and f".{s}." in buttons(m)[0][1] and m, what="the bidder's buttons")  # fmt: skip
        assert f"Now: {NAMES[bidder]} raises or passes" in message.plain_text
        other = next(i for i in range(3) if i not in (seller, bidder))
        if first and sell_first:
            sell(stack, users, number, seller, bidder, other, message)
        else:
            assert stack.answer_to(stack.press(users[bidder], message,
                                               button(message, "Pass"))) == "You passed."
        first = False
        settled(stack, lambda g, s=step: g.round is not None and g.round.no > s, "the auction on")


def sell(stack: Stack, users: list[int], number: int, seller: int, bidder: int, other: int,
         message) -> None:  # fmt: skip
    """The first bidder bids 1 (a press by the other first, refused to them alone), the other
    passes, and the buyer puts the first clue before its first secret (yes, if a question)."""
    refused = stack.answer_to(stack.press(users[other], message, button(message, "+1")))
    assert refused == "It is not your turn: wait for yours."
    step = state(stack).round.no
    assert stack.answer_to(stack.press(users[bidder], message, button(message, "+1"))) == \
        "You bid 1 coins."  # fmt: skip
    settled(stack, lambda g: g.round.no > step, "the next bidder")
    heading = rf"Round {number}: {NAMES[seller]}'s auction"
    message = wait_for(lambda: (m := stack.find(GROUP, heading)) and f"Now: {NAMES[other]}"
                       in m.plain_text and m, what="the second bidder")  # fmt: skip
    assert f"Bids: {NAMES[bidder]} 1" in message.plain_text
    assert stack.answer_to(stack.press(users[other], message, button(message, "Pass"))) == \
        "You passed."  # fmt: skip
    dm = wait_for(lambda: stack.find(users[bidder], rf"Round {number}\b.*you bought "
                  rf"{NAMES[seller]}'s clues for 1"), what="the buyer's prompt")  # fmt: skip
    assert stack.answer_to(stack.press(users[bidder], dm, buttons(dm)[0][1])) == "Clue placed."
    sold = wait_for(lambda: (m := stack.find(GROUP, heading)) and "Sold to" in m.plain_text
                    and m, what="the sale in the group")  # fmt: skip
    assert f"Sold to {NAMES[bidder]}, who put «zq»" in sold.plain_text
    assert "before their secret 1" in sold.plain_text


def bargain(stack: Stack, users: list[int], number: int) -> None:
    while (game := state(stack)).phase is Phase.BARGAIN:
        seat, step = game.round.seat, game.round.no
        dm = wait_for(lambda u=users[seat]: stack.find(u, rf"Round {number}\b.*bargain round, "
                      "your choice"), what="the bargain prompt")  # fmt: skip
        assert stack.answer_to(stack.press(users[seat], dm, button(dm, "Take 2"))) == \
            "You took 2 coins."  # fmt: skip
        settled(stack, lambda g, s=step: g.round.no > s, "the next bargain")


def hunch(stack: Stack, users: list[int], number: int, guesser: int, owner: int, slot: int,
          right: bool) -> None:  # fmt: skip
    """A hunch on a secret (right, or a wrong word of the matrix) through the buttons."""
    game = state(stack)
    target = game.seats[owner].secrets[slot].word_id
    choice = target if right else min(w for w in matrix_words(game) if w != target)
    user = users[guesser]
    dm = wait_for(lambda: stack.find(user, rf"Round {number}\b.*hunch phase"), what="hunches")
    if f"Choose the word for {NAMES[owner]}'s secret {slot + 1}:" not in dm.plain_text:
        assert stack.answer_to(stack.press(user, dm, labelled(dm, f"{NAMES[owner]} {slot + 1}"))
                               ) == ""  # fmt: skip
        dm = wait_for(lambda: (m := stack.find(user, rf"Round {number}\b.*hunch phase")) and
                      f"Choose the word for {NAMES[owner]}'s secret {slot + 1}:" in m.plain_text
                      and m, what="the secret's words")  # fmt: skip
    answer = stack.answer_to(stack.press(user, dm, labelled(dm, word(game, choice))))
    assert answer == f"Hunch: {word(game, choice)}"


def test_three_players_play_hunch_through_telegram(stack: Stack) -> None:
    users = join_lobby(stack, NAMES, "hu", "/newgame hunch")
    host = users[0]
    lobby = stack.find(GROUP, "a new game is open")
    assert "Hunch!" in lobby.plain_text and "3–6 players" in lobby.plain_text
    assert any("Add AI" in text for text, _ in buttons(lobby))  # its AI players exist
    stack.say(host, GROUP, "/settings timers=off reveal=2")
    lobby = wait_for(lambda: (m := stack.find(GROUP, "a new game is open"))
                     and "timers off" in m.plain_text and m, what="the settings")  # fmt: skip
    assert stack.answer_to(stack.press(host, lobby, button(lobby, "Start"))) == "The game starts!"

    wait_for(lambda: stack.find(GROUP, r"Hunch!.*the secrets.*Waiting for"), what="secrets")
    choose_secrets(stack, users)
    game = settled(stack, lambda g: g.phase is Phase.CLUES, "the clue phase")
    matrix = wait_for(lambda: stack.find(GROUP, r"Round 1 of 3.*Clue phase"), what="matrix")
    for card in game.matrix:
        assert " · ".join(deck.targets(game.language)[card]) in matrix.plain_text
    png = pictures.render(MatrixPicture.of(game), "en")
    deadline = time.monotonic() + 10
    while stack.world.photo_bytes(matrix) != png:
        assert time.monotonic() < deadline, "the matrix picture"
        time.sleep(0.05)
    secrets = [[word(game, s.word_id) for s in seat.secrets] for seat in game.seats]
    assert all(s == [deck.targets(game.language)[x.card][0] for x in seat.secrets]
               for s, seat in zip(secrets, game.seats, strict=True))  # fmt: skip

    # a clue naming a matrix word is refused, with the word
    # (the word itself: "ants" would be a clue, a word of under four letters names only itself)
    named = word(game, game.matrix[0] * 3)
    stack.say(users[0], users[0], f"{named.upper()}!")
    wait_for(lambda: stack.find(users[0], rf"may not name a word of the matrix.*«{named}»"),
             what="the clue refused")  # fmt: skip

    vp_expected = [0, 0, 0]
    plan = {
        # round: [(guesser, owner, slot, right)]
        1: [(0, 1, 0, True), (2, 1, 0, True), (1, 0, 0, False)],
        2: [(0, 2, 0, True), (0, 2, 1, False), (1, 0, 0, False), (1, 0, 1, False),
            (2, 0, 0, False), (2, 1, 1, False)],
        3: [(0, 1, 1, False), (0, 1, 2, False), (0, 2, 1, False), (1, 0, 1, True),
            (1, 0, 0, False), (1, 2, 1, False), (2, 0, 1, True), (2, 1, 2, False),
            (2, 0, 2, False)],
    }  # fmt: skip
    for number in (1, 2, 3):
        write_clues(stack, users, number)
        wait_for(lambda n=number: stack.find(GROUP, rf"Round {n}: the clues"), what="the clues")
        settled(stack, lambda g: g.phase is not Phase.CLUES, "the trading phase")
        auctions(stack, users, number, sell_first=number == 1)
        bargain(stack, users, number)
        settled(stack, lambda g: g.phase is Phase.HUNCH, "the hunch phase")
        group = wait_for(lambda n=number: stack.find(GROUP, rf"Round {n}: hunches"), what="hunch")
        assert f"Each of you places {number} hunch" in group.plain_text
        for guesser, owner, slot, right in plan[number]:
            hunch(stack, users, number, guesser, owner, slot, right)
        # the reveal is a picture with its caption: a new picture comes as its text first, then
        # the upload into that message
        reveal = wait_for(lambda n=number: (m := stack.find(
            GROUP, rf"Round {n}: the hunches revealed")) and m.photo and m,
            what="the reveal's picture")  # fmt: skip
        # the rules' words: +1 a correct hunch; +1 the owner of a secret guessed, +1 more when
        # two or more guessed it
        for owner, slot in {(o, s) for _, o, s, _ in plan[number]}:
            right = [g for g, o, s, ok in plan[number] if (o, s) == (owner, slot) and ok]
            for guesser in right:
                vp_expected[guesser] += 1
            if right:
                vp_expected[owner] += 1 + (len(right) >= 2)
                assert f"{NAMES[owner]}'s secret {slot + 1}: {secrets[owner][slot]} ✅ guessed" \
                    in reveal.plain_text  # fmt: skip
        if number < 3:
            settled(stack, lambda g, n=number: g.game_round == n + 1, "the next round")

    final = wait_for(lambda: stack.find(GROUP, "Game over"), what="the final")
    assert vp_expected == [4, 3, 3]
    ended = state(stack)
    assert [s.vp for s in ended.seats] == vp_expected
    assert "🏆 Ann wins!" in final.plain_text
    for name, vp in zip(NAMES, vp_expected, strict=True):
        assert re.search(rf"{name} — {vp} VP", final.plain_text), (name, final.plain_text)
    assert "The secrets" in final.plain_text and "Together you guessed 3 secrets" in \
        final.plain_text  # fmt: skip
    assert sum(s.coins for s in ended.seats) == 3 * (5 + 6)  # a sale moves coins, 2 a bargain

    stack.say(users[0], GROUP, "/stats")
    stats = wait_for(lambda: stack.find(GROUP, r"📊 Ann.*Hunch!"), what="Ann's figures")
    assert "1 game · 1 win · 4 victory points · 2 secrets guessed · 1 own secret found" in \
        stats.plain_text  # fmt: skip
    stack.say(users[1], GROUP, "/top hunch")
    top = wait_for(lambda: stack.find(GROUP, r"Hunch!</b>, the last 90 days|Hunch!, the last 90"),
                   what="the leaderboard")  # fmt: skip
    assert "1. Ann — 1 win · 4 victory points" in top.plain_text


def hunch_any(stack: Stack, user: int, number: int, placed: int) -> None:
    """A hunch on the first secret still open to one (the secrets' buttons, then a word)."""
    target = re.compile(r"^(▶ )?🤖 \w+ \d$")
    dm = wait_for(lambda: (m := stack.find(user, rf"Round {number}\b.*hunch phase"))
                  and len(re.findall("✅", str(m.reply_markup))) == placed and m,
                  what="the hunch prompt")  # fmt: skip
    labels = [text for text, _ in buttons(dm)]
    secret = next(text for text in labels if target.match(text))
    if not secret.startswith("▶ "):
        assert stack.answer_to(stack.press(user, dm, labelled(dm, secret))) == ""
        dm = wait_for(lambda: (m := stack.find(user, rf"Round {number}\b.*hunch phase"))
                      and f"▶ {secret}" in [t for t, _ in buttons(m)] and m,
                      what="the secret's words")  # fmt: skip
    choice = next(text for text, _ in buttons(dm) if not text.startswith(("✅", "▶", "🤖")))
    assert stack.answer_to(stack.press(user, dm, labelled(dm, choice))) == f"Hunch: {choice}"


def test_one_person_plays_a_whole_game_with_two_ai_players(stack: Stack) -> None:
    """Ann and two AI players: the AI choose secrets, write clues, bid, bargain and hunch
    through the workers; Ann plays her part by the chat's buttons and typed clues."""
    (ann,) = join_lobby(stack, ["Ann"], "ha", "/newgame hunch")
    lobby = stack.find(GROUP, "a new game is open")
    for _ in range(2):
        assert stack.answer_to(stack.press(ann, lobby, button(lobby, "Add AI"))) == \
            "An AI player took a seat."  # fmt: skip
    stack.say(ann, GROUP, "/settings timers=off reveal=2")
    lobby = wait_for(lambda: (m := stack.find(GROUP, "a new game is open"))
                     and "timers off" in m.plain_text and "Otto" in m.plain_text and m)
    assert stack.answer_to(stack.press(ann, lobby, button(lobby, "Start"))) == "The game starts!"
    done: set[tuple[str, int, int]] = set()  # what Ann did: (phase, round, step)
    deadline = time.monotonic() + 150
    while stack.find(GROUP, "Game over") is None:
        assert time.monotonic() < deadline, f"the game did not end: {state(stack).phase}"
        game = state(stack)
        step = game.round.no if game.round is not None else 0
        mark = (str(game.phase), game.game_round, step)
        if mark in done:
            time.sleep(0.05)
            continue
        if game.phase is Phase.SECRETS and not all(s.word_id is not None
                                                   for s in game.seats[0].secrets):
            choose_secrets(stack, [ann])
        elif game.phase is Phase.CLUES and stack.find(ann, rf"Round {game.game_round}\b.*clue"):
            write_clues(stack, [ann], game.game_round)
        elif game.phase is Phase.AUCTION and game.round is not None and game.round.seat == 0:
            message = wait_for(lambda s=step: (m := stack.find(GROUP, r"auction")) and buttons(m)
                               and f".{s}." in buttons(m)[0][1] and m, what="Ann's bid buttons")
            assert stack.answer_to(stack.press(ann, message, button(message, "Pass"))) == \
                "You passed."  # fmt: skip
        elif game.phase is Phase.BARGAIN and game.round is not None and game.round.seat == 0:
            dm = wait_for(lambda: stack.find(ann, r"bargain round, your choice"), what="bargain")
            assert stack.answer_to(stack.press(ann, dm, button(dm, "Take 2"))) == \
                "You took 2 coins."  # fmt: skip
        elif game.phase is Phase.HUNCH and not game.seats[0].hunches:
            for placed in range(game.game_round):  # on secrets still in play, one after another
                hunch_any(stack, ann, game.game_round, placed)
        else:
            time.sleep(0.05)
            continue
        done.add(mark)
    final = stack.find(GROUP, "Game over")
    ended = state(stack)
    assert ended.phase is Phase.FINISHED and ended.game_round == 3
    assert "Iris" in final.plain_text and "Otto" in final.plain_text and "Ann" in final.plain_text
    assert all(seat.missed == 0 for seat in ended.seats), "nobody, AI or person, missed a turn"
    assert sum(s.coins for s in ended.seats) >= 3 * 5, "coins only come in from the supply"
