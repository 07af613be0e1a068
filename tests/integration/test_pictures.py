"""Pictures through the Bot API double: the final of a whole game is a photo whose caption
carries the standings; a new picture is uploaded into its message sent as text (a delivery cut
short between the two shows nothing twice); an identical picture goes again by its file_id;
`pictures=off` sends the text only; a refused photo falls back to its text; an edit that keeps
the picture changes the caption only; the double refuses bad photos as Telegram does."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from PIL import Image
from telegram import Bot, InputFile, InputMediaPhoto
from telegram.error import BadRequest

from engine.games.registry import GAMES
from engine.store import Store, keys
from tests.harness import GROUP, Stack, button, wait_for
from tests.integration.test_telegram_game import play_round, seat_players
from tests.unit.test_pictures import LOOK, played
from tgbot import pictures
from tgbot.egress import delivery
from tgbot.egress.delivery import FlushResult, flush
from tgbot.egress.outgoing import MAX_CAPTION, Outgoing, caption_length
from tgbot.egress.uploads import RETENTION_SECONDS, key
from tgbot.games.guesswhat.pictures import GuessBoardPicture
from tgbot.games.hintrigue.pictures import ResultRow, ResultsPicture, Tally
from tgbot.games.registry import LINEUP
from tgbot.standin import run_double
from tgbot.table.render import final
from workers.ratelimit import Limits, RedisLimiter

LIMITS = Limits(global_per_second=1000, chat_per_second=100, chat_burst=100, group_per_minute=1000)
PICTURE = ResultsPicture(rows=[
    ResultRow(rank=1, name="Ann 🐋", points=9, winner=True, fooled=[Tally(name="Бо", times=2)]),
    ResultRow(rank=2, name="Бо", points=4, fooled_by=[Tally(name="Ann 🐋", times=2)]),
])  # fmt: skip
CAPTION = "<b>Game over</b>\n1. Ann 🐋 — 9 points\n2. Бо — 4 points\nAnn 🐋 fooled Бо ×2."


def play_a_game(stack: Stack, settings: str) -> tuple[list[int], Any]:
    users = seat_players(stack)
    stack.say(users[0], GROUP, f"/settings {settings}")
    wait_for(lambda: stack.find(GROUP, "a new game is open"), what="the lobby")
    lobby = stack.find(GROUP, "a new game is open")
    assert (
        stack.answer_to(stack.press(users[0], lobby, button(lobby, "Start"))) == "The game starts!"
    )
    for number in range(1, 5):
        play_round(stack, users, number)
    return users, wait_for(lambda: stack.find(GROUP, "Game over"), what="the final", timeout=30)


def test_a_whole_game_ends_with_a_photo_whose_caption_carries_the_standings(stack: Stack):
    play_a_game(stack, "pictures=on")
    # A new picture goes as its text first, then is uploaded into that message.
    final = wait_for(
        lambda: (m := stack.find(GROUP, "Game over")) and m.photo and m, what="the final's picture"
    )
    assert final.photo is not None, "the final is a photo"
    room = Store(stack.client, GAMES).load(GROUP)
    assert room is not None
    for seat in room.seats:
        assert f"{seat.score} point" in final.plain_text
    # Each round two voters fell for the first voter's decoy: the caption says whose.
    assert "Fooled by decoys" in final.plain_text and " fooled " in final.plain_text
    assert any(e["type"] == "bold" for e in final.entities)
    data = stack.world.photo_bytes(final)
    assert data is not None and len(data) < pictures.MAX_BYTES
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.width >= 640
    # A new picture: the final went as its text, then its picture was uploaded into it.
    call = stack.world.calls_of("editMessageMedia")[-1]
    assert call.ok and call.params["message_id"] == final.message_id
    assert "Notify me" in str(final.reply_markup)


def test_pictures_off_sends_the_final_as_text_only(stack: Stack):
    _, final = play_a_game(stack, "pictures=off")
    assert final.photo is None
    assert "no pictures" in stack.find(GROUP, "this game has started").plain_text
    assert stack.world.calls_of("sendPhoto") == []
    assert "Standings" in final.plain_text and "Fooled by decoys" not in final.plain_text


def flush_once(double: Any, client: Any, room: int) -> FlushResult:
    async def go() -> FlushResult:
        async with Bot(double.world.token, base_url=f"{double.url}/bot") as bot:
            return await flush(bot, client, room, RedisLimiter(client, LIMITS), lambda *_: None,
                               pictures=LINEUP.pictures)  # fmt: skip

    return asyncio.run(go())


def final_message(chat: int, **fields: Any) -> str:
    return Outgoing(chat_id=chat, key="final", game=1, text=CAPTION, picture=PICTURE,
                    **fields).model_dump_json()  # fmt: skip


def test_a_second_identical_picture_is_sent_by_its_file_id(real_redis):
    with run_double() as double:
        first, second = -1001, -1002
        for chat in (first, second):
            double.world.add_chat(chat, "supergroup")
            real_redis.rpush(keys.outbox(chat), final_message(chat))
            assert flush_once(double, real_redis, chat).delivered == 1
        (upload,) = double.world.calls_of("editMessageMedia")
        (again,) = double.world.calls_of("sendPhoto")
        assert upload.params["chat_id"] == first and again.params["chat_id"] == second
        assert isinstance(again.params["photo"], str) and not again.params["photo"].startswith(
            "attach://"
        ), "sent by file_id, not uploaded again"
        shown = [double.world.last_bot_message(chat) for chat in (first, second)]
        assert all(m is not None and m.photo for m in shown)
        assert shown[0].photo[-1]["file_unique_id"] == shown[1].photo[-1]["file_unique_id"]
        assert "Ann 🐋 fooled Бо ×2." in shown[1].plain_text
        digest = pictures.digest(pictures.render(PICTURE, "en"))
        assert real_redis.get(key(digest)).decode() == again.params["photo"]
        assert 0 < real_redis.ttl(key(digest)) <= RETENTION_SECONDS


class Killed(BaseException):
    """The worker dying in the middle of a delivery."""


def test_a_new_picture_is_uploaded_into_its_sent_text_and_a_cut_upload_shows_nothing_twice(
    real_redis, monkeypatch
):
    upload = delivery._photo

    async def killed_once(*args: Any) -> Any:
        monkeypatch.setattr(delivery, "_photo", upload)
        raise Killed

    monkeypatch.setattr(delivery, "_photo", killed_once)
    with run_double() as double:
        chat = -1009
        double.world.add_chat(chat, "supergroup")
        real_redis.rpush(keys.outbox(chat), final_message(chat))
        with pytest.raises(Killed):  # its text is out, its picture not
            flush_once(double, real_redis, chat)
        (text,) = double.world.bot_messages(chat)
        assert text.photo is None and text.plain_text.startswith("Game over")
        assert flush_once(double, real_redis, chat).delivered == 1
        (shown,) = double.world.bot_messages(chat)
        assert shown.photo and shown.plain_text == text.plain_text
        assert [c.method for c in double.world.calls if c.method != "getMe"] == \
            ["sendMessage", "editMessageMedia"]  # fmt: skip
        assert real_redis.llen(keys.outbox(chat)) == 0


def test_a_refused_photo_falls_back_to_its_text(real_redis):
    with run_double() as double:
        chat = -1003
        double.world.add_chat(chat, "supergroup")
        double.world.fail_next("editMessageMedia", 400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        real_redis.rpush(keys.outbox(chat), final_message(chat))
        assert flush_once(double, real_redis, chat).delivered == 1
        shown = double.world.last_bot_message(chat)
        assert shown is not None and shown.photo is None
        assert shown.plain_text.startswith("Game over") and "fooled Бо ×2" in shown.plain_text
        assert real_redis.llen(keys.outbox(chat)) == 0


def test_a_stale_file_id_is_forgotten_and_the_picture_uploaded_again(real_redis):
    with run_double() as double:
        chat = -1004
        double.world.add_chat(chat, "supergroup")
        digest = pictures.digest(pictures.render(PICTURE, "en"))
        real_redis.set(key(digest), "AgACAgIAAxkDAAIgone")
        real_redis.rpush(keys.outbox(chat), final_message(chat))
        assert flush_once(double, real_redis, chat).delivered == 1
        stale, upload = double.world.calls_of("sendPhoto")
        assert not stale.ok and isinstance(upload.params["photo"], dict | str)
        assert upload.ok and double.world.last_bot_message(chat).photo
        assert real_redis.get(key(digest)).decode() != "AgACAgIAAxkDAAIgone"


def test_a_text_message_is_edited_into_the_photo(real_redis):
    with run_double() as double:
        chat = -1005
        double.world.add_chat(chat, "supergroup")
        text = Outgoing(chat_id=chat, key="final", game=1, text="<b>Game over</b>")
        real_redis.rpush(keys.outbox(chat), text.model_dump_json())
        flush_once(double, real_redis, chat)
        real_redis.rpush(keys.outbox(chat), final_message(chat))
        flush_once(double, real_redis, chat)
        (shown,) = double.world.bot_messages(chat)
        assert shown.photo and "fooled Бо" in shown.plain_text
        assert double.world.calls_of("editMessageMedia")[-1].ok


def run_bot(double: Any, call: Callable[[Bot], Awaitable[Any]]) -> Any:
    async def go() -> Any:
        async with Bot(double.world.token, base_url=f"{double.url}/bot") as bot:
            return await call(bot)

    return asyncio.run(go())


def test_the_double_takes_and_refuses_photos_as_telegram_does():
    png = pictures.render(PICTURE, "en")
    with run_double() as double:
        chat = -1006
        double.world.add_chat(chat, "supergroup")
        sent = run_bot(double, lambda bot: bot.send_photo(chat, png, caption="<b>hi</b> & co",
                                                          parse_mode="HTML"))  # fmt: skip
        assert sent.caption == "hi & co" and sent.caption_entities[0].type == "bold"
        assert sent.photo and sent.photo[-1].file_id and sent.photo[-1].file_unique_id
        again = run_bot(double, lambda bot: bot.send_photo(chat, sent.photo[-1].file_id))
        assert again.photo[-1].file_unique_id == sent.photo[-1].file_unique_id
        refusals = {
            "IMAGE_PROCESS_FAILED": lambda bot: bot.send_photo(chat, b"not an image"),
            "wrong file identifier": lambda bot: bot.send_photo(chat, "no-such-file-id"),
            "caption is too long": lambda bot: bot.send_photo(chat, png, caption="x" * 1025),
            "no text in the message": lambda bot: bot.edit_message_text(
                "x", chat_id=chat, message_id=sent.message_id),
            "not modified": lambda bot: bot.edit_message_media(
                InputMediaPhoto(sent.photo[-1].file_id, caption="<b>hi</b> & co",
                                parse_mode="HTML"),
                chat_id=chat, message_id=sent.message_id),
        }  # fmt: skip
        for why, call in refusals.items():
            with pytest.raises(BadRequest, match=f"(?i){why}"):
                run_bot(double, call)
        edited = run_bot(double, lambda bot: bot.edit_message_media(
            InputMediaPhoto(InputFile(png, attach=True), caption="new"), chat_id=chat,
            message_id=sent.message_id))  # fmt: skip
        assert edited.caption == "new" and edited.photo


def test_a_text_too_long_for_a_caption_goes_alone(real_redis):
    with run_double() as double:
        chat = -1007
        double.world.add_chat(chat, "supergroup")
        long = CAPTION + "\n" + "<b>x</b>" * 1100  # 1,100 characters once parsed: no caption
        assert caption_length(long) > MAX_CAPTION > caption_length(CAPTION)
        message = Outgoing(chat_id=chat, key="final", game=1, text=long, picture=PICTURE)
        real_redis.rpush(keys.outbox(chat), message.model_dump_json())
        assert flush_once(double, real_redis, chat).delivered == 1
        shown = double.world.last_bot_message(chat)
        assert shown is not None and shown.photo is None and shown.plain_text.endswith("x" * 1100)
        assert double.world.calls_of("sendPhoto") == []


def test_a_long_final_comes_below_its_picture_in_the_group(real_redis):
    room = played(players=8, max_seats=10).room
    for seat in room.seats:
        seat.name += " Longname-Nachname"
    with run_double() as double:
        double.world.add_chat(room.chat_id, "supergroup")
        for message in final(room, LOOK):
            real_redis.rpush(keys.outbox(room.chat_id), message.model_dump_json())
        assert flush_once(double, real_redis, room.chat_id).delivered == 2
        picture, text = double.world.bot_messages(room.chat_id)
        assert picture.photo and "message below" in picture.plain_text
        assert text.photo is None and text.plain_text.startswith("Game over")
        assert "Fooled by decoys" in text.plain_text and "Notify me" in str(text.reply_markup)


def test_an_edit_keeping_the_picture_edits_the_caption_and_a_new_picture_the_media(real_redis):
    board = GuessBoardPicture(icons=list("🐋🎻🌙🍕🚲🏰🎩🌵🦊"))
    redrawn = GuessBoardPicture(icons=list("🐸🐙🦉🍕🚲🏰🎩🌵🦊"))
    with run_double() as double:
        chat = -1008
        double.world.add_chat(chat, "supergroup")

        def deliver(text: str, picture: Any) -> None:
            shown = Outgoing(chat_id=chat, key="board:1", game=1, text=text, picture=picture)
            real_redis.rpush(keys.outbox(chat), shown.model_dump_json())
            assert flush_once(double, real_redis, chat).delivered == 1

        def called() -> list[str]:
            return [c.method for c in double.world.calls if c.ok and c.method != "getMe"]

        deliver("<b>Round 1</b>\nWaiting for Ann.", board)
        deliver("<b>Round 1</b>\nWaiting for nobody.", board)
        assert called() == ["sendMessage", "editMessageMedia", "editMessageCaption"]
        deliver("<b>Round 1</b>\nIcons replaced.", redrawn)
        deliver("<b>Round 1</b>\nIcons replaced. Clue: «sea».", redrawn)
        deliver("<b>Round 1</b>\nThe turn passed on.", None)  # the text alone: its caption
        assert called()[3:] == ["editMessageMedia", "editMessageCaption", "editMessageCaption"]
        (shown,) = double.world.bot_messages(chat)
        assert shown.plain_text == "Round 1\nThe turn passed on."
        assert double.world.photo_bytes(shown) == pictures.render(redrawn, "en")
        # A message Telegram no longer has is sent again, as a photo.
        shown.deleted = True
        deliver("<b>Round 1</b>\nAgain.", redrawn)
        assert called()[-1] == "sendPhoto"
        assert double.world.last_bot_message(chat).plain_text == "Round 1\nAgain."
