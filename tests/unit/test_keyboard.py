"""A message's inline keyboard as delivery sends it: JSON built directly, the same as
python-telegram-bot's objects make it."""

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from tgbot.egress.delivery import keyboard, markup
from tgbot.egress.outgoing import Button, Outgoing


def test_the_keyboard_is_the_json_python_telegram_bot_would_send():
    rows = [
        [Button(text="Card 3 ✨", data="c:1:3"), Button(text="<b>raw</b>", data="x" * 64)],
        [Button(text="Rules", url="https://t.me/hintrigue_bot?start=rules")],
        [Button(text="Board", web_app="https://example.org/app?room=1")],
    ]
    message = Outgoing(chat_id=5, text="t", buttons=rows)
    objects = InlineKeyboardMarkup(
        [[InlineKeyboardButton(b.text, callback_data=b.data, url=b.url,
                               web_app=WebAppInfo(b.web_app) if b.web_app else None)
          for b in row] for row in rows]
    )  # fmt: skip
    assert keyboard(message) == objects.to_dict()
    assert markup(message) == objects


def test_a_message_without_buttons_has_no_keyboard():
    message = Outgoing(chat_id=5, text="t")
    assert keyboard(message) is None and markup(message) is None
