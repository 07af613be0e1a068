"""`python -m tgbot dev`: the whole bot on one machine, against a local Bot API stand-in.

It attaches to the Redis on REDIS_URL when that is set in the environment, else starts one of
its own, serves the stand-in with its
play page, starts the `web` process and a worker, registers the webhook, opens a group with
the bot in it and prints the page's address. Ctrl-C, SIGTERM or SIGHUP (a closed terminal) stops
everything it started; on Linux its children also stop when it is killed outright. On a Redis
it shares, it deletes what it wrote there when it stops (`tgbot.local.clean`). The processes' logs
stay in the log folder.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import httpx

from tgbot.local.clean import RunIds, clean_run
from tgbot.local.redis import RedisChoice, die_with_parent, free_port, provide_redis
from tgbot.ops.config import APP_PATH, Config, ConfigError, read_settings
from tgbot.ops.release import set_webhook
from tgbot.standin import StandinServer, World

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo"]
DEFAULT_PAGE_PORT = 8080
APP_NAME = "board"  # the board app's short name in its direct link
RELAXED_LIMITS = {
    "RATE_GLOBAL_PER_SECOND": "10000",
    "RATE_CHAT_PER_SECOND": "1000",
    "RATE_CHAT_BURST": "1000",
    "RATE_GROUP_PER_MINUTE": "100000",
}


@dataclass(frozen=True)
class Options:
    """What the command line asked for."""

    host: str
    port: int
    timer_scale: float
    quick: bool  # lobbies start from quicker timers, a person's own action never under 30 s
    players: int
    limits: str  # "telegram": enforced by the stand-in and respected by the bot; or "relaxed"
    redis: str  # "auto", "server" (own redis-server) or "embedded" (fakeredis over TCP)
    redis_url: str | None  # REDIS_URL when the environment sets it
    queue: str | None  # RQ_QUEUE when the environment sets it
    log_dir: str | None
    open_browser: bool


def parse_args(argv: list[str], environ: Mapping[str, str]) -> Options:
    """Read the command line; defaults come from the environment where it has them."""
    try:
        settings = read_settings(environ)
    except ConfigError as problem:
        print(f"hintrigue: configuration: {problem}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    parser = argparse.ArgumentParser(
        prog="python -m tgbot dev",
        description="Run the bot locally against a Telegram stand-in and serve a play page.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address of the play page")
    parser.add_argument(
        "--port", type=int, default=int(environ.get("DEV_PORT", DEFAULT_PAGE_PORT)),
        help="port of the play page; a busy port falls back to a free one (default 8080)",
    )  # fmt: skip
    parser.add_argument(
        "--quick", action="store_true", default=settings.quick_timers,
        help="quicker lobbies and reveals; a player's own action still gets at least 30 s",
    )  # fmt: skip
    parser.add_argument(
        "--timer-scale", type=float, default=settings.timer_scale,
        help="multiplies every timer as it is, for tests and demos (default: TIMER_SCALE or 1)",
    )  # fmt: skip
    parser.add_argument("--players", type=int, default=3, help="players to create (1-10)")
    parser.add_argument(
        "--limits", choices=["telegram", "relaxed"], default="telegram",
        help="telegram: flood limits as Telegram enforces them (default); relaxed: none",
    )  # fmt: skip
    parser.add_argument(
        "--redis", choices=["auto", "server", "embedded"], default="auto",
        help="auto: REDIS_URL if set and answering, else an own redis-server, else an embedded one",
    )  # fmt: skip
    parser.add_argument(
        "--log-dir", help="write the processes' logs here (default: a new temp dir); kept on exit"
    )
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    args = parser.parse_args(argv)
    if not 1 <= args.players <= len(NAMES):
        parser.error(f"--players must be between 1 and {len(NAMES)}")
    if args.timer_scale <= 0:
        parser.error("--timer-scale must be positive")
    return Options(
        host=args.host,
        port=args.port,
        timer_scale=args.timer_scale,
        quick=args.quick,
        players=args.players,
        limits=args.limits,
        redis=args.redis,
        redis_url=environ.get("REDIS_URL") or None,
        queue=settings.rq_queue or None,
        log_dir=args.log_dir,
        open_browser=args.open,
    )


def worker_command(redis_url: str, queue: str) -> list[str]:
    """The Procfile's worker line, run by a shell as honcho would; else the same spelled out."""
    procfile = ROOT / "Procfile"
    if procfile.is_file():
        for line in procfile.read_text().splitlines():
            name, _, command = line.partition(":")
            if name.strip() == "worker" and command.strip():
                return ["/bin/sh", "-c", "exec " + command.strip()]
    rq = str(Path(sys.executable).parent / "rq")
    return [rq, "worker", "--with-scheduler", "-w", "workers.worker.HintrigueWorker", "--quiet",
            "--url", redis_url, queue]  # fmt: skip


class Processes:
    """Child processes in their own sessions, logging to files, stopped in reverse order."""

    def __init__(self, log_dir: Path, env: dict[str, str]) -> None:
        self.log_dir = log_dir
        self.env = env
        self.running: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        """Start a process whose output goes to `<log_dir>/<name>.log`."""
        with (self.log_dir / f"{name}.log").open("ab") as log:
            process = subprocess.Popen(
                command, env=self.env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=die_with_parent(),
            )  # fmt: skip
        self.running.append((name, process))
        return process

    def dead(self) -> str | None:
        """The name of a process that exited, if any did."""
        return next((name for name, p in self.running if p.poll() is not None), None)

    def tail(self, name: str, lines: int = 30) -> str:
        """The end of a process's log."""
        path = self.log_dir / f"{name}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """SIGTERM each process group, newest first; SIGKILL what still runs after 10 s."""
        for _name, process in reversed(self.running):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.running.clear()


def wait_until(check: Callable[[], bool], timeout: float, what: str, procs: Processes) -> None:
    """Poll `check` until it holds; fail with the log of a process that died meanwhile."""
    deadline = time.monotonic() + timeout
    while not check():
        died = procs.dead()
        if died:
            raise SystemExit(f"the {died} process exited:\n{procs.tail(died)}")
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.1)


def healthy(url: str) -> bool:
    """Whether the web process answers its health check."""
    try:
        return httpx.get(url, timeout=1.0, trust_env=False).status_code == 200
    except httpx.HTTPError:
        return False


def serve_standin(world: World, host: str, port: int) -> StandinServer:
    """The stand-in on the asked port, or on a free one when that port is taken."""
    try:
        double = StandinServer(world, host=host, port=port)
    except OSError:
        print(f"port {port} is taken; the page takes a free port instead", flush=True)
        double = StandinServer(world, host=host, port=0)
    double.start()
    return double


def seed(double: StandinServer, players: int, stamp: int) -> int:
    """A group with players in it; its first player adds the bot. Returns the group's id."""
    world = double.world
    group = -(1_000_000_000_000 + stamp % 1_000_000_000)
    world.add_chat(group, "supergroup", title="Game night", bot_status="left")
    users = [world.add_user(first_name=name, username=name.lower()) for name in NAMES[:players]]
    world.set_admin(group, users[0], creator=True)
    for user in users[1:]:
        world.set_member_status(group, user, "member")
    delivery = double.deliver(world.bot_added(group, users[0]))
    if not delivery.ok:
        print(f"warning: the bot did not take its first update: {delivery.error}", flush=True)
    # A forum group too, where each topic is a room of its own: two topics and General.
    forum = group - 1
    world.add_chat(forum, "supergroup", title="Forum night", bot_status="left", is_forum=True)
    world.set_admin(forum, users[0], creator=True)
    for name in ("Table 1", "Table 2"):
        world.create_topic(forum, name, users[0])
    double.deliver(world.bot_added(forum, users[0]))
    return group


def timers_line(options: Options) -> str:
    """How the run's timers go, for its banner."""
    scale = f"TIMER_SCALE={options.timer_scale:g}"
    return f"quick ({scale})" if options.quick else scale


def child_env(config: Config, options: Options) -> dict[str, str]:
    """The environment of the web and worker processes: the bot's usual configuration."""
    venv_bin = str(Path(sys.executable).parent)
    return {
        **os.environ,
        **(RELAXED_LIMITS if options.limits == "relaxed" else {}),
        "TELEGRAM_BOT_TOKEN": config.token, "TELEGRAM_API_URL": config.api_url,
        "WEBHOOK_URL": config.webhook_url, "WEBHOOK_SECRET": config.webhook_secret,
        "REDIS_URL": config.redis_url, "PORT": str(config.port), "RQ_QUEUE": config.queue,
        "WEB_HOST": "127.0.0.1",  # nobody else on the network reaches the local web process
        "TIMER_SCALE": str(config.timer_scale), "QUICK_TIMERS": "1" if config.quick_timers else "",
        "APP_URL": config.app_url, "APP_LINK": config.app_link,
        "APP_SCRIPT_URL": config.app_script,
        "PATH": venv_bin + os.pathsep + os.environ.get("PATH", ""),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }  # fmt: skip


def clean_shared(url: str, world: World, queue: str) -> None:
    """Delete what this run wrote to a Redis it shares (its ids, its queue, its jobs)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=30)
    try:
        removed = clean_run(client, RunIds.of(world, queue))
    except (redis.RedisError, OSError) as problem:
        say(f"could not remove this run's keys from {url}: {problem}", error=True)
        return
    finally:
        client.close()
    say(f"removed this run's {removed} keys from {url}")


def say(text: str, *, error: bool = False) -> None:
    """Print a line; a terminal that went away (SIGHUP) must not stop the shutdown."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr if error else sys.stdout, flush=True)


def serve(options: Options, workdir: Path, ready: threading.Event, stop: threading.Event) -> bool:
    """Start everything, wait for `stop` or a process that dies, stop everything.

    Returns True when a process died on its own.
    """
    stamp = int(time.time())
    with ExitStack() as stack:
        redis: RedisChoice = stack.enter_context(
            provide_redis(options.redis, options.redis_url, workdir)
        )
        # A shared Redis may hold an earlier run's rooms and seen updates: use fresh ids there.
        queue = options.queue or (
            f"hintrigue-dev-{stamp}" if redis.shared else "hintrigue"
        )
        world = World(
            enforce_rate_limits=options.limits == "telegram",
            first_update_id=int(time.time() * 1000),
            first_user_id=5_000_000_000 + (stamp % 1_000_000) * 1000,
        )
        if redis.shared:  # runs last: after the processes stopped, nothing writes behind it
            stack.callback(clean_shared, redis.url, world, queue)
        double = serve_standin(world, options.host, options.port)
        stack.callback(double.stop)
        web_port = free_port()
        config = Config(
            token=world.token, api_url=f"http://127.0.0.1:{double.port}", redis_url=redis.url,
            port=web_port, webhook_url=f"http://127.0.0.1:{web_port}/webhook",
            webhook_secret=secrets.token_urlsafe(24), timer_scale=options.timer_scale,
            queue=queue, quick_timers=options.quick,
            # The board app, registered with the stand-in's "BotFather" as Telegram would have
            # it; its page loads the local shim of Telegram's script.
            app_url=f"http://127.0.0.1:{web_port}{APP_PATH}", app_script=f"{APP_PATH}shim.js",
            app_link=f"https://t.me/{world.bot.username}/{APP_NAME}",
        )  # fmt: skip
        world.apps[APP_NAME] = config.app_url
        procs = Processes(workdir, child_env(config, options))
        stack.callback(procs.stop)
        procs.start("web", [sys.executable, "-m", "tgbot", "web"])
        wait_until(lambda: healthy(f"http://127.0.0.1:{web_port}/healthz"), 60, "the web process",
                   procs)  # fmt: skip
        asyncio.run(set_webhook(config))
        procs.start("worker", worker_command(redis.url, queue))
        seed(double, options.players, stamp)
        host = "127.0.0.1" if options.host in ("0.0.0.0", "") else options.host
        page = f"http://{host}:{double.port}/"
        print(
            "Hintrigue runs locally against a Telegram stand-in: nothing goes to Telegram.\n"
            f"  Play page:  {page}\n"
            f"  Redis:      {redis.url} ({redis.description})\n"
            f"  Timers:     {timers_line(options)} · flood limits: {options.limits}\n"
            f"  Logs:       {workdir}\n"
            "Open the page, pick a player and send /newgame in the group. Ctrl-C stops it all.",
            flush=True,
        )
        ready.set()
        if options.open_browser:
            import webbrowser

            webbrowser.open(page)
        died = None
        while not died and not stop.wait(0.5):
            died = procs.dead()
        if died:
            say(f"the {died} process exited:\n{procs.tail(died)}", error=True)
        say("stopping…")
        return died is not None


def run(options: Options) -> int:
    """Run until Ctrl-C, SIGTERM or SIGHUP; the exit status is 1 when a process died on its own.

    The log folder is kept and named at the end.
    """
    stop, ready = threading.Event(), threading.Event()

    def on_signal(_signum: int, _frame: object) -> None:
        if stop.is_set():
            return  # already stopping: a second signal must not cut the shutdown short
        stop.set()
        if not ready.is_set():
            raise KeyboardInterrupt  # still starting: unwind, stopping what already runs

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, on_signal)
    workdir = Path(options.log_dir or tempfile.mkdtemp(prefix="hintrigue-dev-"))
    workdir.mkdir(parents=True, exist_ok=True)
    failed = True
    try:
        failed = serve(options, workdir, ready, stop)
    except KeyboardInterrupt:
        failed = False
        say("interrupted while starting")
    except SystemExit as problem:  # a part that would not start
        say(str(problem), error=True)
    with contextlib.suppress(OSError):
        (workdir / "redis").rmdir()  # an own redis-server's empty working folder
    say(f"stopped; logs kept in {workdir}")
    return 1 if failed else 0


def main(argv: list[str]) -> None:
    """Entry point of `python -m tgbot dev`."""
    sys.exit(run(parse_args(argv, os.environ)))
