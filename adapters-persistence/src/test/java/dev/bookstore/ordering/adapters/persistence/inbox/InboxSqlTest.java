package dev.bookstore.ordering.adapters.persistence.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;

/** The inbox retention statements, checked without a database, SQL Server's too; the contract IT runs PostgreSQL's. */
class InboxSqlTest {

    private static final Duration WEEK = Duration.ofDays(7);

    @Test
    void bothStatementsTakeTheAgeByTheDatabasesClockAndSkipRowsOthersAreDeleting() {
        assertThat(InboxSql.POSTGRES_DELETE_OLD).contains("received_at < now() - ? * interval '1 second'",
                "ORDER BY received_at", "LIMIT ?", "FOR UPDATE SKIP LOCKED");
        assertThat(InboxSql.SQL_SERVER_DELETE_OLD).contains("TOP (?)", "WITH (ROWLOCK, READPAST)",
                "received_at < DATEADD(second, ?, SYSDATETIMEOFFSET())", "ORDER BY received_at", "DELETE FROM old");
    }

    @Test
    void theParametersComeInTheOrderOfThePlaceholders() {
        assertThat(InboxSql.postgresParameters(WEEK, 500)).containsExactly(604_800L, 500);
        assertThat(InboxSql.sqlServerParameters(WEEK, 500)).containsExactly(500, -604_800);
        assertThat(placeholders(InboxSql.POSTGRES_DELETE_OLD)).isEqualTo(2);
        assertThat(placeholders(InboxSql.SQL_SERVER_DELETE_OLD)).isEqualTo(2);
    }

    @Test
    void neitherBorrowsTheOthersSyntax() {
        assertThat(InboxSql.SQL_SERVER_DELETE_OLD).doesNotContainPattern("(?i)\\bLIMIT\\b")
                .doesNotContainPattern("(?i)now\\(\\)").doesNotContainPattern("(?i)interval")
                .doesNotContainPattern("(?i)SKIP\\s+LOCKED").doesNotContain("ctid");
        assertThat(InboxSql.POSTGRES_DELETE_OLD).doesNotContainPattern("(?i)\\bTOP\\b")
                .doesNotContainPattern("(?i)DATEADD").doesNotContainPattern("(?i)READPAST");
    }

    @Test
    void bothParseOnceSqlServersLockHintsAreSetAside() {
        // JSqlParser does not know the hints ROWLOCK, READPAST; they are checked literally above.
        assertThatNoException().isThrownBy(() -> CCJSqlParserUtil.parse(InboxSql.POSTGRES_DELETE_OLD));
        assertThatNoException().isThrownBy(() -> CCJSqlParserUtil.parse(
                InboxSql.SQL_SERVER_DELETE_OLD.replace(" WITH (ROWLOCK, READPAST)", "")));
    }

    private static long placeholders(String sql) {
        return sql.chars().filter(c -> c == '?').count();
    }
}
