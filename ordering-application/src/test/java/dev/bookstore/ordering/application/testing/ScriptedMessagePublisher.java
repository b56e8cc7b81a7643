package dev.bookstore.ordering.application.testing;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.MessagePublisher;
import dev.bookstore.ordering.application.outbox.relay.PublishResult.Outcome;
import dev.bookstore.ordering.application.outbox.relay.PublishResult;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@link MessagePublisher} whose broker answers what the test scripted. Unless told otherwise every message
 * is {@link Outcome#CONFIRMED}. For each message, in this order of precedence:
 *
 * <ol>
 *   <li>while the broker is down ({@link #brokerDown()}, or one of the calls counted by
 *       {@link #brokerUnavailableForNextCalls(int)}), every message of the call is
 *       {@link Outcome#BROKER_UNAVAILABLE} and no other script is used up;</li>
 *   <li>else, once a poison message ({@link #poison}) was handed over in this call, it and every message after
 *       it are {@link Outcome#CHANNEL_CLOSED}: the broker closed the channel over it;</li>
 *   <li>else the next answer queued by {@link #answerOnce} for that message is used up;</li>
 *   <li>else the standing answer set by {@link #answer} for that message;</li>
 *   <li>else {@link Outcome#CONFIRMED}.</li>
 * </ol>
 *
 * <p>It remembers every batch it received and which messages the broker took.
 */
public final class ScriptedMessagePublisher implements MessagePublisher {

    private final Map<UUID, Answer> standing = new HashMap<>();
    private final Set<UUID> poison = new HashSet<>();
    private final Map<UUID, Deque<Answer>> once = new HashMap<>();
    private final List<List<OutboxMessage>> batches = new ArrayList<>();
    private final List<Duration> confirmTimeouts = new ArrayList<>();
    private final List<OutboxMessage> delivered = new ArrayList<>();
    private final Deque<Consumer<List<OutboxMessage>>> beforeNextPublish = new ArrayDeque<>();
    private int unavailableCalls;
    private boolean down;
    private int probes;

    private record Answer(Outcome outcome, String detail) {
    }

    /** From now on, every publish of the message gets this outcome (CONFIRMED puts it back to normal). */
    public synchronized ScriptedMessagePublisher answer(UUID messageId, Outcome outcome) {
        return answer(messageId, outcome, defaultDetail(outcome));
    }

    public synchronized ScriptedMessagePublisher answer(UUID messageId, Outcome outcome, String detail) {
        standing.put(Objects.requireNonNull(messageId, "messageId"),
                new Answer(Objects.requireNonNull(outcome, "outcome"), detail));
        return this;
    }

    /** The next publishes of the message get these outcomes, one each; after that the standing answer. */
    public synchronized ScriptedMessagePublisher answerOnce(UUID messageId, Outcome... outcomes) {
        Deque<Answer> queue = once.computeIfAbsent(Objects.requireNonNull(messageId, "messageId"),
                id -> new ArrayDeque<>());
        for (Outcome outcome : outcomes) {
            queue.add(new Answer(Objects.requireNonNull(outcome, "outcome"), defaultDetail(outcome)));
        }
        return this;
    }

    /** Every publish of the message makes the broker close the channel (e.g. an invalid header). */
    public synchronized ScriptedMessagePublisher poison(UUID messageId) {
        poison.add(Objects.requireNonNull(messageId, "messageId"));
        return this;
    }

    /** The next {@code calls} calls find the broker unreachable. */
    public synchronized ScriptedMessagePublisher brokerUnavailableForNextCalls(int calls) {
        if (calls < 0) {
            throw new IllegalArgumentException("calls must not be negative, got " + calls);
        }
        unavailableCalls = calls;
        return this;
    }

    /** The broker is unreachable until {@link #brokerUp()}. */
    public synchronized ScriptedMessagePublisher brokerDown() {
        down = true;
        return this;
    }

    public synchronized ScriptedMessagePublisher brokerUp() {
        down = false;
        unavailableCalls = 0;
        return this;
    }

    /**
     * Runs the action with the batch at the start of the next call, while its messages are "in flight": lets
     * a test move the clock or let another relay act in the middle of a publish.
     */
    public synchronized ScriptedMessagePublisher beforeNextPublish(Consumer<List<OutboxMessage>> action) {
        beforeNextPublish.add(Objects.requireNonNull(action, "action"));
        return this;
    }

    /**
     * Unreachable while down or while calls counted by {@link #brokerUnavailableForNextCalls(int)} remain (a probe
     * uses none of them up).
     */
    @Override
    public synchronized boolean brokerReachable() {
        probes++;
        return !down && unavailableCalls == 0;
    }

    /** How often {@link #brokerReachable()} was asked. */
    public synchronized int probes() {
        return probes;
    }

    /** Sends the whole batch: this broker cannot be stopped mid-batch. */
    @Override
    public List<PublishResult> publish(List<OutboxMessage> batch, Duration confirmTimeout,
                                       BooleanSupplier stopSending) {
        return publish(batch, confirmTimeout);
    }

    public List<PublishResult> publish(List<OutboxMessage> batch, Duration confirmTimeout) {
        Consumer<List<OutboxMessage>> action;
        synchronized (this) {
            batches.add(List.copyOf(batch));
            confirmTimeouts.add(confirmTimeout);
            action = beforeNextPublish.poll();
        }
        if (action != null) {
            action.accept(List.copyOf(batch));
        }
        synchronized (this) {
            boolean unavailable = down || unavailableCalls > 0;
            if (unavailableCalls > 0) {
                unavailableCalls--;
            }
            List<PublishResult> results = new ArrayList<>(batch.size());
            boolean closed = false;
            for (OutboxMessage message : batch) {
                closed = closed || poison.contains(message.id());
                Answer answer = unavailable
                        ? new Answer(Outcome.BROKER_UNAVAILABLE, defaultDetail(Outcome.BROKER_UNAVAILABLE))
                        : closed ? new Answer(Outcome.CHANNEL_CLOSED, defaultDetail(Outcome.CHANNEL_CLOSED))
                        : nextAnswer(message.id());
                if (answer.outcome() == Outcome.CONFIRMED) {
                    delivered.add(message);
                }
                results.add(new PublishResult(message.id(), answer.outcome(), answer.detail()));
            }
            return results;
        }
    }

    /** Every batch received, in order, including batches the broker did not take. */
    public synchronized List<List<OutboxMessage>> batches() {
        return List.copyOf(batches);
    }

    /** The ids of each batch received, in order. */
    public synchronized List<List<UUID>> batchIds() {
        return batches.stream().map(batch -> batch.stream().map(OutboxMessage::id).toList()).toList();
    }

    /** How many times {@link #publish} was called. */
    public synchronized int calls() {
        return batches.size();
    }

    /** The confirm timeout passed with each call. */
    public synchronized List<Duration> confirmTimeouts() {
        return List.copyOf(confirmTimeouts);
    }

    /** The messages the broker confirmed, in the order it confirmed them; a redelivery appears twice. */
    public synchronized List<OutboxMessage> delivered() {
        return List.copyOf(delivered);
    }

    /** The ids of {@link #delivered()}. */
    public synchronized List<UUID> deliveredIds() {
        return delivered.stream().map(OutboxMessage::id).toList();
    }

    /** How many times the message was handed to the broker, whatever the outcome. */
    public synchronized int attemptsOf(UUID messageId) {
        return (int) batches.stream().flatMap(List::stream).filter(m -> m.id().equals(messageId)).count();
    }

    private Answer nextAnswer(UUID messageId) {
        Deque<Answer> queued = once.get(messageId);
        if (queued != null && !queued.isEmpty()) {
            return queued.poll();
        }
        return standing.getOrDefault(messageId, new Answer(Outcome.CONFIRMED, null));
    }

    private static String defaultDetail(Outcome outcome) {
        return switch (outcome) {
            case NACKED -> "nack (scripted)";
            case RETURNED -> "312 NO_ROUTE (scripted)";
            case TIMED_OUT -> "no confirm before the deadline (scripted)";
            case BROKER_UNAVAILABLE -> "connection refused (scripted)";
            case CHANNEL_CLOSED -> "406 PRECONDITION_FAILED (scripted)";
            case CONFIRMED -> null;
        };
    }
}
