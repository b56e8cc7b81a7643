package dev.bookstore.ordering.adapters.persistence.inbox;

import java.time.Duration;

/**
 * The inbox's retention statement of each database: a chunk of the oldest rows, by the database's clock, skipping
 * rows another instance is deleting at the same moment, so instances purging at once never wait for each other.
 */
final class InboxSql {

    /** Parameters: the age in seconds, the limit. */
    static final String POSTGRES_DELETE_OLD = """
            DELETE FROM inbox_message
             WHERE (consumer, message_id) IN (
                   SELECT consumer, message_id FROM inbox_message
                    WHERE received_at < now() - ? * interval '1 second'
                    ORDER BY received_at
                    LIMIT ?
                    FOR UPDATE SKIP LOCKED)""";

    /** Parameters: the limit, the age in seconds as a negative int (DATEADD takes an int: 68 years of seconds). */
    static final String SQL_SERVER_DELETE_OLD = """
            WITH old AS (
                SELECT TOP (?) * FROM inbox_message WITH (ROWLOCK, READPAST)
                 WHERE received_at < DATEADD(second, ?, SYSDATETIMEOFFSET())
                 ORDER BY received_at)
            DELETE FROM old""";

    private InboxSql() {
    }

    static Object[] postgresParameters(Duration age, int limit) {
        return new Object[] {age.toSeconds(), limit};
    }

    static Object[] sqlServerParameters(Duration age, int limit) {
        return new Object[] {limit, Math.negateExact(Math.toIntExact(age.toSeconds()))};
    }
}
