package dev.bookstore.ordering.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import java.util.UUID;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;

/** The inbox statements of both engines, checked without a database, SQL Server's too; the contract ITs run them. */
class InboxDialectTest {

    private static final InboxDialect POSTGRES = new PostgresInboxDialect();
    private static final InboxDialect SQL_SERVER = new SqlServerInboxDialect();
    private static final Duration WEEK = Duration.ofDays(7);
    private static final UUID MESSAGE = UUID.fromString("0192b7a4-5d1e-7c3a-8000-000000000001");

    @Test
    void theDialectIsChosenByTheProductNameAndAnyOtherEngineFailsNamingIt() {
        assertThat(InboxDialect.of("PostgreSQL")).isInstanceOf(PostgresInboxDialect.class);
        assertThat(InboxDialect.of("Microsoft SQL Server")).isInstanceOf(SqlServerInboxDialect.class);
        assertThatIllegalStateException().isThrownBy(() -> InboxDialect.of("MariaDB")).withMessageContaining("MariaDB");
    }

    @Test
    void aRedeliveryInsertsNothingOnPostgresAndFailsOnTheKeyOnSqlServer() {
        assertThat(POSTGRES.recordFirstDelivery()).endsWith("ON CONFLICT (consumer, message_id) DO NOTHING");
        assertThat(SQL_SERVER.recordFirstDelivery())
                .isEqualTo("INSERT INTO inbox_message (consumer, message_id) VALUES (?, ?)");
        assertThat(POSTGRES.recordFirstDeliveryParameters("invoicing", MESSAGE)).containsExactly("invoicing", MESSAGE);
        assertThat(SQL_SERVER.recordFirstDeliveryParameters("invoicing", MESSAGE))
                .containsExactly("invoicing", MESSAGE.toString());
    }

    @Test
    void bothRetentionStatementsTakeTheAgeByTheDatabasesClockAndSkipRowsOthersAreDeleting() {
        assertThat(POSTGRES.deleteReceivedBefore()).contains("received_at < now() - ? * interval '1 second'",
                "ORDER BY received_at", "LIMIT ?", "FOR UPDATE SKIP LOCKED");
        assertThat(SQL_SERVER.deleteReceivedBefore()).contains("TOP (?)", "WITH (ROWLOCK, READPAST)",
                "received_at < DATEADD(second, ?, SYSDATETIMEOFFSET())", "ORDER BY received_at", "DELETE FROM old");
    }

    @Test
    void theParametersComeInTheOrderOfThePlaceholders() {
        assertThat(POSTGRES.deleteReceivedBeforeParameters(WEEK, 500)).containsExactly(604_800L, 500);
        assertThat(SQL_SERVER.deleteReceivedBeforeParameters(WEEK, 500)).containsExactly(500, -604_800);
        for (InboxDialect dialect : new InboxDialect[] {POSTGRES, SQL_SERVER}) {
            assertThat(placeholders(dialect.deleteReceivedBefore())).isEqualTo(2);
            assertThat(placeholders(dialect.recordFirstDelivery())).isEqualTo(2);
        }
    }

    @Test
    void neitherBorrowsTheOthersSyntax() {
        for (String sql : new String[] {SQL_SERVER.deleteReceivedBefore(), SQL_SERVER.recordFirstDelivery()}) {
            assertThat(sql).doesNotContainPattern("(?i)\\bLIMIT\\b").doesNotContainPattern("(?i)now\\(\\)")
                    .doesNotContainPattern("(?i)interval").doesNotContainPattern("(?i)SKIP\\s+LOCKED")
                    .doesNotContainPattern("(?i)ON\\s+CONFLICT");
        }
        for (String sql : new String[] {POSTGRES.deleteReceivedBefore(), POSTGRES.recordFirstDelivery()}) {
            assertThat(sql).doesNotContainPattern("(?i)\\bTOP\\b").doesNotContainPattern("(?i)DATEADD")
                    .doesNotContainPattern("(?i)READPAST");
        }
    }

    @Test
    void everyStatementParsesOnceSqlServersLockHintsAreSetAside() {
        // JSqlParser does not know the hints ROWLOCK, READPAST; they are checked literally above.
        for (InboxDialect dialect : new InboxDialect[] {POSTGRES, SQL_SERVER}) {
            String delete = dialect.deleteReceivedBefore().replace(" WITH (ROWLOCK, READPAST)", "");
            assertThatNoException().isThrownBy(() -> CCJSqlParserUtil.parse(delete));
            assertThatNoException().isThrownBy(() -> CCJSqlParserUtil.parse(dialect.recordFirstDelivery()));
        }
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> CCJSqlParserUtil.parse(
                POSTGRES.deleteReceivedBefore().replace("SKIP LOCKED)", "SKIP LOCKED")))).as("a broken one fails")
                .isNotNull();
    }

    private static long placeholders(String sql) {
        return sql.chars().filter(c -> c == '?').count();
    }
}
