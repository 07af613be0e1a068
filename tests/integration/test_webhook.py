"""The webhook app: it only takes updates in, into the inbox of the room they concern.

No worker runs here: what the web process does is checked in Redis itself.
"""

from __future__ import annotations

import json
import math
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import redis

from engine.commands import OpenLobby
from engine.games.registry import GAMES
from engine.store import Store, keys
from tests.conftest import test_redis_url
from tgbot.ingress.web import METRICS_FRESH_S, SECRET_HEADER, create_app
from tgbot.ops.config import Config
from tgbot.ops.metrics import TALLY
from tgbot.standin import World, serve_app

SECRET = "s3cret-token_ok"
GROUP = -100777
QUEUE = "webhooktest"


def ready_list() -> str:
    return keys.inbox_ready(QUEUE)  # named once the app named its bot


def config(redis_url: str) -> Config:
    return Config(token="1:x", webhook_secret=SECRET, redis_url=redis_url, queue=QUEUE)


@pytest.fixture
def app(real_redis):
    # Counts this test process made in earlier tests would reach this app's Redis with its
    # first metrics flush: taken now, so the keys below are this app's alone.
    TALLY._take()
    world = World()
    world.add_chat(GROUP, "supergroup", title="G")
    with serve_app(create_app(config(test_redis_url())), lifespan="on") as url:
        yield url, world, real_redis


def post(url: str, body: bytes | dict, secret: str | None = SECRET) -> httpx.Response:
    headers = {SECRET_HEADER: secret} if secret is not None else {}
    if isinstance(body, dict):
        body = json.dumps(body).encode()
    return httpx.post(f"{url}/webhook", content=body, headers=headers)


def waiting(client, chat_id: int) -> list[dict]:
    return [json.loads(raw) for raw in client.lrange(keys.inbox(chat_id), 0, -1)]


def test_a_missing_or_wrong_secret_token_is_refused_before_anything_else(app):
    url, world, client = app
    user = world.add_user(first_name="Ann").id
    assert post(url, b"not even json", secret=None).status_code == 403
    assert post(url, world.user_message(user, GROUP, "/newgame"), secret="wrong").status_code \
        == 403  # fmt: skip
    assert client.keys("*") == []


def test_malformed_json_gets_a_4xx_never_a_5xx(app):
    url, _world, client = app
    for body in [b"{", b"[]", b'{"update_id": "x"}', b"\xff\xfe"]:
        response = post(url, body)
        assert 400 <= response.status_code < 500
    assert client.keys("*") == []


def test_updates_the_bot_does_not_handle_are_acknowledged_and_dropped(app):
    url, _world, client = app
    assert post(url, {"update_id": 99, "some_future_update": {"id": 1}}).status_code == 200
    assert post(url, {"update_id": 5, "message": {"text": "no chat, no date"}}).status_code == 200
    assert client.keys("*") == []


def test_group_updates_wait_in_order_in_the_group_inbox_which_is_readied_once(app):
    url, world, client = app
    user = world.add_user(first_name="Ann").id
    first = world.user_message(user, GROUP, "/newgame")
    second = world.user_message(user, GROUP, "/settings rotations=1")
    assert post(url, first).status_code == 200
    assert post(url, second).status_code == 200
    assert waiting(client, GROUP) == [first, second]
    # One job owns the inbox (the first update's id is its token) and is announced once.
    assert client.get(keys.inbox_owner(GROUP)) == str(first["update_id"]).encode()
    assert client.lrange(ready_list(), 0, -1) == [f"{GROUP} {first['update_id']}".encode()]
    assert client.zscore(keys.pending_inboxes(), GROUP) is not None


def test_the_body_is_kept_byte_for_byte(app):
    url, world, client = app
    user = world.add_user(first_name="Zoë <b>").id
    body = json.dumps(world.user_message(user, GROUP, "/newgame ✨"), ensure_ascii=False,
                      separators=(",", ":")).encode()  # fmt: skip
    assert post(url, body).status_code == 200
    assert client.lrange(keys.inbox(GROUP), 0, -1) == [body]


def test_a_seated_players_private_updates_wait_in_the_room_of_their_game(app):
    url, world, client = app
    seated = world.add_user(first_name="Ann").id
    loner = world.add_user(first_name="Bob").id
    Store(client, GAMES).execute(
        GROUP, OpenLobby(chat_id=GROUP, user_id=seated, name="Ann", seed=1)
    )
    hint = world.user_message(seated, seated, "a quiet night")
    hello = world.user_message(loner, loner, "/start")
    assert post(url, hint).status_code == 200
    assert post(url, hello).status_code == 200
    assert waiting(client, GROUP) == [hint]
    assert waiting(client, seated) == []
    assert waiting(client, loner) == [hello]


def test_an_update_delivered_twice_is_taken_in_once(app):
    url, world, client = app
    user = world.add_user(first_name="Ann").id
    update = world.user_message(user, GROUP, "/newgame")
    assert post(url, update).status_code == 200
    assert post(url, update).status_code == 200
    assert waiting(client, GROUP) == [update]
    assert client.llen(ready_list()) == 1


def test_without_redis_an_update_gets_503_so_telegram_sends_it_again(real_redis):
    world = World()
    world.add_chat(GROUP, "supergroup", title="G")
    user = world.add_user(first_name="Ann").id
    with serve_app(create_app(config("redis://127.0.0.1:9/0")), lifespan="on") as url:
        assert post(url, world.user_message(user, GROUP, "/newgame")).status_code == 503


def test_health_answers_200_when_redis_answers_and_503_when_it_does_not(real_redis):
    with serve_app(create_app(config(test_redis_url())), lifespan="on") as url:
        assert httpx.get(f"{url}/healthz").status_code == 200
    with serve_app(create_app(config("redis://127.0.0.1:9/0")), lifespan="on") as url:
        assert httpx.get(f"{url}/healthz").status_code == 503


def test_without_a_webhook_secret_the_webhook_checks_one_derived_from_the_token(real_redis):
    world = World()
    world.add_chat(GROUP, "supergroup", title="G")
    user = world.add_user(first_name="Ann").id
    open_config = Config(token="123:abc", redis_url=test_redis_url(), queue=QUEUE)
    assert open_config.secret and open_config.secret != "123:abc"
    assert Config(token="123:abc").secret == open_config.secret  # release derives the same
    with serve_app(create_app(open_config), lifespan="on") as url:
        forged = world.user_message(user, GROUP, "/leave")
        assert post(url, forged, secret=None).status_code == 403
        assert post(url, forged, secret="").status_code == 403
        assert real_redis.keys("*") == []
        assert post(url, forged, secret=open_config.secret).status_code == 200
    assert waiting(real_redis, GROUP) == [forged]


@pytest.mark.parametrize("path", ["/", "/webhook", "/hook/with/a/path"])
def test_updates_are_taken_on_whatever_path_telegram_was_given(app, path):
    url, world, client = app
    user = world.add_user(first_name="Ann").id
    update = world.user_message(user, GROUP, "/newgame")
    response = httpx.post(f"{url}{path}", content=json.dumps(update).encode(),
                          headers={SECRET_HEADER: SECRET})  # fmt: skip
    assert response.status_code == 200
    assert waiting(client, GROUP) == [update]


def test_json_nested_too_deep_or_a_body_too_large_gets_a_4xx(app):
    url, _world, client = app
    deep = b'{"update_id": 1, "message": ' + b"[" * 20000 + b"]" * 20000 + b"}"
    assert post(url, deep).status_code == 400
    huge = b'{"update_id": 2, "pad": "' + b"x" * (2 << 20) + b'"}'
    assert post(url, huge).status_code == 413
    assert client.keys("*") == []


def test_buttons_stay_valid_when_the_webhook_secret_changes():
    from tgbot.games.registry import LINEUP

    codec = LINEUP.codec
    before = Config(token="123:abc", webhook_secret="old-secret")
    after = Config(token="123:abc", webhook_secret="new-secret")
    assert before.signing_key == after.signing_key
    data = codec.encode(before.signing_key, "vote", 1, 2, 3)
    assert codec.decode(after.signing_key, data, after.earlier_signing_keys).args == (1, 2, 3)
    # A button signed the old way (with the webhook secret itself) is still taken.
    old = codec.encode(b"old-secret", "vote", 1, 2, 3)
    assert codec.decode(before.signing_key, old, before.earlier_signing_keys).args == (1, 2, 3)


def test_many_scrapes_of_metrics_at_once_share_one_reading_of_redis(redis_server_factory):
    # A redis-server of the test's own: its command counts are server-wide, and other tests
    # (or other pytest-xdist workers) use the shared one at the same time.
    server = redis_server_factory()
    server.start()
    client = redis.Redis.from_url(server.url)
    with serve_app(create_app(config(server.url)), lifespan="on") as url:
        scrape_many(url, client)


def scrape_many(url: str, client: redis.Redis) -> None:
    def calls() -> int:
        return int(client.info("commandstats").get("cmdstat_zcard", {}).get("calls", 0))

    before = calls()
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda _: httpx.get(f"{url}/metrics", trust_env=False), range(40)))
    lasted = time.monotonic() - started
    assert all(a.status_code == 200 and b"hintrigue_inbox_updates" in a.content for a in answers)
    # Each reading counts the waiting inboxes and outboxes (two ZCARDs): one reading per second
    # the burst lasted (one, or two on a quiet machine; a few on a loaded one), not forty.
    readings = (calls() - before) / 2
    assert readings <= math.ceil(lasted / METRICS_FRESH_S) + 1 < 40, (readings, lasted)
