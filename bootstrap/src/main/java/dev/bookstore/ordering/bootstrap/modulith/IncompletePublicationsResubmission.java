package dev.bookstore.ordering.bootstrap.modulith;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.modulith.events.IncompleteEventPublications;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Resubmits, on a schedule, the event publications whose in-process listener has not completed for longer than
 * {@code ordering.modulith.resubmit-older-than}: the listener threw, or the instance that ran it died. On start,
 * {@code spring.modulith.events.republish-outstanding-events-on-restart} does the same for every incomplete one.
 * Every instance resubmits; the listeners count each event id once, so a publication resubmitted by several
 * instances has one effect. The age keeps a publication whose listener is still running from being handed over
 * again needlessly.
 */
@Component
public class IncompletePublicationsResubmission {

    private static final Logger LOG = LoggerFactory.getLogger(IncompletePublicationsResubmission.class);

    private final IncompleteEventPublications publications;
    private final Duration olderThan;

    IncompletePublicationsResubmission(IncompleteEventPublications publications,
                                       @Value("${ordering.modulith.resubmit-older-than:1m}") Duration olderThan) {
        this.publications = publications;
        this.olderThan = olderThan;
    }

    @Scheduled(fixedDelayString = "${ordering.modulith.resubmit-interval:1m}",
            initialDelayString = "${ordering.modulith.resubmit-interval:1m}")
    public void resubmit() {
        try {
            publications.resubmitIncompletePublicationsOlderThan(olderThan);
        } catch (RuntimeException e) {
            LOG.warn("Resubmitting incomplete event publications failed, the next round tries again: {}",
                    e.toString());
        }
    }
}
