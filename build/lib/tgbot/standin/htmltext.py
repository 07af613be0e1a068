"""Telegram-flavoured HTML parsing: plain text plus message entities, or a parse error."""

from __future__ import annotations

import html
import re
from typing import Any

from tgbot.standin.errors import ApiError, bad_request

_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>")
_ATTR = re.compile(r"""([a-zA-Z][a-zA-Z0-9-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")

_SIMPLE = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "code": "code",
    "pre": "pre",
    "tg-spoiler": "spoiler",
}
SUPPORTED_TAGS = frozenset(_SIMPLE) | {"a", "span", "blockquote", "tg-emoji"}


def utf16_len(text: str) -> int:
    """Length of `text` in UTF-16 code units, the unit of Telegram entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def _parse_error(detail: str) -> ApiError:
    return bad_request(f"Bad Request: can't parse entities: {detail}")


def _attrs(raw: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in _ATTR.finditer(raw):
        value = next((g for g in match.groups()[1:] if g is not None), "")
        found[match.group(1).lower()] = html.unescape(value)
    return found


def _entity_for(tag: str, attrs: dict[str, str], offset: int) -> dict[str, Any] | None:
    """Build the entity skeleton for an opening tag; None if the tag makes no entity."""
    if tag in _SIMPLE:
        return {"type": _SIMPLE[tag], "offset": offset}
    if tag == "a":
        href = attrs.get("href")
        return {"type": "text_link", "offset": offset, "url": href} if href else None
    if tag == "span":
        return {"type": "spoiler", "offset": offset}
    if tag == "blockquote":
        kind = "expandable_blockquote" if "expandable" in attrs else "blockquote"
        return {"type": kind, "offset": offset}
    return {"type": "custom_emoji", "offset": offset, "custom_emoji_id": attrs["emoji-id"]}


def parse_html(text: str) -> tuple[str, list[dict[str, Any]]]:
    """Parse Telegram HTML into (plain text, entities); raise ApiError(400) when invalid."""
    out: list[str] = []
    length = 0  # UTF-16 length of the plain text so far
    stack: list[tuple[str, dict[str, Any] | None, int]] = []
    entities: list[dict[str, Any]] = []
    pos = 0
    while True:
        lt = text.find("<", pos)
        chunk = text[pos:] if lt < 0 else text[pos:lt]
        plain = html.unescape(chunk)
        out.append(plain)
        length += utf16_len(plain)
        if lt < 0:
            break
        byte_at = len(text[:lt].encode())
        match = _TAG.match(text, lt)
        if match is None:
            raise _parse_error(f'Unsupported start tag "" at byte offset {byte_at}')
        closing, tag, raw_attrs = match.group(1) == "/", match.group(2).lower(), match.group(3)
        pos = match.end()
        if closing:
            if not stack:
                raise _parse_error(f"Unexpected end tag at byte offset {byte_at}")
            open_tag, entity, _ = stack.pop()
            if open_tag != tag:
                raise _parse_error(
                    f'Unmatched end tag at byte offset {byte_at}, expected "</{open_tag}>", '
                    f'found "</{tag}>"'
                )
            if entity is not None:
                entity["length"] = length - entity["offset"]
                if entity["length"] > 0:
                    entities.append(entity)
            continue
        if tag not in SUPPORTED_TAGS:
            raise _parse_error(f'Unsupported start tag "{tag}" at byte offset {byte_at}')
        attrs = _attrs(raw_attrs)
        if tag == "span" and attrs.get("class") != "tg-spoiler":
            raise _parse_error(f'Tag "span" must have class "tg-spoiler" at byte offset {byte_at}')
        if tag == "tg-emoji" and "emoji-id" not in attrs:
            raise _parse_error(f'Tag "tg-emoji" must have "emoji-id" at byte offset {byte_at}')
        entity = _entity_for(tag, attrs, length)
        if tag == "code" and stack and stack[-1][0] == "pre" and stack[-1][1] is not None:
            language = attrs.get("class", "")
            if language.startswith("language-"):
                stack[-1][1]["language"] = language[len("language-") :]
            entity = None
        stack.append((tag, entity, byte_at))
    if stack:
        raise _parse_error(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities
