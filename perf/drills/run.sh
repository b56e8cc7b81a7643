#!/usr/bin/env bash
# Fault drills: two instances of the built jar on the local PostgreSQL (or MariaDB) and RabbitMQ, load, one fault,
# and an audit of every committed order against every message that reached an audit queue. See README.md.
#
#   perf/drills/run.sh [poison|kill|broker|db|skew|skew-cdc|schema|all ...]   (default: all = the first five, in order)
#   DB=mariadb perf/drills/run.sh ...                            (the same drills on MariaDB; skew-cdc is PostgreSQL's)
#   RELAY=cdc perf/drills/run.sh [poison|kill|broker|db|skew-cdc|slot|schema|all ...]   (the instances in cdc mode; all = these seven)
#   [RELAY=cdc] [ROLLING=upgrade] perf/drills/run.sh rolling   (a rolling restart behind HAProxy; not part of all)
#
# Knobs (environment): DB (postgres|mariadb), RELAY (polling|cdc), JAR, BROKER_FAULT (proxy|stop-app), RATE,
# LOAD_SECONDS, KILL_ROWS, POISON_GOOD_ROWS, WARMUP_SECONDS, WARMUP_RATE, SKEW_ORDERS, SKEW, FAKETIME_LIB, LEASE,
# START_TIMEOUT, PORT_A, PORT_B, JAVA_OPTS, DB_HOST, DB_PORT, DB_USER, RABBIT_HOST, RABBIT_PORT, CDC_DB_PORT,
# CDC_TAKEOVER_BOUND; the rolling drill: ROLLING (same|upgrade), OLD_REF, OLD_JAR, LB_PORT, LB_STATS_PORT,
# STEADY_SECONDS, ROLLING_WARMUP_SECONDS, ROLLING_SETTLE_SECONDS, ROLLING_JFR, SLOWSTART.
set -euo pipefail

DRILL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$DRILL_DIR/../.." && pwd)
CALLER_DIR=$PWD
cd "$REPO_ROOT"

DB=${DB:-postgres}
case $DB in
postgres) DEFAULT_DB_PORT=5432 DEFAULT_DB_USER=postgres ;;
mariadb) DEFAULT_DB_PORT=3306 DEFAULT_DB_USER=root ;;
*)
    echo "DB is postgres or mariadb, not $DB" >&2
    exit 2
    ;;
esac
RELAY=${RELAY:-polling}
case $RELAY in
polling) ;;
cdc) [[ $DB == postgres ]] || {
    echo "RELAY=cdc reads PostgreSQL's write-ahead log: DB=postgres only" >&2
    exit 2
} ;;
*)
    echo "RELAY is polling or cdc, not $RELAY" >&2
    exit 2
    ;;
esac
# A cdc instance runs the jar that carries CDC's runtime, as a cdc deployment does; polling runs the plain one.
if [[ $RELAY == cdc || " $* " == *" skew-cdc "* ]]; then
    DEFAULT_JAR=bootstrap/target/ordering-service-cdc.jar
else
    DEFAULT_JAR=bootstrap/target/ordering-service.jar
fi
JAR=${JAR:-$DEFAULT_JAR}
BROKER_FAULT=${BROKER_FAULT:-proxy}
RATE=${RATE:-100}
LOAD_SECONDS=${LOAD_SECONDS:-30}
KILL_ROWS=${KILL_ROWS:-10000}
WARMUP_SECONDS=${WARMUP_SECONDS:-40}
WARMUP_RATE=${WARMUP_RATE:-250}
POISON_GOOD_ROWS=${POISON_GOOD_ROWS:-1000}
SKEW_ORDERS=${SKEW_ORDERS:-100}
SKEW=${SKEW:--3s}
LEASE=${LEASE:-5s}
START_TIMEOUT=${START_TIMEOUT:-420}
PORT_A=${PORT_A:-18181}
PORT_B=${PORT_B:-18182}
PROXY_PORT=${PROXY_PORT:-15680}
PROXY_CONTROL_PORT=${PROXY_CONTROL_PORT:-15681}
JAVA_OPTS=${JAVA_OPTS:--Xmx256m}
DB_HOST=${DB_HOST:-127.0.0.1}
DB_PORT=${DB_PORT:-$DEFAULT_DB_PORT}
DB_USER=${DB_USER:-$DEFAULT_DB_USER}
RABBIT_HOST=${RABBIT_HOST:-127.0.0.1}
RABBIT_PORT=${RABBIT_PORT:-5672}
CDC_DB_PORT=${CDC_DB_PORT:-15432}
CDC_TAKEOVER_BOUND=${CDC_TAKEOVER_BOUND:-16}
ROLLING=${ROLLING:-same}
OLD_REF=${OLD_REF:-de87a22}
LB_PORT=${LB_PORT:-18180}
LB_STATS_PORT=${LB_STATS_PORT:-18189}
STEADY_SECONDS=${STEADY_SECONDS:-60}
# the rolling drill warms up longer than the load drills: its steady state is the windows before the first stop
ROLLING_WARMUP_SECONDS=${ROLLING_WARMUP_SECONDS:-120}
# then RATE, not measured, while the instances catch up with what the warm-up left them (its backlog of listener runs
# and messages), so that the windows before the first stop are a steady state
ROLLING_SETTLE_SECONDS=${ROLLING_SETTLE_SECONDS:-40}
# 1: each replacement records a flight recording (settings=profile) of its start, $WORK/rolling-a2.jfr and -b2.jfr
ROLLING_JFR=${ROLLING_JFR:-0}

DB_NAME=ordering_drill
EXCHANGE=bookstore.ordering.drill
QUEUE=drill.audit
BROKER_OUTAGE_SECONDS=11
CUSTOMER=0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60

WORK="$DRILL_DIR/target"
STAMP=$(date +%Y%m%d-%H%M%S)
mkdir -p "$WORK"
RUN_LOG="$WORK/run-$STAMP.log"
RESULTS="$WORK/results-$STAMP.txt"
: >"$RESULTS"
exec > >(tee -i -a "$RUN_LOG") 2>&1
exec {CONSOLE}>&1

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() {
    log "ERROR: $*"
    exit 1
}
now_ms() { date +%s%3N; }

# ---------------------------------------------------------------------------------------------------------------
# Everything a drill starts, and its cleanup (also on failure, Ctrl-C and TERM)
# ---------------------------------------------------------------------------------------------------------------
declare -A INSTANCE_PID=()
CONSUMER_PID=""
PROXY_PID=""
LOAD_PID=""
LB_PID=""
BROKER_APP_STOPPED=0
DB_CREATED=0
SCRATCH_PG=""
QUEUE_DECLARED=0
CP=""
CLEANED=0
DRILL_PID=""

stop_pid() { # pid, signal: stops one process this script started, waits up to 30 s, then kills it
    local pid=$1 signal=${2:-TERM}
    [[ -n $pid ]] || return 0
    if kill -0 "$pid" 2>/dev/null; then
        kill "-$signal" "$pid" 2>/dev/null || true
        kill -CONT "$pid" 2>/dev/null || true # one the kill drill froze must run to stop
        for _ in $(seq 1 60); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null || true
}

restore_broker() {
    if [[ $BROKER_APP_STOPPED == 1 ]]; then
        log "restoring RabbitMQ (rabbitmqctl start_app)"
        rabbitmqctl start_app >/dev/null 2>&1 || log "WARNING: rabbitmqctl start_app failed: start RabbitMQ by hand"
        BROKER_APP_STOPPED=0
    fi
}

drill_cleanup() {
    restore_broker
    local name
    for name in "${!INSTANCE_PID[@]}"; do
        stop_pid "${INSTANCE_PID[$name]}"
    done
    INSTANCE_PID=()
    stop_pid "$LOAD_PID"
    LOAD_PID=""
    stop_pid "$CONSUMER_PID"
    CONSUMER_PID=""
    stop_pid "$PROXY_PID"
    PROXY_PID=""
    stop_pid "$LB_PID"
    LB_PID=""
    if [[ $QUEUE_DECLARED == 1 && -n $CP ]]; then
        rabbit delete >/dev/null 2>&1 || log "could not delete queue $QUEUE / exchange $EXCHANGE"
        QUEUE_DECLARED=0
    fi
    if [[ $DB_CREATED == 1 ]]; then
        # a scratch cluster goes with its databases (and its slot, which would refuse the drop)
        [[ -n $SCRATCH_PG ]] || drop_database >/dev/null 2>&1 || log "could not drop $DB_NAME"
        DB_CREATED=0
    fi
    stop_scratch_postgres
}

cleanup() {
    local status=$?
    [[ $CLEANED == 1 ]] && return 0
    CLEANED=1
    trap - EXIT INT TERM
    set +e
    exec >&"$CONSOLE" 2>&1
    stop_pid "$DRILL_PID"
    drill_cleanup
    [[ $status == 0 ]] || log "FAILED (exit $status); console log: ${RUN_LOG#"$REPO_ROOT"/}"
    exit "$status"
}
trap cleanup EXIT
trap 'log "interrupted" >&"$CONSOLE"; exit 130' INT
trap 'log "terminated" >&"$CONSOLE"; exit 143' TERM

# ---------------------------------------------------------------------------------------------------------------
# The database engine (DB): everything that differs between PostgreSQL and MariaDB is here, side by side. The
# drills below only call these functions; the statements they send directly are the same on both engines.
# MariaDB: times are datetime(6) holding UTC (compared with UTC_TIMESTAMP(6)), ids its native uuid type, no
# NOTIFY (other instances' relays find new rows at their poll), no data-modifying WITH, no FILTER.
# ---------------------------------------------------------------------------------------------------------------

# the SQL client: one statement list per call, one line per row, columns separated by |, on the server's
# administrative database (db_admin) or on the drill's (db_drill); stops at the first error
db_client() { # database sql
    case $DB in
    postgres) PGOPTIONS="-c client_min_messages=warning${DRILL_SCHEMA:+ -c search_path=$DRILL_SCHEMA}" psql -X -q -v ON_ERROR_STOP=1 -h "$DB_HOST" -p "$DB_PORT" \
        -U "$DB_USER" -d "$1" -Atc "$2" ;;
    mariadb) mariadb --protocol=tcp -h "$DB_HOST" -P "$DB_PORT" -u "$DB_USER" -N -B -r -e "$2" ${1:+"$1"} |
        tr '\t' '|' ;;
    esac
}
db_admin() { case $DB in postgres) db_client postgres "$1" ;; mariadb) db_client "" "$1" ;; esac; }
db_drill() { db_client "$DB_NAME" "$1"; }

DB_CLIENT=$(case $DB in postgres) echo psql ;; mariadb) echo mariadb ;; esac)
DB_LABEL=$(case $DB in postgres) echo PostgreSQL ;; mariadb) echo MariaDB ;; esac)
# the service's Spring profile and the JDBC URL of the drill's database (the instances' and DrillAudit's); with
# DRILL_SCHEMA (the schema drill) the URL names that schema, and psql's search path is that schema
DRILL_SCHEMA=""
DB_PROFILE=$DB
jdbc_url() {
    case $DB in
    postgres) echo "jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME${DRILL_SCHEMA:+?currentSchema=$DRILL_SCHEMA}" ;;
    mariadb) echo "jdbc:mariadb://$DB_HOST:$DB_PORT/$DB_NAME" ;;
    esac
}
# the JDBC driver DrillAudit takes out of the service jar
DRIVER_JAR=$(case $DB in postgres) echo 'postgresql-*.jar' ;; mariadb) echo 'mariadb-java-client-*.jar' ;; esac)
DRIVER_JAR_RE=$(case $DB in postgres) echo 'postgresql' ;; mariadb) echo 'mariadb-java-client' ;; esac)

server_version() {
    case $DB in
    postgres) db_admin "SHOW server_version" ;;
    mariadb) db_admin "SELECT VERSION()" ;;
    esac
}

# ends every session on the drill's database but the drill's own; prints how many it ended
kill_sessions() {
    case $DB in
    postgres) db_admin "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                                               WHERE datname = '$DB_NAME' AND pid <> pg_backend_pid()) t" ;;
    # KILL CONNECTION of each session in information_schema.PROCESSLIST, in one statement on the server; a session
    # that ended meanwhile (error 1094, unknown thread) is not counted
    mariadb) db_admin "DELIMITER //
        BEGIN NOT ATOMIC
            DECLARE done, killed INT DEFAULT 0;
            DECLARE victim BIGINT;
            DECLARE sessions CURSOR FOR SELECT id FROM information_schema.PROCESSLIST
                                         WHERE db = '$DB_NAME' AND id <> CONNECTION_ID();
            DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
            OPEN sessions;
            each_session: LOOP
                FETCH sessions INTO victim;
                IF done THEN LEAVE each_session; END IF;
                BEGIN
                    DECLARE CONTINUE HANDLER FOR 1094 SET killed = killed - 1;
                    KILL CONNECTION victim;
                    SET killed = killed + 1;
                END;
            END LOOP;
            CLOSE sessions;
            SELECT killed;
        END //" ;;
    esac
}

drop_database() { # even while sessions are open on it
    case $DB in
    postgres) db_admin "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" ;;
    mariadb)
        kill_sessions >/dev/null
        db_admin "DROP DATABASE IF EXISTS $DB_NAME"
        ;;
    esac
}

sql_new_uuid() {
    case $DB in
    postgres) echo "SELECT gen_random_uuid()" ;;
    mariadb) echo "SELECT UUID()" ;;
    esac
}

# seeds N orders and their order.placed outbox rows (as if written while no relay ran); statements to run inside
# a transaction of the caller's, or alone (each statement of one psql -c or mariadb -e is then its own)
sql_seed_orders() { # N
    case $DB in
    postgres) cat <<SQL ;;
WITH o AS (
    INSERT INTO orders (id, customer_id, currency, total, status, placed_at, version)
    SELECT gen_random_uuid(), '$CUSTOMER', 'EUR', 79.80, 'PLACED', now(), 0 FROM generate_series(1, $1)
    RETURNING id, placed_at)
INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at)
SELECT gen_random_uuid(), 'order', o.id::text, 'bookstore.order-placed.v1', '$EXCHANGE', 'order.placed',
       jsonb_build_object('orderId', o.id, 'customerId', '$CUSTOMER', 'total', '79.80', 'currency', 'EUR'), '{}', o.placed_at
  FROM o;
SQL
    # no INSERT in a WITH: the new ids go through a temporary table (which does not end the transaction)
    mariadb) cat <<SQL ;;
CREATE TEMPORARY TABLE drill_seed (id uuid NOT NULL PRIMARY KEY);
INSERT INTO drill_seed SELECT UUID() FROM seq_1_to_$1;
SET @placed_at = UTC_TIMESTAMP(6);
INSERT INTO orders (id, customer_id, currency, total, status, placed_at, version)
SELECT id, '$CUSTOMER', 'EUR', 79.80, 'PLACED', @placed_at, 0 FROM drill_seed;
INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at)
SELECT UUID(), 'order', id, 'bookstore.order-placed.v1', '$EXCHANGE', 'order.placed',
       JSON_OBJECT('orderId', id, 'customerId', '$CUSTOMER', 'total', '79.80', 'currency', 'EUR'), '{}', @placed_at
  FROM drill_seed;
DROP TEMPORARY TABLE drill_seed;
SQL
    esac
}

sql_poison_row() { # id: an outbox row whose routing key no queue is bound to
    local aggregate_id now
    case $DB in
    postgres) aggregate_id="gen_random_uuid()::text" now="now()" ;;
    mariadb) aggregate_id="UUID()" now="UTC_TIMESTAMP(6)" ;;
    esac
    echo "INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at)
          VALUES ('$1', 'order', $aggregate_id, 'bookstore.drill-poison.v1', '$EXCHANGE',
                  'drill.poison.unroutable', '{}', '{}', $now);"
}

# what wakes the relays of every instance at the commit of rows seeded by SQL: PostgreSQL's NOTIFY, as a commit
# of the service's sends. MariaDB has none: each relay finds the rows at its next poll (ordering.outbox.poll-interval,
# 1 s), one relay after the other
sql_wake_relays() {
    case $DB in
    postgres) echo "NOTIFY ordering_outbox;" ;;
    mariadb) echo "" ;;
    esac
}

# the relays' live leases: one line per owner, the owner and the latest end of its leases
sql_leases_by_owner() {
    case $DB in
    postgres) echo "SELECT claimed_by || ' ' || max(claimed_until) FROM outbox_message
                     WHERE status = 'PENDING' AND claimed_until > now() GROUP BY claimed_by" ;;
    mariadb) echo "SELECT CONCAT(claimed_by, ' ', MAX(claimed_until)) FROM outbox_message
                    WHERE status = 'PENDING' AND claimed_until > UTC_TIMESTAMP(6) GROUP BY claimed_by" ;;
    esac
}

sql_published_since() { # rows before: rows published beyond that many
    case $DB in
    postgres) echo "SELECT count(*) FILTER (WHERE status = 'PUBLISHED') - $1 FROM outbox_message" ;;
    mariadb) echo "SELECT COALESCE(SUM(status = 'PUBLISHED'), 0) - $1 FROM outbox_message" ;;
    esac
}

sql_kill_progress() { # rows before: rows published beyond that many | owners holding a live lease on a pending row
    case $DB in
    postgres) echo "SELECT count(*) FILTER (WHERE status = 'PUBLISHED') - $1,
                           count(DISTINCT claimed_by) FILTER (WHERE status = 'PENDING' AND claimed_until > now())
                      FROM outbox_message" ;;
    mariadb) echo "SELECT COALESCE(SUM(status = 'PUBLISHED'), 0) - $1,
                          COUNT(DISTINCT CASE WHEN status = 'PENDING' AND claimed_until > UTC_TIMESTAMP(6)
                                              THEN claimed_by END)
                     FROM outbox_message" ;;
    esac
}

sql_lease_end_millis() { # owner: the end of its last lease, epoch milliseconds
    case $DB in
    postgres) echo "SELECT (extract(epoch FROM max(claimed_until)) * 1000)::bigint FROM outbox_message
                     WHERE claimed_by = '$1'" ;;
    mariadb) echo "SELECT TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', MAX(claimed_until)) DIV 1000
                     FROM outbox_message WHERE claimed_by = '$1'" ;;
    esac
}

sql_recorded_after() { # epoch millis, quoted ids: seconds from then to the last published_at among those rows
    case $DB in
    postgres) echo "SELECT round(((extract(epoch FROM max(published_at)) * 1000 - $1) / 1000)::numeric, 2)
                      FROM outbox_message WHERE claimed_by IS NULL AND id IN ($2)" ;;
    mariadb) echo "SELECT ROUND((TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', MAX(published_at)) / 1000
                                - $1) / 1000, 2)
                     FROM outbox_message WHERE claimed_by IS NULL AND id IN ($2)" ;;
    esac
}

rabbit() { java -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$DRILL_DIR/DrillRabbit.java" "$1" "$RABBIT_HOST" "$RABBIT_PORT" "$QUEUE" "$EXCHANGE" "${@:2}"; }
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# sleep that a signal interrupts at once
pause() {
    sleep "$1" &
    wait $! || true
}

# ---------------------------------------------------------------------------------------------------------------
# Prerequisites: tools, servers, the jar, the helpers' class path, a throw-away token key
# ---------------------------------------------------------------------------------------------------------------
for tool in java "$DB_CLIENT" curl awk $([[ $RELAY == polling ]] || echo ss); do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done
db_admin "SELECT 1" >/dev/null || die "$DB_LABEL does not answer on $DB_HOST:$DB_PORT (user $DB_USER)"
timeout 5 bash -c "exec 3<>/dev/tcp/$RABBIT_HOST/$RABBIT_PORT" 2>/dev/null ||
    die "RabbitMQ does not answer on $RABBIT_HOST:$RABBIT_PORT"
[[ $BROKER_FAULT == proxy || $BROKER_FAULT == stop-app ]] || die "BROKER_FAULT is proxy or stop-app"

if [[ $JAR != /* ]]; then
    if [[ -f "$CALLER_DIR/$JAR" ]]; then JAR="$CALLER_DIR/$JAR"; else JAR="$REPO_ROOT/$JAR"; fi
fi
if [[ ! -f $JAR ]]; then
    [[ $JAR == "$REPO_ROOT/$DEFAULT_JAR" ]] || die "jar not found: $JAR"
    log "building $DEFAULT_JAR (./mvnw -B -q -DskipTests package)"
    ./mvnw -B -q -DskipTests package
    [[ -f $JAR ]] || die "the build did not produce $DEFAULT_JAR"
fi

# The helpers' libraries come out of the service jar (amqp-client needs Netty on the class path).
LIB="$WORK/lib"
rm -rf "$LIB"
mkdir -p "$LIB"
if command -v unzip >/dev/null; then
    unzip -j -o -q "$JAR" "BOOT-INF/lib/$DRIVER_JAR" 'BOOT-INF/lib/amqp-client-*.jar' \
        'BOOT-INF/lib/slf4j-api-*.jar' 'BOOT-INF/lib/netty-*.jar' -d "$LIB"
else
    entries=$(jar tf "$JAR" | grep -E "^BOOT-INF/lib/($DRIVER_JAR_RE|amqp-client|slf4j-api|netty-.*)-[0-9].*\\.jar\$")
    # shellcheck disable=SC2086
    (cd "$LIB" && jar xf "$JAR" $entries && mv BOOT-INF/lib/*.jar . && rm -rf BOOT-INF)
fi
CP=$(printf '%s:' "$LIB"/*.jar)
CP=${CP%:}

export AUTH_HEADER
TOKEN_AUDIENCE=ordering-service
AUTH_HEADER="Bearer $(java "$REPO_ROOT/benchmarks/api/MintToken.java" "$WORK/token-key.pem" "$CUSTOMER" \
    "orders orders.admin" "$TOKEN_AUDIENCE")"
read -r -a JAVA_OPTS_ARRAY <<<"$JAVA_OPTS"

# ---------------------------------------------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------------------------------------------
# The cdc drill's PostgreSQL: a cluster of its own with wal_level=logical, made with the installed server's binaries
# (pg_config --bindir) in a temporary directory, on CDC_DB_PORT, so that the machine's server is never
# reconfigured; stopped and deleted by drill_cleanup on every exit path. initdb refuses to run as root: as root,
# the cluster belongs to the postgres user.
scratch_pg() { # binary args...: one of the server's binaries, as the scratch cluster's owner
    local bin
    bin="$(pg_config --bindir)/$1"
    shift
    if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$bin" "$@"; else "$bin" "$@"; fi
}
start_scratch_postgres() {
    command -v pg_config >/dev/null || die "pg_config is not installed (the cdc drill makes a cluster with the server's binaries)"
    port_in_use "$CDC_DB_PORT" && die "port $CDC_DB_PORT is taken (CDC_DB_PORT)"
    SCRATCH_PG=$(mktemp -d "${TMPDIR:-/tmp}/ordering-drill-pg.XXXXXX")
    [[ $(id -u) != 0 ]] || chown postgres "$SCRATCH_PG"
    scratch_pg initdb -D "$SCRATCH_PG/data" -U postgres --auth=trust --no-sync >"$WORK/$DRILL-initdb.log" 2>&1 ||
        die "initdb failed: $(tail -n 5 "$WORK/$DRILL-initdb.log")"
    local options="-p $CDC_DB_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$SCRATCH_PG"
    options+=" -c wal_level=logical -c max_replication_slots=4 -c max_wal_senders=4"
    scratch_pg pg_ctl -D "$SCRATCH_PG/data" -l "$SCRATCH_PG/postgres.log" -w -t 60 -o "$options" start >/dev/null ||
        die "the scratch PostgreSQL did not start: $(tail -n 5 "$SCRATCH_PG/postgres.log")"
    log "scratch PostgreSQL cluster with wal_level=logical on 127.0.0.1:$CDC_DB_PORT"
}
stop_scratch_postgres() {
    [[ -n $SCRATCH_PG ]] || return 0
    scratch_pg pg_ctl -D "$SCRATCH_PG/data" -m immediate -w stop >/dev/null 2>&1 ||
        log "could not stop the scratch PostgreSQL in $SCRATCH_PG"
    cp "$SCRATCH_PG/postgres.log" "$WORK/$DRILL-postgres.log" 2>/dev/null || true
    rm -rf "$SCRATCH_PG"
    SCRATCH_PG=""
}

fresh_database() {
    drop_database >/dev/null
    db_admin "CREATE DATABASE $DB_NAME" >/dev/null
    DB_CREATED=1
}

# The CDC relay's drills (RELAY=cdc, skew-cdc): the drill's database on the scratch cluster, as its superuser (who
# may replicate); await_drain counts deliveries, not published rows, and the audit gets --cdc
use_scratch_cluster() {
    start_scratch_postgres
    DB_PORT=$CDC_DB_PORT DB_USER=postgres DRILL_RELAY=cdc
}

# The start of the drills that run with either relay (poison, kill, broker, db): the database, the audit queue and
# its consumer
begin_drill() {
    [[ $RELAY == polling ]] || use_scratch_cluster
    fresh_database
    start_consumer
}

# Instances a and b with the relay of RELAY and the args given, up; in cdc mode also the slot (await_slot)
start_pair() { # [app args...]
    local relay=()
    [[ $RELAY == polling ]] || relay=(--ordering.outbox.relay=cdc)
    start_instance a "$PORT_A" "${relay[@]}" "$@"
    start_instance b "$PORT_B" "${relay[@]}" "$@"
    await_instances a b
    await_slot
}

# cdc mode: the instance that takes the lock first makes the slot at its start, and the slot reads only what
# commits after it is ready (snapshot.mode=no_data): nothing is written before a reader streams from it
await_slot() {
    [[ $DRILL_RELAY == cdc ]] || return 0
    local started=$SECONDS
    until [[ $(db_drill "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'ordering_outbox'
                            AND active AND confirmed_flush_lsn IS NOT NULL") == 1 ]]; do
        ((SECONDS - started < 120)) || die "no instance read the slot ordering_outbox within 120 s"
        sleep 0.5
    done
    log "slot ordering_outbox ready and read by instance $(cdc_reader || echo '?') after $((SECONDS - started)) s"
}

# cdc mode: the session holding the slot's advisory lock (the reader's), "backend pid|client port", empty if none
sql_cdc_lock_session() {
    echo "SELECT a.pid || '|' || a.client_port FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE 'ordering-cdc-lock %'"
}
# cdc mode: which instance (a or b) reads the slot: the one whose connection holds the lock (its session's client
# port, and the process owning that socket)
cdc_reader() {
    local session pid name
    session=$(db_drill "$(sql_cdc_lock_session)")
    [[ $session =~ ^[0-9]+\|[0-9]+$ ]] || return 1 # none (or several)
    pid=$(ss -Htnp "sport = :${session#*|}" | sed -n 's/.*pid=\([0-9]*\),.*/\1/p' | head -n 1)
    for name in "${!INSTANCE_PID[@]}"; do
        if [[ ${INSTANCE_PID[$name]} == "$pid" ]]; then
            echo "$name"
            return 0
        fi
    done
    return 1
}

start_consumer() { # the audit queue, bound with order.#, and its consumer writing $AUDIT
    rabbit declare >/dev/null || die "could not declare the audit queue"
    QUEUE_DECLARED=1
    AUDIT="$WORK/$DRILL-audit.txt"
    : >"$AUDIT"
    java -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$DRILL_DIR/DrillRabbit.java" consume "$RABBIT_HOST" \
        "$RABBIT_PORT" "$QUEUE" "$EXCHANGE" "$AUDIT" >"$WORK/$DRILL-consumer.log" 2>&1 &
    CONSUMER_PID=$!
    for _ in $(seq 1 120); do
        grep -q consuming "$WORK/$DRILL-consumer.log" && return 0
        kill -0 "$CONSUMER_PID" 2>/dev/null || die "the audit consumer exited: $(cat "$WORK/$DRILL-consumer.log")"
        sleep 0.5
    done
    die "the audit consumer did not start"
}

# name port [--prefix command... --] [app args...]: one instance of the jar, profile $DB_PROFILE, database $DB_NAME
start_instance() {
    local name=$1 port=$2
    shift 2
    local prefix=()
    if [[ ${1:-} == --prefix ]]; then
        shift
        while [[ $1 != -- ]]; do
            prefix+=("$1")
            shift
        done
        shift
    fi
    port_in_use "$port" && die "port $port is taken (PORT_A / PORT_B)"
    local args=("--spring.profiles.active=$DB_PROFILE"
        "--spring.datasource.url=$(jdbc_url)"
        "--spring.datasource.username=$DB_USER"
        "--spring.rabbitmq.host=$RABBIT_HOST"
        "--spring.rabbitmq.port=${INSTANCE_RABBIT_PORT:-$RABBIT_PORT}"
        "--server.port=$port"
        "--spring.security.oauth2.resourceserver.jwt.public-key-location=file:$WORK/token-key.pem"
        "--spring.security.oauth2.resourceserver.jwt.audiences=$TOKEN_AUDIENCE"
        "--ordering.outbox.exchange=$EXCHANGE"
        "--ordering.outbox.lease=$LEASE"
        "--ordering.outbox.confirm-timeout=2s"
        "$@")
    local logfile="$WORK/$DRILL-$name.log"
    local jar=${INSTANCE_JAR:-$JAR}
    log "starting instance $name on port $port: ${prefix[*]} java ${JAVA_OPTS_ARRAY[*]} -jar $(basename "$jar") ${args[*]:7}"
    local jfr=()
    [[ -z ${INSTANCE_JFR:-} ]] || jfr=("-XX:StartFlightRecording=filename=$INSTANCE_JFR,settings=profile")
    "${prefix[@]}" java "${JAVA_OPTS_ARRAY[@]}" "${jfr[@]}" -jar "$jar" "${args[@]}" >"$logfile" 2>&1 &
    INSTANCE_PID[$name]=$!
}

await_instances() { # waits until every started instance answers on its liveness probe
    local name port started=$SECONDS
    for name in "$@"; do
        port=${INSTANCE_PORT[$name]}
        until [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/actuator/health/liveness" || true) == 200 ]]; do
            kill -0 "${INSTANCE_PID[$name]}" 2>/dev/null || {
                tail -n 30 "$WORK/$DRILL-$name.log"
                die "instance $name exited during start"
            }
            ((SECONDS - started < START_TIMEOUT)) || die "instance $name was not up within $START_TIMEOUT s"
            sleep 1
        done
    done
    log "instances $* up in $((SECONDS - started)) s"
}
declare -A INSTANCE_PORT=([a]=$PORT_A [b]=$PORT_B [c]=$PORT_A [a2]=$PORT_A [b2]=$PORT_B)

pending_rows() { db_drill "SELECT count(*) FROM outbox_message WHERE status = 'PENDING'"; }

# distinct message ids the audit consumer has seen
delivered_ids() { cut -d' ' -f2 "$AUDIT" | sort -u | wc -l; }

# until no row is pending and the consumer has seen every published order message (120 s at most); with the CDC
# relay (DRILL_RELAY=cdc), which marks no row published, until it has seen every order message (distinct ids: the
# CDC relay's duplicates must not stand in for a message still missing)
DRILL_RELAY=polling
await_drain() {
    local started=$SECONDS published
    while true; do
        if [[ $DRILL_RELAY == cdc ]]; then
            published=$(db_drill "SELECT count(*) FROM outbox_message WHERE routing_key LIKE 'order.%'")
            (($(delivered_ids) >= published)) && break
        elif [[ $(pending_rows) == 0 ]]; then
            published=$(db_drill "SELECT count(*) FROM outbox_message WHERE status = 'PUBLISHED' AND routing_key LIKE 'order.%'")
            (($(wc -l <"$AUDIT") >= published)) && break
        fi
        ((SECONDS - started < 120)) || {
            if [[ $DRILL_RELAY == cdc ]]; then
                log "WARNING: not drained within 120 s ($(delivered_ids) of $published order messages delivered)"
            else
                log "WARNING: not drained within 120 s ($(pending_rows) rows pending)"
            fi
            break
        }
        sleep 0.2
    done
    pause 2 # late duplicates, if any, still count
}

# The load drills (broker, db) first run WARMUP_RATE orders/s for WARMUP_SECONDS against the two fresh instances
# and wait until it is drained: the fault is to meet instances whose code the JIT has compiled, as it would in
# production, not two JVMs still compiling on a 2-core machine (there the first seconds of load alone exhausted
# the pools, and at 50 orders/s per instance C2 was still compiling the request path 90 s after the start).
# The warm-up's requests are audited with the rest.
warm_up() {
    : >"$WORK/$DRILL-warmup-requests.txt"
    ((WARMUP_SECONDS > 0)) || return 0
    log "warm-up: $WARMUP_RATE orders/s for $WARMUP_SECONDS s, then until drained"
    java "$DRILL_DIR/DrillLoad.java" --urls "http://127.0.0.1:$PORT_A,http://127.0.0.1:$PORT_B" --rate "$WARMUP_RATE" \
        --seconds "$WARMUP_SECONDS" --out "$WORK/$DRILL-warmup-requests.txt" >"$WORK/$DRILL-warmup-load.log" 2>&1 ||
        die "the warm-up load failed: $(tail -n 5 "$WORK/$DRILL-warmup-load.log")"
    grep '^LOAD' "$WORK/$DRILL-warmup-load.log" | sed 's/^/warm-up /' || true
    await_drain
}

# Starts the drill's load in the background (LOAD_PID): RATE orders/s for LOAD_SECONDS, requests to the file
# given. Returns once the load has committed its first order: the generator is a JVM that compiles its source
# first (seconds on a busy machine), and a fault scheduled from its launch met instances with no load at all.
start_load() { # the generator's requests file
    local orders_before started=$SECONDS
    orders_before=$(db_drill "SELECT count(*) FROM orders")
    java "$DRILL_DIR/DrillLoad.java" --urls "http://127.0.0.1:$PORT_A,http://127.0.0.1:$PORT_B" --rate "$RATE" \
        --seconds "$LOAD_SECONDS" --out "$1" >"$WORK/$DRILL-load.log" 2>&1 &
    LOAD_PID=$!
    until (($(db_drill "SELECT count(*) FROM orders") > orders_before)); do
        kill -0 "$LOAD_PID" 2>/dev/null || die "the load generator exited: $(tail -n 5 "$WORK/$DRILL-load.log")"
        ((SECONDS - started < 120)) || die "the load generator committed no order within 120 s"
        sleep 0.1
    done
    log "load running"
}

audit_load() { # the generator's requests file, the fault's end: audits the warm-up's requests and the load's
    cat "$WORK/$DRILL-warmup-requests.txt" "$1" >"$WORK/$DRILL-all-requests.txt"
    audit --requests "$WORK/$DRILL-all-requests.txt" --fault-end "$2"
}

leases_by_owner() { db_drill "$(sql_leases_by_owner)"; }

# seeds N orders and their order.placed outbox rows in one transaction
seed_orders() { # N
    db_drill "BEGIN; $(sql_seed_orders "$1") $(sql_wake_relays) COMMIT;" >/dev/null
}

audit() { # extra DrillAudit args; appends the RESULT line (with the CDC relay: --cdc, and the drill named "(cdc)")
    stop_pid "$CONSUMER_PID"
    CONSUMER_PID=""
    local out status=0 label=$DRILL cdc=()
    if [[ $DRILL_RELAY == cdc ]]; then
        cdc=(--cdc)
        [[ $DRILL == *-cdc ]] || label="$DRILL (cdc)"
    fi
    out=$(java -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$DRILL_DIR/DrillAudit.java" --drill "$label" \
        --jdbc "$(jdbc_url)" --user "$DB_USER" --messages "$AUDIT" "${cdc[@]}" "$@") || status=$?
    grep -v '^RESULT ' <<<"$out"
    # without sed: the note may hold any character (100/s)
    local line
    while IFS= read -r line; do
        printf 'RESULT extra=%s | %s\n' "${DRILL_NOTE// /_}" "${line#RESULT }"
    done < <(grep '^RESULT ' <<<"$out") >>"$RESULTS"
    return "$status"
}

# ---------------------------------------------------------------------------------------------------------------
# The drills
# ---------------------------------------------------------------------------------------------------------------
drill_poison() {
    log "== poison: one unroutable message among $POISON_GOOD_ROWS good ones (relay $RELAY)"
    begin_drill
    start_pair --ordering.outbox.max-attempts=3 --ordering.outbox.backoff-initial=200ms --ordering.outbox.backoff-max=1s \
        --ordering.outbox.cdc.max-attempts=3 --ordering.outbox.cdc.backoff-initial=200ms --ordering.outbox.cdc.backoff-max=1s
    local half=$((POISON_GOOD_ROWS / 2)) poison
    poison=$(db_drill "$(sql_new_uuid)")
    # one transaction: half the good rows, the poison, the other half; consecutive positions, so the poison
    # shares its batch with good rows
    db_drill "BEGIN;
        $(sql_seed_orders "$half")
        $(sql_poison_row "$poison")
        $(sql_seed_orders "$((POISON_GOOD_ROWS - half))")
        COMMIT;" >/dev/null
    log "seeded $POISON_GOOD_ROWS good rows and poison $poison (routing key drill.poison.unroutable: no queue bound, mandatory -> returned)"
    local t0
    t0=$(now_ms)
    await_drain
    # the CDC relay leaves the good rows pending: the poison's own row says when it is parked
    local started=$SECONDS
    until [[ $DRILL_RELAY != cdc || $(db_drill "SELECT status FROM outbox_message WHERE id = '$poison'") == PARKED ]]; do
        ((SECONDS - started < 60)) || break # the audit reports it
        sleep 0.2
    done
    log "drained (poison parked) $(awk -v a="$t0" -v b="$(now_ms)" 'BEGIN { printf "%.1f", (b - a - 2000) / 1000 }') s after the seed"
    DRILL_NOTE="max-attempts=3"
    audit --poison "$poison"
}

# The start of both kill drills: the instances, then the relays' code compiled by the JIT before the measured
# drain, as the load drills warm up with load: KILL_ROWS rows drained (their orders are audited with the rest)
kill_drill_start() {
    begin_drill
    start_pair
    if ((WARMUP_SECONDS > 0)); then
        log "warm-up: $KILL_ROWS rows drained"
        seed_orders "$KILL_ROWS"
        await_drain
    fi
}

drill_kill() {
    if [[ $RELAY == cdc ]]; then
        drill_kill_cdc
        return
    fi
    log "== kill: SIGKILL of one instance in the middle of draining $KILL_ROWS rows (lease $LEASE)"
    kill_drill_start
    local warm
    warm=$(db_drill "SELECT count(*) FROM outbox_message")
    # On PostgreSQL the seed ends with NOTIFY (delivered at the commit), which wakes both relays at once, as a commit
    # of the service's does; without it each found the rows at its next poll (10 s while NOTIFY works), one after
    # the other, and the first had drained most of them alone. MariaDB has no NOTIFY: both relays poll every
    # second (ordering.outbox.poll-interval), so the second joins within a second of the first.
    seed_orders "$KILL_ROWS"
    log "seeded $KILL_ROWS pending rows$([[ $DB == mariadb ]] && echo ' (no NOTIFY on MariaDB: the relays find them at their 1 s poll)');" \
        "waiting until both relays hold leases, then killing instance a"
    local state published leasers before after killed_owner lease_end started=$SECONDS
    while true; do
        state=$(db_drill "$(sql_kill_progress "$warm")")
        published=${state%|*}
        leasers=${state#*|}
        if ((published >= KILL_ROWS / 10 && leasers >= 2)); then
            break
        fi
        ((published < KILL_ROWS * 9 / 10)) || die "the relays drained before the kill could happen (published $published)"
        ((SECONDS - started < 120)) || die "no moment with both relays holding leases within 120 s"
        sleep 0.02
    done
    # Freeze instance a (SIGSTOP) and look whose leases stand still: if one owner's do, instance a holds a lease
    # and gets SIGKILL while frozen; if none does, it was between two batches: it goes on (SIGCONT) and the drill
    # tries again. A kill at a random moment lands between two batches often enough (the claim of the next batch
    # rolls back with the connection) that the drill measured the survivor's throughput instead of the takeover.
    local attempt
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        kill -STOP "${INSTANCE_PID[a]}"
        pause 0.3
        before=$(leases_by_owner)
        pause 0.5
        after=$(leases_by_owner)
        killed_owner=$(comm -12 <(sort <<<"$before") <(sort <<<"$after") | head -n 1 | cut -d' ' -f1)
        [[ -z $killed_owner ]] || break
        kill -CONT "${INSTANCE_PID[a]}"
        pause "0.0$((RANDOM % 9 + 1))"
    done
    published=$(db_drill "$(sql_published_since "$warm")")
    kill -KILL "${INSTANCE_PID[a]}"
    local kill_ms
    kill_ms=$(now_ms)
    wait "${INSTANCE_PID[a]}" 2>/dev/null || true
    unset 'INSTANCE_PID[a]'
    log "killed instance a (SIGKILL, frozen $attempt time(s) to find it holding a lease)" \
        "with $published of $KILL_ROWS rows published"
    local orphans=0 orphan_ids="$WORK/$DRILL-orphans.txt" takeover=n/a recorded=n/a
    : >"$orphan_ids"
    if [[ -n $killed_owner ]]; then
        lease_end=$(db_drill "$(sql_lease_end_millis "$killed_owner")")
        db_drill "SELECT id FROM outbox_message WHERE claimed_by = '$killed_owner' AND status = 'PENDING'" \
            >"$orphan_ids"
        orphans=$(wc -l <"$orphan_ids")
        log "the killed relay ($killed_owner) left $orphans rows leased until $((lease_end - kill_ms)) ms after the kill"
    else
        lease_end=$kill_ms
        log "the killed relay held no lease that outlived the kill; the drain counts from the kill"
    fi
    await_drain
    # The takeover itself: when the last of the rows the killed relay held was delivered, after its lease ended.
    # The drain figure also waits for the survivor to publish the rest, which on a slow machine can outlast it.
    if [[ -s $orphan_ids ]]; then
        takeover=$(awk -v end="$lease_end" 'NR == FNR { orphan[$1] = 1; next }
                                             ($2 in orphan) && $1 > last { last = $1 }
                                             END { printf "%.2f", (last - end) / 1000 }' "$orphan_ids" "$AUDIT")
        recorded=$(db_drill "$(sql_recorded_after "$lease_end" "$(sed "s/.*/'&'/" "$orphan_ids" | paste -sd,)")")
        log "the $orphans rows the killed relay held were all delivered $takeover s after its lease ended (takeover;" \
            "recorded published $recorded s after it)"
    fi
    DRILL_NOTE="lease=$LEASE,orphans=$orphans,takeover=${takeover}s,recorded=${recorded:-n/a}s"
    audit --fault-end "$lease_end"
}

# The kill drill with the CDC relay: no leases, one reader. The instance that holds the slot's lock is killed
# (SIGKILL) once a tenth of the seeded rows is delivered; the server ends its sessions, releasing the lock, and the
# standby takes it at its next try (leader-poll-interval, 1 s), starts its engine and resumes from the last
# committed offset (what the dead reader sent after that commit comes again: the duplicates). Measured from the
# kill: the lock taken, the slot streamed again, the first delivery after the lock was taken (the standby's: the
# dead reader's last messages reach the consumer within milliseconds), and the drain of every seeded row.
# docs/cdc.md bounds the takeover by leader-poll-interval + the engine's start, for which CdcRelayIT allows 15 s:
# the first delivery must come within CDC_TAKEOVER_BOUND (16 s) of the kill.
drill_kill_cdc() {
    log "== kill (cdc): SIGKILL of the instance reading the slot in the middle of draining $KILL_ROWS rows"
    kill_drill_start
    local warm reader session started=$SECONDS
    warm=$(wc -l <"$AUDIT")
    seed_orders "$KILL_ROWS"
    reader=$(cdc_reader) || die "no instance of the drill holds the CDC lock"
    session=$(db_drill "$(sql_cdc_lock_session)")
    local old_lock=${session%|*} old_sender
    old_sender=$(db_drill "SELECT active_pid FROM pg_replication_slots WHERE slot_name = 'ordering_outbox'")
    log "seeded $KILL_ROWS rows; instance $reader reads the slot; killing it once a tenth is delivered"
    until (($(wc -l <"$AUDIT") - warm >= KILL_ROWS / 10)); do
        ((SECONDS - started < 120)) || die "not a tenth of the rows delivered within 120 s"
        sleep 0.02
    done
    local delivered kill_ms
    kill -KILL "${INSTANCE_PID[$reader]}"
    kill_ms=$(now_ms)
    delivered=$(($(wc -l <"$AUDIT") - warm))
    wait "${INSTANCE_PID[$reader]}" 2>/dev/null || true
    unset "INSTANCE_PID[$reader]"
    ((delivered < KILL_ROWS * 9 / 10)) || die "the reader drained before the kill could happen ($delivered delivered)"
    log "killed instance $reader (SIGKILL) with $delivered of $KILL_ROWS rows delivered"
    # until another session holds the lock and another WAL sender streams the slot
    local state lock_ms="" stream_ms="" now
    started=$SECONDS
    while [[ -z $stream_ms ]]; do
        state=$(db_drill "SELECT ($(sql_cdc_lock_session)), (SELECT active_pid FROM pg_replication_slots
                                                               WHERE slot_name = 'ordering_outbox')")
        now=$(now_ms)
        if [[ -z $lock_ms && $state =~ ^([0-9]+)\| && ${BASH_REMATCH[1]} != "$old_lock" ]]; then
            lock_ms=$now
        fi
        if [[ -n $lock_ms && $state =~ \|([0-9]+)$ && ${BASH_REMATCH[1]} != "$old_sender" ]]; then
            stream_ms=$now
        fi
        ((SECONDS - started < 120)) || die "the standby did not stream the slot within 120 s of the kill"
        sleep 0.05
    done
    await_drain
    local lock_s stream_s first_s bound=$CDC_TAKEOVER_BOUND
    lock_s=$(awk -v a="$kill_ms" -v b="$lock_ms" 'BEGIN { printf "%.2f", (b - a) / 1000 }')
    stream_s=$(awk -v a="$kill_ms" -v b="$stream_ms" 'BEGIN { printf "%.2f", (b - a) / 1000 }')
    first_s=$(awk -v kill="$kill_ms" -v lock="$lock_ms" '$1 >= lock { printf "%.2f", ($1 - kill) / 1000; exit }' "$AUDIT")
    log "after the kill: the standby took the lock in $lock_s s, streamed the slot in $stream_s s and delivered" \
        "its first message in ${first_s:-(none)} s (bound: $bound s);" \
        "$(awk -v a="$kill_ms" -v b="$lock_ms" '$1 >= a && $1 < b { n++ } END { print n + 0 }' "$AUDIT")" \
        "deliveries reached the consumer between the kill and the lock's takeover"
    DRILL_NOTE="killed at $delivered of $KILL_ROWS delivered; lock ${lock_s}s, stream ${stream_s}s, first delivery ${first_s:-none}s after the kill (bound ${bound}s)"
    local status=0
    audit --fault-end "$kill_ms" || status=$?
    if [[ -z $first_s ]] || awk -v t="$first_s" -v b="$bound" 'BEGIN { exit !(t > b) }'; then
        log "the standby's first delivery came later than the bound of $bound s"
        return 1
    fi
    return "$status"
}

# The slot drill (RELAY=cdc only): the replication slot is lost under load, as a failover without failover slots, a
# max_slot_wal_keep_size or an operator's drop would lose it, with rows committed after its last confirmed position.
# The reader's WAL sender is ended and the slot dropped (again until it is gone: the reader starts its engine again
# after restart-backoff-initial, 1 s). The recovery is the documented one (docs/cdc.md, "Recovering from a lost
# slot"): with ordering.outbox.cdc.recover-lost-slot at its default, the reader finds the slot lost at its next start,
# makes it again and sends every row stored since the newest mark the old slot confirmed. Lost must be 0; the
# duplicates are reported, beside what the recovery sent again (outbox_cdc_recovery).
drill_slot() {
    [[ $RELAY == cdc ]] || die "slot is the CDC relay's drill: run it with RELAY=cdc"
    log "== slot (cdc): the replication slot dropped under $RATE orders/s; the reader recovers it"
    begin_drill
    start_pair
    warm_up
    local requests="$WORK/$DRILL-requests.txt" fault_end tries=0 started
    start_load "$requests"
    pause 10
    started=$SECONDS
    until [[ $(db_drill "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'ordering_outbox'") == 0 ]]; do
        ((SECONDS - started < 30)) || die "the slot could not be dropped within 30 s"
        tries=$((tries + 1))
        db_drill "DO \$\$ BEGIN
                    PERFORM pg_terminate_backend(active_pid) FROM pg_replication_slots
                      WHERE slot_name = 'ordering_outbox' AND active_pid IS NOT NULL;
                    PERFORM pg_sleep(0.1);
                    PERFORM pg_drop_replication_slot('ordering_outbox');
                  EXCEPTION WHEN OTHERS THEN NULL; -- still active: end its WAL sender again
                  END \$\$" >/dev/null
    done
    fault_end=$(now_ms)
    log "slot ordering_outbox dropped under load ($tries attempt(s)); $(db_drill "SELECT count(*) FROM outbox_message") rows stored so far"
    wait "$LOAD_PID" || die "the load generator failed: $(tail -n 5 "$WORK/$DRILL-load.log")"
    LOAD_PID=""
    grep '^LOAD' "$WORK/$DRILL-load.log" || true
    await_drain
    local recovery
    recovery=$(db_drill "SELECT resent || '|' || round(extract(epoch FROM finished_at - started_at)::numeric, 2) || '|'
                                || round(extract(epoch FROM started_at - resend_from)::numeric, 2)
                           FROM outbox_cdc_recovery WHERE slot_name = 'ordering_outbox' AND finished_at IS NOT NULL")
    [[ -n $recovery ]] || log "no finished recovery recorded in outbox_cdc_recovery"
    IFS='|' read -r resent took since <<<"$recovery"
    log "recovery: ${resent:-?} rows sent again (stored in the ${since:-?} s before the recovery began), in ${took:-?} s"
    DRILL_NOTE="resent=${resent:-none},from=${since:-?}s_before,recovery=${took:-?}s"
    audit_load "$requests" "$fault_end"
}

drill_broker() {
    log "== broker: RabbitMQ unreachable for ${BROKER_OUTAGE_SECONDS} s under $RATE orders/s ($BROKER_FAULT, relay $RELAY)"
    begin_drill
    local instance_rabbit_port=$RABBIT_PORT
    if [[ $BROKER_FAULT == proxy ]]; then
        port_in_use "$PROXY_PORT" && die "port $PROXY_PORT is taken (PROXY_PORT)"
        java -cp "$CP" "$DRILL_DIR/DrillRabbit.java" proxy "$PROXY_PORT" "$RABBIT_HOST" "$RABBIT_PORT" \
            "$PROXY_CONTROL_PORT" >"$WORK/$DRILL-proxy.log" 2>&1 &
        PROXY_PID=$!
        until grep -q listening "$WORK/$DRILL-proxy.log"; do
            kill -0 "$PROXY_PID" 2>/dev/null || die "the broker proxy exited: $(head -n 5 "$WORK/$DRILL-proxy.log")"
            sleep 0.5
        done
        instance_rabbit_port=$PROXY_PORT
    fi
    INSTANCE_RABBIT_PORT=$instance_rabbit_port start_pair
    warm_up
    local requests="$WORK/$DRILL-requests.txt" fault_end
    start_load "$requests"
    pause 8
    log "broker down"
    broker_down
    pause "$BROKER_OUTAGE_SECONDS"
    broker_up
    fault_end=$(now_ms)
    log "broker back; load continues"
    wait "$LOAD_PID" || die "the load generator failed: $(tail -n 5 "$WORK/$DRILL-load.log")"
    LOAD_PID=""
    grep '^LOAD' "$WORK/$DRILL-load.log" || true
    await_drain
    DRILL_NOTE="$BROKER_FAULT"
    audit_load "$requests" "$fault_end"
}

broker_control() { # cut|open through the proxy's control port
    local reply
    exec {ctl}<>"/dev/tcp/127.0.0.1/$PROXY_CONTROL_PORT"
    echo "$1" >&"$ctl"
    read -r reply <&"$ctl"
    exec {ctl}>&-
    [[ $reply == ok* ]] || die "the proxy did not answer $1: $reply"
}
broker_down() {
    if [[ $BROKER_FAULT == proxy ]]; then
        broker_control cut
    else
        BROKER_APP_STOPPED=1 # before the command: an interrupt during it still restores the broker
        rabbitmqctl stop_app >/dev/null
    fi
}
broker_up() {
    if [[ $BROKER_FAULT == proxy ]]; then
        broker_control open
    else
        restore_broker
    fi
}

drill_db() {
    log "== db: every database connection of the instances terminated under $RATE orders/s ($DB_LABEL, relay $RELAY)"
    begin_drill
    start_pair
    warm_up
    local requests="$WORK/$DRILL-requests.txt" fault_end terminated
    start_load "$requests"
    pause 10
    terminated=$(kill_sessions)
    fault_end=$(now_ms)
    log "terminated $terminated connections of $DB_NAME"
    wait "$LOAD_PID" || die "the load generator failed: $(tail -n 5 "$WORK/$DRILL-load.log")"
    LOAD_PID=""
    grep '^LOAD' "$WORK/$DRILL-load.log" || true
    await_drain
    DRILL_NOTE="terminated=$terminated"
    audit_load "$requests" "$fault_end"
}

# The writers of both skew drills, relays off: instance b's wall clock SKEW behind (libfaketime), SKEW_ORDERS orders
# each placed on a and cancelled at once on b; then both stop. A command given runs once both are up (the schema
# is then migrated), before the first order. Sets SKEW_REQUESTS and SKEW_STAMPED_EARLIER.
skew_writers() { # [command...]
    find_libfaketime() { compgen -G '/usr/lib/*/faketime/libfaketime.so.1' | head -n 1 || true; }
    local lib=${FAKETIME_LIB:-$(find_libfaketime)}
    if [[ -z $lib ]]; then
        log "installing faketime (apt-get)"
        local sudo=""
        [[ $(id -u) == 0 ]] || sudo=sudo
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime >/dev/null ||
            die "faketime could not be installed"
        lib=$(find_libfaketime)
        [[ -n $lib ]] || die "libfaketime.so.1 not found after installing faketime (set FAKETIME_LIB)"
    fi
    start_instance a "$PORT_A" --ordering.outbox.relay=none
    # libfaketime shifts the wall clock only: the JVM's monotonic clock (timeouts, schedulers) stays real. Preloaded
    # by env, which execs java (the faketime wrapper would fork it, and the drill could not stop it by its pid).
    start_instance b "$PORT_B" --prefix env "LD_PRELOAD=$lib" "FAKETIME=$SKEW" FAKETIME_DONT_FAKE_MONOTONIC=1 -- \
        --ordering.outbox.relay=none
    await_instances a b
    (($# == 0)) || "$@"
    SKEW_REQUESTS="$WORK/$DRILL-requests.txt"
    java "$DRILL_DIR/DrillLoad.java" --urls "http://127.0.0.1:$PORT_A,http://127.0.0.1:$PORT_B" --cancel \
        --count "$SKEW_ORDERS" --out "$SKEW_REQUESTS" >"$WORK/$DRILL-load.log" 2>&1 || die "the load generator failed"
    grep '^LOAD' "$WORK/$DRILL-load.log" || true
    # the skew is real: the writers' own timestamps put the cancel before the placement
    SKEW_STAMPED_EARLIER=$(db_drill "SELECT count(*) FROM outbox_message c JOIN outbox_message p
                                         ON p.aggregate_id = c.aggregate_id AND p.routing_key = 'order.placed'
                                       WHERE c.routing_key = 'order.cancelled' AND c.occurred_at < p.occurred_at")
    log "$SKEW_STAMPED_EARLIER of $SKEW_ORDERS cancellations carry a writer's timestamp (occurred_at) before their placement's"
    stop_pid "${INSTANCE_PID[a]}"
    stop_pid "${INSTANCE_PID[b]}"
    INSTANCE_PID=()
}

skew_drain() { # relay instance c's args -- audit args: c drains the writers' backlog alone; then the audit
    local relay=()
    while [[ $1 != -- ]]; do
        relay+=("$1")
        shift
    done
    shift
    start_instance c "$PORT_A" "${relay[@]}"
    await_instances c
    await_drain
    # the relay starts draining before its instance answers on the probe: the drain counts from its first delivery
    local fault_end
    fault_end=$(head -n 1 "$AUDIT" | cut -d' ' -f1)
    [[ -n $fault_end ]] || fault_end=$(now_ms) # nothing delivered: the audit counts them lost
    DRILL_NOTE="occurred_at_inverted=$SKEW_STAMPED_EARLIER"
    audit --requests "$SKEW_REQUESTS" --fault-end "$fault_end" "$@"
}

drill_skew() {
    log "== skew: two writers whose clocks differ by $SKEW, relays off; then one relay in ordered mode"
    fresh_database
    start_consumer
    skew_writers
    skew_drain --ordering.outbox.ordered=true -- --ordered
}

# The same writers, then one relay in cdc mode, not in ordered mode: it sends in the order of the commits in the
# write-ahead log. PostgreSQL only, on a scratch cluster (start_scratch_postgres), as its superuser (which may
# replicate). The slot is made before the first order, as the first cdc start would make it: the relay reads only
# what commits after that (snapshot.mode=no_data). Not before the schema: pgoutput reads the publication (Flyway
# V8) as of each change it decodes, and fails on the changes from before it existed.
make_slot() { db_drill "SELECT pg_create_logical_replication_slot('ordering_outbox', 'pgoutput')" >/dev/null; }
drill_skew-cdc() {
    [[ $DB == postgres ]] || die "skew-cdc reads PostgreSQL's write-ahead log: DB=postgres only"
    log "== skew-cdc: two writers whose clocks differ by $SKEW, relays off; then one relay in cdc mode, not ordered"
    use_scratch_cluster
    fresh_database
    start_consumer
    skew_writers make_slot
    skew_drain --ordering.outbox.relay=cdc --
}

# The rolling drill: two instances behind HAProxy (deploy/haproxy/haproxy.cfg, started with ports of its own, never
# as the system's service), an open loop of RATE orders/s through the balancer from a generator that warmed up
# through it first, and meanwhile each instance in turn stopped (SIGTERM), replaced on its port, and waited for
# until the balancer has it UP at full weight. ROLLING=same replaces each with the same jar; ROLLING=upgrade starts
# both on the jar of OLD_REF (built from a git worktree into perf/drills/target) and replaces them with JAR.
ensure_haproxy() {
    command -v haproxy >/dev/null && return 0
    log "installing haproxy (apt-get)"
    local sudo=""
    [[ $(id -u) == 0 ]] || sudo=sudo
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
    command -v haproxy >/dev/null || die "haproxy could not be installed"
}

# OLD_JAR: the jar of OLD_REF unless given, built once from a git worktree of that commit, kept in perf/drills/target
build_old_jar() {
    [[ -z ${OLD_JAR:-} ]] || return 0
    local ref jar src
    ref=$(git rev-parse --short "$OLD_REF")
    jar="$WORK/ordering-service-$ref.jar"
    if [[ ! -f $jar ]]; then
        src="$WORK/old-src-$ref"
        rm -rf "$src"
        git worktree prune
        log "building the jar of $ref in a git worktree ($src: ./mvnw -B -q -o -DskipTests package)"
        git worktree add -q --detach "$src" "$ref"
        (cd "$src" && ./mvnw -B -q -o -DskipTests package >"$WORK/old-build-$ref.log" 2>&1) ||
            die "the build of $ref failed: $(tail -n 5 "$WORK/old-build-$ref.log")"
        cp "$src/bootstrap/target/ordering-service.jar" "$jar"
        git worktree remove --force "$src"
    fi
    OLD_JAR=$jar
}

# "status weight" of server a or b, as the balancer sees it (its CSV status page)
lb_server() { curl -s --max-time 2 "http://127.0.0.1:$LB_STATS_PORT/stats;csv" | awk -F, -v s="$1" '$1 == "ordering" && $2 == s { print $18, $19 }'; }

# waits until the balancer has server $1 UP at full weight; prints the seconds it waited for UP and for full weight
await_full_weight() {
    local started=$SECONDS up="" state
    while true; do
        state=$(lb_server "$1")
        if [[ -z $up && $state == UP* ]]; then
            up=$((SECONDS - started))
            event "$1 up (readiness UP, slow start begins)"
        fi
        [[ $state == "UP 100" ]] && break
        kill -0 "${INSTANCE_PID[$2]}" 2>/dev/null || die "instance $2 exited: $(tail -n 20 "$WORK/$DRILL-$2.log")"
        ((SECONDS - started < START_TIMEOUT)) || die "the balancer did not have $1 at full weight within $START_TIMEOUT s ($state)"
        sleep 0.2
    done
    event "$1 full weight"
}

event() { # label: one line in the drill's event file
    echo "$(now_ms) $*" >>"$EVENTS"
    log "event: $*"
}

start_balancer() {
    ensure_haproxy
    port_in_use "$LB_PORT" && die "port $LB_PORT is taken (LB_PORT)"
    local config="$WORK/$DRILL-haproxy.cfg"
    # the shipped configuration; the slow start period from SLOWSTART if given, every server weighted 100 so that
    # its ramp shows in the status page
    sed -e "s/slowstart [0-9]*s/slowstart ${SLOWSTART:-30s}/" -e 's/^\(    default-server .*\)$/\1 weight 100/' \
        "$REPO_ROOT/deploy/haproxy/haproxy.cfg" >"$config"
    ORDERING_LB_BIND=127.0.0.1:$LB_PORT ORDERING_LB_STATS=127.0.0.1:$LB_STATS_PORT \
        ORDERING_INSTANCE_A=127.0.0.1:$PORT_A ORDERING_INSTANCE_B=127.0.0.1:$PORT_B \
        haproxy -W -db -f "$config" >"$WORK/$DRILL-haproxy.log" 2>&1 &
    LB_PID=$!
    for _ in $(seq 1 50); do
        [[ -n $(lb_server a) ]] && return 0
        kill -0 "$LB_PID" 2>/dev/null || die "haproxy exited: $(tail -n 5 "$WORK/$DRILL-haproxy.log")"
        sleep 0.2
    done
    die "haproxy did not answer on its status page (port $LB_STATS_PORT)"
}

# one instance replaced: SIGTERM, its exit awaited, the replacement started on the same port and awaited at full weight
replace_instance() { # name
    local name=$1 pid=${INSTANCE_PID[$1]}
    event "stop $name"
    kill -TERM "$pid"
    local started=$SECONDS
    while kill -0 "$pid" 2>/dev/null; do
        ((SECONDS - started < 120)) || die "instance $name did not exit within 120 s of SIGTERM"
        sleep 0.1
    done
    wait "$pid" 2>/dev/null || true
    unset "INSTANCE_PID[$name]"
    event "$name exited after $((SECONDS - started)) s"
    # an instance that died instead of draining is still UP in the balancer until its checks fail: awaiting "UP 100"
    # for the replacement before that would take the dead one's state for the replacement's
    while [[ $(lb_server "$name") == UP* ]]; do
        ((SECONDS - started < 60)) || die "the balancer still had $name UP 60 s after its SIGTERM"
        sleep 0.2
    done
    local jfr=""
    ((ROLLING_JFR == 0)) || jfr="$WORK/$DRILL-${name}2.jfr"
    INSTANCE_JFR=$jfr INSTANCE_JAR=$NEW_JAR start_instance "${name}2" "${INSTANCE_PORT[$name]}" "${ROLLING_RELAY[@]}"
    await_full_weight "$name" "${name}2"
}

drill_rolling() {
    [[ $DB == postgres ]] || die "rolling runs on PostgreSQL"
    ROLLING_RELAY=()
    [[ $RELAY == polling ]] || ROLLING_RELAY=(--ordering.outbox.relay=cdc)
    local old_jar=$JAR
    NEW_JAR=$JAR
    case $ROLLING in
    same) ;;
    upgrade)
        build_old_jar
        old_jar=$OLD_JAR
        ;;
    *) die "ROLLING is same or upgrade, not $ROLLING" ;;
    esac
    log "== rolling ($ROLLING): two instances behind HAProxy, $RATE orders/s through it while each is stopped and replaced"
    if [[ $ROLLING == upgrade ]]; then
        local migrations
        migrations=$(git diff --name-only "$OLD_REF" HEAD -- '*/db/migration/*' | wc -l)
        if ((migrations == 0)); then
            log "no migration lies between $OLD_REF and HEAD: the upgrade's expand step is empty"
        else
            log "$migrations migration file(s) between $OLD_REF and HEAD: the first new instance applies them (expand)"
        fi
        log "from $(basename "$old_jar") to $(basename "$NEW_JAR")"
    fi
    EVENTS="$WORK/$DRILL-events.txt"
    : >"$EVENTS"
    begin_drill
    INSTANCE_JAR=$old_jar start_instance a "$PORT_A" "${ROLLING_RELAY[@]}"
    INSTANCE_JAR=$old_jar start_instance b "$PORT_B" "${ROLLING_RELAY[@]}"
    await_instances a b
    await_slot
    start_balancer
    await_full_weight a a
    await_full_weight b b
    : >"$EVENTS" # the starts above are not part of the measured load
    local requests="$WORK/$DRILL-requests.txt" latencies="$WORK/$DRILL-latencies.txt" stop_file="$WORK/$DRILL-stop"
    rm -f "$stop_file"
    : >"$WORK/$DRILL-warmup-requests.txt"
    : >"$WORK/$DRILL-load.log" # the previous run's must not end the wait for this warm-up below
    log "warm-up through the balancer: $WARMUP_RATE orders/s for $ROLLING_WARMUP_SECONDS s, then $RATE orders/s: $ROLLING_SETTLE_SECONDS s to settle, then measured until the roll is done"
    java "$DRILL_DIR/DrillLoad.java" --urls "http://127.0.0.1:$LB_PORT" --rate "$RATE" --seconds 1200 \
        --warmup-seconds "$ROLLING_WARMUP_SECONDS" --warmup-rate "$WARMUP_RATE" --warmup-out "$WORK/$DRILL-warmup-requests.txt" \
        --settle-seconds "$ROLLING_SETTLE_SECONDS" --stop-file "$stop_file" --out "$requests" --latencies "$latencies" >"$WORK/$DRILL-load.log" 2>&1 &
    LOAD_PID=$!
    local started=$SECONDS
    until grep -q 'MEASURED LOAD STARTED' "$WORK/$DRILL-load.log"; do
        kill -0 "$LOAD_PID" 2>/dev/null || die "the load generator exited: $(tail -n 5 "$WORK/$DRILL-load.log")"
        ((SECONDS - started < ROLLING_WARMUP_SECONDS + ROLLING_SETTLE_SECONDS + 900)) || die "the warm-up did not end"
        sleep 0.2
    done
    grep '^WARMUP' "$WORK/$DRILL-load.log" | sed 's/^/warm-up: /' || true
    event "measured load starts"
    pause "$STEADY_SECONDS"
    local roll_start=$SECONDS
    replace_instance a
    replace_instance b
    event "rolled"
    local roll=$((SECONDS - roll_start))
    log "both instances replaced in $roll s"
    pause "$STEADY_SECONDS"
    touch "$stop_file"
    wait "$LOAD_PID" || die "the load generator failed: $(tail -n 5 "$WORK/$DRILL-load.log")"
    LOAD_PID=""
    grep '^LOAD' "$WORK/$DRILL-load.log" || true
    await_drain
    # failed listener runs: of the instances on JAR (a2, b2, and a, b unless they ran OLD_REF's jar) and of the old jar's
    local name listener_failures=0 old_failures=0 n
    for name in a b a2 b2; do
        [[ -f $WORK/$DRILL-$name.log ]] || continue
        n=$(grep -c -e 'Could not open JDBC Connection' -e 'Invocation of listener .* failed' "$WORK/$DRILL-$name.log" || true)
        if [[ $ROLLING == upgrade && $name != *2 ]]; then
            old_failures=$((old_failures + n))
        else
            listener_failures=$((listener_failures + n))
        fi
    done
    log "failed listener runs in the instances' logs: $listener_failures$([[ $ROLLING == same ]] || echo " (the old jar's instances: $old_failures)")"
    # every in-process listener's publication completed (completed ones are deleted): none waits for the staleness limit
    local unfinished started=$SECONDS
    until unfinished=$(db_drill "SELECT count(*) FROM event_publication WHERE completion_date IS NULL") && ((unfinished == 0)); do
        ((SECONDS - started < 30)) || break
        sleep 0.5
    done
    log "listener publications unfinished 30 s after the drain at the most: $unfinished"
    log "the balancer's log (errors, retries, state changes): $(grep -c -v -e 'is UP' -e 'is DOWN' -e NOTICE -e 'no server available' "$WORK/$DRILL-haproxy.log" || true) other lines"
    java "$DRILL_DIR/DrillWindows.java" --latencies "$latencies" --audit "$AUDIT" --events "$EVENTS" | tee "$WORK/$DRILL-windows.md"
    DRILL_NOTE="$ROLLING, ${RATE}/s, $RELAY, roll ${roll}s, listener failures $listener_failures$([[ $ROLLING == same ]] || echo " (old jar: $old_failures)"), unfinished publications $unfinished, $(grep '^SUMMARY' "$WORK/$DRILL-windows.md" | cut -d' ' -f2-)"
    cat "$WORK/$DRILL-warmup-requests.txt" "$requests" >"$WORK/$DRILL-all-requests.txt"
    local status=0
    audit --requests "$WORK/$DRILL-all-requests.txt" --fault-end "$(now_ms)" || status=$?
    ((listener_failures == 0 && unfinished == 0)) || status=1
    grep -q ' non_2xx=0 lost=0 ' "$WORK/$DRILL-windows.md" || status=1
    return "$status"
}

# The service's tables in a schema of their own, named by the JDBC URL (currentSchema=ordering), as Flyway and the
# service accept, under RATE orders/s for LOAD_SECONDS and no other fault. With RELAY=cdc the relay must capture
# that schema's outbox table: a connector left on public.outbox_message skips every insert while the heartbeats
# move the slot past them, and the audit counts them lost.
drill_schema() {
    [[ $DB == postgres ]] || die "schema: PostgreSQL's currentSchema=; DB=postgres only"
    log "== schema: the tables in schema ordering (currentSchema=ordering in the URL) under $RATE orders/s (relay $RELAY)"
    begin_drill
    db_drill "CREATE SCHEMA ordering" >/dev/null
    DRILL_SCHEMA=ordering
    start_pair
    [[ $(db_drill "SELECT to_regclass('public.outbox_message') IS NULL
                      AND to_regclass('ordering.outbox_message') IS NOT NULL") == t ]] ||
        die "the instances did not migrate into schema ordering"
    log "tables migrated into schema ordering; none in public"
    : >"$WORK/$DRILL-warmup-requests.txt"
    local requests="$WORK/$DRILL-requests.txt"
    start_load "$requests"
    wait "$LOAD_PID" || die "the load generator failed: $(tail -n 5 "$WORK/$DRILL-load.log")"
    LOAD_PID=""
    grep '^LOAD' "$WORK/$DRILL-load.log" || true
    local load_end
    load_end=$(now_ms)
    await_drain
    DRILL_NOTE="schema=ordering"
    audit_load "$requests" "$load_end"
}

# ---------------------------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------------------------
DRILLS=("$@")
if [[ ${#DRILLS[@]} == 0 || ${DRILLS[0]} == all ]]; then
    DRILLS=(poison kill broker db skew)
    [[ $RELAY == polling ]] || DRILLS=(poison kill broker db skew-cdc slot schema)
fi
[[ $RELAY == polling || " ${DRILLS[*]} " != *" skew "* ]] ||
    die "skew is the polling relay's ordered mode; with RELAY=cdc run skew-cdc"
log "fault drills on $DB_LABEL $(server_version) at $DB_HOST:$DB_PORT$([[ $RELAY == cdc ]] &&
    echo " (cdc: a scratch cluster on port $CDC_DB_PORT)"), relay $RELAY: ${DRILLS[*]}; console log: ${RUN_LOG#"$REPO_ROOT"/}"
FAILED=()
for DRILL in "${DRILLS[@]}"; do
    declare -F "drill_$DRILL" >/dev/null || die "unknown drill $DRILL (poison, kill, broker, db, skew, skew-cdc, slot, schema, rolling, all)"
    DRILL_NOTE=""
    status=0
    # each drill in a subshell of its own, which cleans up after itself on every exit path (and is stopped, with
    # its cleanup, when this script is interrupted)
    (
        trap drill_cleanup EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        "drill_$DRILL"
    ) &
    DRILL_PID=$!
    wait "$DRILL_PID" || status=$?
    DRILL_PID=""
    ((status == 0)) || FAILED+=("$DRILL")
    log "== $DRILL: $([[ $status == 0 ]] && echo pass || echo "FAIL (exit $status)")"
done

echo
echo "| drill | orders committed | distinct delivered | lost | duplicates delivered | duplicate effects | failed requests after retry | inversions | drain after fault (s) | notes |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
while IFS= read -r line; do
    field() { sed -n "s/.* | $1=\([^|]*\).*/\1/p" <<<"$line | " | sed 's/ *$//'; }
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(field drill)" "$(field 'orders committed')" \
        "$(field 'distinct orders delivered')" "$(field lost)" "$(field 'duplicates delivered')" \
        "$(field 'duplicate effects through the inbox')" "$(field 'failed valid requests after retry')" \
        "$(field 'ordering inversions')" "$(field 'seconds to full drain after the fault ends')" \
        "$(sed -n 's/^RESULT extra=\([^|]*\) |.*/\1/p' <<<"$line" | tr '_' ' ')$(field verdict | sed 's/^/; /')"
done < <(grep '^RESULT' "$RESULTS" | sed 's/^RESULT extra=\([^|]*\) | drill=/RESULT extra=\1 | drill=/')
echo
((${#FAILED[@]} == 0)) || die "failed drills: ${FAILED[*]}"
log "all drills passed"
