package dev.bookstore.ordering.bootstrap.shutdown;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * The pause between "not ready" and "not accepting". When the context closes, Boot turns readiness to
 * {@code REFUSING_TRAFFIC} (the probe answers 503) and then stops the lifecycle beans, the web server's graceful
 * shutdown first among them. A load balancer notices the probe only at its next checks, and until then it still
 * sends requests; had the server stopped accepting at once, they would fail. So this bean, stopped in the phase just
 * before the web server's, waits {@code drain} while the instance still serves everything, the relay included.
 */
public final class ReadinessDrain implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ReadinessDrain.class);

    private final Duration drain;
    private volatile boolean running;

    public ReadinessDrain(Duration drain) {
        this.drain = drain;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        if (drain.isZero()) {
            return;
        }
        LOG.info("Not ready; serving for {} more before the web server stops accepting", drain);
        try {
            TimeUnit.NANOSECONDS.sleep(drain.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stopped just before the web server's graceful shutdown, which stops first of everything else. */
    @Override
    public int getPhase() {
        return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE + 1;
    }
}
