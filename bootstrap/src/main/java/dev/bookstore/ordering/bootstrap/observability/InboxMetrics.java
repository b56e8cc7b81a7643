package dev.bookstore.ordering.bootstrap.observability;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** What inbox listeners report: a redelivered message that their inbox recognised and skipped. */
public final class InboxMetrics {

    static final String DUPLICATES_SKIPPED = "ordering.inbox.duplicates.skipped";

    private final MeterRegistry registry;

    public InboxMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The callback an inbox listener of {@code consumer} calls for every duplicate it skips. */
    public Runnable duplicateSkipped(String consumer) {
        Counter counter = Counter.builder(DUPLICATES_SKIPPED)
                .description("Messages an inbox had processed before and skipped")
                .tag("consumer", consumer)
                .register(registry);
        return counter::increment;
    }
}
