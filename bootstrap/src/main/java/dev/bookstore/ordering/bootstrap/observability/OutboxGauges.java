package dev.bookstore.ordering.bootstrap.observability;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Pending, parked and the age of the oldest pending message as gauges. They read the {@link OutboxStatsSnapshot},
 * never the database: a scrape costs no query, whatever its frequency or the number of scrapers.
 */
public final class OutboxGauges implements MeterBinder {

    static final String PENDING = "ordering.outbox.pending";
    static final String PARKED = "ordering.outbox.parked";
    static final String OLDEST_PENDING_AGE = "ordering.outbox.oldest.pending.age";

    private final OutboxStatsSnapshot snapshot;

    public OutboxGauges(OutboxStatsSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder(PENDING, snapshot, s -> s.statsOrZero().pending())
                .description("Outbox messages neither published nor parked (also those waiting for a retry)")
                .register(registry);
        Gauge.builder(PARKED, snapshot, s -> s.statsOrZero().parked())
                .description("Outbox messages parked for an operator")
                .register(registry);
        Gauge.builder(OLDEST_PENDING_AGE, snapshot, s -> s.statsOrZero().oldestPendingAge().toMillis() / 1000.0)
                .description("Age of the oldest pending outbox message, by the database's clock; 0 when none")
                .baseUnit("seconds")
                .register(registry);
    }
}
