package dev.bookstore.ordering.bootstrap.modulith;

import dev.bookstore.ordering.adapters.persistence.modulith.JdbcEventPublications;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.modulith.events.FailedEventPublications;
import org.springframework.modulith.events.ResubmissionOptions;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Hands the event publications whose in-process listener will not complete by itself to the listeners again, on a
 * schedule ({@code ordering.modulith.resubmit-interval}), on every instance. On start,
 * {@code spring.modulith.events.republish-outstanding-events-on-restart} hands over every incomplete one.
 *
 * <p>Two kinds of publication are due: one whose listener threw (Spring Modulith marks it FAILED at once), and one
 * that has waited for its listener for longer than {@code ordering.modulith.resubmit-older-than} since it was stored
 * or last resubmitted: the instance that held it died. Each round first marks the second kind FAILED (one
 * statement), then resubmits FAILED publications through Spring Modulith's {@link FailedEventPublications}: each is
 * marked RESUBMITTED by a conditional update before it is handed over, so two instances never both take it, and no
 * more than {@code ordering.modulith.resubmit-max-in-flight} are out at once across all instances.
 *
 * <p>A publication still queued for a listener thread of a busy instance is neither: a round does not hand it over a
 * second time unless it has queued for longer than {@code resubmit-older-than}. (Before, every incomplete
 * publication older than a minute was resubmitted, and under an overload that queued more than a minute of listener
 * work each round handed the whole queue over again.) The listeners count each event id once, so a publication
 * handed over twice still has one effect.
 */
@Component
public class IncompletePublicationsResubmission {

    private static final Logger LOG = LoggerFactory.getLogger(IncompletePublicationsResubmission.class);

    private final JdbcEventPublications registry;
    private final FailedEventPublications failed;
    private final Clock clock;
    private final Duration olderThan;
    private final ResubmissionOptions options;

    IncompletePublicationsResubmission(JdbcEventPublications registry, FailedEventPublications failed,
                                       Clock clock,
                                       @Value("${ordering.modulith.resubmit-older-than:5m}") Duration olderThan,
                                       @Value("${ordering.modulith.resubmit-max-in-flight:500}") int maxInFlight) {
        this.registry = registry;
        this.failed = failed;
        this.clock = clock;
        this.olderThan = olderThan;
        this.options = ResubmissionOptions.defaults().withMaxInFlight(maxInFlight).withBatchSize(maxInFlight);
    }

    @Scheduled(fixedDelayString = "${ordering.modulith.resubmit-interval:1m}",
            initialDelayString = "${ordering.modulith.resubmit-interval:1m}")
    public void resubmit() {
        try {
            int abandoned = registry.markAbandonedFailed(clock.instant().minus(olderThan));
            if (abandoned > 0) {
                LOG.warn("{} event publications waited longer than {} for their listener (their instance stopped "
                        + "or dropped them); they are resubmitted with the failed ones", abandoned, olderThan);
            }
            failed.resubmit(options);
        } catch (RuntimeException e) {
            LOG.warn("Resubmitting event publications failed, the next round tries again: {}", e.toString());
        }
    }
}
