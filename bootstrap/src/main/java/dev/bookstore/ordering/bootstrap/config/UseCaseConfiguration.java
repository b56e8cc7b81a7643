package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.modulith.SpringDomainEventPublisher;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys;
import dev.bookstore.ordering.application.ordering.CancelOrderService;
import dev.bookstore.ordering.application.ordering.CancelOrderUseCase;
import dev.bookstore.ordering.application.ordering.GetOrderQuery;
import dev.bookstore.ordering.application.ordering.GetOrderService;
import dev.bookstore.ordering.application.ordering.OrderRepository;
import dev.bookstore.ordering.application.ordering.PlaceOrderService;
import dev.bookstore.ordering.application.ordering.PlaceOrderUseCase;
import dev.bookstore.ordering.application.outbox.EventExternalizer;
import dev.bookstore.ordering.application.outbox.EventOutbox;
import dev.bookstore.ordering.application.outbox.OutboxWriter;
import dev.bookstore.ordering.application.outbox.TraceContext;
import dev.bookstore.ordering.application.summary.CustomerOrderSummaries;
import dev.bookstore.ordering.application.summary.CustomerOrderSummaryService;
import dev.bookstore.ordering.application.summary.GetCustomerOrderSummaryQuery;
import dev.bookstore.ordering.application.summary.GetCustomerOrderSummaryService;
import dev.bookstore.ordering.application.summary.SummarizeOrderEventsUseCase;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.interceptor.RollbackRuleAttribute;
import org.springframework.transaction.interceptor.RuleBasedTransactionAttribute;
import org.springframework.transaction.interceptor.TransactionInterceptor;

/**
 * The use cases, each call in one transaction. The application layer knows nothing of transactions; here
 * every use case gets a proxy that opens one around each call, so the order and its outbox row commit or roll
 * back together. Every adapter behind them writes and reads through JDBC, so the transactions are Boot's
 * transaction manager's, a JDBC one ({@code JdbcTransactionManager}): the service has no JPA provider.
 */
@Configuration(proxyBeanMethods = false)
class UseCaseConfiguration {

    /**
     * Ticks in microseconds, the precision PostgreSQL and SQL Server store: an order read back shows the very
     * {@code placedAt} that placing it answered. With a nanosecond clock the two differed in the last digits
     * (PostgreSQL rounds to microseconds).
     */
    @Bean
    Clock clock() {
        return Clock.tick(Clock.systemUTC(), Duration.ofNanos(1_000));
    }

    /**
     * The write flows one way: the application decides which events leave the service and builds their outbox
     * messages (through the wire contract of the messaging adapter and the current trace); the persistence
     * adapter only stores them, in the use case's transaction.
     */
    @Bean
    EventOutbox eventOutbox(ApplicationEventPublisher springEvents, EventExternalizer contract, TraceContext trace,
                            OutboxWriter writer) {
        return new EventOutbox(new SpringDomainEventPublisher(springEvents), contract, trace, writer);
    }

    @Bean
    PlaceOrderUseCase placeOrderUseCase(OrderRepository orders, EventOutbox events,
                                        IdempotencyKeys idempotencyKeys, Clock clock, PlatformTransactionManager transactions) {
        return inTransaction(new PlaceOrderService(orders, events, idempotencyKeys, clock),
                PlaceOrderUseCase.class, transactions, false);
    }

    @Bean
    CancelOrderUseCase cancelOrderUseCase(OrderRepository orders, EventOutbox events, Clock clock,
                                          PlatformTransactionManager transactions) {
        return inTransaction(new CancelOrderService(orders, events, clock), CancelOrderUseCase.class,
                transactions, false);
    }

    @Bean
    GetOrderQuery getOrderQuery(OrderRepository orders, PlatformTransactionManager transactions) {
        return inTransaction(new GetOrderService(orders), GetOrderQuery.class, transactions, true);
    }

    /** Each call joins the listener's transaction, or opens one. */
    @Bean
    SummarizeOrderEventsUseCase summarizeOrderEventsUseCase(CustomerOrderSummaries summaries, OrderRepository orders,
                                                            PlatformTransactionManager transactions) {
        return inTransaction(new CustomerOrderSummaryService(summaries, orders),
                SummarizeOrderEventsUseCase.class, transactions, false);
    }

    @Bean
    GetCustomerOrderSummaryQuery getCustomerOrderSummaryQuery(CustomerOrderSummaries summaries,
                                                              PlatformTransactionManager transactions) {
        return inTransaction(new GetCustomerOrderSummaryService(summaries), GetCustomerOrderSummaryQuery.class,
                transactions, true);
    }

    /** Wraps every method of {@code useCase} in a transaction that rolls back on any exception. */
    static <T> T inTransaction(T useCase, Class<T> port, PlatformTransactionManager transactions, boolean readOnly) {
        RuleBasedTransactionAttribute attribute = new RuleBasedTransactionAttribute();
        attribute.setRollbackRules(List.of(new RollbackRuleAttribute(Exception.class)));
        attribute.setReadOnly(readOnly);
        attribute.setName(port.getSimpleName());
        ProxyFactory proxy = new ProxyFactory(useCase);
        proxy.setInterfaces(port);
        proxy.addAdvice(new TransactionInterceptor(transactions, (method, targetClass) -> attribute));
        return port.cast(proxy.getProxy(UseCaseConfiguration.class.getClassLoader()));
    }
}
