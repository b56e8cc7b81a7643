package dev.bookstore.ordering.adapters.persistence.modulith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.junit.jupiter.api.Test;

/** The count is one statement both databases speak (SQL Server's V1 has the same table and column names). */
class JdbcEventPublicationsTest {

    @Test
    void theCountIsPortableSqlOverTheIncompletePublicationsOnly() {
        assertThat(JdbcEventPublications.COUNT_INCOMPLETE).contains("FROM event_publication",
                "WHERE completion_date IS NULL").doesNotContain("?").doesNotContainPattern("(?i)LIMIT|TOP|::|now\\(");
        assertThatNoException().isThrownBy(() -> CCJSqlParserUtil.parse(JdbcEventPublications.COUNT_INCOMPLETE));
    }
}
