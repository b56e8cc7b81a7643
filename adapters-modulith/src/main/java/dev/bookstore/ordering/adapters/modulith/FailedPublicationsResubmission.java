package dev.bookstore.ordering.adapters.modulith;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.modulith.events.FailedEventPublications;
import org.springframework.modulith.events.ResubmissionOptions;

/**
 * Hands the failed event publications to their listeners again, on every instance, every
 * {@code ordering.modulith.resubmit-interval}. A publication fails when its listener throws, or when Spring
 * Modulith's staleness monitor ({@code spring.modulith.events.staleness.*}) finds it waiting longer than allowed:
 * its instance died, or dropped it. Spring Modulith marks each publication RESUBMITTED with a conditional update
 * before handing it over, so two instances never both take it, and keeps at most {@code maxInFlight} out at once
 * across all instances.
 */
public final class FailedPublicationsResubmission {

    private static final Logger LOG = LoggerFactory.getLogger(FailedPublicationsResubmission.class);

    private final FailedEventPublications failed;
    private final ResubmissionOptions options;

    public FailedPublicationsResubmission(FailedEventPublications failed, int maxInFlight) {
        this.failed = failed;
        this.options = ResubmissionOptions.defaults().withMaxInFlight(maxInFlight).withBatchSize(maxInFlight);
    }

    /** One round; scheduled every {@code ordering.modulith.resubmit-interval} by the application. */
    public void resubmit() {
        try {
            failed.resubmit(options);
        } catch (RuntimeException e) {
            LOG.warn("Resubmitting failed event publications failed, the next round tries again: {}", e.toString());
        }
    }
}
