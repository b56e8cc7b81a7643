package dev.bookstore.ordering.bootstrap.observability;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The relay's counters and timers in Micrometer. Every meter is registered up front, so a counter that never moved
 * is a 0 rather than missing, and {@code rate()} / {@code increase()} work from the first scrape.
 */
public final class MicrometerRelayMetrics implements RelayMetrics {

    static final String PUBLISHED = "ordering.outbox.messages.published";
    static final String FAILED = "ordering.outbox.messages.failed";
    static final String PARKED = "ordering.outbox.messages.parked";
    static final String RETURNED = "ordering.outbox.messages.returned";
    static final String PUBLISH_TO_CONFIRM = "ordering.outbox.publish.to.confirm";
    static final String COMMIT_TO_CONFIRM = "ordering.outbox.commit.to.confirm";

    private final Counter published;
    private final Map<Outcome, Counter> failed = new EnumMap<>(Outcome.class);
    private final Counter parked;
    private final Counter returned;
    private final Timer publishToConfirm;
    private final Timer commitToConfirm;

    public MicrometerRelayMetrics(MeterRegistry registry) {
        published = counter(PUBLISHED, "Outbox messages confirmed by the broker and marked published", registry);
        for (Outcome outcome : Outcome.values()) {
            if (outcome != Outcome.CONFIRMED) {
                failed.put(outcome, Counter.builder(FAILED)
                        .description("Failed deliveries of outbox messages, by reason; broker_unavailable is "
                                + "not counted against the message")
                        .tag("reason", outcome.name().toLowerCase(Locale.ROOT))
                        .register(registry));
            }
        }
        parked = counter(PARKED, "Outbox messages parked after their last allowed attempt", registry);
        returned = counter(RETURNED, "Outbox messages the broker returned as unroutable (no queue took them)",
                registry);
        publishToConfirm = timer(PUBLISH_TO_CONFIRM,
                "From sending a message's batch to the broker to the last confirm of that batch", registry);
        commitToConfirm = timer(COMMIT_TO_CONFIRM,
                "From the event's time, in the order's transaction, to the broker's confirm", registry);
    }

    private static Counter counter(String name, String description, MeterRegistry registry) {
        return Counter.builder(name).description(description).register(registry);
    }

    private static Timer timer(String name, String description, MeterRegistry registry) {
        return Timer.builder(name).description(description).register(registry);
    }

    @Override
    public void published(OutboxMessage message, Duration publishToConfirm, Duration occurredToConfirm) {
        published.increment();
        this.publishToConfirm.record(publishToConfirm);
        if (!occurredToConfirm.isNegative()) { // another instance's clock ahead of this one: no sample
            commitToConfirm.record(occurredToConfirm);
        }
    }

    @Override
    public void failed(OutboxMessage message, Outcome reason, boolean charged) {
        Counter counter = failed.get(reason);
        if (counter != null) {
            counter.increment();
        }
        if (reason == Outcome.RETURNED) {
            returned.increment();
        }
    }

    @Override
    public void parked(OutboxMessage message) {
        parked.increment();
    }
}
