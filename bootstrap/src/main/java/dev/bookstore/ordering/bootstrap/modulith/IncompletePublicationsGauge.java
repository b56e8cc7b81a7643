package dev.bookstore.ordering.bootstrap.modulith;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * The gauge {@value #NAME}: Spring Modulith event publications whose listener has not completed. Refreshed by one
 * query per interval ({@code ordering.modulith.incomplete-publications-interval}), never per scrape, so any number
 * of scrapers cost the database nothing more. A failed refresh keeps the last value.
 */
public final class IncompletePublicationsGauge {

    public static final String NAME = "ordering.modulith.incomplete.publications";
    private static final Logger LOG = LoggerFactory.getLogger(IncompletePublicationsGauge.class);

    private final LongSupplier count;
    private final AtomicLong value = new AtomicLong();

    public IncompletePublicationsGauge(LongSupplier count, MeterRegistry registry) {
        this.count = count;
        Gauge.builder(NAME, value, AtomicLong::doubleValue)
                .description("Spring Modulith event publications whose listener has not completed")
                .register(registry);
    }

    @Scheduled(fixedDelayString = "${ordering.modulith.incomplete-publications-interval:30s}")
    public void refresh() {
        try {
            value.set(count.getAsLong());
        } catch (RuntimeException e) {
            LOG.warn("Counting incomplete event publications failed, the gauge keeps {}: {}", value.get(),
                    e.toString());
        }
    }
}
