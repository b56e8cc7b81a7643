package dev.bookstore.ordering.adapters.persistence.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;

/**
 * MariaDB's one script, {@code V7__ordering_schema.sql}, read without a database: the choices its header lists and
 * the statements and dialect tests rely on (UTC {@code datetime(6)} times, native {@code uuid} ids, byte-wise text,
 * the 64 count slots). The MariaDB ITs run it for real.
 */
class MariaDbSchemaScriptTest {

    private static final String SCRIPT = "db/migration/mariadb/V7__ordering_schema.sql";
    /** Spring Modulith's registry: its own code binds and reads these tables, as its MariaDB schema has them. */
    private static final List<String> MODULITH_TABLES = List.of("EVENT_PUBLICATION", "EVENT_PUBLICATION_ARCHIVE");

    @Test
    void everyStatementParses() {
        List<String> statements = statements();

        assertThat(statements).as("nine tables and the count's slots").hasSize(10);
        statements.forEach(statement -> assertThatNoException().as(statement)
                .isThrownBy(() -> CCJSqlParserUtil.parse(statement)));
    }

    @Test
    void everyTimeOfTheServicesTablesIsADatetimeToTheMicrosecondDefaultingToTheUtcClock() {
        for (String table : serviceTables()) {
            assertThat(table).doesNotContainPattern("(?i)\\btimestamp\\b")
                    .doesNotContainPattern("(?i)datetime(?!\\(6\\))").doesNotContainPattern("(?i)CURRENT_TIMESTAMP")
                    .doesNotContainPattern("(?i)\\bnow\\(")
                    .doesNotContainPattern("(?i)UTC_TIMESTAMP(?!\\(6\\))");
        }
        assertThat(occurrences(script(), "DEFAULT (UTC_TIMESTAMP(6))")).as("created_at, next_attempt_at, "
                + "idempotency_key.created_at, processed_at").isEqualTo(4);
    }

    /** The ids of orders, customers, messages and events; aggregate and book ids are the callers' text. */
    @Test
    void theServicesIdsAreNativeUuids() {
        Matcher ids = Pattern.compile("(?m)^\\s*(id|customer_id|order_id|event_id)\\s+(\\S+)").matcher(script());
        int columns = 0;
        while (ids.find()) {
            assertThat(ids.group(2)).as(ids.group()).isEqualTo("uuid");
            columns++;
        }
        assertThat(columns).as("orders 2, order_line 1, outbox_message 1, idempotency_key 2, the summary's 2")
                .isEqualTo(8);
        assertThat(script()).doesNotContainPattern("(?i)\\b(binary|char)\\(16\\)");
    }

    /** Keys and statuses compare byte for byte, as on PostgreSQL: idempotency keys "A" and "a" are two keys. */
    @Test
    void everyTableIsInnoDbAndTheTablesWithTextKeysCompareThemByteForByte() {
        for (String table : tables()) {
            assertThat(table).as(table.lines().findFirst().orElseThrow()).contains("ENGINE = InnoDB");
        }
        for (String name : List.of("orders", "order_line", "outbox_message", "idempotency_key")) {
            assertThat(table(name)).as(name).endsWith("DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin");
        }
    }

    /** 64 slots, as {@code OutboxDialect.PUBLISHED_COUNT_SLOTS} spreads the count over; all start at 0. */
    @Test
    void thePublishedCountHasItsSixtyFourSlotsAndTheStatusTellsWhetherARowIsPublished() {
        assertThat(table("outbox_published_count")).contains("CHECK (slot BETWEEN 0 AND 63)");
        assertThat(script()).contains(
                "INSERT INTO outbox_published_count (slot, published) SELECT seq, 0 FROM seq_0_to_63;");
        // MariaDB's statistics count unpublished rows by status alone, which this keeps true
        assertThat(table("outbox_message"))
                .contains("CHECK ((status = 'PUBLISHED') = (published_at IS NOT NULL))",
                        "CHECK (status IN ('PENDING', 'PUBLISHED', 'PARKED'))");
    }

    private static List<String> serviceTables() {
        return tables().stream().filter(table -> MODULITH_TABLES.stream()
                .noneMatch(name -> table.startsWith("CREATE TABLE " + name + " ("))).toList();
    }

    private static String table(String name) {
        return tables().stream().filter(table -> table.startsWith("CREATE TABLE " + name + " ("))
                .findFirst().orElseThrow(() -> new AssertionError("no table " + name));
    }

    private static List<String> tables() {
        List<String> tables = statements().stream().filter(statement -> statement.startsWith("CREATE TABLE")).toList();
        assertThat(tables).hasSize(9);
        return tables;
    }

    /** The script's statements without comments, split at their semicolons. */
    private static List<String> statements() {
        return Stream.of(script().replaceAll("(?m)--.*$", "").split(";")).map(String::strip)
                .filter(statement -> !statement.isEmpty()).toList();
    }

    private static int occurrences(String text, String part) {
        Matcher matcher = Pattern.compile(Pattern.quote(part)).matcher(text);
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }

    private static String script() {
        try (InputStream in = MariaDbSchemaScriptTest.class.getClassLoader().getResourceAsStream(SCRIPT)) {
            assertThat(in).as(SCRIPT).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(SCRIPT, e);
        }
    }
}
