# Make sure a Redis server answers on a URL; start one this script owns if none does.
# Usage: source .ci/redis.sh; ensure_redis "$REDIS_URL"; trap stop_owned_redis EXIT

OWNED_REDIS_DIR=""

redis_answers() {
  .venv/bin/python - "$1" <<'PY'
import sys
import redis
try:
    redis.Redis.from_url(sys.argv[1], socket_connect_timeout=1).ping()
except Exception:
    sys.exit(1)
PY
}

ensure_redis_binary() {
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "installing redis-server from the OS packages" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
}

ensure_redis() {
  local url="$1"
  # Tests also start redis-server processes of their own (persistence, end to end).
  ensure_redis_binary
  if redis_answers "$url"; then
    return 0
  fi
  local port
  port=$(.venv/bin/python -c 'import sys, urllib.parse as u; print(u.urlparse(sys.argv[1]).port or 6379)' "$url")
  OWNED_REDIS_DIR=$(mktemp -d)
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no \
    --dir "$OWNED_REDIS_DIR" --daemonize yes --pidfile "$OWNED_REDIS_DIR/redis.pid" \
    --logfile "$OWNED_REDIS_DIR/redis.log"
  for _ in $(seq 50); do
    redis_answers "$url" && return 0
    sleep 0.1
  done
  echo "redis-server did not start on $url" >&2
  return 1
}

stop_owned_redis() {
  if [ -n "$OWNED_REDIS_DIR" ] && [ -f "$OWNED_REDIS_DIR/redis.pid" ]; then
    kill "$(cat "$OWNED_REDIS_DIR/redis.pid")" 2>/dev/null || true
  fi
}
