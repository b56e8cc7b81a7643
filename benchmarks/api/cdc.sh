# Sourced by run.sh with CDC=1, in place of its sections 2 to 10: the service with ordering.outbox.relay=polling and
# with =cdc on one scratch PostgreSQL cluster with wal_level=logical (../cdc/logical-cluster.sh says why not the
# machine's server), CDC_ROUNDS rounds, the two modes taking turns. Per mode and round: a fresh database, the service
# started and warmed up, then OPEN_RATE orders/s for OPEN_SECONDS, counted until the listener and the relay are
# done (placedAt → consumer latency; WAL bytes, the service's and the database's CPU and the statements per order),
# then the step search.
[[ $DB == postgres ]] || die "CDC=1 compares the relays on PostgreSQL only"
CDC_ROUNDS=${CDC_ROUNDS:-2}
# shellcheck source=../cdc/logical-cluster.sh
source "$REPO_ROOT/benchmarks/cdc/logical-cluster.sh"
DB_PORT=$(free_port "${CDC_PORT:-55432}")
log "CDC: a scratch cluster with wal_level=logical on port $DB_PORT"
logical_cluster_start "$DB_PORT"
CLK_TCK=$(getconf CLK_TCK)
QUEUE_OUT=$(bench_queue declare) || die "could not declare queue $QUEUE on RabbitMQ"
QUEUE_DECLARED=1
RABBIT_VERSION=$(sed -n 's/^rabbitmq_version=//p' <<<"$QUEUE_OUT")
export AUTH_HEADER

# In cdc mode rows stay pending: what the relay has yet to do is what was stored after its last offset commit.
CDC_BACKLOG_SQL="SELECT count(*) FROM outbox_message
                  WHERE created_at > (SELECT coalesce(max(committed_at), '-infinity') FROM outbox_cdc_offset)"
POLLING_BACKLOG_SQL=$RELAY_BACKLOG_SQL
# The relay's own statements: the polling relay's claims, marks and NOTIFY; the CDC relay's offset commits and lock.
RELAY_SQL="query ~* 'claimed_by|outbox_cdc_offset|advisory_lock|^(NOTIFY|LISTEN) '"
# pg_stat_statements of the benchmark's database as "all relay"
statements() {
    db_bench "SELECT coalesce(sum(calls), 0), coalesce(sum(calls) FILTER (WHERE $RELAY_SQL), 0) FROM pg_stat_statements
               WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
}
# "orders service_ticks cluster_ticks wal_position" now
counters() {
    echo "$(order_count) $(cpu_ticks) $(logical_cluster_ticks) $(db_bench "SELECT pg_current_wal_insert_lsn()")"
}
# The p50 and p99 of a row of OpenLoop's latency table, by the row's start
latency() { awk -F'|' -v row="$2" 'index($2, row) == 2 { gsub(/ /, "", $3); gsub(/ /, "", $4); print $3, $4 }' "$1"; }

CDC_ROWS=()
declare -A CDC_VALUES
EXTRA_BASE=("${EXTRA_ARGS_ARRAY[@]}")
for round in $(seq 1 "$CDC_ROUNDS"); do
    modes=(polling cdc)
    ((round % 2)) || modes=(cdc polling)
    for mode in "${modes[@]}"; do
        log "CDC round $round of $CDC_ROUNDS: relay=$mode"
        create_database >/dev/null
        db_bench "CREATE EXTENSION pg_stat_statements" >/dev/null
        EXTRA_ARGS_ARRAY=("${EXTRA_BASE[@]}" "--ordering.outbox.relay=$mode")
        RELAY_BACKLOG_SQL=$POLLING_BACKLOG_SQL
        [[ $mode == polling ]] || RELAY_BACKLOG_SQL=$CDC_BACKLOG_SQL
        start_service
        URL="$BASE_URL/orders"
        if [[ $mode == cdc ]]; then
            for _ in $(seq 1 60); do
                [[ $(db_bench "SELECT count(*) FROM pg_replication_slots WHERE active") == 1 ]] && break
                pause 1
            done
        fi
        warm_up "$URL" "$SERVICE_PID" await_drained
        bench_queue purge >/dev/null

        out="$WORK/cdc-round$round-$mode.md"
        await_drained
        db_bench "SELECT pg_stat_statements_reset()" >/dev/null
        read -r orders0 cpu0 db0 lsn0 <<<"$(counters)"
        fixed_rate "$URL" "$out"
        await_drained
        read -r orders1 cpu1 db1 lsn1 <<<"$(counters)"
        wal=$(db_bench "SELECT pg_wal_lsn_diff('$lsn1', '$lsn0')")
        read -r all relay <<<"$(statements | tr '|' ' ')"
        log "  $mode: the statements that took the server longest (calls, ms, statement):"
        db_bench "SELECT calls, round(total_exec_time), left(regexp_replace(query, '\s+', ' ', 'g'), 80)
                    FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 8" | sed 's/^/    /'
        n=$((orders1 - orders0))
        bench_queue purge >/dev/null
        step_search "$URL" "$out" --jdbc-url "$(jdbc_url)" --jdbc-user "$DB_USER" \
            --backlog-sql "SELECT ($LISTENER_BACKLOG_SQL) + ($RELAY_BACKLOG_SQL)"
        IFS='|' read -r held _ <<<"$(held_step "$out")"
        stop_service
        [[ $mode == polling ]] || db_admin "SELECT pg_drop_replication_slot('ordering_outbox')" >/dev/null

        read -r http50 http99 <<<"$(latency "$out" "HTTP:")"
        read -r placed50 placed99 <<<"$(latency "$out" "placed → consumer")"
        lost=$(grep -o 'lost: [0-9]*' "$out" | head -1 | cut -d' ' -f2)
        row=$(awk -v n="$n" -v hz="$CLK_TCK" -v svc="$((cpu1 - cpu0))" -v db="$((db1 - db0))" -v wal="$wal" \
            -v all="$all" -v relay="$relay" 'BEGIN {
                printf "%.0f|%.2f|%.2f|%.1f|%.3f", wal / n, svc * 1000 / hz / n, db * 1000 / hz / n, all / n, relay / n }')
        IFS='|' read -r wal_per svc_ms db_ms all_per relay_per <<<"$row"
        log "  $mode: placed → consumer p50 $placed50 p99 $placed99, HTTP p99 $http99, lost $lost; per order: WAL $wal_per B," \
            "service $svc_ms ms, PostgreSQL $db_ms ms CPU, $all_per statements ($relay_per the relay's); held ${held:-none} req/s"
        CDC_ROWS+=("| $mode | $round | $placed50 / $placed99 | $http50 / $http99 | $lost | ${held:-none} | $wal_per | $svc_ms | $db_ms | $all_per | $relay_per |")
        held=${held:-0}
        for key in placed99 held wal_per svc_ms db_ms all_per relay_per; do
            value=${!key}
            CDC_VALUES[$mode.$key]+=" ${value%ms}"
        done
    done
done

report "## Polling against CDC, $(date '+%Y-%m-%d %H:%M %Z')"
report ""
report "- Machine: $(nproc) CPUs ($(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)); PostgreSQL $(db_version), a scratch cluster with \`wal_level=logical\` and otherwise PostgreSQL's defaults (autovacuum on); RabbitMQ ${RABBIT_VERSION:-unknown}; all on one host."
report "- Service: $(basename "$JAR"), \`--ordering.outbox.relay=polling\` or \`cdc\`, JVM flags \`${JVM_FLAGS[*]}\`; a fresh database, start and warm-up per mode and round ($CDC_ROUNDS rounds, the modes taking turns)."
report "- Open loop $OPEN_RATE orders/s for $OPEN_SECONDS s; per order over it, until the listener and the relay were done: WAL (\`pg_current_wal_insert_lsn()\`), the service's CPU, the cluster's CPU (all its processes), statements (\`pg_stat_statements\`, BEGIN and COMMIT included) and of them the relay's (claims, marks, \`NOTIFY\`; offset commits, the leader lock). Then the step search (${STEP_RATES// /, } req/s, ${STEP_SECONDS} s each, p99 < ${P99_LIMIT_MS} ms)."
report ""
report "| relay | round | placed → consumer p50 / p99 | HTTP p50 / p99 | lost | held req/s | WAL B/order | service CPU ms/order | PostgreSQL CPU ms/order | statements/order | of them the relay's |"
report "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for row in "${CDC_ROWS[@]}"; do report "$row"; done
report ""
report "| medians | placed → consumer p99 ms | held req/s | WAL B/order | service CPU ms/order | PostgreSQL CPU ms/order | statements/order | of them the relay's |"
report "|---|---:|---:|---:|---:|---:|---:|---:|"
for mode in polling cdc; do
    cells=""
    for key in placed99 held wal_per svc_ms db_ms all_per relay_per; do
        # shellcheck disable=SC2086
        cells+=" $(printf '%.4g' "$(median ${CDC_VALUES[$mode.$key]})") |"
    done
    report "| $mode |$cells"
done
print_report
stop_service
