"""The webhook app: the secret token, malformed and unknown updates, duplicates, health."""

from __future__ import annotations

import httpx
import pytest
import redis

from tests.conftest import test_redis_url
from tgbot.config import Config
from tgbot.standin import World, run_double, serve_app
from tgbot.web import SECRET_HEADER, create_app

SECRET = "s3cret-token_ok"


class RecordingDispatch:
    """Collects what the service asks to deliver; no worker runs in these tests."""

    def __init__(self) -> None:
        self.flushed: list[int] = []

    def flush(self, chat_id: int) -> None:
        self.flushed.append(chat_id)

    def schedule(self, room, events) -> None:  # noqa: ANN001 - protocol shape
        pass


@pytest.fixture
def app(real_redis):
    dispatch = RecordingDispatch()
    with run_double() as double:
        config = Config(token=double.world.token, api_url=double.url, webhook_secret=SECRET,
                        redis_url=test_redis_url())
        with serve_app(create_app(config, real_redis, dispatch), lifespan="on") as url:
            yield url, double.world, dispatch, real_redis


def post(url: str, body: bytes | dict, secret: str | None = SECRET) -> httpx.Response:
    headers = {SECRET_HEADER: secret} if secret is not None else {}
    if isinstance(body, dict):
        return httpx.post(f"{url}/webhook", json=body, headers=headers)
    return httpx.post(f"{url}/webhook", content=body, headers=headers)


def newgame(world: World) -> dict:
    user = world.add_user(first_name="Ann").id
    world.add_chat(-100777, "supergroup", title="G")
    return world.user_message(user, -100777, "/newgame")


def test_a_missing_or_wrong_secret_token_is_refused_before_anything_else(app):
    url, world, dispatch, client = app
    assert post(url, b"not even json", secret=None).status_code == 403
    assert post(url, newgame(world), secret="wrong").status_code == 403
    assert dispatch.flushed == [] and client.keys("{room:*") == []


def test_malformed_json_gets_a_4xx_never_a_5xx(app):
    url, *_ = app
    for body in [b"{", b"[]", b'{"update_id": "x"}', b"\xff\xfe"]:
        response = post(url, body)
        assert 400 <= response.status_code < 500


def test_an_unknown_update_type_is_acknowledged_and_ignored(app):
    url, _world, dispatch, _client = app
    response = post(url, {"update_id": 99, "some_future_update": {"id": 1}})
    assert response.status_code == 200
    assert dispatch.flushed == []


def test_a_broken_update_of_a_known_type_is_acknowledged(app):
    url, *_ = app
    assert post(url, {"update_id": 5, "message": {"text": "no chat, no date"}}).status_code == 200


def test_a_duplicate_update_id_is_applied_once(app):
    url, world, dispatch, client = app
    update = newgame(world)
    assert post(url, update).status_code == 200
    first = client.hgetall("{room:-100777}:state")
    flushed = list(dispatch.flushed)
    assert flushed and set(flushed) == {-100777}
    assert post(url, update).status_code == 200
    assert client.hgetall("{room:-100777}:state") == first
    assert dispatch.flushed == flushed


def test_health_answers_200_when_redis_answers_and_503_when_it_does_not(real_redis):
    dead = redis.Redis(host="127.0.0.1", port=9, socket_connect_timeout=0.2)
    with run_double() as double:
        config = Config(token=double.world.token, api_url=double.url, redis_url=test_redis_url())
        with serve_app(create_app(config, real_redis, RecordingDispatch()), lifespan="on") as url:
            assert httpx.get(f"{url}/healthz").status_code == 200
        with serve_app(create_app(config, dead, RecordingDispatch()), lifespan="on") as url:
            assert httpx.get(f"{url}/healthz").status_code == 503
