package dev.bookstore.ordering.adapters.persistence.testing;

import dev.bookstore.ordering.adapters.persistence.Database;

/**
 * The engines whose servers the integration tests run on, for tests that run once per engine
 * ({@code @ParameterizedClass @EnumSource(TestEngine.class)}): a fresh database, the service's profile for it, and
 * the SQL a test writes for itself where the engines differ.
 */
public enum TestEngine {

    POSTGRESQL(Database.POSTGRESQL, "postgres", "now()", "gen_random_uuid()"),
    MARIADB(Database.MARIADB, "mariadb", "UTC_TIMESTAMP(6)", "uuid()");

    private final Database database;
    private final String profile;
    private final String now;
    private final String randomUuid;

    TestEngine(Database database, String profile, String now, String randomUuid) {
        this.database = database;
        this.profile = profile;
        this.now = now;
        this.randomUuid = randomUuid;
    }

    /** The engine as the service's persistence adapter knows it: how it binds and reads ids and times. */
    public Database database() {
        return database;
    }

    /** A fresh, empty database of its own on this engine's test server. */
    public TestDatabase newDatabase() {
        return switch (this) {
            case POSTGRESQL -> TestPostgres.newDatabase();
            case MARIADB -> TestMariaDb.newDatabase();
        };
    }

    /** The service's Spring profile for this engine. */
    public String profile() {
        return profile;
    }

    /** The database's clock in SQL, as the service's statements read it. */
    public String now() {
        return now;
    }

    /** {@code time} plus {@code millis} milliseconds, both SQL expressions; negative for earlier. */
    public String plusMillis(String time, String millis) {
        return switch (this) {
            case POSTGRESQL -> "(%s + (%s) * interval '1 millisecond')".formatted(time, millis);
            case MARIADB -> "(%s + INTERVAL (%s) * 1000 MICROSECOND)".formatted(time, millis);
        };
    }

    public String plusMillis(String time, long millis) {
        return plusMillis(time, Long.toString(millis));
    }

    /** A new random uuid in SQL. */
    public String randomUuid() {
        return randomUuid;
    }

    /** A text literal (SQL) as a value for a json column: PostgreSQL's {@code jsonb} takes no text unconverted. */
    public String json(String literal) {
        return switch (this) {
            case POSTGRESQL -> "CAST(%s AS jsonb)".formatted(literal);
            case MARIADB -> literal;
        };
    }

    /** A table of the numbers 1 to {@code count} in one column {@code g}, for {@code INSERT ... SELECT ... FROM}. */
    public String series(int count) {
        return switch (this) {
            case POSTGRESQL -> "generate_series(1, %d) AS series(g)".formatted(count);
            case MARIADB -> "(SELECT CAST(seq AS SIGNED) AS g FROM seq_1_to_%d) series".formatted(count);
        };
    }
}
