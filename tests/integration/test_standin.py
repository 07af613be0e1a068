"""The real python-telegram-bot client talking to the Bot API double over HTTP."""

from __future__ import annotations

import asyncio
import datetime as dtm
import json
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, Conflict, Forbidden, InvalidToken, RetryAfter

from tgbot.standin import (
    SECRET_HEADER,
    ManualClock,
    RateLimits,
    StandinServer,
    World,
    run_double,
    serve_app,
)

# PTB warns that RetryAfter.retry_after will become a timedelta; `seconds()` handles both.
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*retry_after.*:telegram.warnings.PTBDeprecationWarning"
)

T = TypeVar("T")
ALICE, BOB = 501, 502
GROUP = -1001


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def double(clock: ManualClock) -> Iterator[StandinServer]:
    world = World(clock=clock)
    world.add_user(ALICE, "Alice", username="alice")
    world.add_user(BOB, "Bob")
    with run_double(world) as running:
        yield running


def with_bot(double: StandinServer, body: Callable[[Bot], Awaitable[T]]) -> T:
    """Run `body` with an initialized PTB Bot pointed at the double."""

    async def main() -> T:
        async with Bot(double.token, base_url=double.api_base) as bot:
            return await body(bot)

    return asyncio.run(main())


def keyboard(*datas: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(f"b{i}", callback_data=d)] for i, d in enumerate(datas)]
    )


def seconds(error: RetryAfter) -> float:
    """RetryAfter.retry_after in seconds, whether PTB gives an int or a timedelta."""
    value = error.retry_after
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


class Receiver:
    """A tiny webhook endpoint recording what it is sent."""

    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, str], Any]] = []

        async def hook(request: Request) -> Response:
            self.requests.append((dict(request.headers), await request.json()))
            return Response(status_code=200)

        self.app = Starlette(routes=[Route("/hook", hook, methods=["POST"])])


# ----- getMe, sending, editing ----------------------------------------------------------


def test_get_me_through_initialize(double: StandinServer) -> None:
    async def body(bot: Bot) -> None:
        assert bot.username == "hintrigue_bot"
        assert bot.id == 123456789
        assert bot.first_name == "Hintrigue"
        assert bot.bot.is_bot

    with_bot(double, body)
    assert [c.method for c in double.world.calls] == ["getMe"]


def test_get_me_is_configurable() -> None:
    with run_double(token="42:abc", bot_username="other_bot", bot_first_name="Other") as double:

        async def body(bot: Bot) -> tuple[int, str]:
            return bot.id, bot.username

        assert with_bot(double, body) == (42, "other_bot")


def test_send_and_edit_html_with_keyboard(double: StandinServer) -> None:
    world = double.world
    world.bot_added(GROUP, ALICE)

    async def body(bot: Bot) -> None:
        sent = await bot.send_message(
            GROUP, "<b>Round 1</b> &amp; more", parse_mode="HTML", reply_markup=keyboard("vote:1")
        )
        assert sent.message_id == 1
        assert sent.text == "Round 1 & more"
        assert [(e.type, e.offset, e.length) for e in sent.entities] == [("bold", 0, 7)]
        assert sent.reply_markup == keyboard("vote:1")
        assert sent.chat.type == "group"
        assert sent.from_user is not None and sent.from_user.id == bot.id

        second = await bot.send_message(GROUP, "plain")
        assert second.message_id == 2

        edited = await bot.edit_message_text(
            "<i>Round 2</i>",
            chat_id=GROUP,
            message_id=1,
            parse_mode="HTML",
            reply_markup=keyboard("vote:2", "skip"),
        )
        assert isinstance(edited, Message) and edited.text == "Round 2"
        assert edited.edit_date is not None
        marked = await bot.edit_message_reply_markup(GROUP, 1, reply_markup=keyboard("done"))
        assert isinstance(marked, Message) and marked.reply_markup == keyboard("done")
        assert await bot.delete_message(GROUP, 2)

    with_bot(double, body)
    first = world.message(GROUP, 1)
    assert first is not None
    assert first.text == "<i>Round 2</i>"
    assert first.parse_mode == "HTML"
    assert first.reply_markup == {"inline_keyboard": [[{"text": "b0", "callback_data": "done"}]]}
    assert [e["text"] for e in first.edits] == ["<b>Round 1</b> &amp; more", "<i>Round 2</i>"]
    assert first.edits[0]["reply_markup"] == keyboard("vote:1").to_dict()
    assert [m.message_id for m in world.bot_messages(GROUP)] == [1]
    assert world.messages(GROUP, include_deleted=True)[1].deleted


def test_message_ids_count_per_chat_including_user_messages(double: StandinServer) -> None:
    world = double.world
    world.start_private(ALICE)  # Alice's /start is message 1 of her private chat
    world.bot_added(GROUP, BOB)

    async def body(bot: Bot) -> list[int]:
        return [
            (await bot.send_message(ALICE, "hi")).message_id,
            (await bot.send_message(GROUP, "hi")).message_id,
            (await bot.send_message(GROUP, "hi")).message_id,
        ]

    assert with_bot(double, body) == [2, 1, 2]


def test_not_modified_is_bad_request(double: StandinServer) -> None:
    double.world.bot_added(GROUP, ALICE)

    async def body(bot: Bot) -> None:
        await bot.send_message(GROUP, "<b>x</b>", parse_mode="HTML", reply_markup=keyboard("a"))
        with pytest.raises(BadRequest, match="(?i)message is not modified"):
            await bot.edit_message_text(
                "<b>x</b>", chat_id=GROUP, message_id=1, parse_mode="HTML",
                reply_markup=keyboard("a"),
            )  # fmt: skip
        with pytest.raises(BadRequest, match="(?i)message is not modified"):
            await bot.edit_message_reply_markup(GROUP, 1, reply_markup=keyboard("a"))
        # Same text but the keyboard goes away: that is a modification.
        await bot.edit_message_text("<b>x</b>", chat_id=GROUP, message_id=1, parse_mode="HTML")
        with pytest.raises(BadRequest, match="(?i)message to edit not found"):
            await bot.edit_message_text("y", chat_id=GROUP, message_id=99)
        assert await bot.delete_message(GROUP, 1)
        with pytest.raises(BadRequest, match="(?i)message to delete not found"):
            await bot.delete_message(GROUP, 1)

    with_bot(double, body)
    failed = [c for c in double.world.calls if not c.ok]
    assert failed[0].description == (
        "Bad Request: message is not modified: specified new message content and reply markup "
        "are exactly the same as a current content and reply markup of the message"
    )
    assert failed[0].error_code == 400


def test_private_chat_forbidden_until_started_and_when_blocked(double: StandinServer) -> None:
    world = double.world

    async def body(bot: Bot) -> None:
        with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
            await bot.send_message(ALICE, "hello")
        world.start_private(ALICE, payload="join-123")
        await bot.send_message(ALICE, "hello")
        world.block_bot(ALICE)
        with pytest.raises(Forbidden, match="bot was blocked by the user"):
            await bot.send_message(ALICE, "hello again")
        with pytest.raises(BadRequest, match="(?i)chat not found"):
            await bot.send_message(999, "nobody")

    with_bot(double, body)
    assert world.messages(ALICE)[0].text == "/start join-123"
    assert [m.text for m in world.bot_messages(ALICE)] == ["hello"]


def test_text_validation_errors(double: StandinServer) -> None:
    double.world.bot_added(GROUP, ALICE)

    async def body(bot: Bot) -> None:
        with pytest.raises(BadRequest, match="(?i)message text is empty"):
            await bot.send_message(GROUP, "<b></b>", parse_mode="HTML")
        with pytest.raises(BadRequest, match="(?i)message is too long"):
            await bot.send_message(GROUP, "x" * 4097)
        await bot.send_message(GROUP, "x" * 4096)
        for bad in ("<b>open", "<b>x</i>", "<div>x</div>", "x</b>", "1 < 2", "<span>s</span>"):
            with pytest.raises(BadRequest, match="(?i)can't parse entities"):
                await bot.send_message(GROUP, bad, parse_mode="HTML")
        ok = await bot.send_message(
            GROUP,
            '<a href="https://t.me">l</a> <tg-spoiler>s</tg-spoiler> '
            '<span class="tg-spoiler">p</span> <pre><code class="language-py">c</code></pre> '
            "<blockquote>q</blockquote> <s>a</s><u>b</u><em>c</em>",
            parse_mode="HTML",
        )
        types = [e.type for e in ok.entities]
        assert types == [
            "text_link", "spoiler", "spoiler", "pre", "blockquote",
            "strikethrough", "underline", "italic",
        ]  # fmt: skip
        assert ok.entities[3].language == "py"

    with_bot(double, body)


def test_button_data_invalid_for_65_bytes(double: StandinServer) -> None:
    double.world.bot_added(GROUP, ALICE)

    async def body(bot: Bot) -> None:
        await bot.send_message(GROUP, "ok", reply_markup=keyboard("é" * 32))  # 64 bytes
        with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
            await bot.send_message(GROUP, "bad", reply_markup=keyboard("é" * 32 + "a"))
        with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
            await bot.edit_message_reply_markup(GROUP, 1, reply_markup=keyboard("x" * 65))

    with_bot(double, body)
    assert double.world.calls[-1].description == "Bad Request: BUTTON_DATA_INVALID"
    assert len(double.world.bot_messages(GROUP)) == 1


# ----- rate limits and injected failures ------------------------------------------------


def test_group_limit_gives_retry_after(double: StandinServer, clock: ManualClock) -> None:
    world = double.world
    world.bot_added(GROUP, ALICE)

    async def body(bot: Bot) -> float:
        for i in range(20):
            await bot.send_message(GROUP, f"m{i}")
            clock.advance(1.5)  # well inside the per-chat pace
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(GROUP, "one too many")
        wait = seconds(caught.value)
        clock.advance(wait)
        await bot.send_message(GROUP, "after waiting")
        return wait

    wait = with_bot(double, body)
    assert 0 < wait <= 60
    assert [(h.scope, h.chat_id) for h in world.too_many_requests] == [("group", GROUP)]
    assert (
        world.calls_of("sendMessage")[20].description
        == f"Too Many Requests: retry after {int(wait)}"
    )
    assert len(world.bot_messages(GROUP)) == 21


def test_per_chat_burst_and_disabled_limits(clock: ManualClock) -> None:
    world = World(clock=clock, rate_limits=RateLimits(per_chat_burst=3))
    world.start_private(ALICE)
    with run_double(world) as double:

        async def body(bot: Bot) -> None:
            for _ in range(3):
                await bot.send_message(ALICE, "burst")
            with pytest.raises(RetryAfter):
                await bot.send_message(ALICE, "too fast")
            clock.advance(1.0)
            await bot.send_message(ALICE, "paced")

        with_bot(double, body)
    assert [h.scope for h in world.too_many_requests] == ["chat"]

    relaxed = World(clock=clock, enforce_rate_limits=False)
    relaxed.start_private(ALICE)
    with run_double(relaxed) as double:

        async def flood(bot: Bot) -> None:
            for _ in range(40):
                await bot.send_message(ALICE, "flood")

        with_bot(double, flood)
    assert relaxed.too_many_requests == []


def test_fail_next_injects_errors(double: StandinServer) -> None:
    world = double.world
    world.bot_added(GROUP, ALICE)
    world.fail_next("sendmessage", 429, "Too Many Requests: retry after 7", retry_after=7)
    world.fail_next("getChat", 400, "Bad Request: chat not found", times=2)

    async def body(bot: Bot) -> None:
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(GROUP, "x")
        assert seconds(caught.value) == 7
        await bot.send_message(GROUP, "x")
        for _ in range(2):
            with pytest.raises(BadRequest, match="(?i)chat not found"):
                await bot.get_chat(GROUP)
        assert (await bot.get_chat(GROUP)).title == f"Group {abs(GROUP)}"

    with_bot(double, body)
    assert [(h.scope, h.retry_after) for h in world.too_many_requests] == [("injected", 7)]


def test_an_injected_error_page_echoes_the_request_path(double: StandinServer) -> None:
    world = double.world
    world.fail_next("getMe", 502, "Bad Gateway", page=True)
    path = f"/bot{world.token}/getMe"
    response = httpx.post(f"{double.url}{path}", trust_env=False)
    assert response.status_code == 502 and response.headers["content-type"].startswith("text/html")
    assert path in response.text and path.replace("/", "%2F").replace(":", "%3A") in response.text
    assert httpx.post(f"{double.url}{path}", trust_env=False).json()["ok"] is True


# ----- updates: webhook and polling ------------------------------------------------------


def test_webhook_delivery_of_message_and_callback_query(double: StandinServer) -> None:
    world = double.world
    receiver = Receiver()
    with serve_app(receiver.app) as hook_url:

        async def configure(bot: Bot) -> None:
            assert await bot.set_webhook(
                f"{hook_url}/hook",
                secret_token="s3cret",
                allowed_updates=["message", "callback_query"],
            )
            info = await bot.get_webhook_info()
            assert info.url == f"{hook_url}/hook"
            assert info.allowed_updates == ("message", "callback_query")
            with pytest.raises(Conflict):
                await bot.get_updates()

        with_bot(double, configure)
        assert world.webhook.secret_token == "s3cret"

        world.bot_added(GROUP, ALICE)  # my_chat_member: filtered out by allowed_updates
        dropped = double.deliver(world.bot_added(GROUP, ALICE))
        assert dropped.via == "dropped"

        delivery = double.deliver(world.user_message(ALICE, GROUP, "/play@hintrigue_bot now"))
        assert (delivery.via, delivery.status, delivery.ok) == ("webhook", 200, True)

        async def reply(bot: Bot) -> int:
            sent = await bot.send_message(GROUP, "Pick", reply_markup=keyboard("pick:1", "pick:2"))
            return sent.message_id

        message_id = with_bot(double, reply)
        press = world.press(BOB, GROUP, message_id, "pick:2")
        assert asyncio.run(double.adeliver(press)).status == 200

    assert len(receiver.requests) == 2
    for headers, _ in receiver.requests:
        assert headers[SECRET_HEADER.lower()] == "s3cret"

    async def parse(bot: Bot) -> None:
        first = Update.de_json(receiver.requests[0][1], bot)
        assert first.message is not None
        assert first.message.text == "/play@hintrigue_bot now"
        assert first.message.chat.id == GROUP and first.message.chat.type == "group"
        assert first.message.from_user is not None
        assert first.message.from_user.username == "alice"
        assert first.message.parse_entities(["bot_command"]) == {
            first.message.entities[0]: "/play@hintrigue_bot"
        }
        second = Update.de_json(receiver.requests[1][1], bot)
        query = second.callback_query
        assert query is not None and query.data == "pick:2"
        assert query.from_user.id == BOB
        assert isinstance(query.message, Message)
        assert query.message.reply_markup == keyboard("pick:1", "pick:2")
        assert await query.answer("Picked!", show_alert=True)
        with pytest.raises(BadRequest, match="(?i)query is too old"):
            await query.answer("twice")
        assert second.update_id > first.update_id

    with_bot(double, parse)
    answer = world.callback_answer(press["callback_query"]["id"])
    assert answer is not None and (answer.text, answer.show_alert) == ("Picked!", True)


def test_my_chat_member_updates_parse(double: StandinServer) -> None:
    world = double.world
    added = world.bot_added(GROUP, ALICE, chat_type="supergroup", title="Game night")
    removed = world.bot_removed(GROUP, ALICE, status="kicked")

    async def body(bot: Bot) -> None:
        change = Update.de_json(added, bot).my_chat_member
        assert change is not None
        assert (change.old_chat_member.status, change.new_chat_member.status) == ("left", "member")
        assert change.chat.title == "Game night" and change.chat.type == "supergroup"
        change = Update.de_json(removed, bot).my_chat_member
        assert change is not None
        assert change.new_chat_member.status == "kicked"
        with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
            await bot.send_message(GROUP, "still here?")

    with_bot(double, body)


def test_get_updates_returns_queued_updates(double: StandinServer) -> None:
    world = double.world
    first = double.deliver(world.start_private(ALICE, "abc"))
    assert first.via == "queue" and first.status is None
    double.deliver(world.user_message(ALICE, GROUP, "/join"))

    async def body(bot: Bot) -> None:
        updates = await bot.get_updates(timeout=0)
        assert [u.message.text for u in updates if u.message] == ["/start abc", "/join"]
        assert await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == ()

        def later() -> None:
            time.sleep(0.2)
            double.deliver(world.user_message(BOB, GROUP, "late"))

        threading.Thread(target=later).start()
        started = time.monotonic()
        waited = await bot.get_updates(offset=updates[-1].update_id + 1, timeout=5)
        assert [u.message.text for u in waited if u.message] == ["late"]
        assert time.monotonic() - started < 1.5

    with_bot(double, body)
    assert len(world.pending) == 1  # "late" is confirmed only by the next offset


# ----- HTTP protocol details ------------------------------------------------------------


def test_forms_json_bodies_and_method_names(double: StandinServer) -> None:
    double.world.bot_added(GROUP, ALICE)
    base = f"{double.api_base}{double.token}"
    markup = '{"inline_keyboard": [[{"text": "go", "callback_data": "go"}]]}'
    with httpx.Client(trust_env=False) as client:
        form = client.post(
            f"{base}/sendMessage",
            data={"chat_id": str(GROUP), "text": "form", "reply_markup": markup},
        )
        assert form.status_code == 200
        assert (
            form.json()["result"]["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "go"
        )
        multipart = client.post(
            f"{base}/sendmessage", files={"chat_id": (None, str(GROUP)), "text": (None, "multi")}
        )
        assert multipart.json()["result"]["message_id"] == 2
        as_json = client.post(f"{base}/SENDMESSAGE", json={"chat_id": GROUP, "text": "json"})
        assert as_json.json()["result"]["text"] == "json"
        query = client.get(f"{base}/getChat", params={"chat_id": GROUP})
        assert query.json()["result"]["id"] == GROUP

        unknown = client.post(f"{base}/sendTelepathy", json={})
        assert unknown.status_code == 404
        assert unknown.json() == {
            "ok": False,
            "error_code": 404,
            "description": "Not Found: method not found",
        }
        bad_token = client.post(f"{double.api_base}1:wrong/getMe")
        assert (bad_token.status_code, bad_token.json()["description"]) == (401, "Unauthorized")
        empty = client.post(f"{base}/sendMessage", json={"chat_id": GROUP, "text": ""})
        assert empty.status_code == 400
        assert empty.json()["description"] == "Bad Request: message text is empty"
        assert "parameters" not in empty.json()
    assert [m.text for m in double.world.bot_messages(GROUP)] == ["form", "multi", "json"]

    async def wrong_token() -> None:
        async with Bot("1:wrong", base_url=double.api_base) as bot:
            await bot.get_me()

    with pytest.raises(InvalidToken):
        asyncio.run(wrong_token())


def test_chat_members_commands_and_actions(double: StandinServer) -> None:
    world = double.world
    world.bot_added(GROUP, ALICE, status="administrator")
    world.set_admin(GROUP, ALICE, creator=True)
    world.user_message(BOB, GROUP, "hi")

    async def body(bot: Bot) -> None:
        assert (await bot.get_chat_member(GROUP, BOB)).status == "member"
        assert (await bot.get_chat_member(GROUP, ALICE)).status == "creator"
        assert (await bot.get_chat_member(GROUP, bot.id)).status == "administrator"
        admins = await bot.get_chat_administrators(GROUP)
        assert sorted(a.user.id for a in admins) == sorted([ALICE, bot.id])
        assert await bot.send_chat_action(GROUP, "typing")
        assert await bot.set_my_commands([("play", "Start a game")])
        assert [c.command for c in await bot.get_my_commands()] == ["play"]
        with pytest.raises(BadRequest, match="(?i)bot_command_invalid"):
            await bot.set_my_commands([("Bad Command", "x")])
        assert await bot.delete_message(GROUP, 1)  # Bob's message; the bot is an admin
        assert await bot.leave_chat(GROUP)
        with pytest.raises(Forbidden, match="bot is not a member of the group chat"):
            await bot.send_message(GROUP, "gone")

    with_bot(double, body)
    assert world.chats[GROUP].actions == ["typing"]


def test_control_api_drives_the_bot_through_the_webhook(double: StandinServer) -> None:
    world = double.world
    receiver = Receiver()
    with serve_app(receiver.app) as hook_url, httpx.Client(trust_env=False) as client:

        async def configure(bot: Bot) -> None:
            await bot.set_webhook(f"{hook_url}/hook")

        with_bot(double, configure)
        user = client.post(f"{double.url}/_standin/users", json={"first_name": "Carol"}).json()
        started = client.post(
            f"{double.url}/_standin/start", json={"user_id": user["id"], "payload": "g1"}
        ).json()
        assert started["delivery"] == {"via": "webhook", "status": 200, "error": None, "ok": True}
        assert started["update"]["message"]["text"] == "/start g1"
        sent = client.post(
            f"{double.url}/_standin/send",
            json={"user_id": user["id"], "chat_id": GROUP, "text": "hey"},
        ).json()
        assert sent["update"]["message"]["chat"]["id"] == GROUP

        async def reply(bot: Bot) -> None:
            await bot.send_message(GROUP, "choose", reply_markup=keyboard("c"))

        with_bot(double, reply)
        press = {"user_id": user["id"], "chat_id": GROUP, "message_id": 2, "data": "c"}
        pressed = client.post(f"{double.url}/_standin/press", json=press).json()
        assert pressed["update"]["callback_query"]["data"] == "c"
        stale = client.post(f"{double.url}/_standin/press", json={**press, "data": "nope"})
        assert stale.status_code == 400
        state = client.get(f"{double.url}/_standin/state").json()

    assert len(receiver.requests) == 3
    group = next(c for c in state["chats"] if c["id"] == GROUP)
    assert [m["text"] for m in group["messages"]] == ["hey", "choose"]
    assert group["messages"][1]["reply_markup"] == keyboard("c").to_dict()
    assert state["callback_queries"][0]["data"] == "c"
    assert any(u["first_name"] == "Carol" and u["started_bot"] for u in state["users"])
    assert world.too_many_requests == []


def test_a_method_in_the_webhook_response_is_run_like_telegram_does(double: StandinServer) -> None:
    world = double.world
    world.add_chat(GROUP, "supergroup", title="G")

    async def hook(request: Request) -> Response:
        update = await request.json()
        query = update["callback_query"]["id"]
        body = {"method": "answerCallbackQuery", "callback_query_id": query, "text": "noted"}
        return Response(json.dumps(body), media_type="application/json")

    app = Starlette(routes=[Route("/hook", hook, methods=["POST"])])
    with serve_app(app) as hook_url:
        with_bot(double, lambda bot: bot.set_webhook(f"{hook_url}/hook"))
        pressed = world.press_unseen(ALICE, GROUP, "some data")
        delivery = double.deliver(pressed)
    assert delivery.ok
    answer = world.callback_answer(pressed["callback_query"]["id"])
    assert answer is not None and answer.text == "noted"


def test_presses_for_a_load_generator_are_known_to_the_world_but_not_delivered(
    double: StandinServer,
) -> None:
    receiver = Receiver()
    with serve_app(receiver.app) as hook_url, httpx.Client(trust_env=False) as client:
        with_bot(double, lambda bot: bot.set_webhook(f"{hook_url}/hook"))
        body = {
            "presses": [
                {"user_id": ALICE, "chat_id": GROUP, "data": "v1"},
                {"user_id": BOB, "chat_id": ALICE, "data": "v2"},
            ]
        }
        updates = client.post(f"{double.url}/_standin/presses", json=body).json()["updates"]

        async def answer(bot: Bot) -> bool:
            return await bot.answer_callback_query(updates[0]["callback_query"]["id"], "ok")

        assert with_bot(double, answer) is True
    assert [u["callback_query"]["data"] for u in updates] == ["v1", "v2"]
    assert receiver.requests == []


def test_the_double_runs_as_a_process_with_scaled_limits() -> None:
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "tgbot.standin", "--scale", "10"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        me = httpx.get(f"{url}/bot{World().token}/getMe", trust_env=False).json()
        assert me["ok"] and me["result"]["is_bot"]
        # Ids start from the time, so a Redis that kept an earlier run's data takes them as new.
        user = httpx.post(f"{url}/_standin/users", json={"first_name": "Ann"},
                          trust_env=False).json()  # fmt: skip
        assert user["id"] >= 5_000_000_000
        added = httpx.post(f"{url}/_standin/bot/added", json={"chat_id": -5, "user_id": user["id"]},
                           trust_env=False).json()  # fmt: skip
        assert added["update"]["update_id"] >= int(time.time() - 60) * 1000
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0


FORUM = -1002


def test_a_forum_keeps_each_topics_messages_apart_as_telegram_does(double: StandinServer):
    world = double.world
    world.add_chat(FORUM, "supergroup", "Game night", is_forum=True)
    world.add_chat(GROUP, "supergroup", "Plain")
    quiz = world.create_topic(FORUM, "Quiz", ALICE)
    in_topic = world.user_message(BOB, FORUM, "/newgame", quiz)["message"]
    in_general = world.user_message(BOB, FORUM, "/newgame")["message"]
    assert in_topic["chat"]["is_forum"] is True and "is_forum" not in world.chat_to_api(GROUP)
    assert (in_topic["message_thread_id"], in_topic["is_topic_message"]) == (quiz, True)
    assert "message_thread_id" not in in_general and "is_topic_message" not in in_general

    async def body(bot: Bot) -> tuple[Message, Message, list[str]]:
        sent = await bot.send_message(FORUM, "to the topic", message_thread_id=quiz)
        general = await bot.send_message(FORUM, "to General")
        refused = []
        for chat, thread in ((GROUP, quiz), (FORUM, quiz + 100)):
            with pytest.raises(BadRequest) as error:
                await bot.send_message(chat, "nowhere", message_thread_id=thread)
            refused.append(error.value.message)
        world.delete_topic(FORUM, quiz)
        with pytest.raises(BadRequest) as error:
            await bot.send_message(FORUM, "after the deletion", message_thread_id=quiz)
        refused.append(error.value.message)
        return sent, general, refused

    sent, general, refused = with_bot(double, body)
    assert (sent.message_thread_id, sent.is_topic_message) == (quiz, True)
    assert general.message_thread_id is None and not general.is_topic_message
    assert refused == ["Message thread not found"] * 3  # PTB drops "Bad Request: " and capitalises
    assert [m.plain_text for m in world.bot_messages(FORUM)] == ["to General"]  # the topic's gone
    with pytest.raises(ValueError):
        world.user_message(BOB, FORUM, "into a deleted topic", quiz)


def test_a_chat_made_without_the_bot_gets_it_by_a_real_my_chat_member_change(
    double: StandinServer,
) -> None:
    """The page's "+ group": the player makes the group, then adds the bot to it."""
    url = double.url + "/_standin/"
    made = httpx.post(url + "chats", json={"chat_id": -1002, "title": "Quiz night",
                                          "type": "supergroup", "bot_status": "left",
                                          "creator_id": ALICE}, trust_env=False)  # fmt: skip
    assert made.status_code == 200, made.text
    world = double.world
    assert world.member_status(-1002, world.bot.id) == "left"
    assert world.member_status(-1002, ALICE) == "creator"
    added = httpx.post(url + "bot/added", json={"chat_id": -1002, "user_id": ALICE},
                       trust_env=False).json()  # fmt: skip
    change = added["update"]["my_chat_member"]
    assert (change["old_chat_member"]["status"], change["new_chat_member"]["status"]) == (
        "left",
        "member",
    )
    assert change["chat"]["title"] == "Quiz night" and change["from"]["id"] == ALICE
    refused = httpx.post(url + "chats", json={"chat_id": -1003, "bot_status": "owner"},
                         trust_env=False)  # fmt: skip
    assert refused.status_code == 400 and "bot_status" in refused.text


def test_an_idle_connection_stays_open_longer_than_the_workers_client_keeps_it(
    double: StandinServer,
) -> None:
    # A server that closes an idle connection as a client reuses it fails that call; the
    # workers' client keeps one for 30 s, the double for longer.
    host, port = double.url.removeprefix("http://").split(":")
    request = (f"POST /bot{double.token}/getMe HTTP/1.1\r\nHost: {host}\r\n"
               "Content-Length: 0\r\n\r\n").encode()  # fmt: skip
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        for pause in (0.0, 6.0):  # past uvicorn's own 5 s
            time.sleep(pause)
            sock.sendall(request)
            answer = b""
            while b'"ok":true' not in answer:
                chunk = sock.recv(65536)
                assert chunk, f"the double closed the connection after {pause} s idle"
                answer += chunk
