package dev.bookstore.ordering.adapters.web.admin;

import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import dev.bookstore.ordering.application.outbox.admin.OutboxEntry;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import dev.bookstore.ordering.application.outbox.admin.DiscardParkedMessageUseCase;
import dev.bookstore.ordering.application.outbox.admin.InspectOutboxQuery;
import dev.bookstore.ordering.application.outbox.admin.RequeueParkedMessagesUseCase;
import dev.bookstore.ordering.application.outbox.admin.ResendPublishedMessagesUseCase;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operator's outbox API: what is parked, any one message, and the repairs that used to be SQL. Only tokens
 * with scope {@code orders.admin} get here (the security chain's {@code /admin/**} rule). Every change is logged
 * on the {@code ordering.audit} logger with the token's subject, and wakes the relays (this instance's at once,
 * the others' through PostgreSQL {@code NOTIFY}) for what it made pending.
 */
@RestController
@RequestMapping(path = "/admin/outbox", produces = MediaType.APPLICATION_JSON_VALUE)
class OutboxAdminController {

    private static final Logger AUDIT = LoggerFactory.getLogger("ordering.audit");
    private static final String LIMIT_RANGE = "must be between 1 and " + InspectOutboxQuery.MAX_PAGE_SIZE;

    private final InspectOutboxQuery inspect;
    private final RequeueParkedMessagesUseCase requeue;
    private final DiscardParkedMessageUseCase discard;
    private final ResendPublishedMessagesUseCase resend;
    private final ObjectProvider<OutboxCommitListener> relayWakeUps;
    private final JsonMapper json;

    OutboxAdminController(InspectOutboxQuery inspect, RequeueParkedMessagesUseCase requeue,
                          DiscardParkedMessageUseCase discard, ResendPublishedMessagesUseCase resend,
                          ObjectProvider<OutboxCommitListener> relayWakeUps, JsonMapper json) {
        this.inspect = inspect;
        this.requeue = requeue;
        this.discard = discard;
        this.resend = resend;
        this.relayWakeUps = relayWakeUps;
        this.json = json;
    }

    /** A parked message in the list: what an operator decides on. */
    record ParkedItem(UUID id, String aggregateType, String aggregateId, String type, String routingKey,
                      int attempts, String lastError, Instant parkedAt, long position) {

        static ParkedItem of(OutboxEntry entry) {
            var message = entry.message();
            return new ParkedItem(message.id(), message.aggregateType(), message.aggregateId(), message.type(),
                    message.routingKey(), message.attempts(), entry.lastError(), entry.parkedAt(),
                    message.position());
        }
    }

    /** {@code next}: the {@code after} of the next page, null on the last one. */
    record ParkedPageResponse(List<ParkedItem> items, Long next) {
    }

    record MessageResponse(UUID id, String status, String aggregateType, String aggregateId, String type,
                           String exchange, String routingKey, int attempts, String lastError, Instant occurredAt,
                           Instant createdAt, Instant publishedAt, Instant parkedAt, long position,
                           Map<String, String> headers, JsonNode payload) {
    }

    /** Which published messages to send again; see {@link ReplaySelection}. */
    record ReplayRequest(String aggregateType, String aggregateId, Instant from, Instant to) {
    }

    /** How many messages an action made pending: the relay sends them shortly. */
    record Queued(int queued) {
    }

    @GetMapping("/parked")
    ParkedPageResponse parked(@RequestParam(defaultValue = "0") @Min(value = 0, message = "must be 0 or more")
                              long after,
                              @RequestParam(defaultValue = "50") @Min(value = 1, message = LIMIT_RANGE)
                              @Max(value = InspectOutboxQuery.MAX_PAGE_SIZE, message = LIMIT_RANGE) int limit) {
        InspectOutboxQuery.ParkedPage page = inspect.parkedMessages(after, limit);
        return new ParkedPageResponse(page.items().stream().map(ParkedItem::of).toList(), page.nextAfter());
    }

    @PostMapping("/parked/{id}/requeue")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Queued requeue(@PathVariable UUID id, Authentication operator) {
        requeue.requeue(id);
        return changed(operator, "requeue", "id=" + id, 1);
    }

    @PostMapping("/parked/requeue")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Queued requeueAll(Authentication operator) {
        return changed(operator, "requeue-all", "parked", requeue.requeueAll());
    }

    @DeleteMapping("/parked/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void discard(@PathVariable UUID id, Authentication operator) {
        discard.discard(id);
        AUDIT.info("outbox discard id={} by={}", id, operator.getName());
    }

    @GetMapping("/messages/{id}")
    MessageResponse message(@PathVariable UUID id) {
        OutboxEntry entry = inspect.message(id);
        var message = entry.message();
        return new MessageResponse(message.id(), entry.status().name(), message.aggregateType(),
                message.aggregateId(), message.type(), message.exchange(), message.routingKey(), message.attempts(),
                entry.lastError(), message.occurredAt(), entry.createdAt(), entry.publishedAt(), entry.parkedAt(),
                message.position(), message.headers(), json.readTree(message.payload()));
    }

    @PostMapping("/messages/{id}/resend")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Queued resend(@PathVariable UUID id, Authentication operator) {
        resend.resend(id);
        return changed(operator, "resend", "id=" + id, 1);
    }

    @PostMapping(path = "/replay", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    Queued replay(@RequestBody ReplayRequest request, Authentication operator) {
        ReplaySelection selection = new ReplaySelection(request.aggregateType(), request.aggregateId(),
                request.from(), request.to());
        return changed(operator, "replay", selection.toString(), resend.replay(selection));
    }

    private Queued changed(Authentication operator, String action, String what, int count) {
        AUDIT.info("outbox {} {} queued={} by={}", action, what, count, operator.getName());
        if (count > 0) {
            relayWakeUps.orderedStream().forEach(wakeUp -> wakeUp.outboxMessagesCommitted(count));
        }
        return new Queued(count);
    }
}
