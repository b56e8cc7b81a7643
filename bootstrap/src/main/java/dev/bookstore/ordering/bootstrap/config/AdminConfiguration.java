package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import dev.bookstore.ordering.application.outbox.admin.DiscardParkedMessageService;
import dev.bookstore.ordering.application.outbox.admin.DiscardParkedMessageUseCase;
import dev.bookstore.ordering.application.outbox.admin.InspectOutboxQuery;
import dev.bookstore.ordering.application.outbox.admin.InspectOutboxService;
import dev.bookstore.ordering.application.outbox.admin.OutboxAdministration;
import dev.bookstore.ordering.application.outbox.admin.ReplayLimits;
import dev.bookstore.ordering.application.outbox.admin.RequeueParkedMessagesService;
import dev.bookstore.ordering.application.outbox.admin.RequeueParkedMessagesUseCase;
import dev.bookstore.ordering.application.outbox.admin.ResendPublishedMessagesService;
import dev.bookstore.ordering.application.outbox.admin.ResendPublishedMessagesUseCase;
import java.time.Clock;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The operator's outbox use cases behind {@code /admin/outbox}. No transaction around them: each change is one
 * auto-committed statement that names the state it expects (requeue-all is one statement per chunk). Each change is
 * told to the {@link OutboxCommitListener}s, as an order's commit is: the relays wake, the statistics follow. How a
 * message is sent again follows this instance's relay ({@link OutboxProperties#relayReading()}).
 */
@Configuration(proxyBeanMethods = false)
class AdminConfiguration {

    @Bean
    InspectOutboxQuery inspectOutboxQuery(OutboxAdministration administration) {
        return new InspectOutboxService(administration);
    }

    @Bean
    RequeueParkedMessagesUseCase requeueParkedMessagesUseCase(OutboxAdministration administration,
                                                              List<OutboxCommitListener> listeners,
                                                              AdminProperties properties, OutboxProperties outbox) {
        return new RequeueParkedMessagesService(administration, all(listeners), outbox.relayReading(),
                properties.requeueChunk());
    }

    @Bean
    DiscardParkedMessageUseCase discardParkedMessageUseCase(OutboxAdministration administration,
                                                            List<OutboxCommitListener> listeners) {
        return new DiscardParkedMessageService(administration, all(listeners));
    }

    /** A replay reaches back no further than published messages are kept ({@code ordering.outbox.retention}). */
    @Bean
    ResendPublishedMessagesUseCase resendPublishedMessagesUseCase(OutboxAdministration administration,
                                                                  AdminProperties admin, OutboxProperties outbox,
                                                                  Clock clock, List<OutboxCommitListener> listeners) {
        return new ResendPublishedMessagesService(administration,
                new ReplayLimits(admin.replayMaxMessages(), admin.replayMaxWindow(), outbox.retention()), clock,
                all(listeners), outbox.relayReading());
    }

    private static OutboxCommitListener all(List<OutboxCommitListener> listeners) {
        List<OutboxCommitListener> copy = List.copyOf(listeners);
        return count -> copy.forEach(listener -> listener.outboxMessagesCommitted(count));
    }
}
