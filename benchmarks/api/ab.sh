#!/usr/bin/env bash
# Interleaved comparison of service jars under the order API's load: all run at once, each on its own database, and
# closed-loop wrk points (post-order.lua) go to each in turn, so that the machine's noise falls on all alike.
#
#   ab.sh A.jar B.jar [C.jar ...]    knobs: POINTS (rounds, 5), C (connections, 32), DURATION (s, 15),
#                                    WARMUP (s per jar, 90), RATE (orders/s: open-loop points instead of wrk),
#                                    ARGS_A, ARGS_B, ... (the service's extra arguments per jar), WARMUP_C
#
# The same jar may be given twice, with different ARGS_*, to compare settings.
# Per point: wrk's req/s and p50/p99 (with RATE: OpenLoop.java at RATE orders/s, its HTTP p50/p99), and the service's CPU (utime + stime) from the point's start until its
# in-process listener and relay had done the work of its orders, per order written, and the share of its request
# (http-nio-*) and listener (ordering-events-*) threads. Every database is vacuumed before every point (the machine's
# server runs without autovacuum). Prints one line per point and the medians.
set -euo pipefail
JARS=("$@")
NAMES=(A B C D E F)
VARIANTS=("${NAMES[@]:0:${#JARS[@]}}")
POINTS=${POINTS:-5} C=${C:-32} DURATION=${DURATION:-15} WARMUP=${WARMUP:-90}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=$REPO/benchmarks/api
log() { echo "ab: $*" >&2; }
die() { log "$*"; exit 1; }
source "$REPO/benchmarks/ensure-tool.sh"
ensure_tool wrk wrk
WORK=${WORK:-$(mktemp -d)}
QUEUE=bench.ab EXCHANGE=bookstore.ordering CUSTOMER=0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60
HZ=$(getconf CLK_TCK)
declare -A PID PORT DB JAR
for i in "${!VARIANTS[@]}"; do
    v=${VARIANTS[$i]} PORT[$v]=$((18181 + i)) DB[$v]=ordering_ab_${v,,} JAR[$v]=${JARS[$i]}
done

psql_db() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -h 127.0.0.1 -U postgres -d "$1" -Atc "$2"; }
mkdir -p "$WORK/lib"
RATE=${RATE:-}
unzip -j -o -q "${JARS[0]}" 'BOOT-INF/lib/amqp-client-*.jar' 'BOOT-INF/lib/slf4j-api-*.jar' 'BOOT-INF/lib/netty-*.jar' \
    -d "$WORK/lib"
[[ -z $RATE ]] || javac -nowarn -cp "$(printf '%s:' "$WORK"/lib/*.jar)" -d "$WORK/client" "$BENCH/OpenLoop.java"
CP=$(printf '%s:' "$WORK"/lib/*.jar)
queue() { java -cp "$CP" -Dslf4j.internal.verbosity=ERROR "$BENCH/BenchQueue.java" 127.0.0.1 5672 "$QUEUE" "$EXCHANGE" "$1" >/dev/null; }
AUDIENCE=ordering-service
export AUTH_HEADER="Bearer $(java "$BENCH/MintToken.java" "$WORK/key.pem" "$CUSTOMER" "orders orders.admin" "$AUDIENCE")"

cleanup() {
    set +e
    for v in "${VARIANTS[@]}"; do [[ -n ${PID[$v]:-} ]] && kill "${PID[$v]}" 2>/dev/null; done
    wait
    queue delete || true
    for v in "${VARIANTS[@]}"; do psql_db postgres "DROP DATABASE IF EXISTS ${DB[$v]} WITH (FORCE)" || true; done
}
trap cleanup EXIT

queue declare
for v in "${VARIANTS[@]}"; do
    psql_db postgres "DROP DATABASE IF EXISTS ${DB[$v]} WITH (FORCE)"
    psql_db postgres "CREATE DATABASE ${DB[$v]}"
    args_var=ARGS_$v
    read -r -a extra <<<"${!args_var:-}"
    java -Xmx256m -Xms64m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000 -jar "${JAR[$v]}" "${extra[@]}" \
        --spring.profiles.active=postgres "--spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/${DB[$v]}" \
        --spring.datasource.username=postgres "--server.port=${PORT[$v]}" \
        "--spring.security.oauth2.resourceserver.jwt.public-key-location=file:$WORK/key.pem" \
        "--spring.security.oauth2.resourceserver.jwt.audiences=$AUDIENCE" \
        >"$WORK/service-$v.log" 2>&1 &
    PID[$v]=$!
done
for v in "${VARIANTS[@]}"; do
    until [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:${PORT[$v]}/actuator/health" || true) == 200 ]]; do
        kill -0 "${PID[$v]}" || { tail -30 "$WORK/service-$v.log"; exit 1; }
        sleep 1
    done
done

drained() { # variant: waits until its listener and relay have nothing left (at most 120 s)
    local i
    for i in $(seq 1 240); do
        [[ $(psql_db "${DB[$1]}" "SELECT (SELECT count(*) FROM event_publication)
              + (SELECT count(*) FROM outbox_message WHERE published_at IS NULL AND status <> 'PARKED')") == 0 ]] && return
        sleep 0.5
    done
    echo "WARNING: $1 not drained after 120 s" >&2
}
cpu() { sed 's/^.*) //' "/proc/${PID[$1]}/stat" | awk '{print $12 + $13}'; }
threads() { # variant thread-name-prefix -> CPU ticks of its live threads with that name
    local t ticks total=0
    for t in /proc/"${PID[$1]}"/task/*; do
        [[ $(cat "$t/comm" 2>/dev/null) == "$2"* ]] || continue
        ticks=$(sed 's/^.*) //' "$t/stat" 2>/dev/null | awk '{print $12 + $13}') # empty if the thread just ended
        total=$((total + ${ticks:-0}))
    done
    echo "$total"
}
point() { # variant seconds -> "rps p50 p99 cpu_ms_per_order http_ms events_ms behind"
    local v=$1 d=$2 o0 o1 c0 c1 out=$WORK/wrk.out behind
    drained "$v"
    psql_db "${DB[$v]}" "VACUUM ANALYZE" ; queue purge
    o0=$(psql_db "${DB[$v]}" "SELECT count(*) FROM orders"); c0=$(cpu "$v")
    h0=$(threads "$v" http-nio); e0=$(threads "$v" ordering-event)
    if [[ -n $RATE ]]; then # OpenLoop's HTTP latencies in wrk's format, for the summary below
        java -cp "$WORK/client:$CP" -Dslf4j.internal.verbosity=ERROR OpenLoop --url "http://127.0.0.1:${PORT[$v]}/orders" \
            --queue "$QUEUE" --rate "$RATE" --seconds "$d" --warmup-seconds 0 2>/dev/null |
            awk -v r="$RATE" -F' *[|] *' '/^[|] HTTP/ { gsub(/ /, "", $3); gsub(/ /, "", $4); print "Requests/sec: " r; print "50% " $3; print "99% " $4 }' >"$out"
    else
        wrk -t2 -c"$C" -d"${d}s" --timeout 10s --latency -s "$BENCH/post-order.lua" "http://127.0.0.1:${PORT[$v]}/orders" >"$out"
    fi
    behind=$(psql_db "${DB[$v]}" "SELECT count(*) FROM event_publication")
    drained "$v"
    c1=$(cpu "$v"); o1=$(psql_db "${DB[$v]}" "SELECT count(*) FROM orders")
    h1=$(threads "$v" http-nio); e1=$(threads "$v" ordering-event)
    awk -v h="$((h1 - h0))" -v e="$((e1 - e0))" -v c="$((c1 - c0))" -v hz="$HZ" -v n="$((o1 - o0))" -v b="$behind" '
        function ms(x) { if (x ~ /us$/) return x / 1000; if (x ~ /ms$/) return x + 0; if (x ~ /s$/) return x * 1000 }
        /^Requests\/sec:/ { rps = $2 } $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
        END { printf "%.0f %.2f %.2f %.3f %.3f %.3f %d\n", rps, p50, p99, c * 1000 / hz / n, h * 1000 / hz / n, e * 1000 / hz / n, b }' "$out"
}

# With RATE, the warm-up runs wrk at 8 connections: at 32, the API's pool runs dry on this 2-core machine and a
# listener that cannot complete its publication leaves it for the staleness monitor (minutes), so no point drains.
WARMUP_C=${WARMUP_C:-$([[ -n $RATE ]] && echo 8 || echo "$C")}
echo "warm-up: $WARMUP s per jar at $WARMUP_C connections, alternating" >&2
for round in 1 2 3; do for v in "${VARIANTS[@]}"; do
    RATE="" C=$WARMUP_C point "$v" $((WARMUP / 3)) >/dev/null
done; done

printf '%-5s %-2s %8s %8s %8s %12s %8s %8s %8s\n' round jar "req/s" "p50 ms" "p99 ms" "CPU ms/order" http events behind
for i in $(seq 1 "$POINTS"); do
    n=${#VARIANTS[@]}
    for ((k = 0; k < n; k++)); do
        v=${VARIANTS[$(((i + k) % n))]}
        read -r rps p50 p99 cpu http events behind <<<"$(point "$v" "$DURATION")"
        printf '%-5s %-2s %8s %8s %8s %12s %8s %8s %8s\n' "$i" "$v" "$rps" "$p50" "$p99" "$cpu" "$http" "$events" "$behind"
        echo "$v $rps $p50 $p99 $cpu $http $events $behind" >>"$WORK/points"
    done
done
echo "medians ($POINTS points each, $C connections, $DURATION s; CPU per order counted until drained):"
for v in "${VARIANTS[@]}"; do
    for col in 2 3 4 5 6 7 8; do awk -v v="$v" -v c="$col" '$1 == v { print $c }' "$WORK/points" | sort -g |
        awk '{ a[NR] = $1 } END { printf "%s ", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; done |
        awk -v v="$v" '{ printf "%s: %s req/s, p50 %s ms, p99 %s ms, %s CPU ms/order (request threads %s, listener threads %s), %s listener runs behind\n", v, $1, $2, $3, $4, $5, $6, $7 }'
done
