package dev.bookstore.ordering.adapters.messaging.outbound;

import dev.bookstore.ordering.adapters.messaging.outbound.ConfirmTracker.Answer;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns what a {@link ConfirmTracker} saw into one {@link PublishResult} per message (plain Java):
 *
 * <ul>
 *   <li>ack → {@link Outcome#CONFIRMED}; return, then ack → {@link Outcome#RETURNED}; nack → {@link Outcome#NACKED}</li>
 *   <li>sent, no answer, channel still open at the deadline → {@link Outcome#TIMED_OUT}</li>
 *   <li>not sent, or no answer before the channel closed:
 *     <ul>
 *       <li>closed over a missing exchange (404) → none yet: the message is published again
 *           (its index is returned);</li>
 *       <li>closed because the broker refused something the channel sent (406 and the like, see
 *           {@link ChannelClosure#refusedByBroker()}) → {@link Outcome#CHANNEL_CLOSED}; the detail names the
 *           message published last before the close;</li>
 *       <li>otherwise (connection lost, broker shutting down, no channel, the relay stopping) →
 *           {@link Outcome#BROKER_UNAVAILABLE}.</li>
 *     </ul>
 *   </li>
 * </ul>
 */
final class RoundOutcomes {

    /** Appended to the detail of the message whose publish preceded a refusing close. */
    static final String PUBLISHED_LAST = "; this message was published last before the close";

    private RoundOutcomes() {
    }

    /**
     * Fills {@code results[indices[slot]]} for every slot of the round that has no result yet; returns the indices
     * lost with a channel closed over a missing exchange, which get none.
     *
     * @param closure  why the channel closed, or null if it did not
     * @param failure  why the round could not send (everything), if it could not: used when there is no closure
     */
    static List<Integer> decide(List<OutboxMessage> batch, List<Integer> indices, PublishResult[] results,
                          ConfirmTracker tracker, ChannelClosure closure, String failure, Duration confirmTimeout) {
        String unsentDetail = closure != null ? closure.description()
                : failure != null ? failure : "channel closed before the confirm";
        int culprit = closure == null ? -1 : tracker.lastSentBeforeClose();
        List<Integer> resend = new ArrayList<>();
        for (int slot = 0; slot < indices.size(); slot++) {
            int i = indices.get(slot);
            if (results[i] != null) {
                continue;
            }
            OutboxMessage message = batch.get(i);
            Answer answer = tracker.answer(slot);
            boolean lost = answer == Answer.NOT_SENT || (answer == Answer.UNANSWERED && closure != null);
            if (lost && closure != null && closure.missingExchange()) {
                resend.add(i);
            } else if (lost && closure != null && closure.refusedByBroker()) {
                results[i] = new PublishResult(message.id(), Outcome.CHANNEL_CLOSED,
                        closure.description() + (slot == culprit ? PUBLISHED_LAST : ""));
            } else if (lost) {
                results[i] = new PublishResult(message.id(), Outcome.BROKER_UNAVAILABLE, unsentDetail);
            } else if (answer == Answer.RETURNED
                    || (answer == Answer.UNANSWERED && tracker.returnDetail(slot) != null)) {
                results[i] = new PublishResult(message.id(), Outcome.RETURNED, tracker.returnDetail(slot));
            } else if (answer == Answer.UNANSWERED) {
                results[i] = new PublishResult(message.id(), Outcome.TIMED_OUT, "no confirm within " + confirmTimeout);
            } else if (answer == Answer.ACKED) {
                results[i] = PublishResult.confirmed(message.id());
            } else {
                results[i] = new PublishResult(message.id(), Outcome.NACKED, "nack from the broker");
            }
        }
        return resend;
    }
}
