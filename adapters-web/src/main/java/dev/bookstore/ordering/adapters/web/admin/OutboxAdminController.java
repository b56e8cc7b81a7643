package dev.bookstore.ordering.adapters.web.admin;

import dev.bookstore.ordering.adapters.web.problem.ProblemDocumentation;
import dev.bookstore.ordering.application.outbox.admin.DiscardParkedMessageUseCase;
import dev.bookstore.ordering.application.outbox.admin.InspectOutboxQuery;
import dev.bookstore.ordering.application.outbox.admin.OutboxEntry;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import dev.bookstore.ordering.application.outbox.admin.RequeueParkedMessagesUseCase;
import dev.bookstore.ordering.application.outbox.admin.ResendPublishedMessagesUseCase;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 * The operator's outbox API: what is parked, any one message, and their repairs. Only tokens with scope
 * {@code orders.admin} get here (the security chain's {@code /admin/**} rule). Every change is logged on the
 * {@code ordering.audit} logger with the token's subject; the use cases wake the relays for what they made pending.
 */
@Tag(name = "Outbox administration", description = "Operators: parked messages, any message, and their repairs")
@RestController
@RequestMapping(path = "/admin/outbox", produces = MediaType.APPLICATION_JSON_VALUE)
class OutboxAdminController {

    private static final Logger AUDIT = LoggerFactory.getLogger("ordering.audit");
    private static final String LIMIT_RANGE = "must be between 1 and " + InspectOutboxQuery.MAX_PAGE_SIZE;

    private final InspectOutboxQuery inspect;
    private final RequeueParkedMessagesUseCase requeue;
    private final DiscardParkedMessageUseCase discard;
    private final ResendPublishedMessagesUseCase resend;
    private final JsonMapper json;

    OutboxAdminController(InspectOutboxQuery inspect, RequeueParkedMessagesUseCase requeue,
                          DiscardParkedMessageUseCase discard, ResendPublishedMessagesUseCase resend,
                          JsonMapper json) {
        this.inspect = inspect;
        this.requeue = requeue;
        this.discard = discard;
        this.resend = resend;
        this.json = json;
    }

    /** A parked message in the list: what an operator decides on. */
    @Schema(requiredProperties = {"id", "aggregateType", "aggregateId", "type", "routingKey", "attempts", "lastError",
            "parkedAt", "position"})
    record ParkedItem(UUID id, String aggregateType, String aggregateId, String type, String routingKey,
                      int attempts,
                      @Schema(types = {"string", "null"}, description = "Why the last delivery failed")
                      String lastError,
                      @Schema(types = {"string", "null"}, format = "date-time",
                              description = "When it was parked; null for rows parked before this was recorded")
                      Instant parkedAt,
                      @Schema(description = "Its place in the outbox; the after of the next page") long position) {

        static ParkedItem of(OutboxEntry entry) {
            var message = entry.message();
            return new ParkedItem(message.id(), message.aggregateType(), message.aggregateId(), message.type(),
                    message.routingKey(), message.attempts(), entry.lastError(), entry.parkedAt(),
                    message.position());
        }
    }

    /** {@code next}: the {@code after} of the next page, null on the last one. */
    @Schema(requiredProperties = {"items", "next"})
    record ParkedPageResponse(List<ParkedItem> items,
                              @Schema(types = {"integer", "null"}, format = "int64",
                                      description = "The after of the next page; null on the last one") Long next) {
    }

    @Schema(requiredProperties = {"id", "status", "aggregateType", "aggregateId", "type", "exchange", "routingKey",
            "attempts", "lastError", "occurredAt", "createdAt", "publishedAt", "parkedAt", "position", "headers",
            "payload"})
    record MessageResponse(UUID id,
                           @Schema(allowableValues = {"PENDING", "PUBLISHED", "PARKED"}) String status,
                           String aggregateType, String aggregateId, String type,
                           String exchange, String routingKey, int attempts,
                           @Schema(types = {"string", "null"}, description = "Why the last delivery failed")
                           String lastError,
                           Instant occurredAt, Instant createdAt,
                           @Schema(types = {"string", "null"}, format = "date-time",
                                   description = "When the broker confirmed it; null unless PUBLISHED")
                           Instant publishedAt,
                           @Schema(types = {"string", "null"}, format = "date-time",
                                   description = "When it was parked; null unless PARKED")
                           Instant parkedAt,
                           long position,
                           @Schema(description = "The AMQP headers it is sent with") Map<String, String> headers,
                           @Schema(implementation = Object.class, types = {"object"},
                                   description = "The event as sent, see docs/events")
                           JsonNode payload) {
    }

    /** Which published messages to send again; see {@link ReplaySelection}. */
    record ReplayRequest(String aggregateType, String aggregateId, Instant from, Instant to) {
    }

    /** How many messages an action made pending: the relay sends them shortly. */
    @Schema(requiredProperties = "queued")
    record Queued(int queued) {
    }

    @Operation(operationId = "parked", summary = "List parked messages",
            description = "Messages the relay gave up on after too many failures, oldest first, a page at a time.")
    @ApiResponse(responseCode = "200", description = "A page of parked messages")
    @GetMapping("/parked")
    ParkedPageResponse parked(@RequestParam(defaultValue = "0") @Min(value = 0, message = "must be 0 or more")
                              long after,
                              @RequestParam(defaultValue = "50") @Min(value = 1, message = LIMIT_RANGE)
                              @Max(value = InspectOutboxQuery.MAX_PAGE_SIZE, message = LIMIT_RANGE) int limit) {
        InspectOutboxQuery.ParkedPage page = inspect.parkedMessages(after, limit);
        return new ParkedPageResponse(page.items().stream().map(ParkedItem::of).toList(), page.nextAfter());
    }

    @Operation(operationId = "requeue", summary = "Requeue a parked message",
            description = "Makes the parked message pending again, its attempts reset: the relay sends it shortly. "
                    + "With the CDC relay, which reads inserts only, its row is deleted and inserted again with "
                    + "the same id and content.")
    @ApiResponse(responseCode = "202", description = "Queued: the relay sends it shortly")
    @ApiResponse(responseCode = "404", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.NO_OUTBOX_MESSAGE)
    @ApiResponse(responseCode = "409", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.OUTBOX_MESSAGE_STATE)
    @PostMapping("/parked/{id}/requeue")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Queued requeue(@PathVariable UUID id, Authentication operator) {
        requeue.requeue(id);
        return changed(operator, "requeue", "id=" + id, 1);
    }

    @Operation(operationId = "requeueAll", summary = "Requeue every parked message",
            description = "Makes every parked message pending again, its attempts reset (with the CDC relay: "
                    + "inserts each row again).")
    @ApiResponse(responseCode = "202", description = "How many were queued")
    @ApiResponse(responseCode = "409", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.OUTBOX_MESSAGE_STATE)
    @PostMapping("/parked/requeue")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Queued requeueAll(Authentication operator) {
        return changed(operator, "requeue-all", "parked", requeue.requeueAll());
    }

    @Operation(operationId = "discard", summary = "Discard a parked message",
            description = "Deletes the parked message: it is never sent.")
    @ApiResponse(responseCode = "204", description = "Discarded")
    @ApiResponse(responseCode = "404", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.NO_OUTBOX_MESSAGE)
    @ApiResponse(responseCode = "409", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.OUTBOX_MESSAGE_STATE)
    @DeleteMapping("/parked/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void discard(@PathVariable UUID id, Authentication operator) {
        discard.discard(id);
        AUDIT.info("outbox discard id={} by={}", id, operator.getName());
    }

    @Operation(operationId = "message", summary = "Read an outbox message",
            description = "Any outbox message, pending, published or parked, with its headers and payload.")
    @ApiResponse(responseCode = "200", description = "The message")
    @ApiResponse(responseCode = "404", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.NO_OUTBOX_MESSAGE)
    @GetMapping("/messages/{id}")
    MessageResponse message(@PathVariable UUID id) {
        OutboxEntry entry = inspect.message(id);
        var message = entry.message();
        return new MessageResponse(message.id(), entry.status().name(), message.aggregateType(),
                message.aggregateId(), message.type(), message.exchange(), message.routingKey(), message.attempts(),
                entry.lastError(), message.occurredAt(), entry.createdAt(), entry.publishedAt(), entry.parkedAt(),
                message.position(), message.headers(), json.readTree(message.payload()));
    }

    @Operation(operationId = "resend", summary = "Send a published message again",
            description = "Makes a published message pending again; consumers drop the duplicate by its message id "
                    + "unless they have forgotten it. With the CDC relay, which never marks rows published, any "
                    + "message not parked is inserted again with the same id and content.")
    @ApiResponse(responseCode = "202", description = "Queued: the relay sends it shortly")
    @ApiResponse(responseCode = "404", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.NO_OUTBOX_MESSAGE)
    @ApiResponse(responseCode = "409", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.OUTBOX_MESSAGE_STATE)
    @PostMapping("/messages/{id}/resend")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Queued resend(@PathVariable UUID id, Authentication operator) {
        resend.resend(id);
        return changed(operator, "resend", "id=" + id, 1);
    }

    @Operation(operationId = "replay", summary = "Send published messages again",
            description = "Makes the published messages of one aggregate, or of a time range, pending again (with "
                    + "the CDC relay: inserts the messages not parked again); a selection wider than the "
                    + "configured bounds is refused with 400.")
    @ApiResponse(responseCode = "202", description = "How many were queued")
    @ApiResponse(responseCode = "409", ref = ProblemDocumentation.RESPONSES + ProblemDocumentation.OUTBOX_MESSAGE_STATE)
    @PostMapping(path = "/replay", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    Queued replay(@RequestBody ReplayRequest request, Authentication operator) {
        ReplaySelection selection = new ReplaySelection(request.aggregateType(), request.aggregateId(),
                request.from(), request.to());
        return changed(operator, "replay", selection.toString(), resend.replay(selection));
    }

    private Queued changed(Authentication operator, String action, String what, int count) {
        AUDIT.info("outbox {} {} queued={} by={}", action, what, count, operator.getName());
        return new Queued(count);
    }
}
