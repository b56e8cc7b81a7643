package dev.bookstore.ordering.bootstrap.modulith;

import dev.bookstore.ordering.adapters.persistence.modulith.NativeStatusEventPublications;
import dev.bookstore.ordering.application.port.in.SummarizeOrderEventsUseCase;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.bootstrap.config.JdbcTransactions;
import dev.bookstore.ordering.domain.order.OrderPlaced;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.stereotype.Component;

/**
 * The in-process consumer of the order events, through Spring Modulith: when the order's transaction publishes an
 * event, the JPA event publication registry stores one publication per listener method in that same transaction; after
 * the commit the method runs asynchronously, in a JDBC transaction of its own, which
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
    private final TransactionTemplate transaction;

    CustomerOrderSummaryListener(SummarizeOrderEventsUseCase summarize, NativeStatusEventPublications publications,
                                 JdbcTransactions jdbcTransactions) {
        this.summarize = summarize;
        this.publications = publications;
        this.transaction = jdbcTransactions.template(CustomerOrderSummaryListener.class.getName() + ".on");
    }

    /**
     * Everything this listener reads and writes goes through JDBC (the summary's statement, the completion), so
     * its transaction is a JDBC one: the annotation's own, a JPA transaction and with it a Hibernate session per
     * event, is turned off ({@code NOT_SUPPORTED}). Spring Modulith's registry calls around the method need none.
     */
    @ApplicationModuleListener(id = ORDER_PLACED_ID, propagation = Propagation.NOT_SUPPORTED)
    void on(OrderPlaced event) {
        transaction.executeWithoutResult(status -> {
            summarize.orderPlaced(event);
            publications.completeInCurrentTransaction(event, ORDER_PLACED_ID);
        });
    }

    /** As {@link #on(OrderPlaced)}; the order is read (for its customer) in the same JDBC transaction. */
    @ApplicationModuleListener(id = ORDER_CANCELLED_ID, propagation = Propagation.NOT_SUPPORTED)
    void on(OrderCancelled event) {
        transaction.executeWithoutResult(status -> {
            summarize.orderCancelled(event);
            publications.completeInCurrentTransaction(event, ORDER_CANCELLED_ID);
        });
    }
}
