package dev.bookstore.ordering.bootstrap.local;

import dev.bookstore.ordering.bootstrap.relay.OutboxRelayWorkers;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Pauses (stops) and resumes (starts) this instance's relay workers, so that a newcomer can watch the backlog grow while orders keep
 * being accepted, and drain once publishing resumes. Only in the try-out run: the production jar does not contain
 * it, so there these paths do not exist (404), because stopping publication is not an operation a production API
 * offers. The live page hides its relay controls when {@code GET /outbox/relay} answers 404.
 */
@RestController
@Profile(TryOutConfiguration.PROFILE)
@RequestMapping(path = "/outbox/relay", produces = MediaType.APPLICATION_JSON_VALUE)
class RelayControlController {

    private final ObjectProvider<OutboxRelayWorkers> relay;
    private final ObjectProvider<DemoConsumer> demoConsumer;
    private final MeterRegistry meters;

    RelayControlController(ObjectProvider<OutboxRelayWorkers> relay, ObjectProvider<DemoConsumer> demoConsumer,
                           MeterRegistry meters) {
        this.relay = relay;
        this.demoConsumer = demoConsumer;
        this.meters = meters;
    }

    /**
     * @param paused               whether the relay has stopped claiming messages
     * @param publishedSinceStart  messages this instance's relay published since it started
     * @param demoConsumerReceived orders the try-out run's demo consumer received since start
     */
    record RelayState(boolean paused, long publishedSinceStart, long demoConsumerReceived) {
    }

    @GetMapping
    RelayState state() {
        return stateOf(workers());
    }

    @PostMapping("/pause")
    RelayState pause() {
        OutboxRelayWorkers workers = workers();
        workers.stop();
        return stateOf(workers);
    }

    @PostMapping("/resume")
    RelayState resume() {
        OutboxRelayWorkers workers = workers();
        workers.start();
        return stateOf(workers);
    }

    private RelayState stateOf(OutboxRelayWorkers workers) {
        DemoConsumer consumer = demoConsumer.getIfAvailable();
        long published = (long) meters.get("ordering.outbox.messages.published").counter().count();
        return new RelayState(!workers.isRunning(), published, consumer == null ? 0 : consumer.received());
    }

    private OutboxRelayWorkers workers() {
        OutboxRelayWorkers workers = relay.getIfAvailable();
        if (workers == null) {
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
                    "This instance runs no outbox relay (ordering.outbox.relay is not polling).");
            problem.setTitle("No relay");
            throw new ErrorResponseException(HttpStatus.NOT_FOUND, problem, null);
        }
        return workers;
    }
}
