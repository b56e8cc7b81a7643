#!/usr/bin/env bash
# In cdc mode outbox rows are never updated. Who deletes them: the retention, later, by age (what the service
# does), or the writer, in the order's own transaction (the WAL keeps the insert, which is all the log reader
# reads)? This measures both with pgbench on a scratch cluster with wal_level=logical (logical-cluster.sh), a
# logical slot read meanwhile by pg_recvlogical as the CDC relay would read it:
#
#   retention      benchmarks/api/order.pgb (the service's writes of one order); then the retention's DELETE in
#                  chunks of 1,000 (JdbcCapturedMessageRetention's statement) until the outbox is empty; VACUUM
#   writer-delete  the same order plus DELETE of its outbox row in the same transaction and round trip; VACUUM
#
# Per variant and round: orders/s, WAL bytes and the server's CPU per order, for the writes and for the clean-up
# (retention and vacuum) apart, and the outbox's size after the writes. Interleaved rounds, medians printed.
#
#   benchmarks/cdc/writer-delete.sh          # knobs: ROUNDS (3), SECONDS_EACH (20), CLIENTS (8), PORT (55432)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/../.." && pwd)
ROUNDS=${ROUNDS:-3}
SECONDS_EACH=${SECONDS_EACH:-20}
CLIENTS=${CLIENTS:-8}
PORT=${PORT:-55432}
CHUNK=1000
CLK_TCK=$(getconf CLK_TCK)
WORK=$(mktemp -d /tmp/writer-delete.XXXXXX)
RECEIVER=""

# shellcheck source=logical-cluster.sh
source "$BENCH_DIR/logical-cluster.sh"
finish() {
    [[ -z $RECEIVER ]] || kill "$RECEIVER" 2>/dev/null || true
    logical_cluster_stop
    rm -rf "$WORK"
}
trap finish EXIT

sql() { psql -h 127.0.0.1 -p "$PORT" -U postgres -X -q -At -v ON_ERROR_STOP=1 -d bench -c "$1"; }
lsn() { sql "SELECT pg_current_wal_insert_lsn()"; }
wal_since() { sql "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$1')"; }

# The two scripts from the service's: the outbox row gets an id derived from the order's, so that the writer can
# delete it; otherwise both send what order.pgb sends.
sed "s/VALUES (gen_random_uuid(), 'order', /VALUES (md5(:r::text || 'outbox')::uuid, 'order', /" \
    "$REPO_ROOT/benchmarks/api/order.pgb" >"$WORK/retention.pgb"
grep -q "md5(:r::text || 'outbox')" "$WORK/retention.pgb" || {
    echo "order.pgb changed: its outbox insert is not where this script expects it" >&2
    exit 1
}
sed 's/^\\endpipeline$/DELETE FROM outbox_message WHERE id = md5(:r::text || '"'outbox'"')::uuid;\n\\endpipeline/' \
    "$WORK/retention.pgb" >"$WORK/writer-delete.pgb"

logical_cluster_start "$PORT"
psql -h 127.0.0.1 -p "$PORT" -U postgres -X -q -c "CREATE DATABASE bench"
for migration in $(ls "$REPO_ROOT"/adapters-persistence/src/main/resources/db/migration/postgresql/V*.sql | sort -V); do
    psql -h 127.0.0.1 -p "$PORT" -U postgres -X -q -v ON_ERROR_STOP=1 -d bench -f "$migration" >/dev/null
done
pg_recvlogical -h 127.0.0.1 -p "$PORT" -U postgres -d bench --slot bench --create-slot -P pgoutput
pg_recvlogical -h 127.0.0.1 -p "$PORT" -U postgres -d bench --slot bench --start -o proto_version=1 \
    -o publication_names=ordering_outbox -f /dev/null &
RECEIVER=$!

# One variant: CHECKPOINT (both start without pending full-page writes), the writes, then the clean-up. Prints
# "orders tps write_wal write_ticks cleanup_wal cleanup_ticks outbox_bytes".
measure() {
    local variant=$1 start ticks tps orders write_wal write_ticks outbox_bytes deleted
    sql "CHECKPOINT"
    start=$(lsn)
    ticks=$(logical_cluster_ticks)
    # Custom plans in both: a generic plan of the writer's DELETE, made while the outbox was empty, scans the whole
    # table (0.4 x the orders/s, 3.2 x the server's CPU per order in a run with pgbench's default).
    tps=$(PGOPTIONS="-c plan_cache_mode=force_custom_plan" pgbench -h 127.0.0.1 -p "$PORT" -U postgres -n -M prepared -c "$CLIENTS" -j 2 -T "$SECONDS_EACH" \
        -f "$WORK/$variant.pgb" bench 2>&1 | awk '/^tps = .*without initial/ { print $3 }')
    write_wal=$(wal_since "$start")
    write_ticks=$(($(logical_cluster_ticks) - ticks))
    orders=$(sql "SELECT count(*) FROM orders")
    outbox_bytes=$(sql "SELECT pg_total_relation_size('outbox_message')")
    start=$(lsn)
    ticks=$(logical_cluster_ticks)
    if [[ $variant == retention ]]; then
        deleted=$CHUNK
        while ((deleted > 0)); do
            deleted=$(sql "WITH gone AS (DELETE FROM outbox_message WHERE id IN (SELECT id FROM outbox_message
                             WHERE status <> 'PARKED' AND created_at < now() ORDER BY position LIMIT $CHUNK)
                           RETURNING 1) SELECT count(*) FROM gone")
        done
    fi
    sql "VACUUM outbox_message"
    echo "$orders $tps $write_wal $write_ticks $(wal_since "$start") $(($(logical_cluster_ticks) - ticks)) $outbox_bytes"
    sql "TRUNCATE orders, order_line, event_publication"
}

echo "PostgreSQL $(sql 'SHOW server_version'), wal_level=$(sql 'SHOW wal_level'), $(nproc) CPUs" \
    "($(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)); $CLIENTS clients, $SECONDS_EACH s per run"
printf '%-14s %5s %8s %8s %12s %14s %12s %14s %12s\n' variant round orders "orders/s" "write WAL B" \
    "write CPU us" "clean WAL B" "clean CPU us" "outbox kB"
for round in $(seq 1 "$ROUNDS"); do
    # alternate who goes first
    variants=(retention writer-delete)
    ((round % 2)) || variants=(writer-delete retention)
    for variant in "${variants[@]}"; do
        read -r orders tps ww wt cw ct ob < <(measure "$variant")
        awk -v v="$variant" -v r="$round" -v n="$orders" -v tps="$tps" -v ww="$ww" -v wt="$wt" -v cw="$cw" \
            -v ct="$ct" -v ob="$ob" -v hz="$CLK_TCK" 'BEGIN {
                printf "%-14s %5d %8d %8.0f %12.0f %14.0f %12.0f %14.0f %12.0f\n", v, r, n, tps, ww / n,
                    wt * 1e6 / hz / n, cw / n, ct * 1e6 / hz / n, ob / 1024 }' | tee -a "$WORK/rows"
    done
done
col_median() {
    awk -v v="$1" -v c="$2" '$1 == v { print $c }' "$WORK/rows" | sort -g |
        awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
echo "medians per order (WAL bytes, the server's CPU in us; writes + clean-up = total):"
for variant in retention writer-delete; do
    awk -v v="$variant" -v tps="$(col_median "$variant" 4)" -v ww="$(col_median "$variant" 5)" \
        -v wt="$(col_median "$variant" 6)" -v cw="$(col_median "$variant" 7)" -v ct="$(col_median "$variant" 8)" \
        -v ob="$(col_median "$variant" 9)" 'BEGIN {
            printf "%-14s %6.0f orders/s  WAL %5.0f + %4.0f = %5.0f B  CPU %4.0f + %4.0f = %4.0f us  outbox %.0f kB\n",
                v, tps, ww, cw, ww + cw, wt, ct, wt + ct, ob }'
done
