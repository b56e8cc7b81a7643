package dev.bookstore.ordering.application.outbox.relay;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The relay: claim a batch (a lease, no open transaction) → publish it with confirms → record every outcome.
 *
 * <p>Failures are charged to whom they blame. A nack, a return or a missing confirm while the broker confirms
 * others blames the message: an attempt, retried with backoff, parked after {@code maxAttempts}, so it never blocks
 * the messages behind it. An unreachable broker blames nobody: the batch is released untried, one warning is logged
 * per outage, and until the broker is seen again a round only asks {@link MessagePublisher#brokerReachable()}. A
 * channel the broker closed ({@link Outcome#CHANNEL_CLOSED}) may be any message's fault: the batch is released for
 * {@link RelaySettings#channelErrorRetries()} rounds, then published one message at a time to find the one it
 * refuses. While the broker pushes back ({@link BrokerBackpressure}) nothing is claimed.
 *
 * <p>{@link #stopClaiming()}: no new claim, no further send; the confirms in flight are awaited and recorded, the
 * rest released with no attempt counted, so a restart neither burns attempts nor republishes confirmed messages.
 */
public final class OutboxRelayService implements RelayOutboxUseCase {

    private static final System.Logger LOG = System.getLogger(OutboxRelayService.class.getName());

    /** A drain stops after this many rounds so the worker can look at its pause and stop flags. */
    private static final int MAX_ROUNDS_PER_DRAIN = 1_000;

    private final OutboxLeases outbox;
    private final MessagePublisher publisher;
    private final RelaySettings settings;
    private final Clock clock;
    private final RelayMetrics metrics;
    private final BrokerBackpressure backpressure;

    /** Set by {@link #stopClaiming()} from another thread (the shutdown's). */
    private volatile boolean stopping;

    /** The outcome writes of the batch being relayed, retried while its lease lasts. */
    private OutcomeWrites writes;

    private Instant outageSince;
    private String outageCause;

    /** Consecutive rounds the broker closed the channel in ({@link Outcome#CHANNEL_CLOSED}), released untried. */
    private int channelErrorRounds;
    /** Why the broker pushes back, while it does (logged once). */
    private String blockedCause;
    /** Exchange and routing key pairs whose unroutable messages were counted as published and warned about once. */
    private final Set<String> reportedUnroutable = new HashSet<>();

    public OutboxRelayService(OutboxLeases outbox, MessagePublisher publisher, RelaySettings settings, Clock clock,
                       RelayMetrics metrics, BrokerBackpressure backpressure) {
        this.outbox = outbox;
        this.publisher = publisher;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
        this.backpressure = backpressure;
    }

    @Override
    public RelayRound drain() {
        RelayRound total = RelayRound.NOTHING;
        for (int i = 0; i < MAX_ROUNDS_PER_DRAIN && !stopping; i++) {
            RelayRound round = relayBatch();
            total = total.plus(round);
            if (round.claimed() == 0 || round.released() > 0) {
                break;
            }
            // A short batch means the backlog is drained, except in ordered mode: there a batch holds one
            // message per aggregate, and publishing it is what makes each aggregate's next message claimable.
            if (round.claimed() < settings.batchSize() && !settings.ordered()) {
                break;
            }
        }
        return total;
    }

    @Override
    public RelayRound relayBatch() {
        if (stopping || brokerBlocked() || stillUnreachable()) {
            return RelayRound.NOTHING;
        }
        writes = new OutcomeWrites(clock, clock.instant().plus(settings.lease()).minus(settings.confirmTimeout()));
        List<OutboxMessage> batch = outbox.claim(settings.owner(), settings.batchSize(), settings.lease(),
                settings.ordered());
        if (batch.isEmpty()) {
            return RelayRound.NOTHING;
        }
        Instant sent = clock.instant();
        boolean oneByOne = channelErrorRounds > settings.channelErrorRetries();
        List<PublishResult> results = oneByOne ? publishOneByOne(batch)
                : publisher.publish(batch, settings.confirmTimeout(), () -> stopping);
        return record(batch, results, sent, oneByOne);
    }

    /**
     * During an outage a round first asks the publisher whether the broker is reachable again (a connection
     * attempt, no claim): claiming a batch only to release it again would cost two writes per round and hold
     * rows that another instance, already reconnected, could publish.
     */
    private boolean stillUnreachable() {
        return outageSince != null && !publisher.brokerReachable();
    }

    /** Whether the broker pushes back now; logs when that starts and ends. */
    private boolean brokerBlocked() {
        Optional<String> cause = backpressure.blockedBecause();
        if (cause.isPresent() && blockedCause == null) {
            LOG.log(Level.WARNING, "The broker blocks publishing ({0}); the relay claims nothing until it is "
                    + "unblocked", cause.get());
        } else if (cause.isEmpty() && blockedCause != null) {
            LOG.log(Level.INFO, "The broker accepts publishing again; the relay claims again");
        }
        blockedCause = cause.orElse(null);
        return blockedCause != null;
    }

    /**
     * After {@link RelaySettings#channelErrorRetries()} rounds closed by the broker: each message on a round of its
     * own, so that a close names exactly one message. The round keeps to one confirm timeout, as a batch does (the
     * lease is sized for that); what it could not send in time, or once the relay is stopping, is released.
     */
    private List<PublishResult> publishOneByOne(List<OutboxMessage> batch) {
        LOG.log(Level.WARNING, "The broker closed the publishing channel in {0} consecutive rounds; publishing the "
                + "next {1} message(s) one at a time to find the one it refuses", channelErrorRounds, batch.size());
        Instant deadline = clock.instant().plus(settings.confirmTimeout()); // the whole round, as for a batch
        List<PublishResult> results = new ArrayList<>(batch.size());
        for (OutboxMessage message : batch) {
            Duration remaining = Duration.between(clock.instant(), deadline);
            if (stopping || remaining.isNegative() || remaining.isZero()) {
                results.add(new PublishResult(message.id(), Outcome.BROKER_UNAVAILABLE, stopping
                        ? "not sent: the relay is stopping" : "not sent: the confirm timeout of the round passed"));
            } else {
                results.addAll(publisher.publish(List.of(message), remaining, () -> stopping));
            }
        }
        return results;
    }

    @Override
    public void stopClaiming() {
        stopping = true;
    }

    @Override
    public void resumeClaiming() {
        stopping = false;
    }

    /** @param oneByOne whether each message went out alone: then a channel close is that message's fault */
    private RelayRound record(List<OutboxMessage> batch, List<PublishResult> results, Instant sent,
                              boolean oneByOne) {
        Map<UUID, OutboxMessage> byId = new HashMap<>();
        batch.forEach(message -> byId.put(message.id(), message));

        boolean brokerAnswered = results.stream().anyMatch(r -> r.outcome() == Outcome.CONFIRMED
                || r.outcome() == Outcome.NACKED || r.outcome() == Outcome.RETURNED
                || r.outcome() == Outcome.CHANNEL_CLOSED);
        boolean channelClosed = false;
        List<UUID> published = new ArrayList<>();
        List<UUID> untried = new ArrayList<>();
        List<DeliveryFailure> failures = new ArrayList<>();
        Instant now = clock.instant();
        String unavailableCause = null;
        boolean stopped = stopping;
        for (PublishResult result : results) {
            OutboxMessage message = byId.get(result.messageId());
            if (result.outcome() == Outcome.CONFIRMED || countsAsPublished(message, result)) {
                published.add(result.messageId());
            } else if (stopped && isUnanswered(result.outcome())) {
                untried.add(result.messageId()); // not sent, or no confirm before the stop: nobody's fault
            } else if (result.outcome() == Outcome.CHANNEL_CLOSED && !oneByOne) {
                untried.add(result.messageId()); // any message of the batch may be to blame: retried untried
                channelClosed = true;
            } else if (result.outcome() == Outcome.BROKER_UNAVAILABLE
                    || (result.outcome() == Outcome.TIMED_OUT && !brokerAnswered)) {
                untried.add(result.messageId());
                unavailableCause = result.outcome() + ": " + result.detail();
            } else {
                failures.add(failure(message, result));
            }
        }
        if (oneByOne) {
            channelErrorRounds = 0;
        } else if (channelClosed) {
            channelErrorRounds++;
            LOG.log(Level.WARNING, "The broker closed the publishing channel ({0}); the unanswered messages are "
                    + "released untried (round {1} of {2} before they go one at a time)",
                    results.stream().filter(r -> r.outcome() == Outcome.CHANNEL_CLOSED).findFirst()
                            .map(PublishResult::detail).orElse(""),
                    channelErrorRounds, settings.channelErrorRetries() + 1);
        } else if (brokerAnswered) {
            channelErrorRounds = 0;
        }

        if (!published.isEmpty()) {
            writes.run("mark published", () -> outbox.markPublished(settings.owner(), published));
        }
        if (!failures.isEmpty()) {
            writes.run("record failures", () -> outbox.recordFailures(settings.owner(), failures));
            failures.forEach(f -> LOG.log(f.parks() ? Level.ERROR : Level.DEBUG,
                    "Outbox message {0} {1}: {2}", f.messageId(), f.parks() ? "parked" : "will be retried",
                    f.error()));
        }
        if (!untried.isEmpty()) {
            writes.run("release", () -> outbox.release(settings.owner(), untried));
        }
        if (!stopped) {
            trackOutage(brokerAnswered, unavailableCause, now);
        }
        measure(byId, results, failures, sent, now, stopped);

        int parked = (int) failures.stream().filter(DeliveryFailure::parks).count();
        return new RelayRound(batch.size(), published.size(), failures.size() - parked, parked, untried.size());
    }

    /** After the outcomes are written: what the metrics show never runs ahead of the outbox. */
    private void measure(Map<UUID, OutboxMessage> byId, List<PublishResult> results, List<DeliveryFailure> failures,
                         Instant sent, Instant confirmed, boolean stopped) {
        Duration publishToConfirm = Duration.between(sent, confirmed);
        Map<UUID, DeliveryFailure> charged = new HashMap<>();
        failures.forEach(f -> charged.put(f.messageId(), f));
        for (PublishResult result : results) {
            OutboxMessage message = byId.get(result.messageId());
            if (result.outcome() == Outcome.CONFIRMED) {
                metrics.published(message, publishToConfirm, Duration.between(message.occurredAt(), confirmed));
                continue;
            }
            if (stopped && isUnanswered(result.outcome())) {
                continue; // released by the stop, not a failure
            }
            DeliveryFailure failure = charged.get(result.messageId());
            metrics.failed(message, result.outcome(), failure != null);
            if (failure != null && failure.parks()) {
                metrics.parked(message);
            }
        }
    }

    /** An unroutable message with {@link RelaySettings.Unroutable#PUBLISH}: published; warned once per route. */
    private boolean countsAsPublished(OutboxMessage message, PublishResult result) {
        if (result.outcome() != Outcome.RETURNED || settings.unroutable() != RelaySettings.Unroutable.PUBLISH) {
            return false;
        }
        if (reportedUnroutable.add(message.exchange() + " " + message.routingKey())) {
            LOG.log(Level.WARNING, "No queue took message {0} (exchange ''{1}'', routing key ''{2}''); counted as "
                    + "published, as ordering.outbox.unroutable=publish says; further ones of this route are not "
                    + "logged", message.id(), message.exchange(), message.routingKey());
        }
        return true;
    }

    private static boolean isUnanswered(Outcome outcome) {
        return outcome == Outcome.TIMED_OUT || outcome == Outcome.BROKER_UNAVAILABLE
                || outcome == Outcome.CHANNEL_CLOSED;
    }

    private DeliveryFailure failure(OutboxMessage message, PublishResult result) {
        int failures = message.attempts() + 1;
        String error = result.outcome() + (result.detail() == null ? "" : ": " + result.detail());
        boolean parkNow = result.outcome() == Outcome.RETURNED && settings.unroutable() == RelaySettings.Unroutable.PARK;
        if (failures >= settings.maxAttempts() || parkNow) {
            return DeliveryFailure.park(message.id(), error);
        }
        // A delay, not an instant: the store adds it to the database's clock, the one the claim compares with.
        return DeliveryFailure.retryAfter(message.id(), error, settings.backoff().delayAfter(failures));
    }

    private void trackOutage(boolean brokerAnswered, String unavailableCause, Instant now) {
        if (unavailableCause != null && !brokerAnswered && outageSince == null) {
            outageSince = now;
            outageCause = unavailableCause;
            LOG.log(Level.WARNING, "Broker unavailable, outbox messages wait and will be retried until it "
                    + "answers: {0}", unavailableCause);
        } else if (brokerAnswered && outageSince != null) {
            LOG.log(Level.INFO, "Broker available again after {0} (outage began with: {1})",
                    Duration.between(outageSince, now), outageCause);
            outageSince = null;
            outageCause = null;
        }
    }

    /** Whether the last round found the broker unavailable (and no later one found it back). */
    @Override
    public boolean brokerUnavailable() {
        return outageSince != null;
    }
}
