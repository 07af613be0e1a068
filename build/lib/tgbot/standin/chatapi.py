"""Bot API methods about chats, members, commands, webhooks and polling."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from tgbot.standin import errors as E
from tgbot.standin.errors import ApiError, bad_request, forbidden
from tgbot.standin.records import Chat, WebhookSettings
from tgbot.standin.world import World

_COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")


def chat_for_bot(world: World, chat_id: Any, *, sending: bool = True) -> Chat:
    """The chat the bot addresses, or the error Telegram would answer."""
    if chat_id is None or chat_id == "":
        raise bad_request("Bad Request: chat_id is empty")
    if not isinstance(chat_id, int):
        raise bad_request(E.CHAT_NOT_FOUND)
    if chat_id > 0:
        user = world.users.get(chat_id)
        if user is None:
            raise bad_request(E.CHAT_NOT_FOUND)
        if user.blocked:
            raise forbidden(E.BLOCKED)
        if sending and not user.started_bot:
            raise forbidden(E.CANT_INITIATE)
        return world.ensure_chat(chat_id)
    chat = world.chats.get(chat_id)
    if chat is None:
        raise bad_request(E.CHAT_NOT_FOUND)
    kind = "supergroup" if chat.type == "supergroup" else "group"
    if chat.bot_status == "kicked":
        raise forbidden(f"Forbidden: bot was kicked from the {kind} chat")
    if chat.bot_status == "left":
        raise forbidden(f"Forbidden: bot is not a member of the {kind} chat")
    return chat


def _known_chat(world: World, chat_id: Any) -> Chat:
    if isinstance(chat_id, int) and (chat_id in world.chats or chat_id in world.users):
        return world.ensure_chat(chat_id)
    raise bad_request(E.CHAT_NOT_FOUND)


def set_webhook(world: World, params: dict[str, Any]) -> bool:
    """setWebhook: record url, secret_token, allowed_updates, max_connections."""
    max_connections = params.get("max_connections", 40)
    if not isinstance(max_connections, int) or not 1 <= max_connections <= 100:
        raise bad_request("Bad Request: bad webhook: invalid max_connections")
    allowed = params.get("allowed_updates")
    world.webhook = WebhookSettings(
        url=str(params.get("url") or ""),
        secret_token=params.get("secret_token") or None,
        allowed_updates=list(allowed) if allowed is not None else world.webhook.allowed_updates,
        max_connections=max_connections,
        ip_address=params.get("ip_address"),
        drop_pending_updates=bool(params.get("drop_pending_updates", False)),
    )
    if world.webhook.drop_pending_updates:
        world.pending.clear()
    world.webhook_last_error = None
    return True


def delete_webhook(world: World, params: dict[str, Any]) -> bool:
    """deleteWebhook."""
    world.webhook = WebhookSettings(allowed_updates=world.webhook.allowed_updates)
    if params.get("drop_pending_updates"):
        world.pending.clear()
    return True


def get_webhook_info(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """getWebhookInfo."""
    hook = world.webhook
    info: dict[str, Any] = {
        "url": hook.url,
        "has_custom_certificate": False,
        "pending_update_count": len(world.pending),
    }
    if hook.url:
        info["max_connections"] = hook.max_connections
        if hook.ip_address:
            info["ip_address"] = hook.ip_address
        if hook.allowed_updates:
            info["allowed_updates"] = hook.allowed_updates
        if world.webhook_last_error:
            info["last_error_date"], info["last_error_message"] = world.webhook_last_error
    return info


def get_updates(world: World, params: dict[str, Any]) -> list[dict[str, Any]]:
    """getUpdates (non-blocking here; the HTTP layer does the long poll)."""
    if world.webhook.url:
        raise ApiError(409, E.WEBHOOK_ACTIVE)
    if "allowed_updates" in params:
        world.polling_allowed_updates = list(params["allowed_updates"] or [])
    offset = params.get("offset")
    limit = params.get("limit", 100)
    return world.take_updates(
        offset if isinstance(offset, int) else None, limit if isinstance(limit, int) else 100
    )


def get_chat(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """getChat, answered as a ChatFullInfo."""
    chat = _known_chat(world, params.get("chat_id"))
    gifts = ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription")
    return {
        **world.chat_to_api(chat.id),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": {**dict.fromkeys(gifts, True), "gifts_from_channels": False},
    }


def get_chat_member(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """getChatMember: statuses the world knows, "member" by default."""
    chat = _known_chat(world, params.get("chat_id"))
    user_id = params.get("user_id")
    if not isinstance(user_id, int) or (user_id != world.bot.id and user_id not in world.users):
        raise bad_request(E.USER_NOT_FOUND)
    return world.member_to_api(chat.id, user_id)


def get_chat_administrators(world: World, params: dict[str, Any]) -> list[dict[str, Any]]:
    """getChatAdministrators: creators and administrators, the bot included if it is one."""
    chat = _known_chat(world, params.get("chat_id"))
    if chat.type == "private":
        raise bad_request("Bad Request: there are no administrators in the private chat")
    ids = [
        uid for uid, status in chat.member_status.items() if status in ("creator", "administrator")
    ]
    if chat.bot_status == "administrator":
        ids.append(world.bot.id)
    return [world.member_to_api(chat.id, uid) for uid in ids]


def send_chat_action(world: World, params: dict[str, Any]) -> bool:
    """sendChatAction: recorded per chat."""
    chat = chat_for_bot(world, params.get("chat_id"))
    chat.actions.append(str(params.get("action", "")))
    return True


def _commands_key(params: dict[str, Any]) -> str:
    scope = params.get("scope") or {"type": "default"}
    return json.dumps(scope, sort_keys=True) + "|" + str(params.get("language_code") or "")


def set_my_commands(world: World, params: dict[str, Any]) -> bool:
    """setMyCommands, stored per scope and language."""
    commands = params.get("commands")
    if not isinstance(commands, list) or len(commands) > 100:
        raise bad_request("Bad Request: can't parse commands JSON object")
    for command in commands:
        if not _COMMAND_NAME.fullmatch(str(command.get("command", ""))):
            raise bad_request("Bad Request: BOT_COMMAND_INVALID")
        if not 1 <= len(str(command.get("description", ""))) <= 256:
            raise bad_request("Bad Request: command description is empty")
    world.commands[_commands_key(params)] = commands
    return True


def get_my_commands(world: World, params: dict[str, Any]) -> list[dict[str, Any]]:
    """getMyCommands."""
    return world.commands.get(_commands_key(params), [])


def delete_my_commands(world: World, params: dict[str, Any]) -> bool:
    """deleteMyCommands."""
    world.commands.pop(_commands_key(params), None)
    return True


def leave_chat(world: World, params: dict[str, Any]) -> bool:
    """leaveChat: the bot's status in the group becomes "left"."""
    chat = chat_for_bot(world, params.get("chat_id"), sending=False)
    if chat.type == "private":
        raise bad_request("Bad Request: chat member status can't be changed in private chats")
    chat.bot_status = "left"
    return True


CHAT_METHODS: dict[str, Callable[[World, dict[str, Any]], Any]] = {
    "setWebhook": set_webhook,
    "deleteWebhook": delete_webhook,
    "getWebhookInfo": get_webhook_info,
    "getUpdates": get_updates,
    "getChat": get_chat,
    "getChatMember": get_chat_member,
    "getChatAdministrators": get_chat_administrators,
    "sendChatAction": send_chat_action,
    "setMyCommands": set_my_commands,
    "getMyCommands": get_my_commands,
    "deleteMyCommands": delete_my_commands,
    "leaveChat": leave_chat,
}
