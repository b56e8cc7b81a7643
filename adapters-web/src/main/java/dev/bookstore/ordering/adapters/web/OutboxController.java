package dev.bookstore.ordering.adapters.web;

import dev.bookstore.ordering.application.outbox.admin.GetOutboxStatsQuery;
import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** What operators watch: the backlog and its age. */
@Tag(name = "Outbox", description = "Operators: the state of the transactional outbox")
@RestController
@RequestMapping(path = "/outbox", produces = MediaType.APPLICATION_JSON_VALUE)
class OutboxController {

    private final GetOutboxStatsQuery stats;

    OutboxController(GetOutboxStatsQuery stats) {
        this.stats = stats;
    }

    @Schema(name = "OutboxStats",
            requiredProperties = {"pending", "parked", "published", "oldestPendingAgeSeconds"})
    record StatsResponse(long pending, long parked, long published, double oldestPendingAgeSeconds) {
    }

    @Operation(operationId = "getOutboxStats", summary = "Outbox statistics",
            description = "Messages waiting to be published, parked after too many failures, and published (kept "
                    + "for the retention); the age of the oldest waiting one.")
    @GetMapping("/stats")
    StatsResponse stats() {
        OutboxStats current = stats.outboxStats();
        return new StatsResponse(current.pending(), current.parked(), current.published(),
                current.oldestPendingAge().toMillis() / 1000.0);
    }
}
