package dev.bookstore.ordering.adapters.persistence.modulith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.util.List;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.update.Update;
import org.springframework.modulith.events.EventPublication.Status;
import org.junit.jupiter.api.Test;

/**
 * The count and the sweep are statements both databases speak (SQL Server's V1 has the same table and column
 * names); both run on PostgreSQL in {@code IncompletePublicationsResubmissionIT}.
 */
class JdbcEventPublicationsTest {

    @Test
    void theCountIsPortableSqlOverTheIncompletePublicationsOnly() {
        assertThat(JdbcEventPublications.COUNT_INCOMPLETE).contains("FROM event_publication",
                "WHERE completion_date IS NULL").doesNotContain("?").doesNotContainPattern("(?i)LIMIT|TOP|::|now\\(");
        assertThatNoException().isThrownBy(() -> CCJSqlParserUtil.parse(JdbcEventPublications.COUNT_INCOMPLETE));
    }

    @Test
    void theSweepFailsOnlyIncompletePublicationsWaitingForTheirListenerSinceBeforeTheGivenTime() throws Exception {
        Update update = (Update) CCJSqlParserUtil.parse(JdbcEventPublications.MARK_ABANDONED_FAILED);

        assertThat(update.getTable().getName()).isEqualTo("event_publication");
        assertThat(update.getUpdateSets()).hasSize(1);
        assertThat(update.getUpdateSets().get(0).getColumns().get(0).getColumnName()).isEqualTo("status");
        assertThat(update.getUpdateSets().get(0).getValues().get(0).toString()).isEqualTo("'FAILED'");
        assertThat(update.getWhere().toString()).isEqualTo("completion_date IS NULL"
                + " AND status IN ('PUBLISHED', 'PROCESSING', 'RESUBMITTED')"
                + " AND COALESCE(last_resubmission_date, publication_date) < ?");
        // the statuses are the names Spring Modulith's JPA entity stores (EnumType.STRING)
        for (Status status : List.of(Status.PUBLISHED, Status.PROCESSING, Status.RESUBMITTED, Status.FAILED)) {
            assertThat(JdbcEventPublications.MARK_ABANDONED_FAILED).contains("'" + status.name() + "'");
        }
        assertThat(JdbcEventPublications.MARK_ABANDONED_FAILED).doesNotContainPattern("(?i)LIMIT|TOP|::|now\\(");
    }
}
