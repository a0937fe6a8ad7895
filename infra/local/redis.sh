#!/usr/bin/env bash
# A throwaway redis-server on a free loopback port, for tests and local runs (no Docker).
#
#   infra/local/redis.sh start [--port N] [--appendonly] [--dir DIR] [-- extra redis-server args]
#       prints redis://127.0.0.1:PORT on stdout (everything else goes to stderr)
#       --appendonly  AOF on (appendfsync everysec) for crash tests; data lives in DIR
#                     (default: the server's state folder). Start again with the same --port and
#                     --dir after a kill to get the data back.
#   infra/local/redis.sh stop URL|PORT     graceful stop; removes the state folder (not a --dir)
#   infra/local/redis.sh kill URL|PORT     SIGKILL (crash tests); keeps the data for a restart
#
# Installs Debian's redis-server when it is missing and we are root.
set -euo pipefail
source "$(dirname "$0")/ports.sh"

state_dir() { echo "$PUBSTREAM_LOCAL_STATE/redis-$1"; }

start() {
  local port="" appendonly=no data_dir="" extra=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --port) port="$2"; shift 2 ;;
      --appendonly) appendonly=yes; shift ;;
      --dir) data_dir="$2"; shift 2 ;;
      --) shift; extra=("$@"); break ;;
      *) die "unknown option $1" ;;
    esac
  done
  require_command redis-server redis-server
  local fixed_port="$port"
  for attempt in 1 2 3 4 5; do
    [ -n "$fixed_port" ] || port="$(free_port 10000)"
    local dir; dir="$(state_dir "$port")"
    mkdir -p "$dir"
    local data="${data_dir:-$dir}"
    mkdir -p "$data"
    local persistence=(--save '' --appendonly no)
    [ "$appendonly" = yes ] && persistence=(--save '' --appendonly yes --appendfsync everysec)
    rm -f "$dir/redis.log"
    redis-server --port "$port" --bind 127.0.0.1 --protected-mode no "${persistence[@]}" \
      --dir "$data" --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" \
      "${extra[@]}" >&2 || true
    # Daemonized: the parent returns before the bind; the child answers PING once it is up.
    for _ in $(seq 1 100); do
      if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
        echo "redis://127.0.0.1:$port"
        return 0
      fi
      grep -qiE 'Address already in use|Could not create server|Fatal' "$dir/redis.log" 2>/dev/null && break
      sleep 0.05
    done
    log "redis-server did not come up on port $port (attempt $attempt): $(tail -n 3 "$dir/redis.log" 2>/dev/null)"
    [ -z "$data_dir" ] && rm -rf "$dir"
    [ -n "$fixed_port" ] && break
  done
  die "could not start redis-server"
}

stop() {
  local port; port="$(port_of "${2:?usage: $0 stop|kill URL|PORT}")"
  stop_server "redis-server" "$port" "$(state_dir "$port")/redis.pid" "$1" 5
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) stop TERM "${2:-}" ;;
  kill) stop KILL "${2:-}" ;;
  *) echo "usage: $0 start [--port N] [--appendonly] [--dir DIR] [-- redis args] | stop URL|PORT | kill URL|PORT" >&2; exit 2 ;;
esac
