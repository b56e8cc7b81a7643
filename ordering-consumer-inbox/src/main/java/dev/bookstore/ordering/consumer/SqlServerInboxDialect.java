package dev.bookstore.ordering.consumer;

import java.time.Duration;

/**
 * SQL Server: a plain insert, whose duplicate key error leaves the transaction usable; the oldest rows deleted
 * through a CTE of {@code TOP (n)} read with {@code READPAST}.
 */
final class SqlServerInboxDialect implements InboxDialect {

    /** Parameters: the limit, the age in seconds as a negative int (DATEADD takes an int: 68 years of seconds). */
    @Override
    public String deleteReceivedBefore() {
        return "WITH old AS (SELECT TOP (?) * FROM inbox_message WITH (ROWLOCK, READPAST) "
                + "WHERE received_at < DATEADD(second, ?, SYSDATETIMEOFFSET()) ORDER BY received_at) "
                + "DELETE FROM old";
    }

    @Override
    public Object[] deleteReceivedBeforeParameters(Duration age, int limit) {
        return new Object[] {limit, Math.negateExact(Math.toIntExact(age.toSeconds()))};
    }
}
