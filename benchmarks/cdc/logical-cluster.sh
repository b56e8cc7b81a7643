# A scratch PostgreSQL cluster with wal_level=logical on a port of its own, for the CDC measurements; sourced by
# benchmarks/api/run.sh (CDC=1) and benchmarks/cdc/writer-delete.sh. The machine's server is left alone: switching
# its wal_level needs a restart, which would cut off every other client of a shared server, and a run that died
# before restoring it would leave it changed. The cluster lives in a temporary directory, runs with PostgreSQL's
# defaults (autovacuum on) plus wal_level=logical and pg_stat_statements, and is removed by logical_cluster_stop
# (call it from an EXIT trap). Run as root (the server then runs as user postgres) or as the postgres user.

LOGICAL_BIN=$(pg_config --bindir)
LOGICAL_DIR=""

as_postgres() {
    if [[ $(id -u) == 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# logical_cluster_start PORT: initdb into a temporary directory and start the server on 127.0.0.1:PORT.
logical_cluster_start() {
    LOGICAL_DIR=$(mktemp -d /tmp/logical-cluster.XXXXXX)
    [[ $(id -u) != 0 ]] || chown postgres "$LOGICAL_DIR"
    as_postgres "$LOGICAL_BIN/initdb" -D "$LOGICAL_DIR/data" -U postgres -A trust --no-sync >"$LOGICAL_DIR/initdb.log"
    cat >>"$LOGICAL_DIR/data/postgresql.conf" <<EOF
port = $1
listen_addresses = '127.0.0.1'
unix_socket_directories = '$LOGICAL_DIR'
wal_level = logical
max_replication_slots = 4
max_wal_senders = 4
shared_preload_libraries = 'pg_stat_statements'
EOF
    as_postgres "$LOGICAL_BIN/pg_ctl" -D "$LOGICAL_DIR/data" -l "$LOGICAL_DIR/server.log" -w start >/dev/null
}

logical_cluster_stop() {
    [[ -n $LOGICAL_DIR ]] || return 0
    as_postgres "$LOGICAL_BIN/pg_ctl" -D "$LOGICAL_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$LOGICAL_DIR"
    LOGICAL_DIR=""
}

# The cluster's CPU in clock ticks: the postmaster with the children it reaped (backends that ended) and every live
# child (backends, walsenders, autovacuum, checkpointer, ...).
logical_cluster_ticks() {
    local postmaster p t ticks=0
    postmaster=$(head -1 "$LOGICAL_DIR/data/postmaster.pid")
    for p in "$postmaster" $(pgrep -P "$postmaster" || true); do
        t=$(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null | awk '{print $12 + $13 + $14 + $15}') || true
        ticks=$((ticks + ${t:-0}))
    done
    echo "$ticks"
}
