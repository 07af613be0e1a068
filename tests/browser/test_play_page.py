"""A whole 3-player game played in headless Chromium through the local play page only.

The runner is started as a newcomer would (`python -m tgbot`, no token, no Redis answering),
so the real web process, worker, Redis, timers and delivery run behind the page.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Runner

PLAYERS = ["Ann", "Bob", "<i>Cy</i> & co"]  # the third is added through the page
HINTS = ["a quiet night", "<b>not bold</b> & loud", "déjà vu"]
expect.set_options(timeout=20_000)


class Table:
    """The page, driven like people sitting at one machine: pick a player, read, press, type."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def be(self, name: str) -> None:
        chip = self.page.locator("#players .player").filter(has_text=name).first
        chip.click()
        expect(chip).to_have_attribute("aria-pressed", "true")

    def group(self, pattern: str) -> Locator:
        """The latest group message matching a pattern."""
        found = self.page.locator("#group-messages .msg").filter(has_text=re.compile(pattern, re.S))
        return found.last

    def private(self, pattern: str) -> Locator:
        """The selected player's latest private message matching a pattern."""
        messages = self.page.locator("#private-messages .msg")
        return messages.filter(has_text=re.compile(pattern, re.S)).last

    def say(self, where: str, text: str) -> None:
        box = self.page.locator(f"#{where}-composer input")
        box.fill(text)
        box.press("Enter")

    def keys(self, message: Locator) -> list[str]:
        expect(message.locator(".kb").first).to_be_visible()
        return message.locator(".kb").all_inner_texts()

    def press(self, message: Locator, label: str) -> None:
        message.locator(".kb").filter(has_text=label).first.click()

    def toast(self, text: str) -> None:
        expect(self.page.locator(".toast").filter(has_text=text).last).to_be_visible()


def seat_everybody(table: Table) -> Locator:
    """Ann opens the lobby; Bob and the added player join through the deep link."""
    page = table.page
    table.be("Ann")
    page.click("#start-button")  # Ann opens her private chat with the bot first
    expect(table.private("Add me to a group")).to_be_visible()
    table.say("group", "/newgame")
    lobby = table.group("a new game is open")
    expect(lobby).to_contain_text("Ann (host)")
    page.fill("#new-player-name", PLAYERS[2])
    page.click("#add-player-button")
    expect(page.locator("#players .player", has_text=PLAYERS[2])).to_have_attribute(
        "aria-pressed", "true"
    )
    for name in PLAYERS[1:]:
        table.be(name)
        table.press(lobby, "Join")
        table.toast("Open a private chat with me first")  # the answer carries the deep link
        expect(table.private("You joined the game")).to_be_visible()
        expect(table.private(r"^/start j-\d+")).to_be_visible()
        expect(lobby).to_contain_text(name)
    table.be("Ann")
    table.say("group", "/settings rotations=1 timers=off reveal=2")
    expect(lobby).to_contain_text("1 rotations")
    expect(lobby).to_contain_text("timers off")
    return lobby


def storyteller_of(table: Table, number: int) -> tuple[str, Locator]:
    """Switch through the players until one has the storyteller's prompt of this round."""
    pattern = rf"Round {number} in .*you are the storyteller"
    for _attempt in range(40):
        for name in PLAYERS:
            table.be(name)
            prompt = table.private(pattern)
            if prompt.count() and prompt.locator(".kb").count():
                return name, prompt
        table.page.wait_for_timeout(250)
    raise AssertionError(f"nobody got the storyteller's prompt of round {number}")


def play_round(table: Table, number: int, artifacts: Path) -> dict[str, int]:
    """One round by the page; returns the points the rules give for the votes cast."""
    teller, prompt = storyteller_of(table, number)
    card = table.keys(prompt)[0]
    table.press(prompt, card)
    table.toast("Chosen:")
    table.say("private", HINTS[number - 1])
    expect(table.private("Hint given")).to_be_visible()
    others = [name for name in PLAYERS if name != teller]
    decoys: dict[str, str] = {}
    for name in others:
        table.be(name)
        offer = table.private(rf"Round {number} in .*Choose a decoy")
        decoys[name] = table.keys(offer)[0]
        table.press(offer, decoys[name])
        table.toast("Decoy played")
    board = table.group(rf"The table · round {number}\b")
    expect(board).to_contain_text(HINTS[number - 1])  # a hint with markup shows as typed
    labels = {label.split(". ", 1)[1]: label for label in table.keys(board)}
    first, second = others
    # Round 1: one finds it; round 2: both do; round 3: nobody does.
    choices = [(card, decoys[first]), (card, card), (decoys[second], decoys[first])][number - 1]
    if number == 1:  # voting for your own card is refused with an alert
        table.be(first)
        table.press(board, labels[decoys[first]])
        expect(table.page.locator("#alert-text")).to_have_text("You cannot vote for your own card.")
        table.page.click("#alert-ok")
        expect(table.page.locator("#alert")).to_be_hidden()
    for name, choice in zip(others, choices, strict=True):
        table.be(name)
        table.press(board, labels[choice])
        table.toast("Vote recorded")
        if number == 1 and name == first:
            expect(board).to_contain_text(f"Voted: {first}")
            table.page.screenshot(path=str(artifacts / "table.png"))
    expect(table.group(rf"Reveal · round {number}\b")).to_be_visible()
    return [
        {teller: 3, first: 4, second: 0},
        {teller: 0, first: 2, second: 2},
        {teller: 0, first: 3, second: 3},
    ][number - 1]


def test_three_players_play_a_whole_game_on_the_page(
    runner_factory: Any, page: Page, artifacts: Path
) -> None:
    runner: Runner = runner_factory("--players", "2")
    table = Table(page)
    page.goto(runner.url)
    expect(page.locator("#group-messages .msg").first).to_contain_text("I run Hintrigue")
    expect(page.locator("#status")).to_have_text("live")
    lobby = seat_everybody(table)
    expect(lobby).to_contain_text(PLAYERS[2])  # names are text, not markup
    expect(lobby.locator("i")).to_have_count(0)
    page.screenshot(path=str(artifacts / "lobby.png"))

    table.press(lobby, "Start")
    table.toast("The game starts!")
    expect(lobby).to_contain_text("The game has started")
    totals = dict.fromkeys(PLAYERS, 0)
    for number in (1, 2, 3):
        for name, points in play_round(table, number, artifacts).items():
            totals[name] += points

    final = table.group("Game over")
    expect(final).to_contain_text("Standings")
    text = final.inner_text()
    for name, points in totals.items():
        assert re.search(rf"{re.escape(name)} — {points} points?", text), (name, points, text)
    expect(final.locator("b").first).to_have_text("Game over")  # the formatting is rendered
    page.screenshot(path=str(artifacts / "final.png"))
