package dev.bookstore.ordering.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import java.util.UUID;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;

/** The inbox statements of every engine, checked without a database, SQL Server's too; the contract ITs run them. */
class InboxDialectTest {

    private static final InboxDialect POSTGRES = new PostgresInboxDialect();
    private static final InboxDialect SQL_SERVER = new SqlServerInboxDialect();
    private static final InboxDialect MARIADB = new MariaDbInboxDialect();
    private static final InboxDialect[] ALL = {POSTGRES, SQL_SERVER, MARIADB};
    private static final Duration WEEK = Duration.ofDays(7);
    private static final UUID MESSAGE = UUID.fromString("0192b7a4-5d1e-7c3a-8000-000000000001");

    @Test
    void theDialectIsChosenByTheProductNameAndAnyOtherEngineFailsNamingIt() {
        assertThat(InboxDialect.of("PostgreSQL")).isInstanceOf(PostgresInboxDialect.class);
        assertThat(InboxDialect.of("Microsoft SQL Server")).isInstanceOf(SqlServerInboxDialect.class);
        assertThat(InboxDialect.of("MariaDB")).isInstanceOf(MariaDbInboxDialect.class);
        assertThatIllegalStateException().isThrownBy(() -> InboxDialect.of("MySQL"))
                .withMessage("The inbox runs on PostgreSQL, Microsoft SQL Server and MariaDB, not MySQL");
    }

    @Test
    void aRedeliveryInsertsNothingOnPostgresAndFailsOnTheKeyOnSqlServerAndMariaDb() {
        assertThat(POSTGRES.recordFirstDelivery()).endsWith("ON CONFLICT (consumer, message_id) DO NOTHING");
        assertThat(SQL_SERVER.recordFirstDelivery())
                .isEqualTo("INSERT INTO inbox_message (consumer, message_id) VALUES (?, ?)");
        // not INSERT IGNORE: that would also store a too-long consumer name cut short, or a null one as ''
        assertThat(MARIADB.recordFirstDelivery())
                .isEqualTo("INSERT INTO inbox_message (consumer, message_id) VALUES (?, ?)");
        assertThat(POSTGRES.recordFirstDeliveryParameters("invoicing", MESSAGE)).containsExactly("invoicing", MESSAGE);
        assertThat(SQL_SERVER.recordFirstDeliveryParameters("invoicing", MESSAGE))
                .containsExactly("invoicing", MESSAGE.toString());
        assertThat(MARIADB.recordFirstDeliveryParameters("invoicing", MESSAGE))
                .containsExactly("invoicing", MESSAGE.toString());
    }

    @Test
    void everyRetentionStatementTakesTheAgeByTheDatabasesClockAndSkipsRowsOthersAreDeleting() {
        assertThat(POSTGRES.deleteReceivedBefore()).contains("received_at < now() - ? * interval '1 second'",
                "ORDER BY received_at", "LIMIT ?", "FOR UPDATE SKIP LOCKED");
        assertThat(SQL_SERVER.deleteReceivedBefore()).contains("TOP (?)", "WITH (ROWLOCK, READPAST)",
                "received_at < DATEADD(second, ?, SYSDATETIMEOFFSET())", "ORDER BY received_at", "DELETE FROM old");
        assertThat(MARIADB.deleteReceivedBefore()).isEqualTo("SELECT consumer, message_id FROM inbox_message "
                + "WHERE received_at < UTC_TIMESTAMP(6) - INTERVAL ? SECOND "
                + "ORDER BY received_at LIMIT ? FOR UPDATE SKIP LOCKED");
    }

    @Test
    void onlyMariaDbDeletesTheRowsItLockedOneByOneByTheirKey() {
        assertThat(MARIADB.deleteLocked())
                .contains("DELETE FROM inbox_message WHERE consumer = ? AND message_id = ?");
        assertThat(MARIADB.deleteReceivedBefore()).startsWith("SELECT consumer, message_id FROM");
        assertThat(POSTGRES.deleteLocked()).isEmpty();
        assertThat(SQL_SERVER.deleteLocked()).isEmpty();
    }

    @Test
    void theParametersComeInTheOrderOfThePlaceholders() {
        assertThat(POSTGRES.deleteReceivedBeforeParameters(WEEK, 500)).containsExactly(604_800L, 500);
        assertThat(SQL_SERVER.deleteReceivedBeforeParameters(WEEK, 500)).containsExactly(500, -604_800);
        assertThat(MARIADB.deleteReceivedBeforeParameters(WEEK, 500)).containsExactly(604_800L, 500);
        for (InboxDialect dialect : ALL) {
            assertThat(placeholders(dialect.deleteReceivedBefore())).isEqualTo(2);
            assertThat(placeholders(dialect.recordFirstDelivery())).isEqualTo(2);
        }
        assertThat(placeholders(MARIADB.deleteLocked().orElseThrow())).isEqualTo(2);
    }

    @Test
    void noEngineBorrowsAnothersSyntax() {
        for (String sql : new String[] {SQL_SERVER.deleteReceivedBefore(), SQL_SERVER.recordFirstDelivery()}) {
            assertThat(sql).doesNotContainPattern("(?i)\\bLIMIT\\b").doesNotContainPattern("(?i)now\\(\\)")
                    .doesNotContainPattern("(?i)interval").doesNotContainPattern("(?i)SKIP\\s+LOCKED")
                    .doesNotContainPattern("(?i)ON\\s+CONFLICT").doesNotContainPattern("(?i)UTC_TIMESTAMP");
        }
        for (String sql : new String[] {POSTGRES.deleteReceivedBefore(), POSTGRES.recordFirstDelivery()}) {
            assertThat(sql).doesNotContainPattern("(?i)\\bTOP\\b").doesNotContainPattern("(?i)DATEADD")
                    .doesNotContainPattern("(?i)READPAST").doesNotContainPattern("(?i)UTC_TIMESTAMP")
                    .doesNotContainPattern("(?i)INTERVAL\\s+\\?");
        }
        // MariaDB's now() is the session's time zone; received_at holds UTC
        for (String sql : new String[] {MARIADB.deleteReceivedBefore(), MARIADB.recordFirstDelivery(),
                MARIADB.deleteLocked().orElseThrow()}) {
            assertThat(sql).doesNotContainPattern("(?i)\\bTOP\\b").doesNotContainPattern("(?i)DATEADD")
                    .doesNotContainPattern("(?i)READPAST").doesNotContainPattern("(?i)SYSDATETIMEOFFSET")
                    .doesNotContainPattern("(?i)now\\(\\)").doesNotContainPattern("(?i)interval\\s+'")
                    .doesNotContainPattern("(?i)ON\\s+CONFLICT").doesNotContainPattern("(?i)\\bIGNORE\\b")
                    .doesNotContainPattern("(?i)AS\\s+uuid");
        }
    }

    @Test
    void everyStatementParsesOnceSqlServersLockHintsAreSetAside() {
        // JSqlParser does not know the hints ROWLOCK, READPAST; they are checked literally above.
        for (InboxDialect dialect : ALL) {
            String delete = dialect.deleteReceivedBefore().replace(" WITH (ROWLOCK, READPAST)", "");
            assertThatNoException().isThrownBy(() -> CCJSqlParserUtil.parse(delete));
            assertThatNoException().isThrownBy(() -> CCJSqlParserUtil.parse(dialect.recordFirstDelivery()));
        }
        assertThatNoException().isThrownBy(() -> CCJSqlParserUtil.parse(MARIADB.deleteLocked().orElseThrow()));
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> CCJSqlParserUtil.parse(
                POSTGRES.deleteReceivedBefore().replace("SKIP LOCKED)", "SKIP LOCKED")))).as("a broken one fails")
                .isNotNull();
    }

    private static long placeholders(String sql) {
        return sql.chars().filter(c -> c == '?').count();
    }
}
