package dev.bookstore.ordering.application.service;

import dev.bookstore.ordering.application.outbox.RelaySettings;
import dev.bookstore.ordering.application.outbox.ReplayLimits;
import dev.bookstore.ordering.application.port.in.DiscardParkedMessageUseCase;
import dev.bookstore.ordering.application.port.in.InspectOutboxQuery;
import dev.bookstore.ordering.application.port.in.RequeueParkedMessagesUseCase;
import dev.bookstore.ordering.application.port.in.ResendPublishedMessagesUseCase;
import dev.bookstore.ordering.application.port.in.CancelOrderUseCase;
import dev.bookstore.ordering.application.port.in.GetCustomerOrderSummaryQuery;
import dev.bookstore.ordering.application.port.in.GetOrderQuery;
import dev.bookstore.ordering.application.port.in.GetOutboxStatsQuery;
import dev.bookstore.ordering.application.port.in.PlaceOrderUseCase;
import dev.bookstore.ordering.application.port.in.RelayOutboxUseCase;
import dev.bookstore.ordering.application.port.in.SummarizeOrderEventsUseCase;
import dev.bookstore.ordering.application.port.out.BrokerBackpressure;
import dev.bookstore.ordering.application.port.out.CustomerOrderSummaries;
import dev.bookstore.ordering.application.port.out.IdempotencyKeys;
import dev.bookstore.ordering.application.port.out.MessagePublisher;
import dev.bookstore.ordering.application.port.out.OrderRepository;
import dev.bookstore.ordering.application.port.out.OutboxAdministration;
import dev.bookstore.ordering.application.port.out.OutboxStore;
import dev.bookstore.ordering.application.port.out.RelayMetrics;
import dev.bookstore.ordering.application.summary.CustomerOrderSummary;
import java.time.Clock;

/**
 * The only way to obtain the application's use cases. The services themselves are package-private, so
 * driving adapters and the wiring can depend on the {@code port.in} interfaces only.
 */
public final class OrderingUseCases {

    private OrderingUseCases() {
    }

    public static PlaceOrderUseCase placeOrder(OrderRepository orders, EventOutbox events,
                                               IdempotencyKeys idempotencyKeys, Clock clock) {
        return new PlaceOrderService(orders, events, idempotencyKeys, clock);
    }

    public static CancelOrderUseCase cancelOrder(OrderRepository orders, EventOutbox events, Clock clock) {
        return new CancelOrderService(orders, events, clock);
    }

    public static GetOrderQuery getOrder(OrderRepository orders) {
        return new GetOrderService(orders);
    }

    public static GetOutboxStatsQuery outboxStats(OutboxStore outbox) {
        return new GetOutboxStatsService(outbox);
    }

    /** A relay; one per worker thread, each with its own {@link RelaySettings#owner()}. */
    public static RelayOutboxUseCase relayOutbox(OutboxStore outbox, MessagePublisher publisher,
                                                 RelaySettings settings, Clock clock) {
        return relayOutbox(outbox, publisher, settings, clock, RelayMetrics.NONE);
    }

    /** A relay that reports every outcome to {@code metrics}. */
    public static RelayOutboxUseCase relayOutbox(OutboxStore outbox, MessagePublisher publisher,
                                                 RelaySettings settings, Clock clock, RelayMetrics metrics) {
        return relayOutbox(outbox, publisher, settings, clock, metrics, BrokerBackpressure.NONE);
    }

    /** A relay that also claims nothing while the broker pushes back ({@code backpressure}). */
    public static RelayOutboxUseCase relayOutbox(OutboxStore outbox, MessagePublisher publisher,
                                                 RelaySettings settings, Clock clock, RelayMetrics metrics,
                                                 BrokerBackpressure backpressure) {
        return new OutboxRelayService(outbox, publisher, settings, clock, metrics, backpressure);
    }

    public static InspectOutboxQuery inspectOutbox(OutboxAdministration administration) {
        return new InspectOutboxService(administration);
    }

    /** @param chunk parked messages requeued per statement by {@link RequeueParkedMessagesUseCase#requeueAll()} */
    public static RequeueParkedMessagesUseCase requeueParkedMessages(OutboxAdministration administration,
                                                                     OutboxStore outbox, int chunk) {
        return new RequeueParkedMessagesService(administration, outbox, chunk);
    }

    public static DiscardParkedMessageUseCase discardParkedMessage(OutboxAdministration administration) {
        return new DiscardParkedMessageService(administration);
    }

    public static ResendPublishedMessagesUseCase resendPublishedMessages(OutboxAdministration administration,
                                                                         ReplayLimits limits, Clock clock) {
        return new ResendPublishedMessagesService(administration, limits, clock);
    }

    /** Counts order events into customer order summaries, once per event id. */
    public static SummarizeOrderEventsUseCase summarizeOrderEvents(CustomerOrderSummaries summaries,
                                                                   OrderRepository orders) {
        return new CustomerOrderSummaryService(summaries, orders);
    }

    public static GetCustomerOrderSummaryQuery customerOrderSummary(CustomerOrderSummaries summaries) {
        return customer -> summaries.find(customer).orElseGet(() -> CustomerOrderSummary.none(customer));
    }
}
