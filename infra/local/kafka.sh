#!/usr/bin/env bash
# A real single-node Apache Kafka 3.9.1 broker in KRaft mode, without Docker, for tests and local runs.
#
#   infra/local/kafka.sh start [--port N] [--dir DIR]   prints 127.0.0.1:PORT on stdout
#       --port/--dir  restart a killed broker on the same port with its data (crash tests)
#   infra/local/kafka.sh stop ADDRESS|PORT   graceful stop; removes its state (not a --dir)
#   infra/local/kafka.sh kill ADDRESS|PORT   SIGKILL; keeps the data for a restart
#   infra/local/kafka.sh jars                resolves the broker jars; prints their folder
#                                            (infra/images/build.sh copies them into the Kafka image)
#
# The broker jars come from Maven Central (org.apache.kafka:kafka_2.13, see kafka/pom.xml), resolved
# once with `mvn dependency:copy-dependencies` into a cache outside the repo
# (PUBSTREAM_KAFKA_LIBS, default ~/.cache/pubstream/kafka-3.9.1/libs); later starts take seconds.
# Installs Debian's maven and default-jre-headless when missing and we are root. See docs/kafka.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/ports.sh"

KAFKA_VERSION=3.9.1
LIBS="${PUBSTREAM_KAFKA_LIBS:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/pubstream/kafka-$KAFKA_VERSION/libs}"
HEAP="${PUBSTREAM_KAFKA_HEAP:-512m}"

state_dir() { echo "$PUBSTREAM_LOCAL_STATE/kafka-$1"; }

# The broker's classpath, resolved once. A lock keeps two concurrent first runs from racing,
# and a marker file tells a complete download from an interrupted one.
resolve_jars() {
  [ -f "$LIBS/.complete" ] && return 0
  require_command java default-jre-headless
  require_command mvn maven
  mkdir -p "$(dirname "$LIBS")"
  (
    flock 9
    [ -f "$LIBS/.complete" ] && exit 0
    log "resolving Apache Kafka $KAFKA_VERSION jars with Maven into $LIBS (first run only)"
    rm -rf "$LIBS.partial"
    (cd "$here/kafka" && mvn -B -q dependency:copy-dependencies -DincludeScope=runtime "-DoutputDirectory=$LIBS.partial") >&2 \
      || die "mvn dependency:copy-dependencies failed"
    rm -rf "$LIBS" && mv "$LIBS.partial" "$LIBS" && touch "$LIBS/.complete"
  ) 9>"$(dirname "$LIBS")/.lock"
}

write_config() {
  local dir="$1" data="$2" port="$3" cport="$4"
  cat >"$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$data/logs
# One node: every internal topic has one replica.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
default.replication.factor=1
min.insync.replicas=1
num.partitions=1
group.initial.rebalance.delay.ms=0
# A restarted broker (after kill) waits for its old registration to expire: keep that short.
broker.session.timeout.ms=3000
broker.heartbeat.interval.ms=500
# Small: the machine has two cores shared with Redis, the app and the tests.
num.network.threads=2
num.io.threads=2
background.threads=2
num.recovery.threads.per.data.dir=1
log.cleaner.threads=1
PROPS
  # WARN and above, plus the line that says the broker is up ("Kafka Server started").
  cat >"$dir/log4j.properties" <<PROPS
log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
PROPS
}

start() {
  local port="" data_dir=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --port) port="$2"; shift 2 ;;
      --dir) data_dir="$2"; shift 2 ;;
      *) die "unknown option $1" ;;
    esac
  done
  resolve_jars
  require_command java default-jre-headless
  [ -n "$port" ] || port="$(free_port)"
  local dir; dir="$(state_dir "$port")"
  mkdir -p "$dir"
  local data="${data_dir:-$dir/data}"
  mkdir -p "$data"
  # The controller port is kept with the data, so a restart finds the same quorum address.
  local cport
  if [ -f "$data/controller.port" ]; then cport="$(cat "$data/controller.port")"; else
    cport="$(free_port)"; [ "$cport" != "$port" ] || cport="$(free_port)"
    echo "$cport" >"$data/controller.port"
  fi
  write_config "$dir" "$data" "$port" "$cport"
  local cp="$LIBS/*"
  if [ ! -f "$data/logs/meta.properties" ]; then
    # A fresh cluster id: 16 random bytes, base64url without padding (what StorageTool random-uuid prints).
    # One id in 64 would start with "-" and be parsed by the StorageTool as an option: draw again.
    local cluster_id="-"
    while [ "${cluster_id#-}" != "$cluster_id" ]; do
      cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)"
    done
    java -Xmx256m -cp "$cp" -Dlog4j.configuration="file:$dir/log4j.properties" \
      kafka.tools.StorageTool format -t "$cluster_id" -c "$dir/server.properties" >"$dir/format.log" 2>&1 \
      || die "storage format failed: $(tail -n 5 "$dir/format.log")"
  fi
  : >"$dir/kafka.log"
  setsid nohup java "-Xmx$HEAP" -Xms128m -XX:+UseSerialGC -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$dir/log4j.properties" -cp "$cp" \
    kafka.Kafka "$dir/server.properties" >"$dir/kafka.log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$dir/kafka.pid"
  for _ in $(seq 1 1200); do
    if grep -q 'Kafka Server started' "$dir/kafka.log"; then
      echo "127.0.0.1:$port"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      log "broker exited: $(tail -n 5 "$dir/kafka.log")"
      [ -z "$data_dir" ] && rm -rf "$dir"
      die "Kafka did not start"
    fi
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  die "Kafka did not say 'Kafka Server started' within 120 s: $(tail -n 5 "$dir/kafka.log")"
}

stop() {
  local port; port="$(port_of "${2:?usage: $0 stop|kill ADDRESS|PORT}")"
  # A controlled shutdown of one node takes a few seconds; then it is killed.
  stop_server "Kafka broker" "$port" "$(state_dir "$port")/kafka.pid" "$1" 30
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) stop TERM "${2:-}" ;;
  kill) stop KILL "${2:-}" ;;
  jars) resolve_jars; echo "$LIBS" ;;
  *) echo "usage: $0 start [--port N] [--dir DIR] | stop ADDRESS|PORT | kill ADDRESS|PORT | jars" >&2; exit 2 ;;
esac
