"""The local play page in headless Chromium: how it shows a chat (against the stand-in alone),
and a whole 3-player game played through the page only.

For the game, the runner is started as a newcomer would (`python -m tgbot`, no token, no Redis
answering), so the real web process, worker, Redis, timers and delivery run behind the page.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Runner
from tgbot import i18n
from tgbot.games.registry import LINEUP
from tgbot.i18n import texts
from tgbot.standin import StandinServer, World, run_double
from tgbot.table import introduction

PLAYERS = ["Ann", "Bob", "<i>Cy</i> & co"]  # the third is added through the page
HINTS = ["a quiet night", "<b>not bold</b> & loud", "déjà vu"]
expect.set_options(timeout=20_000)
# The games' own waits a quarter as long (a 2-s reveal in 0.5 s, an AI player's 2-5 s pause in
# 0.5-1.25 s); a lobby's join time, 45 s, still leaves seating everybody room to spare.
TIMERS = ("--timer-scale", "0.25")


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
        """Press the button labelled `label` (or, when none is, the first whose label holds it)."""
        expect(message.locator(".kb").first).to_be_visible()
        exact = message.locator(".kb").filter(has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))
        if exact.count():
            exact.first.click()
        else:
            message.locator(".kb").filter(has_text=label).first.click()

    def toast(self, text: str, over: str | None = None) -> None:
        """A toast is shown; `over` ("group" or "private"): in that chat's pane, and over it
        if it is still there when looked at (a toast goes after 3.5 s, which a busy machine can
        spend between seeing it and measuring it)."""
        scope = f"#{over}-toasts " if over is not None else ""
        toast = self.page.locator(f"{scope}.toast").filter(has_text=text).last
        expect(toast).to_be_visible()
        if over is not None:
            assert_over(toast, self.page.locator(f"#{over}-chat"), gone_ok=True)


def assert_over(node: Locator, pane: Locator, gone_ok: bool = False) -> None:
    """The node's centre lies within the pane (`gone_ok`: unless the node has gone)."""
    box, area = node.bounding_box(), pane.bounding_box()
    if box is None and gone_ok:
        return
    assert box is not None and area is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    inside = area["x"] <= x <= area["x"] + area["width"] and area["y"] <= y <= area["y"] + area[
        "height"]  # fmt: skip
    assert inside, f"{node} at {box} is not over the pane at {area}"


def seat_everybody(
    table: Table,
    newgame: str = "/newgame",
    settings: str = "rotations=1 timers=off reveal=2",
    shown: tuple[str, ...] = ("1 rotation ·", "timers off"),
) -> Locator:
    """Ann opens the lobby; Bob and the added player join through the deep link; Ann sets
    the game short and untimed (`settings`, seen in the lobby as `shown`)."""
    page = table.page
    table.be("Ann")
    page.click("#start-button")  # Ann opens her private chat with the bot first
    expect(table.private("Add me to a group")).to_be_visible()
    table.say("group", newgame)
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
        table.toast("Open a private chat with me first", over="group")  # with the deep link
        expect(table.private("You joined the game")).to_be_visible()
        start = page.locator("#private-messages .msg.out .text").last  # as Telegram shows it:
        expect(start).to_have_text("/start")  # no payload (the bot gets `/start j-…`)
        expect(lobby).to_contain_text(name)
    table.be("Ann")
    table.say("group", f"/settings {settings}")
    for text in shown:
        expect(lobby).to_contain_text(text)
    return lobby


def storyteller_of(table: Table, number: int) -> tuple[str, Locator]:
    """Switch through the players until one has the storyteller's prompt of this round."""
    return prompted(table, rf"Round {number} in .*you are the storyteller")


def prompted(table: Table, pattern: str) -> tuple[str, Locator]:
    """Switch through the players until one has a private prompt with buttons matching."""
    for _attempt in range(40):
        for name in PLAYERS:
            table.be(name)
            prompt = table.private(pattern)
            if prompt.count() and prompt.locator(".kb").count():
                return name, prompt
        table.page.wait_for_timeout(250)
    raise AssertionError(f"nobody got a prompt {pattern!r}")


def play_round(table: Table, number: int, artifacts: Path) -> dict[str, int]:
    """One round by the page; returns the points the rules give for the votes cast."""
    teller, prompt = storyteller_of(table, number)
    card = table.keys(prompt)[0]
    table.press(prompt, card)
    table.toast("Chosen:", over="private")
    table.say("private", HINTS[number - 1])
    expect(table.private("Hint given")).to_be_visible()
    others = [name for name in PLAYERS if name != teller]
    decoys: dict[str, str] = {}
    for name in others:
        table.be(name)
        offer = table.private(rf"Round {number} in .*Choose a decoy")
        decoys[name] = table.keys(offer)[0]
        table.press(offer, decoys[name])
        table.toast("Decoy played", over="private")
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
        table.toast("Vote recorded", over="group")
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
    runner: Runner = runner_factory("--players", "2", *TIMERS)
    table = Table(page)
    page.goto(runner.url)
    expect(page.locator("#group-messages .msg").first).to_contain_text("I run Hintrigue")
    expect(page.locator("#status")).to_have_text("live")
    lobby = seat_everybody(table)
    expect(lobby).to_contain_text(PLAYERS[2])  # names are text, not markup
    expect(lobby.locator("i")).to_have_count(0)
    page.screenshot(path=str(artifacts / "lobby.png"))

    lobby_id = lobby.get_attribute("data-message-id")
    table.press(lobby, "Start")
    table.toast("The game starts!")
    started = page.locator(f'#group-messages .msg[data-message-id="{lobby_id}"]')
    expect(started).to_contain_text("this game has started")
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
    picture = final.locator("img.photo")  # the results picture, above its caption
    expect(picture).to_be_visible()
    picture.scroll_into_view_if_needed()
    page.wait_for_function("(img) => img.complete && img.naturalWidth >= 640",
                           arg=picture.element_handle())  # fmt: skip
    page.screenshot(path=str(artifacts / "final.png"))


# ----- Guess What! on the page ------------------------------------------------------------------

CLUES = ["sea & shore", "<b>not bold</b>", "déjà vu"]


def pick_row(table: Table, prompt: Locator, row: int) -> None:
    """Press the three icons of a board row (A, B, C), each shown ticked before the next."""
    labels = table.keys(prompt)[row * 3 : row * 3 + 3]
    for count, label in enumerate(labels, 1):
        assert label.startswith("ABC"[count - 1] + " "), labels
        table.press(prompt, label)
        expect(prompt.locator(".kb").filter(has_text="✅")).to_have_count(count)


def play_guesswhat_round(table: Table, number: int) -> dict[str, int]:
    """The active player takes the first row; the first guesser finds it, the second takes the
    second row: by the rules, the active player and the finder score 1."""
    active, prompt = prompted(table, rf"Round {number} in .*it is your turn")
    pick_row(table, prompt, 0)
    table.say("private", CLUES[number - 1])
    expect(table.private("Clue given")).to_be_visible()
    board = table.group(rf"round {number} · ")
    expect(board).to_contain_text(CLUES[number - 1])  # a clue with markup shows as typed
    first, second = [name for name in PLAYERS if name != active]
    for name, row in ((first, 0), (second, 1)):
        table.be(name)
        guess = table.private(rf"Round {number} in .*clue is")
        pick_row(table, guess, row)
        table.press(guess, "Confirm")
        table.toast("Your guess is recorded", over="private")
        expect(guess).to_contain_text("Your guess is recorded")
    reveal = table.group(rf"Round {number}: the answer")
    expect(reveal).to_contain_text(f"✅ {first}")
    expect(reveal).to_contain_text(f"❌ {second}")
    return {active: 1, first: 1, second: 0}


def test_three_players_play_a_whole_game_of_guess_what_on_the_page(
    runner_factory: Any, page: Page, artifacts: Path
) -> None:
    runner: Runner = runner_factory("--players", "2", *TIMERS)
    table = Table(page)
    page.goto(runner.url)
    expect(page.locator("#status")).to_have_text("live")
    lobby = seat_everybody(table, "/newgame guesswhat")
    expect(lobby).to_contain_text("Guess What! — a new game is open")
    expect(lobby).to_contain_text("up to 12 points")
    table.press(lobby, "Start")
    table.toast("The game starts!")
    totals = dict.fromkeys(PLAYERS, 0)
    for number in (1, 2, 3):
        for name, points in play_guesswhat_round(table, number).items():
            totals[name] += points
        if number == 1:
            page.screenshot(path=str(artifacts / "guesswhat-reveal.png"))
    final = table.group("Game over")
    text = final.inner_text()
    for name, points in totals.items():
        assert re.search(rf"{re.escape(name)} — {points} points?", text), (name, points, text)
    page.screenshot(path=str(artifacts / "guesswhat-final.png"))


# ----- Hues and Cues on the page ----------------------------------------------------------------


def cell_near(cell: int, rows: int, columns: int) -> int:
    """A cell `rows` and `columns` away, mirrored back onto the board at its edges."""
    row, column = divmod(cell, 30)
    row = row + rows if 0 <= row + rows <= 15 else row - rows
    column = column + columns if 0 <= column + columns <= 29 else column - columns
    return row * 30 + column


def cell_name(cell: int) -> str:
    return "ABCDEFGHIJKLMNOP"[cell // 30] + str(cell % 30 + 1)


def cone_points(colour: int, cell: int) -> int:
    """The rules' words: 3, 2 and 1 at (Chebyshev) distance 0, 1 and 2 from the colour."""
    distance = max(abs(colour // 30 - cell // 30), abs(colour % 30 - cell % 30))
    return {0: 3, 1: 2, 2: 1}.get(distance, 0)


def wait_for_photo(table: Table, message: Locator) -> None:
    """The message shows a picture, loaded, at least as wide as the board's 1280 pixels when it
    is a board (`min_width`)."""
    photo = message.locator("img.photo")
    expect(photo).to_be_visible()
    photo.scroll_into_view_if_needed()
    table.page.wait_for_function("(img) => img.complete && img.naturalWidth > 0",
                                 arg=photo.element_handle())  # fmt: skip


def place_cone(table: Table, name: str, pattern: str, cell: int, by_keys: bool) -> None:
    """A guesser places a cone on a cell: typed (`15H` style) or by row then column, seen as
    the close-up, then confirmed."""
    table.be(name)
    prompt = table.private(pattern)
    wait_for_photo(table, prompt)  # the board comes with the prompt
    label = cell_name(cell)
    if by_keys:
        table.press(prompt, label[0])  # the row
        expect(prompt).to_contain_text(f"Row {label[0]}")
        prompt.locator(".kb").filter(has_text=re.compile(rf"^·?{label}$")).first.click()
    else:
        table.say("private", f"{label[1:]}{label[0].lower()}")  # typed as people do: 15h
    chosen = table.private(rf"You chose {label}\.")
    expect(chosen).to_be_visible()
    wait_for_photo(table, chosen)  # the close-up
    table.press(chosen, "Confirm")
    table.toast(f"Your cone is on {label}.", over="private")


def play_hues_round(table: Table, number: int, second_cue: str | None, artifacts: Path,
                    tied: list[str] | None = None) -> dict[str, int]:  # fmt: skip
    """The cue giver takes its card's first colour; the first guesser types its cells, the
    second uses the keyboard (in a tie-break round the guessers are the `tied` players).
    Returns the points the rules give for the cones placed."""
    giver, prompt = prompted(table, rf"Round {number}\b.*you give the cues")
    wait_for_photo(table, prompt)  # the card's four colours
    first_colour = table.keys(prompt)[0]
    colour_name = first_colour.split(" · ")[1]
    colour = "ABCDEFGHIJKLMNOP".index(colour_name[0]) * 30 + int(colour_name[1:]) - 1
    table.press(prompt, first_colour)
    table.toast(f"Colour {colour_name} chosen", over="private")
    if number == 1:  # a basic colour word is refused, with the reason
        table.say("private", "Grey")
        expect(table.private("is a basic colour word")).to_be_visible()
    cue = ["lavender", "pig", "forest", "lagoon", "ember", "velvet"][number - 1]
    table.say("private", cue)
    board = table.group(rf"round {number} · ")
    expect(board).to_contain_text(f"Cue: «{cue}»")
    wait_for_photo(table, board)
    if number == 1:
        table.page.screenshot(path=str(artifacts / "huescues-board.png"))
    typist, clicker = [name for name in tied or PLAYERS if name != giver]
    first = {typist: colour, clicker: cell_near(colour, 0, 2)}
    pattern = rf"Round {number}\b.*cue: «{cue}»"
    place_cone(table, typist, pattern, first[typist], by_keys=False)
    place_cone(table, clicker, pattern, first[clicker], by_keys=True)
    expect(table.group(rf"round {number} · ")).to_contain_text("First cones")
    cones = list(first.values())
    table.be(giver)
    down = table.private(rf"Round {number}\b.*first cones are down")
    if second_cue is None:
        table.press(down, "No second cue")
        table.toast("No second cue", over="private")
        second = {}
    else:
        table.say("private", second_cue)
        second = {typist: cell_near(colour, 0, 1), clicker: cell_near(colour, 1, 0)}
        pattern = rf"Round {number}\b.*«{cue}» · «{second_cue}»"
        place_cone(table, typist, pattern, second[typist], by_keys=False)
        place_cone(table, clicker, pattern, second[clicker], by_keys=True)
        cones += list(second.values())
    reveal = table.group(rf"Round {number}: the colour was {colour_name}")
    expect(reveal).to_be_visible()
    wait_for_photo(table, reveal)
    if number == 1:
        table.page.screenshot(path=str(artifacts / "huescues-reveal.png"))
    gained = {name: cone_points(colour, first[name]) for name in first}
    for name, cell in second.items():
        gained[name] += cone_points(colour, cell)
    close = sum(cone_points(colour, cell) >= 2 for cell in cones)
    if tied is None or giver in tied:  # a cue giver outside the tie scores nothing
        gained[giver] = min(9, close * 2)  # two guessers: the cue giver's points count double
    return gained


def tie_break_follows(table: Table, seen: int) -> bool:
    """After a round's reveal: the game is over (False) or one more tie-break round was
    announced (True) — whichever the group shows first."""
    group = table.page.locator("#group-messages .msg")
    notices = group.filter(has_text=re.compile(r"Tie-break round \d of 3"))
    for _attempt in range(200):
        if notices.count() > seen:
            return True
        if group.filter(has_text="Game over").count():
            return False
        table.page.wait_for_timeout(100)
    raise AssertionError("neither the end nor a tie-break round came")


def test_three_players_play_a_whole_game_of_hues_and_cues_on_the_page(
    runner_factory: Any, page: Page, artifacts: Path
) -> None:
    runner: Runner = runner_factory("--players", "2", *TIMERS)
    table = Table(page)
    page.goto(runner.url)
    expect(page.locator("#status")).to_have_text("live")
    lobby = seat_everybody(table, "/newgame huescues", "turns=1 timers=off reveal=2",
                           ("1 time", "timers off"))  # fmt: skip
    expect(lobby).to_contain_text("Hues and Cues")
    table.press(lobby, "Start")
    table.toast("The game starts!")
    totals = dict.fromkeys(PLAYERS, 0)
    for number, second_cue in ((1, "candy floss"), (2, None), (3, None)):
        for name, points in play_hues_round(table, number, second_cue, artifacts).items():
            totals[name] += points
    extra = 0
    while tie_break_follows(table, extra):  # equal top totals: only the tied guess and score
        extra += 1
        assert extra <= 3, "at most three tie-break rounds"
        top = max(totals.values())
        tied = [name for name in PLAYERS if totals[name] == top]
        assert len(tied) >= 2, (totals, "a tie-break round without a tie")
        for name, points in play_hues_round(table, 3 + extra, None, artifacts, tied).items():
            totals[name] += points
    final = table.group("Game over")
    text = final.inner_text()
    for name, points in totals.items():
        assert re.search(rf"{re.escape(name)} — {points} points?", text), (name, points, text)
    page.screenshot(path=str(artifacts / "huescues-final.png"))


# ----- each player's Telegram app language ----------------------------------------------------


def spoken(lang: str, message: str, **values: str) -> str:
    """A message of the catalogs in a language, as the page shows it: formatted, as text."""
    with i18n.use(lang):
        return re.sub(r"<[^>]+>", "", i18n._(message).format(**values))


def text_in(lang: str, name: str) -> str:
    """One of `tgbot.i18n.texts` in a language, as the page shows it."""
    with i18n.use(lang):
        return re.sub(r"<[^>]+>", "", getattr(texts, name))


def private_help_in(lang: str) -> str:
    """/help in private in a language, as the page shows it."""
    with i18n.use(lang):
        return re.sub(r"<[^>]+>", "", introduction.private_help(LINEUP))


def wait_for_language(runner: Runner, name: str, code: str | None) -> None:
    """The stand-in has this language_code for the player: their next updates carry it."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        users = httpx.get(f"{runner.url.rstrip('/')}/_standin/users", timeout=5,
                          trust_env=False).json()["users"]  # fmt: skip
        found = [u["language_code"] for u in users if u["first_name"] == name]
        if found == [code]:
            return
        time.sleep(0.05)
    raise AssertionError(f"{name}'s language_code is {found}, not {code!r}")


def test_each_player_speaks_the_language_set_on_the_page(
    runner_factory: Any, page: Page, artifacts: Path
) -> None:
    runner: Runner = runner_factory("--players", "3")
    table = Table(page)
    page.goto(runner.url)
    expect(page.locator("#status")).to_have_text("live")
    language = page.get_by_label("Telegram language")

    table.be("Ann")  # Italian: her private chat speaks it, from her Telegram language alone
    expect(language).to_have_value("")
    language.select_option("it")
    wait_for_language(runner, "Ann", "it")
    page.click("#start-button")
    help_it = private_help_in("it").splitlines()[0]
    assert help_it != private_help_in("en").splitlines()[0]
    expect(table.private(re.escape(help_it))).to_be_visible()
    # Ann added the bot before she had a language: the group speaks that of its first lobby.
    table.say("group", "/newgame")
    heading = spoken("it", "<b>{game}</b> — a new game is open!", game="Hintrigue")
    lobby = table.group(re.escape(heading))
    join = spoken("it", "Join")
    assert join != "Join"
    assert join in table.keys(lobby)

    table.be("Bob")  # Russian, in a game that speaks Italian: his answers and messages in his
    language.select_option("ru")
    wait_for_language(runner, "Bob", "ru")
    table.press(lobby, join)
    table.toast(text_in("ru", "OPEN_PRIVATE"), over="group")
    joined = "You joined the game in <b>{group}</b>. Your cards come here when it starts."
    expect(table.private(re.escape(spoken("ru", joined, group="Game night")))).to_be_visible()
    expect(lobby).to_contain_text("Bob")

    table.be("Cy")  # a language the bot does not speak: the group's, Italian
    language.select_option("zh-hans")
    wait_for_language(runner, "Cy", "zh-hans")
    table.press(lobby, join)
    table.toast(text_in("it", "OPEN_PRIVATE"), over="group")
    expect(table.private(re.escape(spoken("it", joined, group="Game night")))).to_be_visible()
    expect(lobby).to_contain_text("Cy")

    language.select_option("")  # no language at all
    wait_for_language(runner, "Cy", None)
    table.be("Ann")
    expect(language).to_have_value("it")  # each player's own, as the stand-in has it
    table.be("Cy")
    expect(language).to_have_value("")
    table.be("Bob")
    expect(language).to_have_value("ru")
    page.screenshot(path=str(artifacts / "languages.png"))


# ----- how the page shows a chat, against the stand-in alone (no bot behind it) ----------------


def contrast(css_colour: str) -> float:
    """WCAG contrast ratio of an opaque `rgb(r, g, b)` colour against white."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", css_colour)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


def bot_api(double: StandinServer, method: str, **params: Any) -> Any:
    response = httpx.post(f"{double.api_base}{double.token}/{method}", json=params,
                          timeout=10, trust_env=False)  # fmt: skip
    assert response.status_code == 200, response.text
    return response.json()["result"]


def keyboard(*labels: str) -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": t, "callback_data": f"k{i}"} for i, t in
                                 enumerate(labels)]]}  # fmt: skip


def answer_next_press(double: StandinServer, text: str) -> None:
    """Wait for a press on the page and answer it as the bot would, with a toast."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with double.world.lock:
            waiting = [q for q in double.world.callback_queries.values() if q.answer is None]
        if waiting:
            bot_api(double, "answerCallbackQuery", callback_query_id=waiting[0].id, text=text)
            return
        time.sleep(0.05)
    raise AssertionError("the page pressed no button")


def test_the_page_shows_names_buttons_starts_and_toasts_readably(page: Page) -> None:
    world = World(first_user_id=7000)
    group = -1_000_000_000_042
    world.add_chat(group, "supergroup", title="Game night")
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]
    users = [world.add_user(first_name=name).id for name in names]  # ids 7000…: every colour
    for user, name in zip(users, names, strict=True):
        world.user_message(user, group, f"hello from {name}")
    ann = users[0]
    update = world.start_private(ann, "r-1000000000042")
    assert update["message"]["text"] == "/start r-1000000000042"  # the bot gets the payload
    world.start_private(users[1])  # Bob can be written to
    with run_double(world) as double:
        bot_api(double, "sendMessage", chat_id=group, text="Pick one",
                reply_markup=keyboard("🌂 Umbrella", "🌫️ Fog"))  # fmt: skip
        bot_api(double, "sendMessage", chat_id=ann, text="Your hand",
                reply_markup=keyboard("🌂", "🌫️", "🇫🇷"))  # fmt: skip
        page.goto(f"{double.url}/#player={ann}")

        senders = page.locator("#group-messages .sender")
        expect(senders).to_have_count(len(names))  # the others' names and the bot's
        colours = senders.evaluate_all("""ns => ns.map(n => [
            (n.closest('.msg.bot') ? 'bot ' : '') + n.className, getComputedStyle(n).color])""")
        shown = {cls for cls, _ in colours}
        assert shown >= {f"sender c{i}" for i in range(7)} and len(shown) == 8, colours
        for cls, colour in colours:  # every player's colour and the bot's
            assert contrast(colour) >= 4.5, f"{cls} ({colour}) on white: {contrast(colour):.2f}"

        start = page.locator("#private-messages .msg.out .text")
        expect(start).to_have_text("/start")  # as Telegram shows a deep link's start

        # A player's chip stays the same element when the view changes (a chip made anew at
        # every change drops a click pressed on the old one and released on the new).
        chip = page.locator("#players .player").filter(has_text="Bob").element_handle()
        bot_api(double, "sendMessage", chat_id=users[1], text="For Bob")
        expect(page.locator("#players .player").filter(has_text="Bob")).to_contain_text("•")
        assert chip.evaluate("chip => chip.isConnected && chip.textContent.includes('•')")

        keys = page.locator("#private-messages .kb")
        expect(keys).to_have_count(3)
        sizes = keys.evaluate_all("""ks => ks.map(k => [
            parseFloat(getComputedStyle(k).fontSize),
            [...k.querySelectorAll('.emoji')].map(e => [e.textContent,
                                                        parseFloat(getComputedStyle(e).fontSize)])])""")
        assert [[text for text, _ in emoji] for _, emoji in sizes] == [["🌂"], ["🌫️"], ["🇫🇷"]]
        for size, emoji in sizes:
            assert size >= 16, sizes
            assert all(px >= 20 for _, px in emoji), sizes
        group_key = page.locator("#group-messages .kb").first
        expect(group_key.locator(".emoji")).to_have_text("🌂")
        assert float(group_key.evaluate("k => parseFloat(getComputedStyle(k).fontSize)")) >= 16

        keys.first.click()  # a press in the private chat: its answer shows over that chat
        answer_next_press(double, "Chosen: 🌂")
        toast = page.locator(".toast", has_text="Chosen: 🌂")
        expect(toast).to_be_visible()
        assert_over(toast, page.locator("#private-chat"))
        group_key.click()  # and one in the group, over the group
        answer_next_press(double, "Vote recorded")
        toast = page.locator(".toast", has_text="Vote recorded")
        expect(toast).to_be_visible()
        assert_over(toast, page.locator("#group-chat"))


def test_the_page_shows_a_forum_one_topic_at_a_time_and_posts_in_the_topic_shown(
    page: Page,
) -> None:
    world = World(first_user_id=7100)
    group, forum = -1_000_000_000_050, -1_000_000_000_051
    world.add_chat(group, "supergroup", title="Game night")
    world.add_chat(forum, "supergroup", title="Forum night", is_forum=True)
    ann = world.add_user(first_name="Ann").id
    first, second = world.create_topic(forum, "Table 1"), world.create_topic(forum, "Table 2")
    with run_double(world) as double:
        bot_api(double, "sendMessage", chat_id=forum, text="for table one",
                message_thread_id=first)  # fmt: skip
        bot_api(double, "sendMessage", chat_id=forum, text="for everybody")
        page.goto(f"{double.url}/#player={ann}")
        messages = page.locator("#group-messages .msg .text")
        expect(page.locator("#topic-bar")).to_be_hidden()  # a plain group has no topics
        page.locator("#group-select").select_option(str(forum))
        topics = page.locator("#topic-select")
        expect(topics.locator("option")).to_have_text(["# General", "# Table 1", "# Table 2"])
        expect(messages).to_have_text(["for everybody"])  # General: no thread id
        topics.select_option(str(first))
        expect(messages.filter(has_text="for table one")).to_have_count(1)
        expect(messages.filter(has_text="for everybody")).to_have_count(0)
        expect(page.locator("#group-messages .msg.service")).to_have_text("Topic “Table 1” created")
        topics.select_option(str(second))
        Table(page).say("group", "/newgame")
        expect(messages.filter(has_text="/newgame")).to_have_count(1)
        sent = world.messages(forum)[-1]
        assert (sent.plain_text, sent.thread_id, sent.from_user_id) == ("/newgame", second, ann)
        assert world.updates[-1]["message"]["is_topic_message"] is True
        page.once("dialog", lambda dialog: dialog.accept("Quiz"))
        page.locator("#new-topic").click()
        expect(topics.locator("option:checked")).to_have_text("# Quiz")
        assert "Quiz" in world.chats[forum].topics.values()
        page.locator("#new-forum").click()
        expect(page.locator("#group-title")).to_have_text("Forum 2")
        made = [c for c in world.chats.values() if c.title == "Forum 2"]
        assert len(made) == 1 and made[0].is_forum and made[0].type == "supergroup"


def test_the_page_on_its_own_makes_a_plain_group_and_adds_the_bot_to_it(page: Page) -> None:
    world = World(first_user_id=7200)
    ann = world.add_user(first_name="Ann").id
    with run_double(world) as double:
        page.goto(f"{double.url}/#player={ann}")
        expect(page.locator("#group-title")).to_have_text("No group yet")
        page.locator("#new-group").click()
        expect(page.locator("#group-title")).to_have_text("Group 1")
        expect(page.locator("#topic-bar")).to_be_hidden()
        made = next(c for c in world.chats.values() if c.title == "Group 1")
        assert made.type == "supergroup" and not made.is_forum
        assert world.member_status(made.id, ann) == "creator"
        change = world.updates[-1]["my_chat_member"]  # the bot arrives as in Telegram
        assert change["chat"]["id"] == made.id and change["from"]["id"] == ann
        assert (change["old_chat_member"]["status"], change["new_chat_member"]["status"]) == (
            "left",
            "member",
        )


# ----- AI players on the page -------------------------------------------------------------------


def test_one_person_and_two_ai_players_play_a_whole_game_on_the_page(
    runner_factory: Any, page: Page
) -> None:
    runner: Runner = runner_factory("--players", "2", *TIMERS)
    table = Table(page)
    page.goto(runner.url)
    expect(page.locator("#status")).to_have_text("live")
    table.be("Ann")
    page.click("#start-button")
    expect(table.private("Add me to a group")).to_be_visible()
    table.say("group", "/newgame")
    lobby = table.group("a new game is open")
    expect(lobby).to_contain_text("Ann (host)")
    table.say("group", "/settings rotations=1 timers=off reveal=2")
    expect(lobby).to_contain_text("timers off")
    for name in ("Iris", "Otto"):
        table.press(lobby, "Add AI")
        table.toast("An AI player took a seat.", over="group")
        expect(lobby).to_contain_text(name)
    table.press(lobby, "Start")
    table.toast("The game starts!")
    for number in (1, 2, 3):
        telling = rf"Round {number} in .*you are the storyteller"
        decoying = rf"Round {number} in .*Choose a decoy"
        for _attempt in range(80):
            tells, offer = table.private(telling), table.private(decoying)
            if (tells.count() and tells.locator(".kb").count()) or (
                offer.count() and offer.locator(".kb").count()
            ):
                break
            page.wait_for_timeout(250)
        if tells.count() and tells.locator(".kb").count():
            table.press(tells, table.keys(tells)[0])
            table.toast("Chosen:", over="private")
            table.say("private", HINTS[number - 1])
            expect(table.private("Hint given")).to_be_visible()
        else:
            own = table.keys(offer)[0]
            table.press(offer, own)
            table.toast("Decoy played", over="private")
            board = table.group(rf"The table · round {number}\b")
            label = next(k for k in table.keys(board) if k.split(". ", 1)[1] != own)
            table.press(board, label)
            table.toast("Vote recorded", over="group")
        expect(table.group(rf"Reveal · round {number}\b")).to_be_visible()
    final = table.group("Game over")
    expect(final).to_contain_text("Standings")
    expect(final).to_contain_text("Iris")
    expect(final).to_contain_text("Otto")


# ----- Wunchunk on a phone-sized page ---------------------------------------------------------


def ann_opens_on_a_phone(page: Page, runner: Runner, newgame: str) -> tuple[Table, Locator]:
    """At a phone's width (390 px), Ann opens her private chat with the bot, then a lobby in
    the group with `newgame`: the table and the lobby."""
    page.set_viewport_size({"width": 390, "height": 844})
    table = Table(page)
    page.goto(runner.url)
    expect(page.locator("#status")).to_have_text("live")
    table.be("Ann")
    page.click("#start-button")
    expect(table.private("Add me to a group")).to_be_visible()
    table.say("group", newgame)
    return table, table.group("a new game is open")


def wunchunk_for_two(runner_factory: Any, page: Page) -> Table:
    """Ann and Bob start a game of Wunchunk on a board of 5, untimed, on a phone-sized page."""
    runner: Runner = runner_factory("--players", "2")
    table, lobby = ann_opens_on_a_phone(page, runner, "/newgame wunchunk")
    expect(lobby).to_contain_text("2–4 players")
    table.be("Bob")
    table.press(lobby, "Join")
    table.toast("Open a private chat with me first", over="group")
    expect(table.private("You joined the game")).to_be_visible()
    table.be("Ann")
    table.say("group", "/settings size=5 timers=off reveal=2")
    expect(lobby).to_contain_text("board of 5")
    table.press(lobby, "Start")
    table.toast("The game starts!")
    return table


def wunchunk_turn(table: Table, number: int) -> tuple[str, Locator]:
    """The player on turn `number` (switching through Ann and Bob) and their turn message."""
    for _attempt in range(80):
        for name in PLAYERS[:2]:
            table.be(name)
            prompt = table.private(rf"Turn {number} in .*your turn")
            if prompt.count() and prompt.locator(".kb").count():
                return name, prompt
        table.page.wait_for_timeout(250)
    raise AssertionError(f"nobody's turn {number}")


def test_two_players_play_wunchunk_on_a_phone_sized_page(
    runner_factory: Any, page: Page, artifacts: Path
) -> None:
    table = wunchunk_for_two(runner_factory, page)

    # turn 1 typed; turn 2 by colour, row and place buttons; then both pass
    first, prompt = wunchunk_turn(table, 1)
    board = table.group(r"Wunchunk · turn 1 · board of 5")
    expect(board).to_contain_text("up to 1 stone")
    image = board.locator("img").first
    expect(image).to_be_visible()
    shown = image.bounding_box()
    assert shown is not None and shown["width"] <= 390, shown
    table.say("private", "a1")
    placed = table.private(r"Turn 1 in .*Placed so far: a1")
    expect(placed).to_be_visible()
    page.screenshot(path=str(artifacts / "wunchunk-turn-phone.png"))
    table.press(placed, "End turn")
    table.toast("Turn played.", over="private")
    second, prompt = wunchunk_turn(table, 2)
    assert second != first
    expect(table.group(r"Wunchunk · turn 2")).to_contain_text("Last stones: ")
    table.press(prompt, "1")  # the first seat's colour
    prompt = table.private(r"Turn 2 in .*Stone 🔴: choose the row")
    expect(prompt).to_be_visible()  # each view is drawn as its press comes: one at a time
    table.press(prompt, "e")
    row = table.private(r"Turn 2 in .*Row e")
    expect(row).to_be_visible()
    table.press(row, "e1")
    table.toast("on e1.", over="private")
    placed = table.private(r"Turn 2 in .*Placed so far")
    expect(placed).to_contain_text("e1")
    table.press(placed, "Undo")
    table.toast("Stone taken back.", over="private")
    table.press(table.private(r"Turn 2 in .*your turn"), "Pass")
    table.toast("You passed.", over="private")
    _, prompt = wunchunk_turn(table, 3)
    table.press(prompt, "Pass")
    table.toast("You passed.", over="private")
    final = table.group("Game over")
    expect(final).to_contain_text("Standings")
    expect(final).to_contain_text("chunk")
    expect(table.group(r"Wunchunk · turn 3")).to_contain_text("Everybody passed")
    page.screenshot(path=str(artifacts / "wunchunk-final-phone.png"))
