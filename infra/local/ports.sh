# Sourced by the infra/local scripts: where throwaway servers keep their state, and free ports.

# One folder per running server (pid file, config, log, data), outside the repo.
PUBSTREAM_LOCAL_STATE="${PUBSTREAM_LOCAL_STATE:-${TMPDIR:-/tmp}/pubstream-local}"
mkdir -p "$PUBSTREAM_LOCAL_STATE"

log() { echo "[$(basename "$0")] $*" >&2; }
die() { log "error: $*"; exit 1; }

# True when something accepts connections on 127.0.0.1:$1.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A random loopback port in 20000-29999 that nothing listens on (and, with a second argument N,
# whose port+N is free too: Redis Cluster's bus port is port+10000). The caller still retries
# when the bind fails, since another process may take the port between this check and the bind.
free_port() {
  local offset="${1:-}" port
  for _ in $(seq 1 200); do
    port=$((20000 + RANDOM % 10000))
    port_in_use "$port" && continue
    [ -n "$offset" ] && port_in_use $((port + offset)) && continue
    [ -e "$PUBSTREAM_LOCAL_STATE/redis-$port" ] || [ -e "$PUBSTREAM_LOCAL_STATE/kafka-$port" ] && continue
    echo "$port"
    return 0
  done
  die "no free port found in 20000-29999"
}

# The port of "redis://127.0.0.1:PORT", "127.0.0.1:PORT" or "PORT".
port_of() { local s="${1%/}"; echo "${s##*:}"; }

# Stops the server whose pid is in PID_FILE: SIGNAL (TERM or KILL), then SIGKILL if it still runs
# after GRACE_S seconds. The pid file goes; after TERM its whole state folder (the pid file's) too.
#   stop_server "redis-server" PORT PID_FILE SIGNAL GRACE_S
stop_server() {
  local what="$1" port="$2" pid_file="$3" signal="$4" grace_s="$5" pid=""
  [ -f "$pid_file" ] && pid="$(cat "$pid_file")"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "-$signal" "$pid" 2>/dev/null || true
    for _ in $(seq 1 $((grace_s * 20))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  else
    log "no $what of ours on port $port"
  fi
  rm -f "$pid_file"
  [ "$signal" = TERM ] && rm -rf "$(dirname "$pid_file")"
  return 0
}

# Installs Debian packages when a command is missing: only as root, else says what to install.
# The scripts run in parallel (the test setup starts Redis, the cluster and Kafka at once): one lock
# serialises the apt-get runs, and the command is looked for again once the lock is ours.
require_command() {
  local cmd="$1"; shift
  command -v "$cmd" >/dev/null 2>&1 && return 0
  [ "$(id -u)" = 0 ] || die "'$cmd' is missing; install the Debian package(s): $*"
  (
    flock 8
    command -v "$cmd" >/dev/null 2>&1 && exit 0
    log "installing $* (apt-get)"
    apt-get -o DPkg::Lock::Timeout=300 update -qq >&2 \
      && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >&2
  ) 8>"${TMPDIR:-/tmp}/pubstream-apt.lock" || die "apt-get install $* failed"
  command -v "$cmd" >/dev/null 2>&1 || die "'$cmd' still missing after installing $*"
}
