package dev.bookstore.ordering.adapters.modulith;

import dev.bookstore.ordering.application.summary.SummarizeOrderEventsUseCase;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;

/**
 * The in-process consumer of the order events, through Spring Modulith: the order's transaction stores one event
 * publication per listener method; after its commit the method runs asynchronously in a transaction of its own, and
 * Spring Modulith completes the publication once it returned. A method that throws, or a process that dies first,
 * leaves the publication incomplete, and it is handed over again ({@link FailedPublicationsResubmission}, and on
 * start). The use case counts each event id once, so a publication handed over twice, on one instance or on two,
 * counts once.
 *
 * <p>The method itself runs outside a transaction ({@code NOT_SUPPORTED}); the use case opens its own, inside a
 * {@link ListenerConnectionWait}: when the API's requests hold every pooled connection, the run waits for one
 * instead of failing.
 *
 * <p>The listener ids are stored with every publication and matched on resubmission: they are part of the
 * registry's data and must not change between releases.
 */
@Component
public class CustomerOrderSummaryListener {

    public static final String ORDER_PLACED_ID = "customer-order-summary.order-placed";
    public static final String ORDER_CANCELLED_ID = "customer-order-summary.order-cancelled";

    private final SummarizeOrderEventsUseCase summarize;
    private final ListenerConnectionWait connections;

    CustomerOrderSummaryListener(SummarizeOrderEventsUseCase summarize, ListenerConnectionWait connections) {
        this.summarize = summarize;
        this.connections = connections;
    }

    @ApplicationModuleListener(id = ORDER_PLACED_ID, propagation = Propagation.NOT_SUPPORTED)
    void on(OrderPlaced event) {
        connections.run(() -> summarize.orderPlaced(event));
    }

    @ApplicationModuleListener(id = ORDER_CANCELLED_ID, propagation = Propagation.NOT_SUPPORTED)
    void on(OrderCancelled event) {
        connections.run(() -> summarize.orderCancelled(event));
    }
}
