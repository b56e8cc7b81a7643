package dev.bookstore.ordering.adapters.persistence.modulith;

import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Spring Modulith's event publication registry ({@code event_publication}), read for monitoring: a publication
 * whose in-process listener has not completed keeps a row without a completion date (completed ones are deleted,
 * {@code spring.modulith.events.completion-mode: delete}).
 */
@Component
public class JdbcEventPublications {

    /** The same SQL on PostgreSQL and SQL Server; served by {@code event_publication_by_completion_date}. */
    static final String COUNT_INCOMPLETE = "SELECT COUNT(*) FROM event_publication WHERE completion_date IS NULL";

    private final JdbcTemplate jdbc;

    public JdbcEventPublications(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** How many publications have not completed (their listener failed or has not run yet). */
    public long countIncomplete() {
        Long count = jdbc.queryForObject(COUNT_INCOMPLETE, Long.class);
        return count == null ? 0 : count;
    }
}
