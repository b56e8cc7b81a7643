package dev.bookstore.ordering.adapters.persistence.modulith;

import java.time.Instant;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Spring Modulith's event publication registry ({@code event_publication}), read for monitoring and swept for
 * abandoned publications: a publication whose in-process listener has not completed keeps a row without a completion
 * date (completed ones are deleted, {@code spring.modulith.events.completion-mode: delete}).
 */
@Component
public class JdbcEventPublications {

    /** The same SQL on PostgreSQL and SQL Server; served by {@code event_publication_by_completion_date}. */
    static final String COUNT_INCOMPLETE = "SELECT COUNT(*) FROM event_publication WHERE completion_date IS NULL";

    /**
     * Marks FAILED the incomplete publications that neither completed nor failed within the given time since they
     * were stored or last resubmitted (a new publication carries its publication date as its last resubmission
     * date): their instance died, or dropped them. The same SQL on both databases; the time is a parameter, the
     * database's clock is not asked.
     */
    static final String MARK_ABANDONED_FAILED = "UPDATE event_publication SET status = 'FAILED'"
            + " WHERE completion_date IS NULL AND status IN ('PUBLISHED', 'PROCESSING', 'RESUBMITTED')"
            + " AND COALESCE(last_resubmission_date, publication_date) < ?";

    private final JdbcTemplate jdbc;

    public JdbcEventPublications(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** How many publications have not completed (their listener failed or has not run yet). */
    public long countIncomplete() {
        Long count = jdbc.queryForObject(COUNT_INCOMPLETE, Long.class);
        return count == null ? 0 : count;
    }

    /**
     * Marks FAILED the publications that have been waiting for their listener since before {@code before}, so that
     * a resubmission of failed publications takes them up.
     *
     * @return how many were marked
     */
    public int markAbandonedFailed(Instant before) {
        return jdbc.update(MARK_ABANDONED_FAILED, before.atOffset(ZoneOffset.UTC));
    }
}
