#!/usr/bin/env bash
# A training run of the service: its extracted jar started with the JVM that will later use what it learns, real
# orders through it against a real PostgreSQL and RabbitMQ, then a normal stop (SIGTERM), at which the JVM writes
#
#   aot  an AOT cache (JDK 25 or later, -XX:AOTCacheOutput): the classes loaded and linked, and the method profiles
#        of the training; start the service with -XX:AOTCache=OUTPUT
#   cds  a dynamic AppCDS archive (Java 17 or later, -XX:ArchiveClassesAtExit): the classes loaded, parsed and
#        verified; start the service with -XX:SharedArchiveFile=OUTPUT
#
#   benchmarks/coldstart/train.sh aot|cds APP_DIR OUTPUT
#
# APP_DIR is the jar extracted with Spring Boot's tools jar mode
# (java -Djarmode=tools -jar ordering-service.jar extract --destination APP_DIR); the result is only used by a JVM
# started the same way: from APP_DIR, `-jar ordering-service.jar`, the same jar files, the same JVM build.
#
# The training uses a database of its own (DB_NAME, created and dropped again) and a queue of its own bound to the
# service's exchange, so that every order is relayed and consumed as in production. The load is
# benchmarks/api/OpenLoop.java: TRAIN_RATE orders/s for TRAIN_SECONDS, after its own few seconds of warm-up.
#
# Knobs (environment):
#   JAVA            the JVM to train; it must be the one (same build) that uses OUTPUT   (java)
#   DRIVER_JAVA     a JDK (17 or later, with its compiler) for the load generator         (java)
#   SERVICE_JVM     the service's JVM flags, as it will run               (-Xmx256m -Xms64m -XX:+UseSerialGC
#                                                                          -XX:TrimNativeHeapInterval=5000)
#   TRAINING        traffic (start, orders, stop) or start-up (-Dspring.context.exit=onRefresh: the context is
#                   refreshed and the JVM exits before the server starts; no orders)            (traffic)
#   TRAIN_SECONDS   seconds of orders (80)        TRAIN_RATE    orders/s (200)
#   DB_HOST DB_PORT DB_USER (PGPASSWORD) DB_NAME   (127.0.0.1, 5432, postgres, ordering_training)
#   RABBIT_HOST RABBIT_PORT (RABBIT_USER RABBIT_PASSWORD)   (127.0.0.1, 5672, guest, guest)
#   PORT            the service's HTTP port during the training (18380)
set -euo pipefail

MODE=${1:?usage: train.sh aot|cds APP_DIR OUTPUT}
APP_DIR=${2:?usage: train.sh aot|cds APP_DIR OUTPUT}
OUTPUT=${3:?usage: train.sh aot|cds APP_DIR OUTPUT}
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
API_DIR=$(cd "$BENCH_DIR/../api" && pwd)

JAVA=${JAVA:-java}
DRIVER_JAVA=${DRIVER_JAVA:-java}
SERVICE_JVM=${SERVICE_JVM:--Xmx256m -Xms64m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000}
TRAINING=${TRAINING:-traffic}
TRAIN_SECONDS=${TRAIN_SECONDS:-80}
TRAIN_RATE=${TRAIN_RATE:-200}
DB_HOST=${DB_HOST:-127.0.0.1}
DB_PORT=${DB_PORT:-5432}
DB_USER=${DB_USER:-postgres}
DB_NAME=${DB_NAME:-ordering_training}
RABBIT_HOST=${RABBIT_HOST:-127.0.0.1}
RABBIT_PORT=${RABBIT_PORT:-5672}
PORT=${PORT:-18380}
QUEUE=training.orders
EXCHANGE=bookstore.ordering
CUSTOMER=0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60
AUDIENCE=ordering-service

log() { printf '[%s] train %s: %s\n' "$(date +%H:%M:%S)" "$MODE" "$*" >&2; }
die() {
    log "ERROR: $*"
    exit 1
}

case $TRAINING in traffic | start-up) ;; *) die "TRAINING must be traffic or start-up" ;; esac
[[ -f $APP_DIR/ordering-service.jar && -d $APP_DIR/lib ]] ||
    die "$APP_DIR is not an extracted jar (java -Djarmode=tools -jar ordering-service.jar extract --destination DIR)"
APP_DIR=$(cd "$APP_DIR" && pwd)
[[ $OUTPUT == /* ]] || OUTPUT="$PWD/$OUTPUT"
case $MODE in
aot) RECORD_FLAG="-XX:AOTCacheOutput=$OUTPUT" ;;
cds) RECORD_FLAG="-XX:ArchiveClassesAtExit=$OUTPUT" ;;
*) die "mode must be aot or cds, not $MODE" ;;
esac
WORK=$(mktemp -d)
rm -f "$OUTPUT"

psql_admin() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d postgres -Atc "$1"; }
# the RabbitMQ client for the queue helper and the load generator: the service's own jars
CP=$(printf '%s:' "$APP_DIR"/lib/amqp-client-*.jar "$APP_DIR"/lib/slf4j-api-*.jar "$APP_DIR"/lib/netty-*.jar)
queue() { "$DRIVER_JAVA" -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$API_DIR/BenchQueue.java" "$RABBIT_HOST" "$RABBIT_PORT" "$QUEUE" "$EXCHANGE" "$1" >/dev/null; }

SERVICE_PID=""
QUEUE_DECLARED=0
DB_CREATED=0
cleanup() {
    local status=$?
    set +e
    if [[ -n $SERVICE_PID ]] && kill -0 "$SERVICE_PID" 2>/dev/null; then
        kill -KILL "$SERVICE_PID" 2>/dev/null
        wait "$SERVICE_PID" 2>/dev/null
    fi
    [[ $QUEUE_DECLARED == 1 ]] && queue delete
    [[ $DB_CREATED == 1 ]] && psql_admin "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null
    [[ $status == 0 ]] || log "FAILED; the service's log: $WORK/service.log"
    [[ $status == 0 ]] && rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

psql_admin "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null
psql_admin "CREATE DATABASE $DB_NAME" >/dev/null
DB_CREATED=1
queue declare || die "RabbitMQ does not answer on $RABBIT_HOST:$RABBIT_PORT"
QUEUE_DECLARED=1
export AUTH_HEADER
AUTH_HEADER="Bearer $("$DRIVER_JAVA" "$API_DIR/MintToken.java" "$WORK/key.pem" "$CUSTOMER" "orders orders.admin" "$AUDIENCE")"

read -r -a JVM_FLAGS <<<"$SERVICE_JVM"
APP_ARGS=("--spring.datasource.url=jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME"
    "--spring.datasource.username=$DB_USER"
    "--spring.rabbitmq.host=$RABBIT_HOST" "--spring.rabbitmq.port=$RABBIT_PORT"
    "--server.port=$PORT"
    "--spring.security.oauth2.resourceserver.jwt.public-key-location=file:$WORK/key.pem"
    "--spring.security.oauth2.resourceserver.jwt.audiences=$AUDIENCE")
[[ -n ${PGPASSWORD:-} ]] && APP_ARGS+=("--spring.datasource.password=$PGPASSWORD")
[[ -n ${RABBIT_USER:-} ]] && APP_ARGS+=("--spring.rabbitmq.username=$RABBIT_USER")
[[ -n ${RABBIT_PASSWORD:-} ]] && APP_ARGS+=("--spring.rabbitmq.password=$RABBIT_PASSWORD")

if [[ $TRAINING == start-up ]]; then
    log "start-up only: $JAVA ${JVM_FLAGS[*]} $RECORD_FLAG -Dspring.context.exit=onRefresh -jar ordering-service.jar"
    (cd "$APP_DIR" && exec "$JAVA" "${JVM_FLAGS[@]}" "$RECORD_FLAG" -Dspring.context.exit=onRefresh \
        -jar ordering-service.jar "${APP_ARGS[@]}") >"$WORK/service.log" 2>&1 || die "the training run failed"
else
    log "starting: $JAVA ${JVM_FLAGS[*]} $RECORD_FLAG -jar ordering-service.jar (in $APP_DIR)"
    (cd "$APP_DIR" && exec "$JAVA" "${JVM_FLAGS[@]}" "$RECORD_FLAG" -jar ordering-service.jar "${APP_ARGS[@]}") \
        >"$WORK/service.log" 2>&1 &
    SERVICE_PID=$!
    started=$SECONDS
    until [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$PORT/actuator/health/readiness" || true) == 200 ]]; do
        kill -0 "$SERVICE_PID" 2>/dev/null || {
            tail -n 30 "$WORK/service.log" >&2
            die "the service exited during start"
        }
        ((SECONDS - started < 180)) || die "the service was not ready within 180 s"
        sleep 0.5
    done
    log "ready after $((SECONDS - started)) s; $TRAIN_RATE orders/s for $TRAIN_SECONDS s (benchmarks/api/OpenLoop.java)"
    "$DRIVER_JAVA" -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$API_DIR/OpenLoop.java" \
        --url "http://127.0.0.1:$PORT/orders" --amqp-host "$RABBIT_HOST" --amqp-port "$RABBIT_PORT" \
        --queue "$QUEUE" --rate "$TRAIN_RATE" --seconds "$TRAIN_SECONDS" >"$WORK/openloop.md" \
        2>"$WORK/openloop.err" || {
        cat "$WORK/openloop.err" >&2
        die "the load generator failed"
    }
    grep -E '^\| (HTTP|placed)|^Sent' "$WORK/openloop.md" | sed 's/^/    /' >&2 || true
    log "stopping the service (SIGTERM); the JVM writes $(basename "$OUTPUT") as it exits"
    stopped=$SECONDS
    kill -TERM "$SERVICE_PID"
    status=0
    wait "$SERVICE_PID" || status=$?
    SERVICE_PID=""
    # 143: stopped by SIGTERM, after Spring's graceful shutdown and the JVM's exit work
    [[ $status == 0 || $status == 143 ]] || die "the service exited with $status"
    log "the JVM exited after $((SECONDS - stopped)) s"
fi
[[ -s $OUTPUT ]] || {
    tail -n 30 "$WORK/service.log" >&2
    die "no $OUTPUT was written"
}
log "wrote $OUTPUT ($(du -m "$OUTPUT" | cut -f1) MB)"
