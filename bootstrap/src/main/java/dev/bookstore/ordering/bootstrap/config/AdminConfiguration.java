package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.application.outbox.admin.DiscardParkedMessageService;
import dev.bookstore.ordering.application.outbox.admin.InspectOutboxService;
import dev.bookstore.ordering.application.outbox.admin.RequeueParkedMessagesService;
import dev.bookstore.ordering.application.outbox.admin.ResendPublishedMessagesService;
import dev.bookstore.ordering.application.outbox.admin.ReplayLimits;
import dev.bookstore.ordering.application.outbox.admin.DiscardParkedMessageUseCase;
import dev.bookstore.ordering.application.outbox.admin.InspectOutboxQuery;
import dev.bookstore.ordering.application.outbox.admin.RequeueParkedMessagesUseCase;
import dev.bookstore.ordering.application.outbox.admin.ResendPublishedMessagesUseCase;
import dev.bookstore.ordering.application.outbox.admin.OutboxAdministration;
import dev.bookstore.ordering.application.outbox.relay.OutboxStore;
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
        return new InspectOutboxService(administration);
    }

    @Bean
    RequeueParkedMessagesUseCase requeueParkedMessagesUseCase(OutboxAdministration administration,
                                                              OutboxStore outbox, AdminProperties properties) {
        return new RequeueParkedMessagesService(administration,
                outbox, properties.requeueChunk());
    }

    @Bean
    DiscardParkedMessageUseCase discardParkedMessageUseCase(OutboxAdministration administration) {
        return new DiscardParkedMessageService(administration);
    }

    /** A replay reaches back no further than published messages are kept ({@code ordering.outbox.retention}). */
    @Bean
    ResendPublishedMessagesUseCase resendPublishedMessagesUseCase(OutboxAdministration administration,
                                                                  AdminProperties admin, OutboxProperties outbox,
                                                                  Clock clock) {
        return new ResendPublishedMessagesService(administration,
                new ReplayLimits(admin.replayMaxMessages(), admin.replayMaxWindow(), outbox.retention()), clock);
    }
}
