package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.application.outbox.ReplayLimits;
import dev.bookstore.ordering.application.port.in.DiscardParkedMessageUseCase;
import dev.bookstore.ordering.application.port.in.InspectOutboxQuery;
import dev.bookstore.ordering.application.port.in.RequeueParkedMessagesUseCase;
import dev.bookstore.ordering.application.port.in.ResendPublishedMessagesUseCase;
import dev.bookstore.ordering.application.port.out.OutboxAdministration;
import dev.bookstore.ordering.application.port.out.OutboxStore;
import dev.bookstore.ordering.application.service.OrderingUseCases;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The operator's outbox use cases behind {@code /admin/outbox}. No transaction around them: each change is one
 * auto-committed statement that names the state it expects (requeue-all is one statement per chunk).
 */
@Configuration(proxyBeanMethods = false)
class AdminConfiguration {

    @Bean
    InspectOutboxQuery inspectOutboxQuery(OutboxAdministration administration) {
        return OrderingUseCases.inspectOutbox(administration);
    }

    @Bean
    RequeueParkedMessagesUseCase requeueParkedMessagesUseCase(OutboxAdministration administration,
                                                              OutboxStore outbox, AdminProperties properties) {
        return OrderingUseCases.requeueParkedMessages(administration,
                outbox, properties.requeueChunk());
    }

    @Bean
    DiscardParkedMessageUseCase discardParkedMessageUseCase(OutboxAdministration administration) {
        return OrderingUseCases.discardParkedMessage(administration);
    }

    /** A replay reaches back no further than published messages are kept ({@code ordering.outbox.retention}). */
    @Bean
    ResendPublishedMessagesUseCase resendPublishedMessagesUseCase(OutboxAdministration administration,
                                                                  AdminProperties admin, OutboxProperties outbox,
                                                                  Clock clock) {
        return OrderingUseCases.resendPublishedMessages(administration,
                new ReplayLimits(admin.replayMaxMessages(), admin.replayMaxWindow(), outbox.retention()), clock);
    }
}
