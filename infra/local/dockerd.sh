#!/usr/bin/env bash
# A container engine for the tests and infra/images/build.sh, started only when none answers.
#
#   infra/local/dockerd.sh acquire PID   makes sure `docker info` answers; when nothing answers and we
#                                        are root, installs Debian's docker.io (+ debootstrap,
#                                        docker-compose) if missing and starts dockerd in the background.
#                                        Registers PID (a process that uses the engine) as a holder.
#                                        Prints "started" (we started dockerd) or "running" (it was).
#   infra/local/dockerd.sh release PID   unregisters PID; when no live holder remains and the dockerd
#                                        is one this script started, stops it (TERM, then KILL).
#   infra/local/dockerd.sh status        prints the pid of the dockerd we started, or nothing.
#
# Several test runs on one machine share one dockerd: the last one to leave stops it, so a run
# never pulls the engine from under another. A dockerd started by someone else is never stopped.
set -euo pipefail
source "$(dirname "$0")/ports.sh"

STATE="$PUBSTREAM_LOCAL_STATE/dockerd"
PID_FILE="$STATE/daemon/dockerd.pid"
mkdir -p "$STATE/holders" "$STATE/daemon"
exec 7>"$STATE/lock"

engine_answers() { timeout 10 docker info >/dev/null 2>&1; }

live_holders() {
  local count=0 file
  for file in "$STATE/holders"/*; do
    [ -e "$file" ] || continue
    if kill -0 "$(basename "$file")" 2>/dev/null; then count=$((count + 1)); else rm -f "$file"; fi
  done
  echo "$count"
}

ours() { [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; }

acquire() {
  local holder="${1:?usage: $0 acquire PID}"
  flock 7
  if command -v docker >/dev/null 2>&1 && engine_answers; then
    touch "$STATE/holders/$holder"
    if ours; then echo started; else echo running; fi
    return 0
  fi
  [ -z "${DOCKER_HOST:-}" ] || die "DOCKER_HOST=$DOCKER_HOST does not answer"
  require_command dockerd docker.io debootstrap docker-compose
  require_command docker docker.io
  if ! ours; then
    log "starting dockerd (log: $STATE/dockerd.log)"
    # fd 7 (our lock) must not stay open in the daemon, or every later acquire would wait forever.
    setsid nohup dockerd --log-level=warn >"$STATE/dockerd.log" 2>&1 </dev/null 7>&- &
    mkdir -p "$STATE/daemon"
    echo $! >"$PID_FILE"
  fi
  for _ in $(seq 1 300); do
    if engine_answers; then
      touch "$STATE/holders/$holder"
      echo started
      return 0
    fi
    ours || die "dockerd exited: $(tail -n 5 "$STATE/dockerd.log")"
    sleep 0.1
  done
  die "dockerd did not answer within 30 s: $(tail -n 5 "$STATE/dockerd.log")"
}

release() {
  local holder="${1:?usage: $0 release PID}"
  flock 7
  rm -f "$STATE/holders/$holder"
  ours || return 0
  local others; others="$(live_holders)"
  if [ "$others" != 0 ]; then
    log "dockerd stays up: $others other run(s) still use it"
    return 0
  fi
  # dockerd stops its containers on TERM (10 s grace each, in parallel), then exits.
  stop_server dockerd "-" "$PID_FILE" TERM 40 >&2
  log "dockerd stopped"
}

case "${1:-}" in
  acquire) acquire "${2:-}" ;;
  release) release "${2:-}" ;;
  status) if ours; then cat "$PID_FILE"; fi ;;
  *) echo "usage: $0 acquire PID | release PID | status" >&2; exit 2 ;;
esac
