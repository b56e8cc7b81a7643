package dev.bookstore.ordering.bootstrap.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a drain costs the database server on this host: the statements sent to one database
 * ({@code pg_stat_statements}, BEGIN and COMMIT included, reset by {@link #start()}), the WAL written
 * ({@code pg_current_wal_insert_lsn()}; with {@code synchronous_commit=off} the write position lags) and the CPU of
 * all the server's processes (the postmaster with the children it reaped, so that ended backends count, and every
 * live child, from {@code /proc/<pid>/stat}). Read through the server's {@code postgres} database, so that the
 * reading is not counted.
 */
final class ServerCost {

    /** Linux's USER_HZ, the unit of the CPU times in {@code /proc/<pid>/stat}. */
    private static final long NANOS_PER_TICK = 10_000_000;

    /** A drain's cost: statements sent to the database, WAL bytes, CPU nanoseconds, the statements by calls. */
    record Spent(long statements, long walBytes, long cpuNanos, List<Map<String, Object>> topStatements) {
    }

    private final JdbcTemplate admin;
    private final String database;
    private final long postmaster;
    private String lsn;
    private long ticks;

    ServerCost(DataSource postgresDatabase, String database) {
        this.admin = new JdbcTemplate(postgresDatabase);
        this.database = database;
        admin.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        this.postmaster = postmasterPid(admin.queryForObject("SHOW data_directory", String.class));
    }

    void start() {
        admin.queryForList("SELECT pg_stat_statements_reset()");
        lsn = admin.queryForObject("SELECT pg_current_wal_insert_lsn()::text", String.class);
        ticks = serverTicks();
    }

    Spent stop() {
        long cpu = (serverTicks() - ticks) * NANOS_PER_TICK;
        long wal = admin.queryForObject("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ?::pg_lsn)::bigint",
                Long.class, lsn);
        List<Map<String, Object>> statements = admin.queryForList("""
                SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query FROM pg_stat_statements
                 WHERE dbid = (SELECT oid FROM pg_database WHERE datname = ?) ORDER BY calls DESC""", database);
        long calls = statements.stream().mapToLong(row -> ((Number) row.get("calls")).longValue()).sum();
        return new Spent(calls, wal, cpu, statements.subList(0, Math.min(6, statements.size())));
    }

    private long serverTicks() {
        return ticks(postmaster) + ProcessHandle.of(postmaster).orElseThrow().children()
                .mapToLong(child -> ticks(child.pid())).sum();
    }

    /** The first line of the data directory's {@code postmaster.pid}. */
    private static long postmasterPid(String dataDirectory) {
        try {
            return Long.parseLong(Files.readAllLines(Path.of(dataDirectory, "postmaster.pid")).get(0).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the postmaster's pid", e);
        }
    }

    /** utime + stime + the reaped children's cutime + cstime; 0 for a process gone meanwhile. */
    private static long ticks(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException gone) {
            return 0;
        }
        // after "pid (comm) ": state is field 0, utime 11, stime 12, cutime 13, cstime 14
        String[] fields = stat.substring(stat.lastIndexOf(") ") + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                + Long.parseLong(fields[14]);
    }
}
