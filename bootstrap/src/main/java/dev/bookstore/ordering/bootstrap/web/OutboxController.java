package dev.bookstore.ordering.bootstrap.web;

import dev.bookstore.ordering.application.outbox.OutboxStats;
import dev.bookstore.ordering.application.port.in.GetOutboxStatsQuery;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** What operators watch: the backlog and its age. */
@RestController
@RequestMapping(path = "/outbox", produces = MediaType.APPLICATION_JSON_VALUE)
class OutboxController {

    private final GetOutboxStatsQuery stats;

    OutboxController(GetOutboxStatsQuery stats) {
        this.stats = stats;
    }

    record StatsResponse(long pending, long parked, long published, double oldestPendingAgeSeconds) {
    }

    @GetMapping("/stats")
    StatsResponse stats() {
        OutboxStats current = stats.outboxStats();
        return new StatsResponse(current.pending(), current.parked(), current.published(),
                current.oldestPendingAge().toMillis() / 1000.0);
    }
}
