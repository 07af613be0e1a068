"""Hunch! on the local page at a phone's size: one person and two AI players, the person's
part by the page's buttons and typed clues (secrets, clues, auctions, the bargain round,
hunches), three rounds to the final, with screenshots of the matrix and a reveal."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from playwright.sync_api import Page, expect

from engine.games.hunch.model import Phase, State
from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import Store, keys
from tests.browser.test_play_page import ann_opens_on_a_phone
from tgbot.ops.config import bot_id
from tgbot.standin import DEFAULT_TOKEN

pytestmark = pytest.mark.slow
CLUES = ("zq", "qx vv")


def game_state(runner: Any, chat: int) -> State | None:
    keys.use_bot(bot_id(DEFAULT_TOKEN))
    room = Store(redis.Redis.from_url(runner.redis_url), GAMES).load(RoomId(chat))
    return room.play if room is not None and isinstance(room.play, State) else None


def test_one_person_and_two_ai_players_play_hunch_on_a_phone_sized_page(
    runner_factory: Any, page: Page, artifacts: Path
) -> None:
    runner = runner_factory("--players", "1")
    table, lobby = ann_opens_on_a_phone(page, runner, "/newgame hunch")
    for name in ("Iris", "Otto"):
        table.press(lobby, "Add AI")
        expect(lobby).to_contain_text(name)
    table.say("group", "/settings timers=off reveal=2")
    expect(lobby).to_contain_text("timers off")
    table.press(lobby, "Start")
    table.toast("The game starts!")
    chats = httpx.get(f"{runner.url.rstrip('/')}/_standin/view", timeout=10,
                      trust_env=False).json()["chats"]  # fmt: skip
    chat = next(c["id"] for c in chats if c["title"] == "Game night")

    shots: set[str] = set()
    done: set[tuple[str, int, int]] = set()
    deadline = time.monotonic() + 240
    while not table.group("Game over").count():
        assert time.monotonic() < deadline, "the game did not end"
        game = game_state(runner, chat)
        if game is None:
            page.wait_for_timeout(100)
            continue
        number = game.game_round
        mark = (str(game.phase), number, game.round.no if game.round is not None else 0)
        if mark in done:
            page.wait_for_timeout(100)
            continue
        if game.phase is Phase.SECRETS:
            prompt = table.private(r"choose your secrets")
            for card in range(3):
                expect(prompt.locator(".kb").first).to_be_visible()
                table.press(prompt, table.keys(prompt)[card * 3])
                table.toast("Secret: ", over="private")
        elif game.phase is Phase.CLUES:
            matrix = table.group(rf"Round {number} of 3.*Clue phase")
            expect(matrix.locator("img").first).to_be_visible()
            if "matrix" not in shots:
                picture = matrix.locator("img").first
                box = picture.bounding_box()
                assert box is not None and box["width"] <= 390
                picture.screenshot(path=str(artifacts / "hunch-matrix-phone.png"))
                shots.add("matrix")
            for clue in CLUES:
                table.say("private", clue)
                expect(table.private(rf"Round {number}\b.*«{clue}»")).to_be_visible()
        elif game.phase is Phase.AUCTION and game.round is not None and game.round.seat == 0:
            auction = table.group(r"auction")
            expect(auction).to_contain_text("Now: Ann raises or passes")
            table.press(auction, "Pass")
            page.wait_for_timeout(300)
            if page.locator("#alert").is_visible():  # an auction's message edited late (its
                page.click("#alert-ok")  # edits settle): the press came on the one before
                continue
            table.toast("You passed.", over="group")
        elif game.phase is Phase.BARGAIN and game.round is not None and game.round.seat == 0:
            table.press(table.private(r"bargain round, your choice"), "Take 2")
            table.toast("You took 2 coins.", over="private")
        elif game.phase is Phase.HUNCH and not game.seats[0].hunches:
            for placed in range(number):
                prompt = table.private(rf"Round {number}\b.*hunch phase")
                expect(prompt.locator(".kb", has_text="✅")).to_have_count(placed)
                labels = table.keys(prompt)
                target = next(t for t in labels if re.match(r"^(▶ )?🤖 \w+ \d$", t))
                if not target.startswith("▶"):
                    table.press(prompt, target)
                    prompt = table.private(rf"Round {number}\b.*hunch phase")
                    expect(prompt.locator(".kb", has_text=f"▶ {target}")).to_have_count(1)
                word = next(t for t in table.keys(prompt)
                            if not t.startswith(("✅", "▶", "🤖")))  # fmt: skip
                table.press(prompt, word)
                table.toast(f"Hunch: {word}", over="private")
        elif game.phase is Phase.REVEAL and "reveal" not in shots:
            reveal = table.group(rf"Round {number}: the hunches revealed")
            expect(reveal.locator("img").first).to_be_visible()
            reveal.locator("img").first.screenshot(path=str(artifacts / "hunch-reveal-phone.png"))
            shots.add("reveal")
        else:
            page.wait_for_timeout(100)
            continue
        done.add(mark)
    final = table.group("Game over")
    for name in ("Ann", "Iris", "Otto"):
        expect(final).to_contain_text(name)
    expect(final).to_contain_text("VP")
    assert shots == {"matrix", "reveal"}
    page.screenshot(path=str(artifacts / "hunch-final-phone.png"))
