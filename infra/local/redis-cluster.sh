#!/usr/bin/env bash
# A throwaway three-master Redis Cluster on free loopback ports (no replicas), for tests.
#
#   infra/local/redis-cluster.sh start    prints redis://127.0.0.1:A,redis://127.0.0.1:B,redis://127.0.0.1:C
#   infra/local/redis-cluster.sh stop URLS  stops every node (URLS as printed by start)
#
# Each node is a redis.sh instance with cluster-enabled; slots are assigned by
# `redis-cli --cluster create`, and start returns only once every node reports cluster_state:ok.
set -euo pipefail
here="$(dirname "$0")"
source "$here/ports.sh"

start() {
  require_command redis-cli redis-tools
  local urls=() nodes=()
  # On failure, stop what was started so nothing leaks.
  trap 'for u in "${urls[@]}"; do "$here/redis.sh" stop "$u" >/dev/null 2>&1 || true; done' ERR
  for _ in 1 2 3; do
    local url
    url="$("$here/redis.sh" start -- --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 5000)"
    urls+=("$url")
    nodes+=("127.0.0.1:$(port_of "$url")")
  done
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >/dev/null 2>"$PUBSTREAM_LOCAL_STATE/cluster-create-$$.log" \
    || { log "cluster create failed: $(cat "$PUBSTREAM_LOCAL_STATE/cluster-create-$$.log")"; false; }
  rm -f "$PUBSTREAM_LOCAL_STATE/cluster-create-$$.log"
  for _ in $(seq 1 200); do
    local ok=0
    for node in "${nodes[@]}"; do
      redis-cli -h 127.0.0.1 -p "${node##*:}" cluster info 2>/dev/null | grep -q 'cluster_state:ok' && ok=$((ok + 1))
    done
    if [ "$ok" = 3 ]; then
      trap - ERR
      (IFS=,; echo "${urls[*]}")
      return 0
    fi
    sleep 0.1
  done
  log "cluster did not reach cluster_state:ok"
  false
}

stop() {
  local list="${1:?usage: $0 stop URLS}"
  IFS=, read -ra urls <<<"$list"
  for url in "${urls[@]}"; do "$here/redis.sh" stop "$url"; done
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *) echo "usage: $0 start | stop URLS" >&2; exit 2 ;;
esac
