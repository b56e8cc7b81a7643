package dev.bookstore.ordering.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import dev.bookstore.ordering.domain.order.Order;
import java.util.Map;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The order statements of every engine, checked without a database, so SQL Server's are checked where no SQL
 * Server runs. {@code *OrderPersistenceAdapterIT} runs them on PostgreSQL and MariaDB.
 */
class OrderSqlTest {

    private static final OrderDialect POSTGRES = OrderDialect.of(Database.POSTGRESQL);
    private static final OrderDialect SQL_SERVER = OrderDialect.of(Database.SQL_SERVER);
    private static final OrderDialect MARIADB = OrderDialect.of(Database.MARIADB);

    private static final Map<String, String> STATEMENTS = Map.of(
            "insert order", OrderSql.INSERT_ORDER,
            "insert line", OrderSql.INSERT_LINE,
            "find by id", OrderSql.FIND_BY_ID,
            "update status", OrderSql.UPDATE_STATUS,
            "newest first", OrderSql.NEWEST_FIRST,
            "newest first of a customer", OrderSql.NEWEST_FIRST_OF_CUSTOMER);

    @Test
    void everyStatementParses() {
        STATEMENTS.forEach((name, sql) -> assertThatNoException().as(name)
                .isThrownBy(() -> CCJSqlParserUtil.parse(sql)));
    }

    @Test
    void everyStatementHasThePlaceholdersTheAdapterBinds() {
        assertThat(OrderSql.INSERT_ORDER.chars().filter(c -> c == '?')).hasSize(6);
        assertThat(OrderSql.INSERT_LINE.chars().filter(c -> c == '?')).hasSize(5);
        assertThat(OrderSql.FIND_BY_ID.chars().filter(c -> c == '?')).hasSize(1);
        assertThat(OrderSql.UPDATE_STATUS.chars().filter(c -> c == '?')).hasSize(3);
        assertThat(OrderSql.NEWEST_FIRST.chars().filter(c -> c == '?')).hasSize(1);
        assertThat(OrderSql.NEWEST_FIRST_OF_CUSTOMER.chars().filter(c -> c == '?')).hasSize(2);
        assertThat(OrderSql.NEWEST_FIRST_OF_CUSTOMER.indexOf("customer_id = ?")).as("customer bound before limit")
                .isLessThan(OrderSql.NEWEST_FIRST_OF_CUSTOMER.indexOf("NEXT ?"));
    }

    @Test
    void onPostgresTheOrderAndItsLinesAreOneStatementWithTheTwoInsertsParametersInOrder() {
        for (int lines : new int[] {1, 2, Order.MAX_LINES}) {
            String sql = POSTGRES.insertWithLines(lines).orElseThrow();

            assertThatNoException().as("%d lines", lines).isThrownBy(() -> CCJSqlParserUtil.parse(sql));
            assertThat(sql.chars().filter(c -> c == '?')).hasSize(6 + 5 * lines);
            // the order's insert first, then the lines' insert with one row of values per line
            assertThat(sql).startsWith("WITH placed AS (" + OrderSql.INSERT_ORDER + ")\n" + OrderSql.INSERT_LINE);
            assertThat(sql.split("\\(\\?, \\?, \\?, \\?, \\?\\)", -1)).hasSize(lines + 1);
            assertThat(POSTGRES.insertWithLines(lines)).as("the same statement each time").containsSame(sql);
        }
        assertThatIllegalArgumentException().isThrownBy(() -> POSTGRES.insertWithLines(0));
        assertThatIllegalArgumentException().isThrownBy(() -> POSTGRES.insertWithLines(Order.MAX_LINES + 1));
    }

    @Test
    void onSqlServerTheOrderIsInsertedAndThenItsLinesAsOneBatch() {
        assertThat(SQL_SERVER.insertWithLines(2)).isEmpty();
    }

    /**
     * MariaDB's connections run one statement per text (several need {@code allowMultiQueries}), so the lines go
     * as a batch after the order, as on SQL Server.
     */
    @Test
    void onMariaDbTheOrderIsInsertedAndThenItsLinesAsOneBatch() {
        for (int lines : new int[] {1, 2, Order.MAX_LINES}) {
            assertThat(MARIADB.insertWithLines(lines)).as("%d lines", lines).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void everyEngineHasAnOrderDialect(Database database) {
        assertThat(OrderDialect.of(database)).isNotNull();
    }

    @Test
    void theNewestOrdersAreLimitedWithStandardSqlThatSqlServerAcceptsInADerivedTable() {
        // SQL Server has no LIMIT, and refuses ORDER BY in a derived table unless TOP or OFFSET ... FETCH is given;
        // MariaDB takes OFFSET ... FETCH from 10.6 on.
        assertThat(OrderSql.NEWEST_FIRST).doesNotContainIgnoringCase("LIMIT")
                .contains("ORDER BY placed_at DESC, id DESC\n         OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY) o");
        assertThat(OrderSql.NEWEST_FIRST_OF_CUSTOMER).doesNotContainIgnoringCase("LIMIT");
    }

    @Test
    void oneOrderIsReadWithItsVersionAndChangedOnlyWhileItStillHasIt() {
        // The columns of the newest-first queries in the same places (one row reader), the version after them.
        assertThat(OrderSql.FIND_BY_ID).startsWith(OrderSql.NEWEST_FIRST.lines().findFirst().orElseThrow()
                .replace("l.unit_price", "l.unit_price,")).contains("o.version\n").contains("ORDER BY l.line_no");
        assertThat(OrderSql.UPDATE_STATUS).contains("SET status = ?, version = version + 1")
                .endsWith("WHERE id = ? AND version = ?");
    }

    @Test
    void theParserRejectsABrokenStatement() {
        // Proves everyStatementParses can fail.
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() ->
                CCJSqlParserUtil.parse(OrderSql.NEWEST_FIRST.replace("ROWS ONLY) o", "ROWS ONLY o")))).isNotNull();
    }
}
