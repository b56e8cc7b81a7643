package dev.bookstore.ordering.application.outbox.capture;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.MessagePublisher;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.RelayMetrics;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings.Unroutable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * The CDC relay's policy. Messages arrive in commit order and leave in it: they are sent in waves, each a run of
 * consecutive messages with at most one per aggregate, so a failed message never has a later message of its
 * aggregate already on the broker. The first message a wave does not settle stops the round there; it and all
 * after it are offered again (a later message of another aggregate that the broker had confirmed is then sent
 * twice, with the same message id).
 *
 * <p>Failures are charged as the polling relay charges them: a nack, a return or a missing confirm is an attempt
 * of the first unsettled message, retried after the backoff and parked after {@code maxAttempts}, so it blocks the
 * stream only for a bounded time; an unavailable broker charges nobody. Attempts are counted on the message's row,
 * one statement per failure (none per delivered message), so a reader that takes over goes on counting; in memory
 * only for a row that is gone. A message is counted as parked only where it was stored as parked: a message an
 * operator sent again meanwhile is left to its newer row, which the stream reads and sends on its own.
 */
public final class RelayCapturedMessagesService implements RelayCapturedMessagesUseCase, ParkUnreadableChangeUseCase {

    private static final System.Logger LOG = System.getLogger(RelayCapturedMessagesService.class.getName());

    private final MessagePublisher publisher;
    private final CapturedMessageParking parking;
    private final CaptureSettings settings;
    private final Clock clock;
    private final RelayMetrics metrics;
    /** Failed attempts of captured messages whose row is gone, by row version. */
    private final Map<RowVersion, Integer> failures = new HashMap<>();

    private record RowVersion(UUID id, long position) {

        static RowVersion of(OutboxMessage message) {
            return new RowVersion(message.id(), message.position());
        }
    }

    /** {@code metrics} hears of every outcome, as from the polling relay, so the relay's counters count both modes. */
    public RelayCapturedMessagesService(MessagePublisher publisher, CapturedMessageParking parking,
                                        CaptureSettings settings, Clock clock, RelayMetrics metrics) {
        this.publisher = publisher;
        this.parking = parking;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public synchronized CapturedRound relay(List<OutboxMessage> messages, BooleanSupplier stopSending) {
        int settled = 0;
        for (List<OutboxMessage> wave : waves(messages)) {
            if (stopSending.getAsBoolean()) {
                return new CapturedRound(settled, settings.brokerRetry(), "stopping");
            }
            Instant sent = clock.instant();
            List<PublishResult> results = publisher.publish(wave, settings.confirmTimeout(), stopSending);
            Instant answered = clock.instant();
            for (int i = 0; i < wave.size(); i++) {
                CapturedRound stop = settle(wave.get(i), results.get(i), settled, sent, answered);
                if (stop != null) {
                    return stop;
                }
                settled++;
            }
        }
        return CapturedRound.all(settled);
    }

    /** Null when {@code message} is settled (confirmed or parked); else where the round stops and for how long. */
    private CapturedRound settle(OutboxMessage message, PublishResult result, int settledBefore, Instant sent,
                                 Instant answered) {
        Outcome outcome = result.outcome();
        if (outcome == Outcome.CONFIRMED
                || (outcome == Outcome.RETURNED && settings.unroutable() == Unroutable.PUBLISH)) {
            failures.remove(RowVersion.of(message));
            metrics.published(message, Duration.between(sent, answered),
                    Duration.between(message.occurredAt(), answered));
            return null;
        }
        String error = outcome + (result.detail() == null ? "" : ": " + result.detail());
        if (outcome == Outcome.BROKER_UNAVAILABLE) {
            metrics.failed(message, outcome, false);
            return new CapturedRound(settledBefore, settings.brokerRetry(), error);
        }
        metrics.failed(message, outcome, true);
        int attempts = parking.recordFailure(message, error)
                .orElseGet(() -> failures.merge(RowVersion.of(message), 1, Integer::sum));
        if (attempts >= settings.maxAttempts()
                || (outcome == Outcome.RETURNED && settings.unroutable() == Unroutable.PARK)) {
            park(message, attempts, error);
            failures.remove(RowVersion.of(message));
            return null;
        }
        return new CapturedRound(settledBefore, settings.backoff().delayAfter(attempts), error);
    }

    private void park(OutboxMessage message, int attempts, String error) {
        CapturedMessageParking.Parked parked = parking.park(message, attempts, error);
        if (parked == CapturedMessageParking.Parked.LEFT_TO_NEWER_ROW) {
            LOG.log(System.Logger.Level.INFO, "Outbox message {0} failed {1} times, but an operator sent it again "
                    + "meanwhile: not parked, its newer row is sent on its own", message.id(), attempts);
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "Parked outbox message {0} after {1} failed attempts{2}: {3}",
                message.id(), attempts, parked == CapturedMessageParking.Parked.STORED_AGAIN
                        ? " (its row was gone: stored again, parked)" : "", error);
        metrics.parked(message);
    }

    @Override
    public synchronized void parkUnreadable(UnreadableChange change) {
        parking.parkUnreadable(change);
        LOG.log(System.Logger.Level.WARNING, "Parked an unreadable outbox change (id {0}, position {1}): {2}",
                change.id(), change.position(), change.error());
    }

    /** Consecutive runs of the messages, each with at most one message per aggregate. */
    static List<List<OutboxMessage>> waves(List<OutboxMessage> messages) {
        List<List<OutboxMessage>> waves = new ArrayList<>();
        List<OutboxMessage> wave = new ArrayList<>();
        Set<String> aggregates = new HashSet<>();
        for (OutboxMessage message : messages) {
            if (!aggregates.add(message.aggregateType() + '/' + message.aggregateId())) {
                waves.add(wave);
                wave = new ArrayList<>();
                aggregates.clear();
                aggregates.add(message.aggregateType() + '/' + message.aggregateId());
            }
            wave.add(message);
        }
        if (!wave.isEmpty()) {
            waves.add(wave);
        }
        return waves;
    }
}
