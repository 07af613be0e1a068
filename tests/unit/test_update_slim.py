"""A press's update is parsed without what the handlers never read of the message it sits
under (`tgbot.table.handlers._slim`)."""

from __future__ import annotations

import copy

from telegram import Bot, Update

from tgbot.table.handlers import _slim

BOT = Bot("123456789:" + "A" * 35)
GROUP = {"id": -100123, "type": "supergroup", "title": "Evening", "is_forum": True}
USER = {"id": 42, "is_bot": False, "first_name": "Ann"}
MESSAGE = {
    "message_id": 77, "message_thread_id": 5, "is_topic_message": True, "date": 1796477551,
    "chat": GROUP, "from": {"id": 123456789, "is_bot": True, "first_name": "Hintrigue"},
    "text": "The table · round 5\nVote for Ann's card.",
    "entities": [{"type": "bold", "offset": 0, "length": 9}],
    "reply_markup": {"inline_keyboard": [[{"text": "1", "callback_data": "v:1"}]]},
}  # fmt: skip
PRESS = {"update_id": 9, "callback_query": {"id": "q1", "from": USER, "chat_instance": "c",
                                            "data": "v:1", "message": MESSAGE}}  # fmt: skip


def test_a_press_keeps_where_its_message_is_and_loses_its_text_and_buttons() -> None:
    update = Update.de_json(_slim(copy.deepcopy(PRESS)), BOT)
    query = update.callback_query
    assert query is not None and query.data == "v:1" and query.from_user.id == 42
    message = query.message
    assert message is not None and message.is_accessible
    assert (message.chat.id, message.message_id, message.message_thread_id) == (-100123, 77, 5)
    assert update.effective_chat.id == -100123 and update.effective_user.id == 42
    assert message.text is None and message.reply_markup is None and not message.entities


def test_an_update_other_than_a_press_is_left_whole() -> None:
    text = {"update_id": 10, "message": {**MESSAGE, "from": USER, "text": "/help"}}
    assert _slim(copy.deepcopy(text)) == text
    assert _slim([1]) == [1]  # not an update at all: left to the parse to refuse
