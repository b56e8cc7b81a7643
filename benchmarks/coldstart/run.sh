#!/usr/bin/env bash
# Cold start under load: how long from a fresh JVM's process start until the service holds 200 orders/s, for
# Java 17 as packaged, Java 17 with an AppCDS archive and JDK 25 with an AOT cache, each started STARTS times,
# interleaved, in one run. See docs/cold-start.md.
#
#   benchmarks/coldstart/run.sh [JAR]
#
# For every start: the database emptied, a fresh service JVM, and from the moment /actuator/health/readiness
# answers 200, RATE orders/s open loop for LOAD_SECONDS from a client JVM that warmed itself up at the beginning of
# the run, reported in WINDOW-second windows: HTTP p50/p99, placedAt-to-consumer p99, errors, lost, and the service's
# CPU with the JIT compiler's share. Then the times from the process start to readiness and to the first window from
# which every later window holds (HTTP and consumer p99 < P99_LIMIT_MS, no error, nothing lost).
#
# Knobs (environment):
#   JAR                 the packaged jar (bootstrap/target/ordering-service.jar; built if missing)
#   VARIANTS            plain17 cds17 aot25 (also plain25: JDK 25 without a cache); a variant's name with a "w"
#                       appended (aot25w) runs WARMUP_SECONDS of orders at WARMUP_RATE from readiness on before the
#                       measured load: what exercising the request path before readiness could give at best, its
#                       time counted in the time to held
#   WARMUP_SECONDS (20)  WARMUP_RATE (200 orders/s)
#   STARTS (3)  RATE (200 orders/s)  LOAD_SECONDS (150)  WINDOW (10 s)  P99_LIMIT_MS (50)  SETTLE (5 s between starts)
#   CLIENT_WARMUP (60 s) at CLIENT_WARMUP_RATE (250 orders/s), against a throw-away instance
#   TRAINING (traffic | start-up), TRAIN_SECONDS (80), TRAIN_RATE (200): the training runs, see train.sh
#   STEP_RATES ("200 400 600 800 1000 1200 1600"), STEP_SECONDS (10): after the last start of each variant, the API
#   benchmark's step search against that instance (empty STEP_RATES: none)
#   PROFILE=1: after the measured starts, one more per variant with a flight recording of its first 60 s and
#   windows of PROFILE_WINDOW (2) s, not in the medians
#   JAVA17 (java), JAVA25 (a Temurin 25 under /usr/lib/jvm), SERVICE_JVM (the service's flags), VACUUM_EVERY (30 s,
#   where autovacuum is off), PORT (18480), CHART (docs/cold-start.svg; empty: no chart), DB_HOST, DB_PORT, DB_USER,
#   RABBIT_HOST, RABBIT_PORT
#
# Everything goes to benchmarks/coldstart/target/run-<timestamp>/: result.md (the report), console.log, the
# service's logs, the windows and CPU samples of every start, the archive and the cache.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/../.." && pwd)
API_DIR="$REPO_ROOT/benchmarks/api"
CALLER_DIR=$PWD
cd "$REPO_ROOT"

DEFAULT_JAR=bootstrap/target/ordering-service.jar
JAR=${JAR:-${1:-$DEFAULT_JAR}}
VARIANTS=${VARIANTS:-plain17 cds17 aot25}
STARTS=${STARTS:-3}
RATE=${RATE:-200}
SECONDS_LOAD=${LOAD_SECONDS:-150}
WINDOW=${WINDOW:-10}
P99_LIMIT_MS=${P99_LIMIT_MS:-50}
CLIENT_WARMUP=${CLIENT_WARMUP:-60}
CLIENT_WARMUP_RATE=${CLIENT_WARMUP_RATE:-250}
TRAINING=${TRAINING:-traffic}
TRAIN_SECONDS=${TRAIN_SECONDS:-80}
TRAIN_RATE=${TRAIN_RATE:-200}
SETTLE=${SETTLE:-5}
WARMUP_SECONDS=${WARMUP_SECONDS:-20}
WARMUP_RATE=${WARMUP_RATE:-200}
STEP_RATES=${STEP_RATES-200 400 600 800 1000 1200 1600}
STEP_SECONDS=${STEP_SECONDS:-10}
PROFILE=${PROFILE:-0}
PROFILE_WINDOW=${PROFILE_WINDOW:-2}
JAVA17=${JAVA17:-java}
if [[ -z ${JAVA25:-} ]]; then
    for candidate in /usr/lib/jvm/temurin-25-jdk-*/bin/java /usr/lib/jvm/*-25-*/bin/java /usr/lib/jvm/java-25*/bin/java; do
        [[ -x $candidate ]] && JAVA25=$candidate && break
    done
fi
JAVA25=${JAVA25:-}
SERVICE_JVM=${SERVICE_JVM:--Xmx256m -Xms64m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000}
VACUUM_EVERY=${VACUUM_EVERY:-30}
PORT=${PORT:-18480}
CHART=${CHART-docs/cold-start.svg}
DB_HOST=${DB_HOST:-127.0.0.1}
DB_PORT=${DB_PORT:-5432}
DB_USER=${DB_USER:-postgres}
RABBIT_HOST=${RABBIT_HOST:-127.0.0.1}
RABBIT_PORT=${RABBIT_PORT:-5672}

DB_NAME=ordering_coldstart
QUEUE=bench.coldstart
EXCHANGE=bookstore.ordering
CUSTOMER=0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60
AUDIENCE=ordering-service

WORK="$BENCH_DIR/target"
STAMP=$(date +%Y%m%d-%H%M%S)
RUN="$WORK/run-$STAMP"
mkdir -p "$RUN"
RUN_LOG="$RUN/console.log"
RESULT="$RUN/result.md"
exec > >(tee -i -a "$RUN_LOG") 2>&1
exec {CONSOLE}>&1

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() {
    log "ERROR: $*"
    exit 1
}
rel() { printf '%s' "${1#"$REPO_ROOT"/}"; }

declare -A LABEL=([plain17]="Java 17, packaged jar" [cds17]="Java 17, AppCDS archive" [aot25]="JDK 25, AOT cache"
    [plain25]="JDK 25, packaged jar")
for v in plain17 cds17 aot25 plain25; do
    LABEL[${v}w]="${LABEL[$v]}, ${WARMUP_SECONDS} s at ${WARMUP_RATE}/s first"
done
base() { echo "${1%w}"; } # the variant's JVM and files, without the warm-up

SERVICE_PID=""
SAMPLER_PID=""
VACUUM_PID=""
CLIENT_STARTED=0
QUEUE_DECLARED=0
DB_CREATED=0
CLEANED=0

stop_pid() { # pid: SIGTERM, at most 60 s, then SIGKILL
    local pid=$1 i
    kill -TERM "$pid" 2>/dev/null || return 0
    for i in $(seq 1 120); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    kill -0 "$pid" 2>/dev/null && {
        log "process $pid did not stop within 60 s; killing it"
        kill -KILL "$pid" 2>/dev/null
    }
    wait "$pid" 2>/dev/null || true
}
stop_background() { # the CPU sampler and the VACUUM stand-in of a start
    local pid
    for pid in $SAMPLER_PID $VACUUM_PID; do
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    SAMPLER_PID="" VACUUM_PID=""
}
cleanup() {
    local status=$?
    [[ $CLEANED == 1 ]] && return 0
    CLEANED=1
    trap - EXIT INT TERM
    set +e
    exec >&"$CONSOLE" 2>&1
    stop_background
    if [[ -n $SERVICE_PID ]]; then
        log "stopping the service (pid $SERVICE_PID)"
        stop_pid "$SERVICE_PID"
    fi
    if [[ $CLIENT_STARTED == 1 && -n ${CLIENT_PID:-} ]]; then
        echo quit >&"${CLIENT[1]}" 2>/dev/null
        sleep 1
        kill -TERM "$CLIENT_PID" 2>/dev/null
    fi
    [[ $QUEUE_DECLARED == 1 ]] && bench_queue delete >/dev/null 2>&1
    [[ $DB_CREATED == 1 ]] && psql_admin "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null 2>&1
    [[ $status == 0 ]] || log "FAILED (exit $status); console log: $(rel "$RUN_LOG")"
    exit "$status"
}
trap cleanup EXIT
trap 'log "interrupted" >&"$CONSOLE"; exit 130' INT
trap 'log "terminated" >&"$CONSOLE"; exit 143' TERM

psql_admin() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d postgres -Atc "$1"; }
psql_run() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d "$DB_NAME" -Atc "$1"; }

# ---------------------------------------------------------------------------------------------------------------
# Prerequisites, the jar, its extracted form
# ---------------------------------------------------------------------------------------------------------------
log "cold-start benchmark; console log: $(rel "$RUN_LOG")"
for tool in "$JAVA17" psql curl awk sort; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done
for v in $VARIANTS; do
    [[ -n ${LABEL[$v]:-} ]] || die "unknown variant $v (plain17, cds17, aot25, plain25)"
done
BASE_VARIANTS=" $(for v in $VARIANTS; do base "$v"; done | tr '\n' ' ')" # without the w, each between spaces
[[ $BASE_VARIANTS != *25\ * || -x $JAVA25 ]] || die "no JDK 25 found: set JAVA25 to its bin/java"
source "$REPO_ROOT/benchmarks/ensure-tool.sh"
[[ -z $CHART ]] || ensure_tool gnuplot gnuplot-nox "set CHART= for no chart"
psql_admin "SELECT 1" >/dev/null || die "PostgreSQL does not answer on $DB_HOST:$DB_PORT (user $DB_USER)"
timeout 5 bash -c "exec 3<>/dev/tcp/$RABBIT_HOST/$RABBIT_PORT" 2>/dev/null ||
    die "RabbitMQ does not answer on $RABBIT_HOST:$RABBIT_PORT"
if [[ $JAR != /* ]]; then
    if [[ -f "$CALLER_DIR/$JAR" ]]; then JAR="$CALLER_DIR/$JAR"; else JAR="$REPO_ROOT/$JAR"; fi
fi
if [[ ! -f $JAR ]]; then
    [[ $JAR == "$REPO_ROOT/$DEFAULT_JAR" ]] || die "jar not found: $JAR"
    log "building $DEFAULT_JAR (./mvnw -B -q -DskipTests package)"
    ./mvnw -B -q -DskipTests package
fi
APP="$RUN/app"
"$JAVA17" -Djarmode=tools -jar "$JAR" extract --destination "$APP" >/dev/null || die "could not extract $JAR"
log "extracted $(basename "$JAR") to $(rel "$APP") (Spring Boot's tools jar mode)"
CP=$(printf '%s:' "$APP"/lib/amqp-client-*.jar "$APP"/lib/slf4j-api-*.jar "$APP"/lib/netty-*.jar "$APP"/lib/postgresql-*.jar)
bench_queue() { "$JAVA17" -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$API_DIR/BenchQueue.java" "$RABBIT_HOST" "$RABBIT_PORT" "$QUEUE" "$EXCHANGE" "$1"; }
HZ=$(getconf CLK_TCK)

# ---------------------------------------------------------------------------------------------------------------
# Training runs: the AppCDS archive (Java 17) and the AOT cache (JDK 25), each with TRAIN_SECONDS of orders
# ---------------------------------------------------------------------------------------------------------------
CDS_ARCHIVE="$RUN/ordering-service.jsa"
AOT_CACHE="$RUN/ordering-service.aot"
export DB_HOST DB_PORT DB_USER RABBIT_HOST RABBIT_PORT TRAINING TRAIN_SECONDS TRAIN_RATE SERVICE_JVM
if [[ $BASE_VARIANTS == *" cds17 "* ]]; then
    JAVA=$JAVA17 DRIVER_JAVA=$JAVA17 DB_NAME=${DB_NAME}_training PORT=$((PORT + 1)) \
        "$BENCH_DIR/train.sh" cds "$APP" "$CDS_ARCHIVE" || die "the AppCDS training run failed"
fi
if [[ $BASE_VARIANTS == *" aot25 "* ]]; then
    JAVA=$JAVA25 DRIVER_JAVA=$JAVA17 DB_NAME=${DB_NAME}_training PORT=$((PORT + 1)) \
        "$BENCH_DIR/train.sh" aot "$APP" "$AOT_CACHE" || die "the AOT cache training run failed"
fi

# ---------------------------------------------------------------------------------------------------------------
# Database, token, queue, the client
# ---------------------------------------------------------------------------------------------------------------
psql_admin "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null
psql_admin "CREATE DATABASE $DB_NAME" >/dev/null
DB_CREATED=1
AUTOVACUUM=$(psql_admin "SHOW autovacuum")
if [[ $AUTOVACUUM == on ]]; then
    VACUUM_EVERY=0
    VACUUM_NOTE="PostgreSQL's autovacuum is on."
elif ((VACUUM_EVERY > 0)); then
    VACUUM_NOTE="PostgreSQL's autovacuum is off on this server; in its place the benchmark ran \`VACUUM (ANALYZE)\` of its database every $VACUUM_EVERY s from each process start."
else
    VACUUM_NOTE="PostgreSQL's autovacuum is off on this server and nothing stood in for it."
fi
export AUTH_HEADER
AUTH_HEADER="Bearer $("$JAVA17" "$API_DIR/MintToken.java" "$RUN/token-key.pem" "$CUSTOMER" "orders orders.admin" "$AUDIENCE")"
QUEUE_OUT=$(bench_queue declare) || die "could not declare queue $QUEUE"
QUEUE_DECLARED=1
RABBIT_VERSION=$(sed -n 's/^rabbitmq_version=//p' <<<"$QUEUE_OUT")

mkdir -p "$RUN/client"
javac -nowarn -cp "$CP" -d "$RUN/client" "$API_DIR/OpenLoop.java" "$BENCH_DIR/ColdStartClient.java" ||
    die "could not compile the client"
coproc CLIENT { exec "$JAVA17" -cp "$RUN/client:$CP" -Dslf4j.internal.verbosity=ERROR ColdStartClient \
    --amqp-host "$RABBIT_HOST" --amqp-port "$RABBIT_PORT" --queue "$QUEUE" --rate "$RATE" --seconds "$SECONDS_LOAD" \
    --window-seconds "$WINDOW" --p99-limit-ms "$P99_LIMIT_MS" \
    --jdbc-url "jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME" --jdbc-user "$DB_USER" \
    --backlog-sql "SELECT (SELECT count(*) FROM event_publication)
                        + (SELECT count(*) FROM outbox_message WHERE published_at IS NULL AND status <> 'PARKED')" \
    2>>"$RUN/client.log"; }
CLIENT_STARTED=1
client() { # command -> the client's answer line
    local answer
    echo "$*" >&"${CLIENT[1]}"
    IFS= read -r -t $((SECONDS_LOAD + CLIENT_WARMUP + 600)) answer <&"${CLIENT[0]}" || die "the client did not answer"
    printf '%s' "$answer"
}

BASE_URL="http://127.0.0.1:$PORT"
read -r -a SERVICE_JVM_ARRAY <<<"$SERVICE_JVM"
APP_ARGS=(--spring.profiles.active=postgres
    "--spring.datasource.url=jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME" "--spring.datasource.username=$DB_USER"
    "--spring.rabbitmq.host=$RABBIT_HOST" "--spring.rabbitmq.port=$RABBIT_PORT" "--server.port=$PORT"
    "--spring.security.oauth2.resourceserver.jwt.public-key-location=file:$RUN/token-key.pem"
    "--spring.security.oauth2.resourceserver.jwt.audiences=$AUDIENCE")

# the command line of a variant; the archive or cache is demanded (-Xshare:on, -XX:AOTMode=on), so that a start
# that could not use it fails instead of being measured without it
variant_java() {
    case $(base "$1") in
    plain17 | cds17) echo "$JAVA17" ;;
    aot25 | plain25) echo "$JAVA25" ;;
    esac
}
variant_flags() {
    case $(base "$1") in
    plain17 | plain25) echo "" ;;
    cds17) echo "-XX:SharedArchiveFile=$CDS_ARCHIVE -Xshare:on" ;;
    aot25) echo "-XX:AOTCache=$AOT_CACHE -XX:AOTMode=on" ;;
    esac
}
variant_dir() { [[ $1 == plain* ]] && echo "$RUN" || echo "$APP"; }
variant_jar() { [[ $1 == plain* ]] && echo "$JAR" || echo ordering-service.jar; }

start_service() { # variant log -> SERVICE_PID, T0_MS
    local v=$1 flags
    read -r -a flags <<<"$(variant_flags "$v")"
    T0_MS=$(date +%s%3N)
    (cd "$(variant_dir "$v")" && exec "$(variant_java "$v")" "${SERVICE_JVM_ARRAY[@]}" "${flags[@]}" \
        -jar "$(variant_jar "$v")" "${APP_ARGS[@]}") >"$2" 2>&1 &
    SERVICE_PID=$!
}

# utime + stime of the whole process, and of its JIT compiler threads and its GC/VM threads (live ones), and the
# whole machine's busy and steal time (all CPUs, /proc/stat), in clock ticks, once a second:
# "epoch_ms process jit gc machine_busy machine_steal"
sample_cpu() {
    local pid=$1
    trap 'kill $! 2>/dev/null; exit 0' TERM
    while [[ -r /proc/$pid/stat ]]; do
        {
            printf '%s ' "$(date +%s%3N)"
            awk 'FILENAME == "/proc/stat" { if ($1 == "cpu") { busy = $2 + $3 + $4 + $7 + $8; steal = $9 } next }
                 FNR == 1 {
                    lp = index($0, "("); rp = 0; rest = $0
                    while ((k = index(rest, ")")) > 0) { rp += k; rest = substr(rest, k + 1) }
                    comm = substr($0, lp + 1, rp - lp - 1)
                    split(substr($0, rp + 2), f, " "); t = f[12] + f[13]
                    if (FILENAME ~ /task/) {
                        if (comm ~ /^C[12] CompilerThre/) jit += t
                        else if (comm ~ /^(GC Thread|VM Thread|G1 )/) gc += t
                    } else total = t
                 }
                 END { print total + 0, jit + 0, gc + 0, busy + 0, steal + 0 }' \
                /proc/stat "/proc/$pid/stat" /proc/"$pid"/task/*/stat 2>/dev/null
        } >>"$2"
        sleep 1 &
        wait $!
    done
}
vacuum_standin() {
    trap 'kill $! 2>/dev/null; exit 0' TERM
    while true; do
        sleep "$VACUUM_EVERY" &
        wait $!
        psql_run "VACUUM (ANALYZE)" >/dev/null 2>&1 &
        wait $!
    done
}

reset_database() { # every table but Flyway's emptied, then analyzed: each start finds the same database
    local tables
    tables=$(psql_run "SELECT string_agg(format('%I', tablename), ', ') FROM pg_tables
                        WHERE schemaname = 'public' AND tablename <> 'flyway_schema_history'")
    [[ -z $tables ]] || psql_run "TRUNCATE $tables CASCADE" >/dev/null
    psql_run "VACUUM ANALYZE" >/dev/null
}

# ---------------------------------------------------------------------------------------------------------------
# The client's warm-up, against a throw-away instance (which also creates the schema)
# ---------------------------------------------------------------------------------------------------------------
log "throw-away instance (Java 17, packaged jar): creates the schema; the client warms up against it, $CLIENT_WARMUP s at $CLIENT_WARMUP_RATE orders/s"
start_service plain17 "$RUN/service-warmup.log"
answer=$(client warmup "$BASE_URL" "$CLIENT_WARMUP" "$CLIENT_WARMUP_RATE")
log "  client $answer"
[[ $answer == ok* ]] || die "the client's warm-up failed"
stop_pid "$SERVICE_PID"
SERVICE_PID=""

# ---------------------------------------------------------------------------------------------------------------
# The starts: STARTS rounds, the variants in a rotating order
# ---------------------------------------------------------------------------------------------------------------
read -r -a VARIANT_LIST <<<"$VARIANTS"
NV=${#VARIANT_LIST[@]}
: >"$RUN/starts.txt" # variant start ready_ms held_ms t0_epoch_ms
for ((round = 1; round <= STARTS; round++)); do
    for ((k = 0; k < NV; k++)); do
        v=${VARIANT_LIST[$(((round - 1 + k) % NV))]}
        id="$v-$round"
        reset_database
        bench_queue purge >/dev/null
        sleep "$SETTLE"
        log "start $round of $v (${LABEL[$v]}): $(basename "$(variant_java "$v")") $SERVICE_JVM $(variant_flags "$v" | sed "s|$RUN/||g") -jar $(basename "$(variant_jar "$v")")"
        start_service "$v" "$RUN/service-$id.log"
        sample_cpu "$SERVICE_PID" "$RUN/cpu-$id.txt" &
        SAMPLER_PID=$!
        if ((VACUUM_EVERY > 0)); then
            vacuum_standin &
            VACUUM_PID=$!
        fi
        warmup=0
        [[ $v == *w ]] && warmup=$WARMUP_SECONDS
        answer=$(client measure "$BASE_URL" "$T0_MS" "$RUN/windows-$id.txt" "$WINDOW" "$warmup" "$WARMUP_RATE")
        if ((round == STARTS)) && [[ -n $STEP_RATES ]] && [[ $answer == ok* ]]; then
            log "  step search against this instance: ${STEP_RATES// /, } orders/s, $STEP_SECONDS s each"
            steps=$(client steps "$BASE_URL" "$RUN/steps-$v.txt" "$STEP_SECONDS" "$(tr ' ' , <<<"$STEP_RATES")")
            log "  $steps"
        fi
        stop_background
        if ! kill -0 "$SERVICE_PID" 2>/dev/null; then
            tail -n 20 "$RUN/service-$id.log"
            die "the service of $id exited during the measurement; log: $(rel "$RUN/service-$id.log")"
        fi
        stop_pid "$SERVICE_PID"
        SERVICE_PID=""
        [[ $answer == ok* ]] || die "$id: client: $answer"
        ready_ms=$(sed -n 's/.*ready_ms=\([-0-9]*\).*/\1/p' <<<"$answer")
        held_ms=$(sed -n 's/.*held_ms=\([-0-9]*\).*/\1/p' <<<"$answer")
        echo "$v $round $ready_ms $held_ms $T0_MS" >>"$RUN/starts.txt"
        log "  readiness after $(awk -v m="$ready_ms" 'BEGIN { printf "%.1f", m / 1000 }') s; held from $(awk -v m="$held_ms" 'BEGIN { if (m < 0) print "– (never)"; else printf "%.1f s", m / 1000 }')"
        awk '!/^#/ { printf "    %2d  %6.1f-%6.1f s  HTTP p50 %7.2f p99 %8.2f  consumer p99 %8.2f  errors %d%s lost %d%s\n",
                     $1, $2 / 1000, $3 / 1000, $7, $8, $10, $12 + $13 + $14, $17 == "-" ? "" : " (" $17 ")", $15, $16 ? "" : "  (fails)" }' "$RUN/windows-$id.txt"
    done
done
# The first minute profiled: one more start per variant, not in the medians, with a flight recording started by
# jcmd as soon as the JVM takes it (-XX:StartFlightRecording would add the jdk.jfr module, and a JDK 25 JVM drops
# an AOT cache recorded without it) and windows of PROFILE_WINDOW s.
if [[ $PROFILE == 1 ]]; then
    for v in "${VARIANT_LIST[@]}"; do
        reset_database
        bench_queue purge >/dev/null
        sleep "$SETTLE"
        log "profile of $v: a flight recording of the first 60 s (jcmd JFR.start, settings=profile), windows of $PROFILE_WINDOW s; not in the medians"
        jcmd="$(dirname "$(readlink -f "$(command -v "$(variant_java "$v")")")")/jcmd"
        start_service "$v" "$RUN/service-$v-profile.log"
        (for _ in $(seq 1 50); do
            "$jcmd" "$SERVICE_PID" JFR.start settings=profile duration=60s filename="$RUN/profile-$v.jfr" >/dev/null 2>&1 && exit 0
            sleep 0.1
        done) &
        answer=$(client measure "$BASE_URL" "$T0_MS" "$RUN/profile-$v.txt" "$PROFILE_WINDOW")
        stop_pid "$SERVICE_PID"
        SERVICE_PID=""
        [[ $answer == ok* ]] || die "profile of $v: client: $answer"
        awk '!/^#/ && $2 < 30000 { printf "    %6.1f-%6.1f s  HTTP p99 %8.2f  consumer p99 %8.2f  errors %d lost %d\n",
                     $2 / 1000, $3 / 1000, $8, $10, $12 + $13 + $14, $15 }' "$RUN/profile-$v.txt"
    done
    log "recordings: $(rel "$RUN")/profile-*.jfr (e.g. jfr view hot-methods, jfr print --events jdk.Compilation)"
fi
client quit >/dev/null || true
CLIENT_STARTED=0

# ---------------------------------------------------------------------------------------------------------------
# The report: medians of the starts, the median start's windows with the service's CPU, the chart
# ---------------------------------------------------------------------------------------------------------------
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
secs() { awk -v m="$1" 'BEGIN { if (m == "nan" || m < 0 || m == "inf") print "–"; else printf "%.1f s", m / 1000 }'; }
msfmt() { awk -v v="$1" 'BEGIN { if (v == "nan" || v == "") print "–"; else if (v < 10) printf "%.2f ms", v; else if (v < 100) printf "%.1f ms", v; else printf "%.0f ms", v }'; }
window_value() { awk -v w="$2" -v c="$3" '!/^#/ && $1 == w { print $c }' "$RUN/windows-$1.txt"; }

# one line per window, "window service_cpu_percent jit_percent_of_it machine_busy_percent", from the samples of
# the start (CPU in % of one core)
cpu_windows() {
    awk -v hz="$HZ" 'NR == FNR { t[NR] = $1; p[NR] = $2; j[NR] = $3; m[NR] = $5; n = NR; next }
        /^#/ { next }
        {
            a = 1; b = 1
            for (i = 1; i <= n; i++) { if (t[i] <= $4) a = i; if (t[i] <= $5) b = i }
            dt = (t[b] - t[a]) / 1000; dp = p[b] - p[a]; dj = j[b] - j[a]; dm = m[b] - m[a]
            if (dt <= 0 || dp <= 0) { print $1, "nan", "nan", "nan"; next }
            printf "%d %.0f %.0f %.0f\n", $1, 100 * dp / hz / dt, 100 * dj / dp, 100 * dm / hz / dt
        }' "$RUN/cpu-$1.txt" "$RUN/windows-$1.txt"
}

cpu_model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem_total=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
pg_version=$(psql_admin "SHOW server_version")
java17_version=$("$JAVA17" -version 2>&1 | head -n 1)
java25_version=$([[ -x $JAVA25 ]] && "$JAVA25" -version 2>&1 | sed -n 2p || echo "–")
first_windows=2

{
    echo "## Cold start at $RATE orders/s"
    echo
    echo "- Machine: $(nproc) CPUs ($cpu_model), $mem_total RAM; PostgreSQL $pg_version; RabbitMQ ${RABBIT_VERSION:-unknown}; service, servers and client on the same host."
    echo "- JVMs: $java17_version; $java25_version. Service flags: \`$SERVICE_JVM\`."
    echo "- Per start: database emptied (every table but Flyway's truncated, then \`VACUUM ANALYZE\`), a fresh JVM, and from the first 200 of \`/actuator/health/readiness\` $RATE orders/s open loop for $SECONDS_LOAD s from a client JVM that warmed up for $CLIENT_WARMUP s at the beginning of the run; windows of $WINDOW s by intended send time. $STARTS starts per variant, interleaved in a rotating order. $VACUUM_NOTE"
    echo "- Training runs (\`benchmarks/coldstart/train.sh\`): $([[ $TRAINING == traffic ]] && echo "the extracted jar started with the recording flag, $TRAIN_RATE orders/s for $TRAIN_SECONDS s, then SIGTERM" || echo "start-up only, \`-Dspring.context.exit=onRefresh\`"); the AppCDS archive on Java 17 (\`-XX:ArchiveClassesAtExit\`), the AOT cache on JDK 25 (\`-XX:AOTCacheOutput\`)."
    echo "- Held: the start of the first window from which every later window has HTTP p99 and placed → consumer p99 below $P99_LIMIT_MS ms, no error and nothing lost."
    echo
    echo "| variant | start → readiness | start → held | window 1: HTTP p99 / consumer p99 | window 2 | starts (readiness / held) |"
    echo "|---|---:|---:|---:|---:|---|"
} >"$RESULT"

declare -A MEDIAN_START
for v in "${VARIANT_LIST[@]}"; do
    ready_med=$(awk -v v="$v" '$1 == v { print $3 }' "$RUN/starts.txt" | median)
    held_med=$(awk -v v="$v" '$1 == v { print ($4 < 0 ? 1e12 : $4) }' "$RUN/starts.txt" | median)
    held_med=$(awk -v m="$held_med" 'BEGIN { print (m >= 1e11 ? -1 : m) }') # a median next to "never" is never
    cells=()
    for w in $(seq 1 "$first_windows"); do
        hp=$(for r in $(awk -v v="$v" '$1 == v { print $2 }' "$RUN/starts.txt"); do window_value "$v-$r" "$w" 8; done | median)
        cp=$(for r in $(awk -v v="$v" '$1 == v { print $2 }' "$RUN/starts.txt"); do window_value "$v-$r" "$w" 10; done | median)
        cells+=("$(msfmt "$hp") / $(msfmt "$cp")")
    done
    each=$(awk -v v="$v" '$1 == v { printf "%s%.1f / %s", sep, $3 / 1000, ($4 < 0 ? "–" : sprintf("%.1f", $4 / 1000)); sep = "; " }' "$RUN/starts.txt")
    printf '| %s | **%s** | **%s** | %s | %s | %s s |\n' "${LABEL[$v]}" "$(secs "$ready_med")" \
        "$(awk -v m="$held_med" 'BEGIN { if (m < 0) print "not held"; else printf "%.1f s", m / 1000 }')" \
        "${cells[0]}" "${cells[1]}" "$each" >>"$RESULT"
    # the median start: by held time (never held last), then readiness
    MEDIAN_START[$v]=$(awk -v v="$v" '$1 == v { print ($4 < 0 ? 1e12 : $4), $3, $2 }' "$RUN/starts.txt" | sort -g -k1,1 -k2,2 |
        awk '{ r[NR] = $3 } END { print r[int((NR + 1) / 2)] }')
done
{
    echo
    echo "Medians of $STARTS starts; window 1 begins at readiness. Per start, in seconds since its process start."
    echo
} >>"$RESULT"

for v in "${VARIANT_LIST[@]}"; do
    r=${MEDIAN_START[$v]}
    id="$v-$r"
    ready_ms=$(awk -v v="$v" -v r="$r" '$1 == v && $2 == r { print $3 }' "$RUN/starts.txt")
    t0=$(awk -v v="$v" -v r="$r" '$1 == v && $2 == r { print $5 }' "$RUN/starts.txt")
    read -r cpu_s jit_s <<<"$(awk -v hz="$HZ" -v until="$((t0 + ready_ms))" \
        '$1 <= until { p = $2; j = $3 } END { printf "%.1f %.1f\n", p / hz, j / hz }' "$RUN/cpu-$id.txt")"
    {
        echo "### ${LABEL[$v]}: the median start (start $r)"
        echo
        echo "Readiness $(secs "$ready_ms") after the process start, having used $cpu_s s of CPU by then (of it the JIT compiler threads $jit_s s)."
        echo
        echo "| window | since process start | HTTP p50 | HTTP p99 | HTTP max | consumer p99 | errors | lost | service CPU | of it JIT | machine CPU | holds |"
        echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
        awk 'NR == FNR { cpu[$1] = $2; jit[$1] = $3; busy[$1] = $4; next }
             /^#/ { next }
             { printf "| %d | %.0f–%.0f s | %s | %s | %s | %s | %s | %d | %s | %s | %s | %s |\n", $1, $2 / 1000, $3 / 1000,
                   f($7), f($8), f($9), f($10), err($12 + $13 + $14, $12, $17), $15, pct(cpu[$1]), pct(jit[$1]),
                   pct(busy[$1]), ($16 ? "yes" : "no") }
             function f(v) { if (v == "nan") return "–"; if (v < 10) return sprintf("%.2f ms", v); if (v < 100) return sprintf("%.1f ms", v); return sprintf("%.0f ms", v) }
             function err(n, non201, codes) { if (non201 == 0) return n; gsub(/x/, "×", codes); gsub(/,/, ", ", codes); return n " (" codes ")" }
             function pct(v) { return (v == "" || v == "nan") ? "–" : v " %" }' <(cpu_windows "$id") "$RUN/windows-$id.txt"
        echo
    } >>"$RESULT"
done
echo "Errors: answers other than 201 (status × count), I/O errors and requests never sent. Lost: answered 201, message never received. Service CPU: the service process's CPU time over the window in % of one core (2 cores: 200 %); of it JIT: the share of the C1/C2 compiler threads (those alive at the window's end); machine CPU: all processes on the machine (the service, PostgreSQL, RabbitMQ, the client and anything else), in % of one core." >>"$RESULT"

if compgen -G "$RUN/steps-*.txt" >/dev/null; then
    {
        echo
        echo "### Step search after the load of each variant's last start"
        echo
        echo "The API benchmark's open-loop step search ($STEP_SECONDS s per step) against the instance of each variant's last start, right after its $SECONDS_LOAD s of load: a step is held when HTTP and placed → consumer p99 stay below $P99_LIMIT_MS ms, nothing fails or is lost, and at most a second of orders is left undone (listener and relay backlog) at the step's end. The search stops at the first step that fails."
        echo
        echo "| variant | highest rate held | steps: rate (HTTP p99 / consumer p99 / undone) |"
        echo "|---|---:|---|"
        for v in "${VARIANT_LIST[@]}"; do
            [[ -s $RUN/steps-$v.txt ]] || continue
            awk -v label="${LABEL[$v]}" '!/^#/ { if ($6 == 1) held = $1; cells = cells sep $1 " (" $3 " / " $4 " ms / " $5 ")" ($6 == 1 ? "" : " fails"); sep = "; " }
                END { printf "| %s | %s | %s |\n", label, held == "" ? "none" : held "/s", cells }' "$RUN/steps-$v.txt"
        done
    } >>"$RESULT"
fi

if [[ -n $CHART ]]; then
    [[ $CHART == /* ]] || CHART="$REPO_ROOT/$CHART"
    "$BENCH_DIR/chart.sh" "$RUN" "$CHART" "$P99_LIMIT_MS" || die "the chart failed"
    log "chart: $(rel "$CHART")"
fi

echo
echo "----- 8< -----"
cat "$RESULT"
echo "----- 8< -----"
log "saved to $(rel "$RESULT")"
