"""The board app (SPEC 16) on the local page at a phone's size: the stand-in opens it over the
chats as Telegram opens a Mini App (initData signed by the stand-in's token, a local shim of
Telegram's script); a Hues and Cues round's cones and a Wunchunk turn's stones are placed by
taps on the board, the chat shows what the app did, and a watcher opens the group's link."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import FrameLocator, Page, expect

from engine.games.huescues import board
from tests.browser.test_play_page import (
    PLAYERS,
    TIMERS,
    Table,
    prompted,
    seat_everybody,
    wunchunk_for_two,
    wunchunk_turn,
)
from tgbot import i18n
from tgbot.i18n import _

pytestmark = pytest.mark.slow
PHONE = {"width": 390, "height": 844}


def open_app(table: Table, prompt: Any, label: str) -> FrameLocator:
    """Press the prompt's app button; the app, once its board is drawn."""
    table.press(prompt, label)
    expect(table.page.locator("#miniapp")).to_be_visible()
    app = table.page.frame_locator("#miniapp-frame")
    expect(app.locator("#viewport svg")).to_be_visible()
    return app


def close_app(table: Table) -> None:
    table.page.click("#miniapp-close")
    expect(table.page.locator("#miniapp")).to_be_hidden()


def tap_cell(app: FrameLocator, cell: int) -> None:
    """Tap a Hues and Cues cell where the app draws it (8 units of margin, 10 a cell)."""
    svg = app.locator("#viewport svg")
    box = svg.bounding_box()
    assert box is not None
    view_w = 8 + 30 * 10 + 2
    scale = box["width"] / view_w
    x = (8 + (cell % 30) * 10 + 5) * scale
    y = (8 + (cell // 30) * 10 + 5) * scale
    svg.click(position={"x": x, "y": y})


def test_a_round_of_hues_and_cues_placed_through_the_app(
    runner_factory: Any, page: Page, artifacts: Path
) -> None:
    runner = runner_factory("--players", "2", *TIMERS)
    page.set_viewport_size(PHONE)
    table = Table(page)
    page.goto(runner.url)
    expect(page.locator("#status")).to_have_text("live")
    lobby = seat_everybody(table, "/newgame huescues", "turns=1 timers=off reveal=2",
                           ("1 time", "timers off"))  # fmt: skip
    table.press(lobby, "Start")
    giver, prompt = prompted(table, r"Round 1 in .*you give the cues")
    table.press(prompt, table.keys(prompt)[0])
    table.toast("Now send your cue here", over="private")
    table.say("private", "lagoon")
    cells = {}
    for number, name in enumerate(n for n in PLAYERS if n != giver):
        table.be(name)
        prompt = table.private(r"Round 1 in .*cue: «lagoon»")
        expect(prompt).to_contain_text("Place your cone")
        app = open_app(table, prompt, "🎨 Open the board")
        expect(app.locator("#text")).to_contain_text("lagoon")
        if number == 1:  # zoomed in, labels show; the tap still finds its cell
            app.locator("#zoom-in").click()
            app.locator("#zoom-in").click()
            app.locator("#zoom-in").click()
            expect(app.locator("svg.small-labels")).to_have_count(0)
        cell = board.at(2 + number, 1 + number)
        cells[name] = cell
        tap_cell(app, cell)
        name_of = board.name(cell)
        expect(app.locator("#toast")).to_have_text(f"{name_of}: confirm it or change it.")
        expect(table.private(rf"You chose {name_of}\.")).to_be_visible()  # the chat shows it
        expect(app.locator("#confirm")).to_be_visible()
        page.screenshot(path=str(artifacts / f"app-huescues-chosen-{number}.png"))
        app.locator("#confirm").click()
        expect(app.locator("#toast")).to_have_text(f"Your cone is on {name_of}.")
        expect(app.locator("#confirm")).to_have_count(0)
        # (after the last cone the prompt goes on to say where the cones are)
        expect(table.private(rf"Your cone is on {name_of}: final|Your cones: {name_of}\."
                             )).to_be_visible()  # fmt: skip
        close_app(table)
    first = table.group(r"round 1 · .*First cones")
    for name, cell in cells.items():
        expect(first).to_contain_text(f"{name} {board.name(cell)}")  # the legend: who, where

    # A watcher's link on the group's board: the group's view, nothing to tap.
    table.press(first, "👀 Watch the board")
    expect(page.locator("#miniapp")).to_be_visible()
    watch = page.frame_locator("#miniapp-frame")
    expect(watch.locator("#viewport svg")).to_be_visible()
    expect(watch.locator("#text")).to_contain_text("First cones")
    expect(watch.locator("#bar button")).to_have_count(0)
    page.screenshot(path=str(artifacts / "app-huescues-watch.png"))

    # The smallest phone Telegram runs on: 320 px wide, nothing cut off or scrolled sideways.
    address = page.locator("#miniapp-frame").get_attribute("src")
    assert address is not None and "#tgWebAppData=" in address
    small = page.context.new_page()
    small.set_viewport_size({"width": 320, "height": 568})
    small.goto(address)
    expect(small.locator("#viewport svg")).to_be_visible()
    expect(small.locator("#text")).to_contain_text("First cones")
    assert small.evaluate("document.documentElement.scrollWidth") <= 320
    box = small.locator("#viewport svg").bounding_box()
    assert box is not None and box["width"] <= 320
    # At the whole board's size a cell is 10 px: its name would be a smudge, so it waits for
    # the zoom (the close-up and the edges' letters and numbers name the cells meanwhile).
    expect(small.locator("svg.small-labels")).to_have_count(1)
    expect(small.locator("text.label").first).to_be_hidden()
    small.locator("#zoom-in").click()
    small.locator("#zoom-in").click()
    small.locator("#zoom-in").click()
    expect(small.locator("text.label").first).to_be_visible()
    small.screenshot(path=str(artifacts / "app-huescues-320.png"))
    small.close()
    close_app(table)


def test_a_turn_of_wunchunk_built_through_the_app(
    runner_factory: Any, page: Page, artifacts: Path
) -> None:
    table = wunchunk_for_two(runner_factory, page)
    first, prompt = wunchunk_turn(table, 1)
    app = open_app(table, prompt, "🖐 Open the board")
    expect(app.locator(".note")).to_have_text("0 / 1")
    expect(app.locator("#end")).to_contain_text("Pass")
    stones = app.locator("#viewport svg circle")
    expect(stones).not_to_have_count(0)  # the board's first stones
    setup = stones.count()
    free = app.locator("#viewport svg text.label")
    empty = free.count()
    spot = free.nth(empty // 2).bounding_box()  # an empty cell (only those carry a name)
    assert spot is not None
    centre = (spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
    app.locator(".palette button").first.click()  # red: the first seat's colour, whoever plays
    expect(app.locator(".palette button").first).to_have_attribute("aria-pressed", "true")
    page.mouse.click(*centre)
    expect(app.locator("#toast")).to_contain_text("🔴 on ")
    placed = app.locator("#toast").inner_text().split(" on ")[1].rstrip(".")
    expect(app.locator(".note")).to_have_text("1 / 1")
    expect(free).to_have_count(empty - 1)
    expect(table.private(rf"Turn 1 in .*Placed so far: .*{placed}")).to_be_visible()
    pending = app.locator("#viewport svg circle[stroke-dasharray='0.2 0.12']")
    expect(pending).to_have_count(1)
    spot = pending.bounding_box()  # (the board moved down: the text above grew a line)
    assert spot is not None
    page.mouse.click(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
    expect(app.locator("#toast")).to_contain_text(f"🔵 on {placed}.")
    expect(stones).to_have_count(setup + 1)
    page.screenshot(path=str(artifacts / "app-wunchunk-pending.png"))
    app.locator("#end").click()
    expect(app.locator("#toast")).to_have_text("Turn played.")
    close_app(table)
    board_message = table.group(r"Wunchunk · turn 2")
    expect(board_message).to_contain_text("Last stones: ")
    second, prompt = wunchunk_turn(table, 2)
    assert second != first
    # The second player reads the bot in Russian: the app speaks it too.
    table.say("private", "/language")
    table.press(table.private("Choose another language"), "Русский")
    table.toast("Русский", over="private")
    with i18n.use("ru"):
        opening, passing, passed = _("🖐 Open the board"), _("⏭ Pass"), _("You passed.")
        heading = _("{heading}: your turn. Your colour: {colour}.").split(":")[1].strip()
    prompt = table.private(r"Turn 2 in |Ход 2")
    app = open_app(table, prompt, opening)
    expect(app.locator("#viewport svg circle")).to_have_count(setup + 2)  # the stone, its ring
    expect(app.locator("#end")).to_have_text(passing)
    expect(app.locator("#text")).to_contain_text(heading.split("{")[0].strip())
    page.screenshot(path=str(artifacts / "app-wunchunk-russian.png"))
    app.locator("#end").click()
    expect(app.locator("#toast")).to_have_text(passed)
    close_app(table)
