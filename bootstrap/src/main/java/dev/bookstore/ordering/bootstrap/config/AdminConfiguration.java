package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.outbox.JdbcOutboxStore;
import dev.bookstore.ordering.adapters.persistence.outbox.PostgresCaptureLagProbe;
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
import dev.bookstore.ordering.application.outbox.admin.SendAgainGuard;
import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
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

    private static final System.Logger LOG = System.getLogger(AdminConfiguration.class.getName());

    /**
     * An instance with relay none and no {@code deployment-relay} sends again by making rows pending, which a change
     * stream never sees: on PostgreSQL it refuses that while the configured slot is being read, and warns at start
     * when it is. It never refuses to start: an active slot beside polling instances is the documented switch.
     */
    @Bean
    SendAgainGuard sendAgainGuard(OutboxProperties outbox, CdcProperties cdc, JdbcOutboxStore outboxStore,
                                  DataSource pool) {
        if (outbox.relay() != Relay.NONE || outbox.deploymentRelay() != null
                || outboxStore.database() != Database.POSTGRESQL) {
            return SendAgainGuard.NONE;
        }
        PostgresCaptureLagProbe slot = new PostgresCaptureLagProbe(pool, cdc.slotName());
        if (isRead(slot)) {
            LOG.log(System.Logger.Level.WARNING, "Replication slot {0} is being read by a change stream, but this "
                    + "instance runs relay none without ordering.outbox.deployment-relay: its statistics, health and "
                    + "operator API act for polling relays, and the operator API refuses to send messages again "
                    + "while the slot is read. Set ordering.outbox.deployment-relay to cdc beside CDC instances (or "
                    + "to polling while polling relays still run).", cdc.slotName());
        }
        return SendAgainGuard.unlessSlotIsRead(slot, cdc.slotName());
    }

    private static boolean isRead(PostgresCaptureLagProbe slot) {
        try {
            return slot.measure().reading();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.INFO, "Could not check whether a change stream reads the outbox: {0}",
                    e.toString());
            return false;
        }
    }

    @Bean
    InspectOutboxQuery inspectOutboxQuery(OutboxAdministration administration) {
        return new InspectOutboxService(administration);
    }

    @Bean
    RequeueParkedMessagesUseCase requeueParkedMessagesUseCase(OutboxAdministration administration,
                                                              List<OutboxCommitListener> listeners,
                                                              AdminProperties properties, OutboxProperties outbox,
                                                              SendAgainGuard guard) {
        return new RequeueParkedMessagesService(administration, all(listeners), outbox.relayReading(),
                properties.requeueChunk(), guard);
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
                                                                  Clock clock, List<OutboxCommitListener> listeners,
                                                                  SendAgainGuard guard) {
        return new ResendPublishedMessagesService(administration,
                new ReplayLimits(admin.replayMaxMessages(), admin.replayMaxWindow(), outbox.retention()), clock,
                all(listeners), outbox.relayReading(), guard);
    }

    private static OutboxCommitListener all(List<OutboxCommitListener> listeners) {
        List<OutboxCommitListener> copy = List.copyOf(listeners);
        return count -> copy.forEach(listener -> listener.outboxMessagesCommitted(count));
    }
}
