"""The board app's API through the web process, with the bot's worker and the stand-in (SPEC
16): prompts that ask for a cell carry the app's button and the group's board its direct link;
a seat sees its own view only, a watcher the group's; refused requests (no initData, a forged
or stale one, another room's token, a watcher's tap, too many requests) answer 401, 403 or 429
with no detail; a tap is the press its button would be, answered as the chat answers it and
shown in the chat, applied once when sent twice; a game that ended says so."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, unquote, urlsplit

import httpx
import pytest

from engine.games.huescues import board
from engine.games.huescues.model import Phase, State
from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import Store, keys
from tests.conftest import test_redis_url
from tests.harness import (
    GROUP,
    Stack,
    button,
    join_lobby,
    play_state,
    prompt_of,
    running_stack,
    start_untimed,
    stop_and_wait_closed,
    wait_for,
)
from tgbot.games.registry import LINEUP
from tgbot.standin.miniapp import direct_link, launch
from tgbot.webapp.trust import room_token

pytestmark = pytest.mark.slow
ENV = {"APP_URL": "{web}/app/", "APP_LINK": "https://t.me/hintrigue_bot/board"}


@pytest.fixture
def stack(real_redis, tmp_path):
    with running_stack(test_redis_url(), tmp_path, env=ENV) as running:
        yield running


def web(stack: Stack) -> str:
    return stack.config.webhook_url.removesuffix("/webhook")


def init_data(stack: Stack, user: int, url: str = "http://x/app/", **options) -> str:
    """The initData Telegram would give `user`'s app, read back out of its launch address."""
    address = launch(url, stack.world.users[user], stack.world.token, time.time(), **options)
    return unquote(parse_qs(urlsplit(address).fragment)["tgWebAppData"][0])


def api(stack: Stack, path: str, auth: str | None, body: dict) -> httpx.Response:
    headers = {"Authorization": f"tma {auth}"} if auth is not None else {}
    return httpx.post(f"{web(stack)}/app/api/{path}", json=body, headers=headers, timeout=10)


def app_token(message) -> str:
    """The room token of the app button on a private prompt."""
    rows = (message.reply_markup or {}).get("inline_keyboard", [])
    url = next(b["web_app"]["url"] for row in rows for b in row if "web_app" in b)
    return parse_qs(urlsplit(url).query)["r"][0]


def test_a_round_through_the_app(stack: Stack) -> None:
    users = join_lobby(stack, ["Ann", "Bob", "Cy"], "app", "/newgame huescues")
    start_untimed(stack, users[0])
    giver, card_prompt = prompt_of(stack, users, 1, "you give the cues", "the cue giver")
    assert not any("web_app" in b for row in card_prompt.reply_markup["inline_keyboard"]
                   for b in row), "a card's four colours need no board"  # fmt: skip
    colour = play_state(stack, State).card_cells()[0]
    stack.press(giver, card_prompt, button(card_prompt, f"1 · {board.name(colour)}"))
    stack.say(giver, giver, "lagoon")
    guesser, other = [u for u in users if u != giver]
    prompt = wait_for(lambda: (m := stack.find(guesser, r"Round 1\b.*cue: «lagoon»"))
                      and any("web_app" in b for row in m.reply_markup["inline_keyboard"]
                              for b in row) and m, what="the guesser's prompt")  # fmt: skip
    token = app_token(prompt)
    group_board = stack.find(GROUP, r"round 1 · ")
    link = next(b["url"] for row in group_board.reply_markup["inline_keyboard"] for b in row
                if "url" in b)  # fmt: skip
    assert link == f"https://t.me/hintrigue_bot/board?startapp={token}"
    assert direct_link(link, "hintrigue_bot", {"board": "https://h/app/"}) == ("https://h/app/",
                                                                                token)  # fmt: skip

    # The guesser's view: the board, what a tap does, never the colour or the card.
    auth = init_data(stack, guesser)
    seen = api(stack, "view", auth, {"room": token}).json()
    assert seen["game"] == "huescues" and seen["seat"] == users.index(guesser)
    assert seen["can"] == "cell" and seen["card"] == [] and seen["frame"] is None
    assert len(seen["colours"]) == 480 and "lagoon" in seen["cues"]
    assert "lagoon" in seen["text"] and "<b>" not in seen["text"]
    assert "Friday <Night> & Games" in seen["text"], "plain text, unescaped"
    assert api(stack, "view", auth, {"room": token, "since": seen["version"]}).json() == {
        "same": True}  # fmt: skip
    giver_view = api(stack, "view", init_data(stack, giver), {"room": token}).json()
    assert giver_view["frame"] == colour and len(giver_view["card"]) == 4
    assert giver_view["can"] is None, "the cue is given: nothing to tap"
    watcher = stack.world.add_user(first_name="Wes").id
    watched = api(stack, "view", init_data(stack, watcher, start_param=token, from_button=False),
                  {"room": token}).json()  # fmt: skip
    assert watched["seat"] is None and watched["card"] == [] and watched["frame"] is None
    assert watched["can"] is None and "Cue: «lagoon»" in watched["text"]

    # Refused, with no detail, changing nothing.
    version = stack.client.hget(keys.room(GROUP), "ver")
    move = {"room": token, "nonce": "n" * 12, "tap": {"do": "cell", "cell": 5}}
    assert api(stack, "tap", None, move).status_code == 401
    forged = auth.replace("Ann", "Ana").replace("Bob", "Bab").replace("Cy", "Ci")
    assert api(stack, "tap", forged, move).status_code == 401
    stale = init_data(stack, guesser).replace("auth_date=", "auth_date=1")
    assert api(stack, "tap", stale, move).status_code == 401
    old = launch("http://x/", stack.world.users[guesser], stack.world.token, time.time() - 3700)
    assert api(stack, "tap", unquote(parse_qs(urlsplit(old).fragment)["tgWebAppData"][0]),
               move).status_code == 401  # fmt: skip
    elsewhere = room_token(stack.config.signing_key, RoomId(GROUP - 1), 1)
    assert api(stack, "view", auth, {"room": elsewhere[:-1] + "A"}).status_code == 403
    assert api(stack, "tap", init_data(stack, watcher), move).status_code == 403
    bad = api(stack, "tap", auth, {**move, "tap": {"do": "cell", "cell": 480}})
    assert bad.status_code == 400
    assert stack.client.hget(keys.room(GROUP), "ver") == version

    # A tap: the chat's answer, the chat's prompt, applied once when sent twice.
    cell = board.at(3, 7)
    move = {"room": token, "nonce": "tap-one-xyz", "tap": {"do": "cell", "cell": cell}}
    time.sleep(2)  # the app asked much above: its bucket fills again
    answered = api(stack, "tap", auth, move)
    assert answered.status_code == 200, answered.status_code
    first = answered.json()
    assert first == {"answers": [{"text": f"{board.name(cell)}: confirm it or change it.",
                                  "alert": False}], "pending": False}  # fmt: skip
    wait_for(lambda: stack.find(guesser, rf"You chose {board.name(cell)}\."), what="the chat")
    version = stack.client.hget(keys.room(GROUP), "ver")
    assert api(stack, "tap", auth, move).json() == first
    stack.settle()
    assert stack.client.hget(keys.room(GROUP), "ver") == version, "applied once"
    chosen = api(stack, "view", auth, {"room": token}).json()
    assert chosen["choice"] == cell and chosen["confirm"] is True

    # A refusal is the chat's: the cue giver may not place a cone.
    refused = api(stack, "tap", init_data(stack, giver),
                  {"room": token, "nonce": "giver-tap-1", "tap": {"do": "cell", "cell": 0}})
    answer = refused.json()["answers"][0]
    assert answer["alert"] is True
    game_id = Store(stack.client, GAMES).load(GROUP).game_id
    data = LINEUP.codec.encode(stack.config.signing_key, "hcel", GROUP, 1, 0, game_id)
    pressed = stack.world.press(giver, giver, card_prompt.message_id, data, force=True)
    stack.deliver(pressed)
    chat_answer = stack.answer_to(pressed)  # the same button pressed in the chat
    assert answer["text"] == chat_answer

    # Confirm: the cone is final, in the app and in the chat.
    done = api(stack, "tap", auth, {"room": token, "nonce": "confirm-1", "tap": {"do": "confirm"}})
    assert done.json()["answers"] == [{"text": f"Your cone is on {board.name(cell)}.",
                                       "alert": False}]  # fmt: skip
    wait_for(lambda: stack.find(guesser, rf"Your cone is on {board.name(cell)}: final"))
    placed = api(stack, "view", auth, {"room": token}).json()
    assert placed["can"] is None and placed["confirm"] is False
    assert {"cell": cell, "seat": users.index(guesser), "second": False} in placed["cones"]
    others = api(stack, "view", init_data(stack, other), {"room": token}).json()
    assert all(c["cell"] != cell for c in others["cones"]), "a cone is hidden until all are down"
    assert play_state(stack, State).phase is Phase.GUESS

    # Too many requests from one app: 429, then it may ask again.
    codes = [api(stack, "view", auth, {"room": token, "since": "x"}).status_code
             for _ in range(12)]  # fmt: skip
    assert 429 in codes and codes[0] == 200

    # The game ends: the app says so.
    time.sleep(1.5)
    stop_and_wait_closed(stack, users[0], group_board.message_id)
    wait_for(lambda: api(stack, "view", auth, {"room": token}).json().get("over"),
             what="the app to see the end")  # fmt: skip
    assert api(stack, "view", auth, {"room": token}).json()["text"] == "That game is over."


def test_a_wunchunk_stone_recoloured_through_the_app(stack: Stack) -> None:
    users = join_lobby(stack, ["Ann", "Bob"], "wapp", "/newgame wunchunk")
    start_untimed(stack, users[0])
    player, prompt = wait_for(lambda: next(
        ((u, m) for u in users if (m := stack.find(u, r"Turn 1 in .*your turn"))), None),
        what="the first turn")  # fmt: skip
    token = app_token(prompt)
    auth = init_data(stack, player)
    seen = api(stack, "view", auth, {"room": token}).json()
    empty = next(i for i in range(len(seen["cells"])) if i not in {s[0] for s in seen["stones"]})
    name = seen["cells"][empty][2]
    placed = api(stack, "tap", auth, {"room": token, "nonce": "place-one",
                                      "tap": {"do": "place", "cell": empty, "colour": 0}})
    assert placed.json()["answers"] == [{"text": f"🔴 on {name}.", "alert": False}]
    again = api(stack, "tap", auth, {"room": token, "nonce": "recolour-one",
                                     "tap": {"do": "recolour", "cell": empty}})
    assert again.json()["answers"] == [{"text": "Stone taken back.", "alert": False},
                                       {"text": f"🔵 on {name}.", "alert": False}]
    shown = api(stack, "view", auth, {"room": token}).json()
    assert [empty, 1, "pending"] in shown["stones"] and shown["placed"] == 1
    own = "" if shown["seat"] == 1 else "🔵"  # the chat marks a stone of another colour
    wait_for(lambda: stack.find(player, rf"Placed so far: {own}{name} \(1 of 1\)"),
             what="the chat")  # fmt: skip


def test_the_page_and_its_scripts_are_served_small(stack: Stack) -> None:
    page = httpx.get(f"{web(stack)}/app/", headers={"Accept-Encoding": "gzip"}, timeout=10)
    assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
    assert '<script src="https://telegram.org/js/telegram-web-app.js">' in page.text
    assert page.headers["cache-control"] == "no-cache"
    sizes = {}
    for path in ("/app/app.js", "/app/app.css", "/app/games/huescues.js",
                 "/app/games/wunchunk.js"):
        answer = httpx.get(f"{web(stack)}{path}", headers={"Accept-Encoding": "gzip"}, timeout=10)
        assert answer.status_code == 200, path
        sizes[path] = answer.num_bytes_downloaded
    assert sum(sizes.values()) < 12_000, sizes  # the board app's own weight, as sent
    for missing in ("/app/games/hintrigue.js", "/app/nothing.js", "/app/index.html"):
        assert httpx.get(f"{web(stack)}{missing}", timeout=10).status_code == 404, missing
