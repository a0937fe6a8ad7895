#!/usr/bin/env bash
# Writes server.properties (single-node KRaft defaults, overridden by KAFKA_* variables), formats the
# storage on first start, then runs the broker as pid 1.
#   KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://kafka:9092    -> advertised.listeners=PLAINTEXT://kafka:9092
#   KAFKA_CLUSTER_ID   the id used to format new storage (default: random)
#   KAFKA_HEAP         -Xmx of the broker (default 512m)
set -euo pipefail
props=/tmp/server.properties
declare -A config=(
  [process.roles]=broker,controller
  [node.id]=1
  [controller.quorum.voters]=1@localhost:9093
  [listeners]=PLAINTEXT://:9092,CONTROLLER://:9093
  [advertised.listeners]=PLAINTEXT://localhost:9092
  [controller.listener.names]=CONTROLLER
  [inter.broker.listener.name]=PLAINTEXT
  [listener.security.protocol.map]=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
  [log.dirs]=/var/lib/kafka/data
  [offsets.topic.replication.factor]=1
  [offsets.topic.num.partitions]=1
  [transaction.state.log.replication.factor]=1
  [transaction.state.log.min.isr]=1
  [transaction.state.log.num.partitions]=1
  [share.coordinator.state.topic.replication.factor]=1
  [share.coordinator.state.topic.min.isr]=1
  [default.replication.factor]=1
  [min.insync.replicas]=1
  [num.partitions]=1
  [group.initial.rebalance.delay.ms]=0
  [num.network.threads]=2
  [num.io.threads]=2
  [background.threads]=2
  [num.recovery.threads.per.data.dir]=1
  [log.cleaner.threads]=1
)
while IFS='=' read -r name value; do
  case "$name" in
    KAFKA_HEAP | KAFKA_CLUSTER_ID | KAFKA_OPTS | KAFKA_HOME) continue ;;
    KAFKA_*) ;;
    *) continue ;;
  esac
  key="${name#KAFKA_}"
  key="$(echo "$key" | tr '[:upper:]' '[:lower:]' | sed -e 's/___/-/g' -e 's/__/\x01/g' -e 's/_/./g' -e 's/\x01/_/g')"
  config[$key]="$value"
done < <(env)
: >"$props"
for key in "${!config[@]}"; do echo "$key=${config[$key]}" >>"$props"; done

cp=/opt/kafka/libs/*
logging=-Dlog4j.configuration=file:/opt/kafka/log4j.properties
data="${config[log.dirs]%%,*}"
if [ ! -f "$data/meta.properties" ]; then
  id="${KAFKA_CLUSTER_ID:-}"
  # 16 random bytes, base64url without padding; an id starting with "-" would parse as an option.
  while [ -z "$id" ] || [ "${id#-}" != "$id" ]; do
    id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)"
  done
  java -Xmx256m -cp "$cp" "$logging" kafka.tools.StorageTool format -t "$id" -c "$props" >/dev/null
fi
rm -f /tmp/kafka-started.log
exec java "-Xmx${KAFKA_HEAP:-512m}" -Xms128m -XX:+UseSerialGC -Djava.awt.headless=true "$logging" \
  -cp "$cp" kafka.Kafka "$props"
