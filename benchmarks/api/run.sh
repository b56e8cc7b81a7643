#!/usr/bin/env bash
# The order API's performance next to a database baseline, measured in the same run. See README.md.
#
#   benchmarks/api/run.sh [JAR]            # PostgreSQL
#   DB=mariadb benchmarks/api/run.sh [JAR] # MariaDB
#
# Knobs (environment): DB, JAR, DURATION, WARMUP, WARMUP_ROUND, WARMUP_JIT_PERCENT, WARMUP_MAX, CONCURRENCY, OPEN_RATE,
# OPEN_SECONDS, STEP_RATES, STEP_SECONDS, P99_LIMIT_MS, PEER_ROUNDS, PEER_PORT, IDLE_SECONDS, VACUUM_EVERY, PORT,
# SERVICE_JVM, JAVA_OPTS, EXTRA_ARGS, AUTH_HEADER, KEEP_DB, DB_HOST, DB_PORT, DB_USER, RABBIT_HOST, RABBIT_PORT;
# CDC=1 (polling against cdc on a scratch cluster instead, cdc.sh), CDC_ROUNDS, CDC_PORT.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/../.." && pwd)
CALLER_DIR=$PWD
cd "$REPO_ROOT"

# CDC=1 runs both relays from the jar that carries CDC's runtime, the one a cdc deployment runs
DEFAULT_JAR=bootstrap/target/ordering-service$([[ ${CDC:-0} == 1 ]] && echo -cdc).jar
JAR=${JAR:-${1:-$DEFAULT_JAR}}
DURATION=${DURATION:-15}
WARMUP=${WARMUP:-60}
# the warm-up goes on, in rounds of WARMUP_ROUND s, until the JIT compiler threads take at most WARMUP_JIT_PERCENT of
# the service's CPU in a round, or until WARMUP_MAX s
WARMUP_ROUND=${WARMUP_ROUND:-15}
WARMUP_JIT_PERCENT=${WARMUP_JIT_PERCENT:-5}
WARMUP_MAX=${WARMUP_MAX:-300}
CONCURRENCY=${CONCURRENCY:-1 8 32 64}
OPEN_RATE=${OPEN_RATE:-200}
OPEN_SECONDS=${OPEN_SECONDS:-30}
STEP_RATES=${STEP_RATES:-200 400 600 800 1000 1200 1600 2000}
STEP_SECONDS=${STEP_SECONDS:-10}
P99_LIMIT_MS=${P99_LIMIT_MS:-50}
# 8b: interleaved rounds of the step search on the service and on the plain dual-write peer's two variants
# (benchmarks/peer; PostgreSQL only); 0: none. The peers listen from PEER_PORT on.
PEER_ROUNDS=${PEER_ROUNDS:-2}
PEER_PORT=${PEER_PORT:-18180}
IDLE_SECONDS=${IDLE_SECONDS:-60}
# seconds between the VACUUM (ANALYZE) runs that stand in for autovacuum where the server has it off; 0: none
VACUUM_EVERY=${VACUUM_EVERY:-30}
PORT=${PORT:-18080}
# The service's JVM as a container sized for it would run it (2 CPUs, 512 MB: the JVM picks the serial collector
# there by itself): a 256 MB heap that starts at 64 MB and grows as the load needs, and glibc's freed native memory
# given back every 5 s. README.md, "Memory", says what each flag saves.
SERVICE_JVM=${SERVICE_JVM:--Xmx256m -Xms64m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000}
JAVA_OPTS=${JAVA_OPTS:-}
EXTRA_ARGS=${EXTRA_ARGS:-}
# Hook for the coming bearer token: the value of the Authorization header ("Bearer eyJ..."), sent by wrk and OpenLoop.
AUTH_HEADER=${AUTH_HEADER:-}
KEEP_DB=${KEEP_DB:-0}
CDC=${CDC:-0}
# the engine the service stores its data on: postgres (the default) or mariadb; "What differs between the engines"
# below holds every step that is not the same on both
DB=${DB:-postgres}
case $DB in
postgres)
    DB_LABEL=PostgreSQL
    DB_PORT=${DB_PORT:-5432}
    DB_USER=${DB_USER:-postgres}
    DB_TOOLS="psql pgbench"
    JDBC_DRIVER=postgresql # BOOT-INF/lib/postgresql-*.jar, for PlainJdbcOrders
    ;;
mariadb)
    DB_LABEL=MariaDB
    DB_PORT=${DB_PORT:-3306}
    DB_USER=${DB_USER:-root}
    DB_TOOLS="mariadb"
    JDBC_DRIVER=mariadb-java-client
    ;;
*)
    echo "DB=$DB: postgres or mariadb" >&2
    exit 2
    ;;
esac
DB_HOST=${DB_HOST:-127.0.0.1}
RABBIT_HOST=${RABBIT_HOST:-127.0.0.1}
RABBIT_PORT=${RABBIT_PORT:-5672}

DB_NAME=ordering_bench
PEER_DB_NAME=ordering_peer
PEER_JAR=benchmarks/peer/target/peer.jar
EXCHANGE=bookstore.ordering
QUEUE=bench.orders
RELAY_SETTLE_SECONDS=10

WORK="$BENCH_DIR/target"
STAMP=$(date +%Y%m%d-%H%M%S)
mkdir -p "$WORK"
RUN_LOG="$WORK/run-$STAMP.log"
RESULT="$WORK/result-$STAMP.md"
REPORT="$WORK/report-$STAMP.tmp"
: >"$REPORT"

# Console output also goes to the run log (tee -i: Ctrl-C must not kill the log before the cleanup has run).
exec > >(tee -i -a "$RUN_LOG") 2>&1
# The console, for the traps: a trap runs with the redirections of the command it interrupted (e.g. a helper's
# output file), so it writes here.
exec {CONSOLE}>&1

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() {
    log "ERROR: $*"
    exit 1
}

SERVICE_PID=""
HELPER_PID=""
QUEUE_DECLARED=0
DB_CREATED=0
CP=""
CLEANED=0
PEER_NONE_PID=""
PEER_EACH_PID=""
PEER_DB_CREATED=0

# Stops the JVM whose pid the variable named $1 holds (SERVICE_PID, PEER_NONE_PID, ...) and empties the variable.
stop_jvm() {
    local pid=${!1}
    [[ -n $pid ]] || return 0
    printf -v "$1" '%s' ""
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 60); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        if kill -0 "$pid" 2>/dev/null; then
            log "JVM $pid did not stop within 30 s; killing it"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    wait "$pid" 2>/dev/null || true
}
stop_service() { stop_jvm SERVICE_PID; }
stop_peers() {
    [[ -n $PEER_NONE_PID$PEER_EACH_PID ]] || return 0
    log "stopping the peers"
    stop_jvm PEER_NONE_PID
    stop_jvm PEER_EACH_PID
}

cleanup() {
    local status=$?
    [[ $CLEANED == 1 ]] && return 0
    CLEANED=1
    trap - EXIT INT TERM
    set +e
    exec >&"$CONSOLE" 2>&1
    if [[ -n $HELPER_PID ]] && kill -0 "$HELPER_PID" 2>/dev/null; then
        kill -TERM "$HELPER_PID" 2>/dev/null
        wait "$HELPER_PID" 2>/dev/null
    fi
    stop_vacuum_standin
    if [[ -n $SERVICE_PID ]]; then
        log "stopping the service (pid $SERVICE_PID)"
        stop_service
    fi
    stop_peers
    if [[ $QUEUE_DECLARED == 1 && -n $CP ]]; then
        java -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$BENCH_DIR/BenchQueue.java" \
            "$RABBIT_HOST" "$RABBIT_PORT" "$QUEUE" "$EXCHANGE" delete >/dev/null 2>&1 &&
            log "deleted queue $QUEUE" || log "could not delete queue $QUEUE"
    fi
    if [[ $PEER_DB_CREATED == 1 ]]; then
        db_admin "DROP DATABASE IF EXISTS $PEER_DB_NAME WITH (FORCE)" >/dev/null 2>&1 &&
            log "dropped database $PEER_DB_NAME" || log "could not drop database $PEER_DB_NAME"
    fi
    if [[ $DB_CREATED == 1 ]]; then
        if [[ $KEEP_DB == 1 ]]; then
            log "KEEP_DB=1: database $DB_NAME kept"
        else
            drop_database >/dev/null 2>&1 &&
                log "dropped database $DB_NAME" || log "could not drop database $DB_NAME"
        fi
    fi
    if declare -F logical_cluster_stop >/dev/null; then
        logical_cluster_stop && log "removed the scratch cluster"
    fi
    rm -f "$REPORT" "$WORK"/pgbench-c*.log.* 2>/dev/null
    if [[ $status != 0 ]]; then
        log "FAILED (exit $status); console log: ${RUN_LOG#"$REPO_ROOT"/}"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'log "interrupted" >&"$CONSOLE"; exit 130' INT
trap 'log "terminated" >&"$CONSOLE"; exit 143' TERM

# ---------------------------------------------------------------------------------------------------------------
# What differs between the engines: one function per step, each engine's SQL and commands side by side
# ---------------------------------------------------------------------------------------------------------------
# SQL on the server outside the benchmark's database (db_admin) and in it (db_bench); values tab-separated, no header
db_admin() {
    case $DB in
    postgres) PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d postgres -Atc "$1" ;;
    mariadb) mariadb -h "$DB_HOST" -P "$DB_PORT" -u "$DB_USER" --batch --skip-column-names -e "$1" ;;
    esac
}
db_bench() {
    case $DB in
    postgres) PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d "$DB_NAME" -Atc "$1" ;;
    mariadb) mariadb -h "$DB_HOST" -P "$DB_PORT" -u "$DB_USER" --batch --skip-column-names -D "$DB_NAME" -e "$1" ;;
    esac
}
db_version() {
    case $DB in
    postgres) db_admin "SHOW server_version" ;;
    mariadb) db_admin "SELECT VERSION()" ;;
    esac
}

# The service's profile and datasource
service_db_args() {
    case $DB in
    postgres) echo --spring.profiles.active=postgres "--spring.datasource.url=jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME" ;;
    mariadb) echo --spring.profiles.active=mariadb "--spring.datasource.url=jdbc:mariadb://$DB_HOST:$DB_PORT/$DB_NAME" ;;
    esac
}
jdbc_url() {
    case $DB in
    postgres) echo "jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME" ;;
    mariadb) echo "jdbc:mariadb://$DB_HOST:$DB_PORT/$DB_NAME" ;; # as the service's, no driver options
    esac
}

create_database() {
    case $DB in
    postgres) db_admin "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" && db_admin "CREATE DATABASE $DB_NAME" ;;
    mariadb) db_admin "DROP DATABASE IF EXISTS $DB_NAME; CREATE DATABASE $DB_NAME" ;; # each table names its charset
    esac
}
drop_database() {
    case $DB in
    postgres) db_admin "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" ;;
    mariadb) db_admin "DROP DATABASE IF EXISTS $DB_NAME" ;; # the service is stopped by then: no session holds it
    esac
}
# Flyway has created the service's schema
schema_created() {
    case $DB in
    postgres) [[ $(db_bench "SELECT to_regclass('public.outbox_message') IS NOT NULL") == t ]] ;;
    mariadb) [[ $(db_bench "SELECT count(*) FROM information_schema.tables WHERE table_schema = '$DB_NAME' AND table_name = 'outbox_message'") == 1 ]] ;;
    esac
}

# The tables the baseline writes, emptied after each of its runs. InnoDB truncates one table at a time and refuses
# a table another one references unless foreign key checks are off for the session.
truncate_orders() {
    case $DB in
    postgres) db_bench "TRUNCATE orders, order_line, outbox_message, event_publication CASCADE" >/dev/null ;;
    mariadb) db_bench "SET FOREIGN_KEY_CHECKS = 0; TRUNCATE order_line; TRUNCATE orders; TRUNCATE outbox_message;
                       TRUNCATE EVENT_PUBLICATION; SET FOREIGN_KEY_CHECKS = 1" >/dev/null ;;
    esac
}
# After the baseline, before the service's load: fresh statistics on the emptied tables
after_baseline() {
    case $DB in
    postgres) db_bench "VACUUM ANALYZE" >/dev/null ;;
    mariadb) db_bench "ANALYZE TABLE orders, order_line, outbox_message, EVENT_PUBLICATION" >/dev/null ;;
    esac
}

# The baseline's own client of the engine, at $1 clients: sets NATIVE_CLIENT, NATIVE_TPS (empty: none),
# NATIVE_AVG, NATIVE_P50, NATIVE_P99. PostgreSQL: pgbench with order.pgb (-M prepared, the inserts in a pipeline),
# p50/p99 from its per-transaction log. MariaDB has no pgbench: its baseline is PlainJdbcOrders alone.
native_baseline() {
    local c=$1 threads prefix
    NATIVE_CLIENT="" NATIVE_TPS="" NATIVE_AVG="" NATIVE_P50="" NATIVE_P99=""
    case $DB in
    postgres)
        NATIVE_CLIENT=pgbench
        threads=$((c < 2 ? 1 : 2))
        prefix="$WORK/pgbench-c$c.log"
        rm -f "$prefix".*
        log "baseline, service stopped: pgbench, $c clients, ${DURATION} s"
        run_helper pgbench -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -n -M prepared -c "$c" -j "$threads" \
            -T "$DURATION" --log --log-prefix="$prefix" -f "$BENCH_DIR/order.pgb" "$DB_NAME" \
            >"$WORK/pgbench-c$c.out" 2>&1 || {
            cat "$WORK/pgbench-c$c.out"
            die "pgbench failed"
        }
        NATIVE_TPS=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$WORK/pgbench-c$c.out" | tail -n 1)
        NATIVE_AVG=$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' "$WORK/pgbench-c$c.out")
        [[ -n $NATIVE_TPS ]] || die "no tps in the pgbench output"
        # per-transaction log: client_id transaction_no time_us script_no epoch epoch_us
        read -r NATIVE_P50 NATIVE_P99 < <(cat "$prefix".* | awk '{print $3}' | sort -n | awk '
            { v[NR] = $1 }
            END {
                if (NR == 0) { print "0 0"; exit }
                r50 = 0.50 * NR; i50 = int(r50); if (i50 < r50) i50++; if (i50 < 1) i50 = 1
                r99 = 0.99 * NR; i99 = int(r99); if (i99 < r99) i99++; if (i99 < 1) i99 = 1
                printf "%.3f %.3f\n", v[i50] / 1000, v[i99] / 1000 }')
        rm -f "$prefix".*
        ;;
    mariadb) ;;
    esac
}
case $DB in
postgres)
    BASELINE_NOTE="Baseline: service stopped; the same statements and COMMIT per order as the service (\`order.pgb\`: the order with its lines, the publication, the outbox row, in one round trip as the service writes them behind), by pgbench (\`-M prepared\`) and by plain JDBC (\`PlainJdbcOrders.java\`, a connection per client); the faster one counts (bold)."
    BASELINE_HEADER="baseline tx/s (pgbench / jdbc, faster marked)"
    ;;
mariadb)
    BASELINE_NOTE="Baseline: service stopped; the same statements and COMMIT per order as the service writes them on MariaDB (the order, its two lines as one JDBC batch, the publication, the outbox row, a round trip each), by plain JDBC (\`PlainJdbcOrders.java\` with the MariaDB driver, a connection per client); there is no pgbench for MariaDB."
    BASELINE_HEADER="baseline tx/s (plain JDBC)"
    ;;
esac

# The in-process listener's runs still to do (Spring Modulith's incomplete publications; completed ones are
# deleted), and the outbox rows the relay has still to publish
case $DB in
postgres) LISTENER_BACKLOG_SQL="SELECT count(*) FROM event_publication" ;;
mariadb) LISTENER_BACKLOG_SQL="SELECT count(*) FROM EVENT_PUBLICATION" ;; # Spring Modulith's table, in capitals
esac
RELAY_BACKLOG_SQL="SELECT count(*) FROM outbox_message WHERE published_at IS NULL AND status <> 'PARKED'"
listener_backlog() { db_bench "$LISTENER_BACKLOG_SQL"; }
relay_backlog() { db_bench "$RELAY_BACKLOG_SQL"; }
unpublished_count() { db_bench "SELECT count(*) FROM outbox_message WHERE published_at IS NULL"; }

# The counter the idle measurement reads before and after its window, and what it counts. PostgreSQL: the
# transactions of the benchmark's database, read through database postgres so that the reading is none of them.
# MariaDB counts transactions neither per database nor when autocommit ends them (and its server-wide statement
# count takes in every other client of a shared server): there, the connections the service took from its two
# pools (Hikari's usage count, from /actuator/prometheus), one per transaction or per statement outside one.
idle_counter() {
    case $DB in
    postgres) db_admin "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '$DB_NAME'" ;;
    mariadb)
        curl -s --max-time 5 ${AUTH_HEADER:+-H "Authorization: $AUTH_HEADER"} "$BASE_URL/actuator/prometheus" |
            awk '/^hikaricp_connections_usage_seconds_count\{/ { n += $NF; m = 1 } END { if (m) printf "%d\n", n }'
        ;;
    esac
}
case $DB in
postgres)
    IDLE_SOURCE="pg_stat_database"
    IDLE_NOTE="; no autovacuum stand-in running"
    ;;
mariadb)
    IDLE_SOURCE="counted as the connections the service took from its pools, Hikari's \`hikaricp_connections_usage_seconds_count\`: MariaDB counts transactions neither per database nor when autocommit ends them"
    IDLE_NOTE=""
    ;;
esac

# The published rows added before the reads the live page polls are timed, then fresh statistics
add_published_rows() {
    case $DB in
    postgres)
        db_bench "INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                              headers, occurred_at, status, published_at)
                  SELECT gen_random_uuid(), 'order', gen_random_uuid()::text, 'bookstore.order-placed.v1',
                         'bookstore.ordering', 'order.placed', '{\"orderId\":\"x\"}', '{}', now(), 'PUBLISHED', now()
                    FROM generate_series(1, $1)" >/dev/null
        db_bench "VACUUM ANALYZE outbox_message" >/dev/null
        ;;
    mariadb)
        db_bench "INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                              headers, occurred_at, status, published_at)
                  SELECT UUID(), 'order', UUID(), 'bookstore.order-placed.v1',
                         'bookstore.ordering', 'order.placed', '{\"orderId\":\"x\"}', '{}', UTC_TIMESTAMP(6),
                         'PUBLISHED', UTC_TIMESTAMP(6)
                    FROM seq_1_to_$1" >/dev/null
        db_bench "ANALYZE TABLE outbox_message" >/dev/null
        ;;
    esac
}

# The database server's CPU on this host in clock ticks, for machine_ticks. PostgreSQL: the postmaster with the
# children it reaped (which holds the CPU of backends that ended) and every live process; MariaDB: one process,
# its threads (connections that ended included) in its own utime + stime.
db_server_ticks() {
    local ticks=0 postmaster p
    case $DB in
    postgres)
        postmaster=$(pgrep -o -x postgres || true)
        for p in $(pgrep -x postgres || true); do
            if [[ $p == "$postmaster" ]]; then
                ticks=$((ticks + $(process_ticks "$p" reaped)))
            else
                ticks=$((ticks + $(process_ticks "$p")))
            fi
        done
        ;;
    mariadb)
        for p in $(pgrep -x mariadbd || true) $(pgrep -x mysqld || true); do
            ticks=$((ticks + $(process_ticks "$p")))
        done
        ;;
    esac
    echo "$ticks"
}
case $DB in
postgres) DB_PROCESSES="PostgreSQL (all its processes, those of ended connections included)" ;;
mariadb) DB_PROCESSES="MariaDB (\`mariadbd\`, all its threads)" ;;
esac

# Autovacuum stand-in, PostgreSQL only (see below); sets VACUUM_NOTE for the report
start_maintenance() {
    case $DB in
    postgres)
        AUTOVACUUM=$(db_admin "SHOW autovacuum")
        if [[ $AUTOVACUUM == on ]]; then
            VACUUM_NOTE="PostgreSQL's autovacuum is on."
        elif ((VACUUM_EVERY > 0)); then
            log "autovacuum is off on this server: VACUUM (ANALYZE) of $DB_NAME every $VACUUM_EVERY s in its place"
            VACUUM_NOTE="PostgreSQL's autovacuum is off on this server; in its place the benchmark ran \`VACUUM (ANALYZE)\` of its database every $VACUUM_EVERY s."
            start_vacuum_standin
        else
            log "WARNING: autovacuum is off on this server and VACUUM_EVERY=0: nothing vacuums or analyzes $DB_NAME"
            VACUUM_NOTE="PostgreSQL's autovacuum is off on this server and nothing stood in for it (\`VACUUM_EVERY=0\`): dead rows piled up and plans made on the empty tables stayed; not a production setting."
        fi
        ;;
    mariadb)
        # InnoDB has nothing like autovacuum to turn off: its purge threads remove deleted rows and old versions
        # all the time, and persistent statistics are recalculated when a tenth of a table has changed
        VACUUM_NOTE="MariaDB: no VACUUM stand-in (InnoDB's purge threads remove deleted rows and old row versions by themselves; innodb_stats_auto_recalc = $(db_admin "SELECT IF(@@innodb_stats_auto_recalc, 'ON', 'OFF')"))."
        ;;
    esac
}

# Lines of the final report (markdown), printed and saved at the end.
report() { printf '%s\n' "$*" >>"$REPORT"; }
# The report on the console, between cut marks, and saved as RESULT
print_report() {
    echo
    echo "----- 8< -----"
    cat "$REPORT"
    echo "----- 8< -----"
    cp "$REPORT" "$RESULT"
    log "saved to ${RESULT#"$REPO_ROOT"/}"
}

# Autovacuum stand-in. A server with autovacuum off (CI machines) never vacuums nor analyzes the benchmark's
# tables: dead rows pile up in the outbox and the registry, and plans made while the tables were empty stay (the
# relay's mark-published scanned the whole outbox per batch). No production server runs like that, so the
# benchmark does what autovacuum would: VACUUM (ANALYZE) of its database every VACUUM_EVERY seconds.
VACUUM_PID=""
start_vacuum_standin() {
    (
        trap 'exit 0' TERM
        while sleep "$VACUUM_EVERY"; do
            db_bench "VACUUM (ANALYZE)" >/dev/null 2>&1 || true
            if [[ $PEER_DB_CREATED == 1 ]]; then # the peer's too, from 8b on (restarted there)
                DB_NAME=$PEER_DB_NAME db_bench "VACUUM (ANALYZE)" >/dev/null 2>&1 || true
            fi
        done
    ) &
    VACUUM_PID=$!
}
stop_vacuum_standin() {
    if [[ -n $VACUUM_PID ]]; then
        pkill -TERM -P "$VACUUM_PID" 2>/dev/null || true # its sleep or psql, then the loop's trap ends it
        kill -TERM "$VACUUM_PID" 2>/dev/null || true
        wait "$VACUUM_PID" 2>/dev/null || true
        VACUUM_PID=""
    fi
}

# Runs a helper in the background so that the traps can stop it, and waits for it.
run_helper() {
    "$@" &
    HELPER_PID=$!
    local status=0
    wait "$HELPER_PID" || status=$?
    HELPER_PID=""
    return "$status"
}

bench_queue() {
    java -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$BENCH_DIR/BenchQueue.java" \
        "$RABBIT_HOST" "$RABBIT_PORT" "$QUEUE" "$EXCHANGE" "$1"
}

order_count() { db_bench "SELECT count(*) FROM orders"; }
peer_order_count() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d "$PEER_DB_NAME" -Atc "SELECT count(*) FROM orders"; }

# utime + stime of the service process, in clock ticks (fields 14 and 15 of /proc/PID/stat, after the comm field).
# Another JVM's (a peer's) with its pid as $1.
cpu_ticks() { sed 's/^.*) //' "/proc/${1:-$SERVICE_PID}/stat" | awk '{print $12 + $13}'; }
# The same for the JIT compiler threads only (C1/C2 CompilerThreadN); a compiler thread that ends between two readings
# takes its ticks with it, so this can only be low.
jit_ticks() {
    local task total=0 stat
    for task in /proc/"${1:-$SERVICE_PID}"/task/*; do
        [[ $(cat "$task/comm" 2>/dev/null) == C[12]\ CompilerThre* ]] || continue
        stat=$(sed 's/^.*) //' "$task/stat" 2>/dev/null) || continue
        total=$((total + $(awk '{print $12 + $13}' <<<"$stat")))
    done
    echo "$total"
}

# The service's CPU ticks by thread group, one "group ticks" line each: the request threads, the in-process
# listener, the relay, the NOTIFY sender and listener, the JIT compilers, the garbage collector, the rest.
thread_group_ticks() {
    local task
    for task in /proc/"$SERVICE_PID"/task/*; do
        printf '%s|%s\n' "$(cat "$task/comm" 2>/dev/null)" "$(sed 's/^.*) //' "$task/stat" 2>/dev/null)"
    done | awk -F'|' '
        $1 ~ /^http-nio-/ { g = "request threads" }
        $1 ~ /^ordering-events/ { g = "in-process listener" }
        $1 ~ /^(outbox-relay|ordering-relay)/ { g = "relay" }
        $1 ~ /^outbox-notify/ { g = "NOTIFY sender and listener" }
        $1 ~ /^C[12] CompilerThre/ { g = "JIT" }
        $1 ~ /^(GC Thread|G1 |VM Thread)/ { g = "GC and VM" }
        { if (g == "") g = "other"; split($2, f, " "); t[g] += f[12] + f[13]; g = "" }
        END { for (k in t) print k "|" t[k] }' | sort
}
# "group: ms per order (share)" for two readings of thread_group_ticks and the orders in between
thread_group_report() {
    join -t'|' -a 2 -e 0 -o '0,1.2,2.2' <(printf '%s\n' "$1") <(printf '%s\n' "$2") |
        awk -F'|' -v hz="$CLK_TCK" -v n="$3" '
            { d[$1] = $3 - $2; total += $3 - $2 }
            END {
                if (n <= 0 || total <= 0) exit
                split("request threads|in-process listener|relay|NOTIFY sender and listener|JIT|GC and VM|other", o, "|")
                sep = ""
                for (i = 1; i <= 7; i++) {
                    printf "%s%s %.2f (%.0f %%)", sep, o[i], d[o[i]] * 1000 / hz / n, 100 * d[o[i]] / total; sep = ", "
                }
                print ""
            }'
}

# utime + stime of a process in clock ticks, with "reaped" also those of the children it waited for; 0 if it is gone.
process_ticks() {
    local stat
    stat=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null) || {
        echo 0
        return
    }
    if [[ ${2:-} == reaped ]]; then
        awk '{print $12 + $13 + $14 + $15}' <<<"$stat"
    else
        awk '{print $12 + $13}' <<<"$stat"
    fi
}
# The whole machine's CPU in clock ticks, "busy idle database rabbitmq": the first line of /proc/stat (all CPUs), the
# database server on this host (db_server_ticks) and a RabbitMQ on this host (beam.smp with its reaped children,
# epmd). A server on another host counts 0.
machine_ticks() {
    local busy_idle pg rabbit=0 p
    busy_idle=$(awk 'NR == 1 { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat)
    pg=$(db_server_ticks)
    for p in $(pgrep -f beam.smp || true) $(pgrep -x epmd || true); do
        rabbit=$((rabbit + $(process_ticks "$p" reaped)))
    done
    echo "$busy_idle $pg $rabbit"
}
# One table row "| label | busy | service | database | RabbitMQ | the rest | idle |" in CPU ms per order, from two
# machine_ticks readings, the service's ticks between them and the orders.
machine_row() {
    awk -v label="$1" -v a="$2" -v b="$3" -v svc="$4" -v n="$5" -v hz="$CLK_TCK" 'BEGIN {
        split(a, x, " "); split(b, y, " ")
        if (n <= 0) { print "| " label " | – | – | – | – | – | – |"; exit }
        f = 1000 / hz / n
        busy = y[1] - x[1]; idle = y[2] - x[2]; pg = y[3] - x[3]; mq = y[4] - x[4]; rest = busy - svc - pg - mq
        if (rest < 0) rest = 0
        printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", label, busy * f, svc * f, pg * f, mq * f, rest * f, idle * f
    }'
}

# wrk prints latencies as 812.00us, 4.80ms, 1.02s or 1.00m; this gives milliseconds.
wrk_ms() {
    awk -v v="$1" 'BEGIN {
        n = v + 0; u = v; sub(/^[0-9.]+/, "", u);
        if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000;
        printf "%.2f", n }'
}

fmt_ms() { awk -v v="$1" 'BEGIN { if (v < 10) printf "%.2f ms", v; else if (v < 100) printf "%.1f ms", v; else printf "%.0f ms", v }'; }

# sleep that a signal interrupts at once (bash runs traps only after a foreground command has ended)
pause() { run_helper sleep "$1"; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# the listener's and the relay's work behind the orders of a phase: done once both are empty (at most 120 s)
await_drained() {
    local i behind pending
    for i in $(seq 1 120); do
        behind=$(listener_backlog)
        pending=$(relay_backlog)
        [[ $behind == 0 && $pending == 0 ]] && return 0
        pause 1
    done
    log "WARNING: $behind listener runs and $pending outbox rows still to do after 120 s"
}

# Warm-up in rounds at 32 connections, each round counted until the JVM's deferred work is done (the service: its
# listener and relay): at least WARMUP s, then until a round's JIT share is at most WARMUP_JIT_PERCENT (or WARMUP_MAX
# s). On two cores the C2 compiler is still busy minutes into the load; a point measured before it settles charges the
# compiling to the orders.
#   warm_up URL PID AFTER_ROUND   (AFTER_ROUND: a command, e.g. await_drained, or :)   sets WARMED_UP, WARMUP_JIT_LAST
warm_up() {
    local url=$1 pid=$2 after_round=$3 cpu0 jit0 cpu1 jit1
    WARMED_UP=0
    WARMUP_JIT_LAST="–"
    ((WARMUP > 0)) || return 0
    log "warm-up: wrk, 32 connections, rounds of ${WARMUP_ROUND} s, at least ${WARMUP} s, until the JIT takes at most ${WARMUP_JIT_PERCENT} % of a round's CPU (at most ${WARMUP_MAX} s; not reported)"
    while ((WARMED_UP < WARMUP_MAX)); do
        cpu0=$(cpu_ticks "$pid")
        jit0=$(jit_ticks "$pid")
        run_helper wrk -t2 -c32 -d"${WARMUP_ROUND}s" --timeout 10s -s "$BENCH_DIR/post-order.lua" "$url" \
            >"$WORK/wrk-warmup.out" 2>&1 || {
            cat "$WORK/wrk-warmup.out"
            die "wrk failed"
        }
        $after_round
        cpu1=$(cpu_ticks "$pid")
        jit1=$(jit_ticks "$pid")
        WARMED_UP=$((WARMED_UP + WARMUP_ROUND))
        WARMUP_JIT_LAST=$(awk -v j="$((jit1 - jit0))" -v t="$((cpu1 - cpu0))" 'BEGIN { if (t > 0) printf "%.1f", 100 * j / t; else print "0.0" }')
        log "  warm-up ${WARMED_UP} s: the JIT took ${WARMUP_JIT_LAST} % of the round's CPU"
        if ((WARMED_UP >= WARMUP)) && awk -v s="$WARMUP_JIT_LAST" -v l="$WARMUP_JIT_PERCENT" 'BEGIN { exit !(s <= l) }'; then
            break
        fi
    done
}

# OpenLoop at OPEN_RATE for OPEN_SECONDS against URL $1, written to file $2
fixed_rate() {
    run_helper java -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$BENCH_DIR/OpenLoop.java" --url "$1" \
        --amqp-host "$RABBIT_HOST" --amqp-port "$RABBIT_PORT" --queue "$QUEUE" \
        --rate "$OPEN_RATE" --seconds "$OPEN_SECONDS" --p99-limit-ms "$P99_LIMIT_MS" >"$2" || die "OpenLoop failed"
}
# OpenLoop's step search over STEP_RATES, STEP_SECONDS each, against URL $1, appended to file $2; more OpenLoop
# options may follow
step_search() {
    local url=$1 out=$2
    shift 2
    log "open loop: steps ${STEP_RATES// /,} req/s, $STEP_SECONDS s each, on $url"
    run_helper java -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$BENCH_DIR/OpenLoop.java" --url "$url" \
        --amqp-host "$RABBIT_HOST" --amqp-port "$RABBIT_PORT" --queue "$QUEUE" \
        --rate 0 --seconds 0 --steps "${STEP_RATES// /,}" --step-seconds "$STEP_SECONDS" \
        --p99-limit-ms "$P99_LIMIT_MS" "$@" >>"$out" || die "OpenLoop failed"
    bench_queue purge >/dev/null
}

# The held step of an OpenLoop step-search output, by its table's column names: "rate|HTTP p50|HTTP p99|placed →
# consumer p99|top" (top: the last step tried held, so the rate is a lower bound); an empty rate when none held.
held_step() {
    awk -F'|' '
        function cell(name, v) { v = $col[name]; gsub(/^ +| +$/, "", v); return v }
        /^\| rate req\/s/ { for (i = 2; i < NF; i++) { h = $i; gsub(/^ +| +$/, "", h); col[h] = i }; table = 1; next }
        table && /^\|---/ { next }
        table && /^\|/ {
            last = cell("held")
            if (last == "yes") { rate = cell("rate req/s"); p50 = cell("HTTP p50"); p99 = cell("HTTP p99"); placed = cell("placed → consumer p99") }
            next
        }
        { table = 0 }
        END { printf "%s|%s|%s|%s|%s\n", rate, p50, p99, placed, (last == "yes" ? "top" : "") }' "$1"
}

# The median of the numbers given (empty ones count as 0)
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 + 0 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ---------------------------------------------------------------------------------------------------------------
# 1. Prerequisites
# ---------------------------------------------------------------------------------------------------------------
log "API benchmark; console log: ${RUN_LOG#"$REPO_ROOT"/}"
source "$REPO_ROOT/benchmarks/ensure-tool.sh"
ensure_tool wrk wrk
for tool in java $DB_TOOLS curl awk sort; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done
db_admin "SELECT 1" >/dev/null || die "$DB_LABEL does not answer on $DB_HOST:$DB_PORT (user $DB_USER)"
timeout 5 bash -c "exec 3<>/dev/tcp/$RABBIT_HOST/$RABBIT_PORT" 2>/dev/null ||
    die "RabbitMQ does not answer on $RABBIT_HOST:$RABBIT_PORT"

if [[ $JAR != /* ]]; then
    if [[ -f "$CALLER_DIR/$JAR" ]]; then JAR="$CALLER_DIR/$JAR"; else JAR="$REPO_ROOT/$JAR"; fi
fi
if [[ ! -f $JAR ]]; then
    [[ $JAR == "$REPO_ROOT/$DEFAULT_JAR" ]] || die "jar not found: $JAR"
    log "building $DEFAULT_JAR (./mvnw -B -q -DskipTests package)"
    ./mvnw -B -q -DskipTests package
    [[ -f $JAR ]] || die "the build did not produce $DEFAULT_JAR"
fi

# The helpers' libraries come out of the service jar: no Maven lookup. amqp-client 5.2x needs Netty on the class
# path even for its default socket I/O (ConnectionFactory references it), so the netty-* jars come along.
LIB="$WORK/lib"
rm -rf "$LIB"
mkdir -p "$LIB"
if command -v unzip >/dev/null; then
    unzip -j -o -q "$JAR" "BOOT-INF/lib/$JDBC_DRIVER-*.jar" 'BOOT-INF/lib/amqp-client-*.jar' \
        'BOOT-INF/lib/slf4j-api-*.jar' 'BOOT-INF/lib/netty-*.jar' -d "$LIB"
else
    entries=$(jar tf "$JAR" | grep -E "^BOOT-INF/lib/($JDBC_DRIVER|amqp-client|slf4j-api|netty-.*)-[0-9].*\.jar$")
    # shellcheck disable=SC2086
    (cd "$LIB" && jar xf "$JAR" $entries && mv BOOT-INF/lib/*.jar . && rm -rf BOOT-INF)
fi
for lib in $JDBC_DRIVER amqp-client slf4j-api; do
    compgen -G "$LIB/$lib-*.jar" >/dev/null || die "BOOT-INF/lib/$lib-*.jar not found in the jar"
done
CP=$(printf '%s:' "$LIB"/*.jar)
CP=${CP%:}

read -r -a SERVICE_JVM_ARRAY <<<"$SERVICE_JVM"
read -r -a JAVA_OPTS_ARRAY <<<"$JAVA_OPTS"
read -r -a EXTRA_ARGS_ARRAY <<<"$EXTRA_ARGS"

# The service takes bearer tokens only: a throw-away key made for this run, its public half given to the service
# through Boot's standard property, and one token for the customer the benchmark orders for, with both scopes
# (it places orders as that customer and reads the operator's statistics), meant for the service's audience.
BENCH_CUSTOMER=0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60
TOKEN_AUDIENCE=ordering-service
if [[ -z $AUTH_HEADER ]]; then
    AUTH_HEADER="Bearer $(java "$BENCH_DIR/MintToken.java" "$WORK/token-key.pem" "$BENCH_CUSTOMER" \
        "orders orders.admin" "$TOKEN_AUDIENCE")"
fi
TOKEN_KEY_ARG="--spring.security.oauth2.resourceserver.jwt.public-key-location=file:$WORK/token-key.pem"
TOKEN_AUDIENCE_ARG="--spring.security.oauth2.resourceserver.jwt.audiences=$TOKEN_AUDIENCE"
JVM_FLAGS=("${SERVICE_JVM_ARRAY[@]}" -XX:+PrintCommandLineFlags "${JAVA_OPTS_ARRAY[@]}")

# The first free port from $1 on
free_port() {
    local port=$1
    while port_in_use "$port"; do
        log "port $port is taken; trying $((port + 1))" >&2
        port=$((port + 1))
    done
    echo "$port"
}

# Starts a Spring Boot jar with JVM_FLAGS in the background and waits until /actuator/health on its port answers 200:
#   launch_jvm PID_VARIABLE NAME PORT LOG JAR APP_ARGS...   (the pid goes into the variable named first)
launch_jvm() {
    local pid_var=$1 name=$2 port=$3 jvm_log=$4 jar=$5
    shift 5
    log "starting the $name: java ${JVM_FLAGS[*]} -jar $(basename "$jar") $*"
    java "${JVM_FLAGS[@]}" -jar "$jar" "$@" >"$jvm_log" 2>&1 &
    printf -v "$pid_var" '%s' "$!"
    local started=$SECONDS
    until [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/actuator/health" || true) == 200 ]]; do
        if ! kill -0 "${!pid_var}" 2>/dev/null; then
            printf -v "$pid_var" '%s' ""
            tail -n 30 "$jvm_log" || true
            die "the $name exited during start; log: ${jvm_log#"$REPO_ROOT"/}"
        fi
        ((SECONDS - started < 180)) || {
            tail -n 30 "$jvm_log" || true
            die "the $name was not healthy within 180 s; log: ${jvm_log#"$REPO_ROOT"/}"
        }
        sleep 1
    done
    log "$name up (pid ${!pid_var}) in $((SECONDS - started)) s; log: ${jvm_log#"$REPO_ROOT"/}"
}

SERVICE_RUN=0
start_service() {
    PORT=$(free_port "$PORT")
    BASE_URL="http://127.0.0.1:$PORT"
    local db_args
    read -r -a db_args <<<"$(service_db_args)"
    APP_ARGS=("${db_args[@]}"
        "--spring.datasource.username=$DB_USER"
        "--spring.rabbitmq.host=$RABBIT_HOST"
        "--spring.rabbitmq.port=$RABBIT_PORT"
        "--server.port=$PORT"
        "$TOKEN_KEY_ARG" "$TOKEN_AUDIENCE_ARG"
        "${EXTRA_ARGS_ARRAY[@]}")
    SERVICE_RUN=$((SERVICE_RUN + 1))
    SERVICE_LOG="$WORK/service-$STAMP-$SERVICE_RUN.log"
    launch_jvm SERVICE_PID service "$PORT" "$SERVICE_LOG" "$JAR" "${APP_ARGS[@]}"
}

if [[ $CDC == 1 ]]; then
    # shellcheck source=cdc.sh
    source "$BENCH_DIR/cdc.sh"
    exit 0
fi

# ---------------------------------------------------------------------------------------------------------------
# 2.-3. Fresh database; the service creates the schema (Flyway) and stops again
# ---------------------------------------------------------------------------------------------------------------
log "fresh database $DB_NAME"
create_database >/dev/null
DB_CREATED=1
start_maintenance

start_service
schema_created ||
    die "the service started but outbox_message does not exist"
IN_EFFECT=$(grep -m1 -- '-XX:' "$SERVICE_LOG" | sed 's/[[:space:]]*$//' || echo "(not found in the log)")
log "schema created; stopping the service for the baseline"
stop_service

# ---------------------------------------------------------------------------------------------------------------
# 4. The benchmark queue, bound to the service's exchange
# ---------------------------------------------------------------------------------------------------------------
QUEUE_OUT=$(bench_queue declare) || die "could not declare queue $QUEUE on RabbitMQ"
QUEUE_DECLARED=1
RABBIT_VERSION=$(sed -n 's/^rabbitmq_version=//p' <<<"$QUEUE_OUT")
log "queue $QUEUE declared, bound to $EXCHANGE with order.# and purged (RabbitMQ $RABBIT_VERSION)"

# ---------------------------------------------------------------------------------------------------------------
# 5. Baseline: the database alone (service stopped): the engine's own client where there is one, and plain JDBC
# ---------------------------------------------------------------------------------------------------------------
declare -A BASE_TPS BASE_P50 BASE_P99 BASE_CELL
for c in $CONCURRENCY; do
    native_baseline "$c"
    truncate_orders

    log "baseline, service stopped: plain JDBC, $c clients, ${DURATION} s"
    run_helper java -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$BENCH_DIR/PlainJdbcOrders.java" \
        --url "$(jdbc_url)" --user "$DB_USER" --clients "$c" \
        --seconds "$DURATION" >"$WORK/jdbc-c$c.out" || {
        cat "$WORK/jdbc-c$c.out"
        die "PlainJdbcOrders failed"
    }
    result=$(grep '^RESULT ' "$WORK/jdbc-c$c.out") || die "no RESULT line from PlainJdbcOrders"
    jd_tps=$(sed -n 's/.* tps=\([0-9.]*\).*/\1/p' <<<"$result")
    jd_p50=$(sed -n 's/.* p50_ms=\([0-9.]*\).*/\1/p' <<<"$result")
    jd_p99=$(sed -n 's/.* p99_ms=\([0-9.]*\).*/\1/p' <<<"$result")
    jd_errors=$(sed -n 's/.* errors=\([0-9]*\).*/\1/p' <<<"$result")
    [[ $jd_errors == 0 ]] || log "WARNING: PlainJdbcOrders reported $jd_errors errors"
    truncate_orders

    if [[ -z $NATIVE_TPS ]]; then
        log "  jdbc $jd_tps tx/s (p50 $jd_p50 ms, p99 $jd_p99 ms)"
        BASE_TPS[$c]=$jd_tps BASE_P50[$c]=$jd_p50 BASE_P99[$c]=$jd_p99
        BASE_CELL[$c]=$(printf '**%.0f** (jdbc)' "$jd_tps")
        continue
    fi
    log "  $NATIVE_CLIENT $NATIVE_TPS tx/s (avg $NATIVE_AVG ms, p50 $NATIVE_P50 ms, p99 $NATIVE_P99 ms);" \
        "jdbc $jd_tps tx/s (p50 $jd_p50 ms, p99 $jd_p99 ms)"
    if awk -v a="$NATIVE_TPS" -v b="$jd_tps" 'BEGIN { exit !(a >= b) }'; then
        BASE_TPS[$c]=$NATIVE_TPS BASE_P50[$c]=$NATIVE_P50 BASE_P99[$c]=$NATIVE_P99
        BASE_CELL[$c]=$(printf '**%.0f** / %.0f (%s)' "$NATIVE_TPS" "$jd_tps" "$NATIVE_CLIENT")
    else
        BASE_TPS[$c]=$jd_tps BASE_P50[$c]=$jd_p50 BASE_P99[$c]=$jd_p99
        BASE_CELL[$c]=$(printf '%.0f / **%.0f** (jdbc)' "$NATIVE_TPS" "$jd_tps")
    fi
done
after_baseline


# ---------------------------------------------------------------------------------------------------------------
# 6.-7. The service again: warm-up, then the closed loop (wrk)
# ---------------------------------------------------------------------------------------------------------------
start_service
CLK_TCK=$(getconf CLK_TCK)
export AUTH_HEADER
URL="$BASE_URL/orders"

warm_up "$URL" "$SERVICE_PID" await_drained
bench_queue purge >/dev/null

CLOSED_ROWS=()
CLOSED_GROUPS=()
MACHINE_ROWS=()
CHECKS=()
for c in $CONCURRENCY; do
    threads=$((c < 2 ? 1 : 2))
    out="$WORK/wrk-c$c.out"
    log "closed loop: wrk, $c connections, ${DURATION} s (relay on); CPU counted until the listener and the relay are done"
    await_drained
    orders0=$(order_count)
    machine0=$(machine_ticks)
    cpu0=$(cpu_ticks)
    jit0=$(jit_ticks)
    groups0=$(thread_group_ticks)
    run_helper wrk -t"$threads" -c"$c" -d"${DURATION}s" --timeout 10s --latency -s "$BENCH_DIR/post-order.lua" \
        "$URL" >"$out" 2>&1 || {
        cat "$out"
        die "wrk failed"
    }
    pause 1 # answers in flight when wrk stopped
    # listener runs and outbox rows still to do when the load stops: work the point deferred (counted below all the same)
    backlog=$(listener_backlog)
    relay_behind=$(relay_backlog)
    await_drained
    cpu1=$(cpu_ticks)
    machine1=$(machine_ticks)
    jit1=$(jit_ticks)
    groups1=$(thread_group_ticks)
    orders1=$(order_count)

    rps=$(awk '/^Requests\/sec:/ {print $2}' "$out")
    p50=$(wrk_ms "$(awk '$1 == "50%" {print $2}' "$out")")
    p99=$(wrk_ms "$(awk '$1 == "99%" {print $2}' "$out")")
    requests=$(awk '/ requests in / {print $1}' "$out")
    non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' "$out")
    non201=$(awk -F': *' '/^non-201 responses/ {print $2}' "$out")
    socket_errors=$(grep -o 'Socket errors:.*' "$out" || true)
    [[ -n $rps && -n $requests ]] || {
        cat "$out"
        die "could not parse the wrk output"
    }
    non2xx=${non2xx:-0}
    non201=${non201:-$non2xx}
    created=$((requests - non201))
    orders=$((orders1 - orders0))
    cpu_ms=$(awk -v t="$((cpu1 - cpu0))" -v hz="$CLK_TCK" -v n="$orders" \
        'BEGIN { if (n > 0) printf "%.2f", t * 1000 / hz / n; else print "–" }')
    jit_ms=$(awk -v t="$((jit1 - jit0))" -v hz="$CLK_TCK" -v n="$orders" \
        'BEGIN { if (n > 0) printf "%.2f", t * 1000 / hz / n; else print "–" }')
    ratio=$(awk -v a="$rps" -v b="${BASE_TPS[$c]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "–" }')
    log "  $rps req/s, p50 $p50 ms, p99 $p99 ms, $cpu_ms CPU ms/order ($jit_ms JIT), $backlog listener runs and $relay_behind outbox rows behind; $orders orders written, $created answered 201"
    point_groups=$(thread_group_report "$groups0" "$groups1" "$orders")
    log "  by thread, ms per order: $point_groups"
    CLOSED_GROUPS+=("$c connections: $point_groups")
    MACHINE_ROWS+=("$(machine_row "$c connections" "$machine0" "$machine1" "$((cpu1 - cpu0))" "$orders")")
    CLOSED_ROWS+=("| $c | $(printf '%.0f' "$rps") | $(fmt_ms "$p50") | $(fmt_ms "$p99") | $cpu_ms | $jit_ms | $backlog / $relay_behind | ${BASE_CELL[$c]} | $(fmt_ms "${BASE_P50[$c]}") | $(fmt_ms "${BASE_P99[$c]}") | $ratio |")
    check="$c connections: $orders orders written, $created answered 201, $non201 not 201"
    [[ -n $socket_errors ]] && check+=", $socket_errors"
    # an order whose answer was cut off when wrk stopped is written but not counted: up to c of them
    if ((orders - created > c || created - orders > 0)); then
        check+=" (**mismatch**)"
    fi
    CHECKS+=("$check")
    bench_queue purge >/dev/null
done

# ---------------------------------------------------------------------------------------------------------------
# 8. Open loop (OpenLoop.java: fixed schedule, HTTP and end-to-end latencies, lost messages)
# ---------------------------------------------------------------------------------------------------------------
log "open loop: $OPEN_RATE req/s for $OPEN_SECONDS s; CPU counted until the listener and the relay are done"
await_drained
orders0=$(order_count)
machine0=$(machine_ticks)
cpu0=$(cpu_ticks)
jit0=$(jit_ticks)
groups0=$(thread_group_ticks)
fixed_rate "$URL" "$WORK/openloop.md"
await_drained
cpu1=$(cpu_ticks)
machine1=$(machine_ticks)
jit1=$(jit_ticks)
groups1=$(thread_group_ticks)
orders1=$(order_count)
open_orders=$((orders1 - orders0))
MACHINE_ROWS+=("$(machine_row "$OPEN_RATE req/s, open loop (the client's consumer in the rest)" "$machine0" "$machine1" "$((cpu1 - cpu0))" "$open_orders")")
open_cpu_ms=$(awk -v t="$((cpu1 - cpu0))" -v hz="$CLK_TCK" -v n="$open_orders" \
    'BEGIN { if (n > 0) printf "%.2f", t * 1000 / hz / n; else print "–" }')
open_jit_ms=$(awk -v t="$((jit1 - jit0))" -v hz="$CLK_TCK" -v n="$open_orders" \
    'BEGIN { if (n > 0) printf "%.2f", t * 1000 / hz / n; else print "–" }')
open_groups=$(thread_group_report "$groups0" "$groups1" "$open_orders")
log "  $open_cpu_ms CPU ms/order ($open_jit_ms JIT) over $open_orders orders, listener and relay done"
log "  by thread, ms per order: $open_groups"
{
    echo "JVM CPU at $OPEN_RATE req/s, counted until the in-process listener and the relay had done all the work of"
    echo "these orders (nothing deferred): **$open_cpu_ms ms per order** (of it JIT $open_jit_ms) over $open_orders"
    echo "orders, the client's own warm-up included. By thread (CPU ms per order, share of the process):"
    echo "$open_groups (threads that ended during the run are missing)."
    echo
} >>"$WORK/openloop.md"
bench_queue purge >/dev/null

# The service's step search also counts its unfinished work at each step's end (the in-process listener's runs and
# the relay's rows) and holds a step only when that stays small; the peer defers no work, so it gets no such count.
SERVICE_STEP_ARGS=(--jdbc-url "$(jdbc_url)" --jdbc-user "$DB_USER"
    --backlog-sql "SELECT ($LISTENER_BACKLOG_SQL) + ($RELAY_BACKLOG_SQL)")
step_search "$URL" "$WORK/openloop.md" "${SERVICE_STEP_ARGS[@]}"

# ---------------------------------------------------------------------------------------------------------------
# 8b. Capacity beside the plain dual-write peer (benchmarks/peer): the same step search on the service and on the
# peer without and with a wait for each publisher confirm, PEER_ROUNDS rounds, interleaved. PostgreSQL only.
# ---------------------------------------------------------------------------------------------------------------

PEER_TARGETS=(service none each)
declare -A PEER_URL PEER_HELD PEER_MEDIAN PEER_CPU PEER_LABEL=([service]="the service (outbox)" [none]="peer, no wait for the broker"
    [each]="peer, waits for each confirm")
PEER_ROWS=()
PEER_SUMMARY=()
PEER_WARMUP_NOTE=""
if ((PEER_ROUNDS <= 0)); then
    log "peer: PEER_ROUNDS=0, skipped"
elif [[ $DB != postgres ]]; then
    log "peer: the plain dual-write peer runs on PostgreSQL only; skipped on $DB_LABEL"
else
    if [[ ! -f $PEER_JAR ]]; then
        log "building $PEER_JAR (./mvnw -B -q -f benchmarks/peer/pom.xml -DskipTests package)"
        ./mvnw -B -q -f benchmarks/peer/pom.xml -DskipTests package
        [[ -f $PEER_JAR ]] || die "the build did not produce $PEER_JAR"
    fi
    log "peer: fresh database $PEER_DB_NAME"
    db_admin "DROP DATABASE IF EXISTS $PEER_DB_NAME WITH (FORCE)" >/dev/null
    db_admin "CREATE DATABASE $PEER_DB_NAME" >/dev/null
    PEER_DB_CREATED=1
    if [[ -n $VACUUM_PID ]]; then # the stand-in vacuums the peer's database too from now on
        stop_vacuum_standin
        start_vacuum_standin
    fi
    service_warmup=("$WARMED_UP" "$WARMUP_JIT_LAST")
    port=$PEER_PORT
    for variant in none each; do
        port=$(free_port "$port")
        pid_var=PEER_${variant^^}_PID
        launch_jvm "$pid_var" "peer ($variant)" "$port" "$WORK/peer-$variant-$STAMP.log" "$PEER_JAR" \
            "--spring.datasource.url=jdbc:postgresql://$DB_HOST:$DB_PORT/$PEER_DB_NAME" \
            "--spring.datasource.username=$DB_USER" \
            "--spring.rabbitmq.host=$RABBIT_HOST" "--spring.rabbitmq.port=$RABBIT_PORT" \
            "--server.port=$port" "$TOKEN_KEY_ARG" "$TOKEN_AUDIENCE_ARG" "--peer.confirms=$variant"
        PEER_URL[$variant]="http://127.0.0.1:$port/orders"
        warm_up "${PEER_URL[$variant]}" "${!pid_var}" :
        PEER_WARMUP_NOTE+="${PEER_WARMUP_NOTE:+; }$variant ${WARMED_UP} s (last round ${WARMUP_JIT_LAST} %)"
        bench_queue purge >/dev/null
        # its JVM CPU per order at OPEN_RATE, as section 8 measures the service's (the peer defers no work)
        orders0=$(peer_order_count) cpu0=$(cpu_ticks "${!pid_var}") jit0=$(jit_ticks "${!pid_var}")
        fixed_rate "${PEER_URL[$variant]}" "$WORK/peer-openloop-$variant.md"
        orders1=$(peer_order_count) cpu1=$(cpu_ticks "${!pid_var}") jit1=$(jit_ticks "${!pid_var}")
        PEER_CPU[$variant]=$(awk -v t="$((cpu1 - cpu0))" -v j="$((jit1 - jit0))" -v hz="$CLK_TCK" \
            -v n="$((orders1 - orders0))" 'BEGIN { if (n > 0) printf "%.2f ms (JIT %.2f)", t * 1000 / hz / n, j * 1000 / hz / n; else print "–" }')
        log "  peer ($variant): ${PEER_CPU[$variant]} of JVM CPU per order at $OPEN_RATE req/s over $((orders1 - orders0)) orders"
        bench_queue purge >/dev/null
        port=$((port + 1))
    done
    WARMED_UP=${service_warmup[0]} WARMUP_JIT_LAST=${service_warmup[1]}
    PEER_URL[service]=$URL

    for round in $(seq 1 "$PEER_ROUNDS"); do
        for target in "${PEER_TARGETS[@]}"; do
            log "peer round $round of $PEER_ROUNDS: ${PEER_LABEL[$target]}"
            await_drained # the service's deferred work is done before any target's search
            out="$WORK/peer-round$round-$target.md"
            : >"$out"
            if [[ $target == service ]]; then
                step_search "${PEER_URL[$target]}" "$out" "${SERVICE_STEP_ARGS[@]}"
            else
                step_search "${PEER_URL[$target]}" "$out"
            fi
            IFS='|' read -r rate p50 p99 placed top <<<"$(held_step "$out")"
            PEER_HELD[$target]+=" ${rate:-0}"
            held_cell=${rate:-none}
            [[ -n $top ]] && held_cell="≥ $rate" # every step held: the top of STEP_RATES is a lower bound
            log "  held: $held_cell req/s; HTTP p50 ${p50:-–}, p99 ${p99:-–}; placed → consumer p99 ${placed:-–}"
            PEER_ROWS+=("| ${PEER_LABEL[$target]} | $round | $held_cell | ${p50:-–} | ${p99:-–} | ${placed:-–} |")
        done
    done
    stop_peers
    for target in "${PEER_TARGETS[@]}"; do
        # shellcheck disable=SC2086
        PEER_MEDIAN[$target]=$(median ${PEER_HELD[$target]})
    done
    for target in "${PEER_TARGETS[@]}"; do
        ratio=$(awk -v a="${PEER_MEDIAN[service]}" -v b="${PEER_MEDIAN[$target]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "–" }')
        # shellcheck disable=SC2086
        rounds=$(printf '%s / ' ${PEER_HELD[$target]})
        PEER_SUMMARY+=("| ${PEER_LABEL[$target]} | ${rounds% / } | ${PEER_MEDIAN[$target]} | $ratio |")
        log "peer: ${PEER_LABEL[$target]}: held${PEER_HELD[$target]} req/s, median ${PEER_MEDIAN[$target]}; the service ÷ it: $ratio"
    done
fi

# ---------------------------------------------------------------------------------------------------------------
# 9. Idle: the database transactions of an instance with nothing to do, and its memory
# ---------------------------------------------------------------------------------------------------------------
log "idle: the listener and the relay done, ${RELAY_SETTLE_SECONDS} s more, then ${IDLE_SECONDS} s counting transactions"
await_drained
# the stand-in's VACUUM transactions would count as the instance's; it has done its work by now
stop_vacuum_standin
pause "$RELAY_SETTLE_SECONDS"
xact0=$(idle_counter)
t0=$(date +%s.%N)
pause "$IDLE_SECONDS"
xact1=$(idle_counter)
t1=$(date +%s.%N)
idle_tps=$(awk -v a="$xact0" -v b="$xact1" -v t0="$t0" -v t1="$t1" 'BEGIN { if (a == "" || b == "") print "–"; else printf "%.2f", (b - a) / (t1 - t0) }')
rss_mb=$(awk '/^VmRSS:/ { printf "%.0f", $2 / 1024 }' "/proc/$SERVICE_PID/status")
pending=$(unpublished_count)
log "idle: $idle_tps transactions/s, RSS $rss_mb MB, $pending outbox rows unpublished"

# ---------------------------------------------------------------------------------------------------------------
# 9b. The statistics the live page polls, with a big table: STATS_ROWS published rows added by SQL
# ---------------------------------------------------------------------------------------------------------------
STATS_ROWS=${STATS_ROWS:-1000000}
log "stats: adding $STATS_ROWS published rows to outbox_message, then timing GET /outbox/stats and GET /orders?limit=20"
add_published_rows "$STATS_ROWS"
published_rows=$(db_bench "SELECT count(*) FROM outbox_message WHERE published_at IS NOT NULL")
time_get() { # path, count -> "p50 p99 max" in ms of curl's time_total, one connection per request
    local path=$1 n=$2 i
    for i in $(seq 1 "$n"); do
        curl -s -o /dev/null -w '%{time_total}\n' ${AUTH_HEADER:+-H "Authorization: $AUTH_HEADER"} \
            "http://127.0.0.1:$PORT$path"
    done | sort -n | awk '{ v[NR] = $1 * 1000 } END { printf "%.2f %.2f %.2f", v[int(NR * 0.5 + 0.5)], v[int(NR * 0.99 + 0.5)], v[NR] }'
}
time_get /outbox/stats 50 >/dev/null   # warm-up
read -r stats_p50 stats_p99 stats_max <<<"$(time_get /outbox/stats 200)"
read -r recent_p50 recent_p99 recent_max <<<"$(time_get '/orders?limit=20' 200)"
log "stats: GET /outbox/stats p50 $stats_p50 ms, p99 $stats_p99 ms with $published_rows published rows"

# ---------------------------------------------------------------------------------------------------------------
# 10. The report
# ---------------------------------------------------------------------------------------------------------------
cpu_model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem_total=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
db_server_version=$(db_version)
java_version=$(java -version 2>&1 | head -n 1)
java_vm=$(java -version 2>&1 | sed -n 3p)
jar_info="$(basename "$JAR"), built $(date -r "$JAR" '+%Y-%m-%d %H:%M')"
git_head=$(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)

report "## Order API benchmark, $(date '+%Y-%m-%d %H:%M %Z')"
report ""
report "- Machine: $(nproc) CPUs ($cpu_model), $mem_total RAM; $DB_LABEL $db_server_version; RabbitMQ ${RABBIT_VERSION:-unknown}; all on the same host as the service and the load generators."
report "- Java: $java_version, $java_vm"
report "- Service: $jar_info (repository HEAD $git_head), \`--spring.profiles.active=$DB\`${EXTRA_ARGS:+, app args \`$EXTRA_ARGS\`}."
report "- JVM flags given: \`${JVM_FLAGS[*]}\`; in effect: \`$IN_EFFECT\`"
report "- Each point ${DURATION} s; warm-up ${WARMED_UP} s at 32 connections (not reported; rounds of ${WARMUP_ROUND} s until the JIT took at most ${WARMUP_JIT_PERCENT} % of a round's CPU, at least ${WARMUP} s, at most ${WARMUP_MAX} s; the last round: ${WARMUP_JIT_LAST} %). Relay on: every order is published to RabbitMQ (queue \`$QUEUE\`, bound with \`order.#\`)."
report "- $VACUUM_NOTE"
report "- $BASELINE_NOTE"
report ""
report "### Closed loop (wrk, POST /orders)"
report ""
report "| connections | API req/s | API p50 | API p99 | JVM CPU ms/order | of it JIT | left undone: listener runs / outbox rows | $BASELINE_HEADER | baseline p50 | baseline p99 | ratio |"
report "|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
for row in "${CLOSED_ROWS[@]}"; do report "$row"; done
report ""
report "ratio = API req/s ÷ baseline tx/s at the same concurrency. JVM CPU ms/order = the service's CPU time (utime + stime) from the start of the point until the in-process listener and the relay had done all the work of its orders ÷ orders written (each point starts with nothing left to do); of it JIT = the part spent by the JIT compiler threads. Left undone = event publications of the in-process listener still incomplete, and outbox rows not yet published, 1 s after the load stopped: work deferred past the point's requests (and counted in its CPU); a closed-loop rate that leaves more than a second of orders undone is not one the service can hold."
report "Checks: $(IFS=';'; echo "${CHECKS[*]}" | sed 's/;/; /g')."
report ""
report "By thread (CPU ms per order from the point's start until its work was done, share of the process; threads that ended during the point are missing):"
report ""
for groups in "${CLOSED_GROUPS[@]}"; do
    report "- $groups"
done
report ""
cat "$WORK/openloop.md" >>"$REPORT"
if ((${#PEER_ROWS[@]} > 0)); then
    report "### The outbox's cost: capacity beside a plain dual-write peer"
    report ""
    report "The same step search (${STEP_RATES// /, } req/s, ${STEP_SECONDS} s each; a step held when HTTP and placed → consumer p99 stay below ${P99_LIMIT_MS} ms, every answer is 201, no message is lost and, for the service, its listener and relay left at most a second of orders undone; the peer defers nothing) on the service and on the plain dual-write peer (\`benchmarks/peer\`: the order and its lines in one JDBC transaction, then \`OrderPlaced\` sent with \`RabbitTemplate\` after the commit; same Spring Boot, Tomcat, token checks, tables and JVM flags), $PEER_ROUNDS rounds, interleaved: the service, the peer that does not wait for the broker (\`peer.confirms=none\`), the peer that waits for each message's publisher confirm before answering (\`each\`). The service was warm from the runs above; the peers were warmed up the same way: $PEER_WARMUP_NOTE."
    report ""
    report "| target | round | highest rate held, req/s | HTTP p50 | HTTP p99 | placed → consumer p99 |"
    report "|---|---:|---:|---:|---:|---:|"
    for row in "${PEER_ROWS[@]}"; do report "$row"; done
    report ""
    report "| target | held per round, req/s | median | the service ÷ it |"
    report "|---|---|---:|---:|"
    for row in "${PEER_SUMMARY[@]}"; do report "$row"; done
    report ""
    report "≥: every step held, up to the last of STEP_RATES; a round that held none counts 0 in the median. The service ÷ it: the service's median ÷ this target's median."
    report ""
    report "JVM CPU per order at $OPEN_RATE req/s, open loop for $OPEN_SECONDS s after the warm-up: the service $open_cpu_ms ms (JIT $open_jit_ms; section 8, its listener and relay included), the peer without waiting ${PEER_CPU[none]}, the peer waiting for each confirm ${PEER_CPU[each]}."
    report ""
fi
report "### Where the machine's CPUs went"
report ""
report "CPU ms per order on the whole machine over the same spans as the service's CPU above (a point's start until the in-process listener and the relay had done its work): busy (all CPUs, \`/proc/stat\`), of it the service, $DB_PROCESSES and RabbitMQ (\`beam.smp\`, \`epmd\`) where they run on this host, and the rest (the load generator, the kernel, anything else); idle is the CPUs' unused time over the span. The baseline needs none of the service's, RabbitMQ's or the in-process listener's and relay's database work."
report ""
report "| load | machine busy | the service | $DB_LABEL | RabbitMQ | the rest | idle |"
report "|---|---:|---:|---:|---:|---:|---:|"
for row in "${MACHINE_ROWS[@]}"; do report "$row"; done
report ""
report "### Idle"
report ""
report "- Idle instance: **$idle_tps database transactions/s** ($IDLE_SOURCE, over ${IDLE_SECONDS} s, starting ${RELAY_SETTLE_SECONDS} s after the listener and the relay had done the work of the load$IDLE_NOTE); $pending outbox rows unpublished."
report "- Service RSS after the load: **$rss_mb MB** (VmRSS)."
report ""
report "### Reads the live page polls, with $published_rows published rows in \`outbox_message\`"
report ""
report "| request | p50 | p99 | max |"
report "|---|---:|---:|---:|"
report "| \`GET /outbox/stats\` | $stats_p50 ms | $stats_p99 ms | $stats_max ms |"
report "| \`GET /orders?limit=20\` | $recent_p50 ms | $recent_p99 ms | $recent_max ms |"
report ""
report "200 requests each, one at a time, timed by curl (\`time_total\`, connection included), after 50 untimed."

print_report

log "stopping the service"
stop_service
