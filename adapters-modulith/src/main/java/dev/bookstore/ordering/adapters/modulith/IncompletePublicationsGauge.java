package dev.bookstore.ordering.adapters.modulith;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.modulith.events.EventPublication.Status;
import org.springframework.modulith.events.core.EventPublicationRepository;

/**
 * The gauge {@value #NAME}: Spring Modulith event publications whose listener has not completed (waiting, running,
 * failed or resubmitted), counted through Spring Modulith's repository once per interval
 * ({@code ordering.modulith.incomplete-publications-interval}), never per scrape. A failed refresh keeps the last
 * value.
 */
public final class IncompletePublicationsGauge {

    public static final String NAME = "ordering.modulith.incomplete.publications";
    private static final Logger LOG = LoggerFactory.getLogger(IncompletePublicationsGauge.class);
    private static final List<Status> INCOMPLETE =
            List.of(Status.PUBLISHED, Status.PROCESSING, Status.FAILED, Status.RESUBMITTED);

    private final EventPublicationRepository publications;
    private final AtomicLong value = new AtomicLong();

    public IncompletePublicationsGauge(EventPublicationRepository publications, MeterRegistry registry) {
        this.publications = publications;
        Gauge.builder(NAME, value, AtomicLong::doubleValue)
                .description("Spring Modulith event publications whose listener has not completed")
                .register(registry);
    }

    /** One count; scheduled every {@code ordering.modulith.incomplete-publications-interval} by the application. */
    public void refresh() {
        try {
            value.set(INCOMPLETE.stream().mapToLong(publications::countByStatus).sum());
        } catch (RuntimeException e) {
            LOG.warn("Counting incomplete event publications failed, the gauge keeps {}: {}", value.get(),
                    e.toString());
        }
    }
}
