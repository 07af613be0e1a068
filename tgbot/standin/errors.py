"""Bot API error type and the descriptions Telegram uses for them."""

from __future__ import annotations

from typing import Any

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_TYPE_INVALID = "Bad Request: BUTTON_TYPE_INVALID"
BUTTON_URL_INVALID = "Bad Request: BUTTON_URL_INVALID"
TEXT_BUTTONS = (
    "Bad Request: can't parse inline keyboard button: "
    "Text buttons are unallowed in the inline keyboard"
)
CHAT_NOT_FOUND = "Bad Request: chat not found"
NO_PHOTO = "Bad Request: there is no photo in the request"
WRONG_FILE_ID = "Bad Request: wrong file identifier/HTTP URL specified"
IMAGE_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"
PHOTO_DIMENSIONS = "Bad Request: PHOTO_INVALID_DIMENSIONS"
PHOTO_TOO_BIG = "Bad Request: file is too big"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
NO_TEXT = "Bad Request: there is no text in the message to edit"
NO_CAPTION = "Bad Request: there is no caption in the message to edit"
BAD_MEDIA = "Bad Request: can't parse InputMedia JSON object"
MEDIA_TYPE = "Bad Request: unsupported media type"
THREAD_NOT_FOUND = "Bad Request: message thread not found"
USER_NOT_FOUND = "Bad Request: user not found"
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
UNAUTHORIZED = "Unauthorized"
METHOD_NOT_FOUND = "Not Found: method not found"


class ApiError(Exception):
    """A Bot API failure answered as {"ok": false, ...} with the same HTTP status."""

    def __init__(
        self,
        error_code: int,
        description: str,
        retry_after: int | None = None,
        scope: str | None = None,
        page: bool = False,
    ):
        super().__init__(description)
        self.page = page  # answered as an HTML page echoing the request path
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after
        self.scope = scope

    def payload(self) -> dict[str, Any]:
        """Return the JSON body Telegram would send for this error."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad_request(description: str) -> ApiError:
    """Build a 400 error; `description` must already carry the "Bad Request: " prefix."""
    return ApiError(400, description)


def forbidden(description: str) -> ApiError:
    """Build a 403 error; `description` must already carry the "Forbidden: " prefix."""
    return ApiError(403, description)


def too_many_requests(retry_after: int, scope: str | None = None) -> ApiError:
    """Build a 429 error with parameters.retry_after."""
    retry_after = max(1, int(retry_after))
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after, scope)
