package dev.bookstore.ordering.bootstrap.modulith;
import dev.bookstore.ordering.adapters.persistence.modulith.NativeStatusEventPublications;
import dev.bookstore.ordering.application.summary.SummarizeOrderEventsUseCase;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * The in-process consumer of the order events, through Spring Modulith: when the order's transaction publishes an
 * event, Spring Modulith's event publication registry stores one publication per listener method in that same
 * transaction; after the commit the method runs asynchronously, in a transaction of its own (the annotation's), which
 * also completes (deletes) the publication ({@link NativeStatusEventPublications#completeInCurrentTransaction(Object,
 * String)}): the summary's change and the completion commit together, in one transaction per event. A method that
 * throws, or a process that dies first, leaves the publication incomplete: it is resubmitted on restart and by
 * {@link IncompletePublicationsResubmission}. The use case counts each event id once, so a resubmission, or the same
 * publication resubmitted by two instances, counts once.
 *
 * <p>The listener ids are stored with every publication and matched on resubmission: they are part of the
 * registry's data and must not change between releases.
 */
@Component
public class CustomerOrderSummaryListener {

    public static final String ORDER_PLACED_ID = "customer-order-summary.order-placed";
    public static final String ORDER_CANCELLED_ID = "customer-order-summary.order-cancelled";

    private final SummarizeOrderEventsUseCase summarize;
    private final NativeStatusEventPublications publications;

    CustomerOrderSummaryListener(SummarizeOrderEventsUseCase summarize, NativeStatusEventPublications publications) {
        this.summarize = summarize;
        this.publications = publications;
    }

    /**
     * Counts the order for its customer and completes the publication, both in the transaction the annotation opens
     * ({@code REQUIRES_NEW}, Boot's transaction manager: a JDBC one on the API's data source, the one the summary's
     * statement and the completion run on). Spring Modulith's registry calls around the method need none.
     *
     * <p>The completion goes first and the summary's statement last, just before the commit: that statement locks
     * the customer's summary row until the commit, and a customer's events queue on that lock, so it is held for
     * one statement and the commit only. On PostgreSQL the completion is written behind and goes with the summary's
     * statement: one round trip for both, then the commit. (Both commit or roll back together whatever their order;
     * a summary that fails rolls the completion back.)
     */
    @ApplicationModuleListener(id = ORDER_PLACED_ID)
    void on(OrderPlaced event) {
        publications.completeInCurrentTransaction(event, ORDER_PLACED_ID);
        summarize.orderPlaced(event);
    }

    /** As {@link #on(OrderPlaced)}; the order is read (for its customer) in the same transaction. */
    @ApplicationModuleListener(id = ORDER_CANCELLED_ID)
    void on(OrderCancelled event) {
        publications.completeInCurrentTransaction(event, ORDER_CANCELLED_ID);
        summarize.orderCancelled(event);
    }
}
