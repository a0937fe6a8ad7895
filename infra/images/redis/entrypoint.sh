#!/bin/sh
# Like the official redis image: inside a container the published port is the access control, so
# protected mode is off. With it on (the default of a redis-server started without a config
# file) every client outside the container gets "-DENIED ... protected mode" and a client that
# retries forever, such as the one connectRedis() builds, never connects (docs/testing.md).
# Arguments after `redis-server` come later and can still turn it back on.
set -e
case "$1" in
  -*) set -- redis-server "$@" ;;
esac
if [ "$1" = redis-server ]; then
  shift
  set -- redis-server --protected-mode no "$@"
fi
exec "$@"
