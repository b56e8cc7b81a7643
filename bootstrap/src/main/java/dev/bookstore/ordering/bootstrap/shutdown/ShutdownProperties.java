package dev.bookstore.ordering.bootstrap.shutdown;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The stop, under {@code ordering.shutdown}.
 *
 * @param drain how long the instance keeps serving after it reported not ready, before the web server stops taking
 *              connections: long enough for a load balancer to notice (its health-check interval times the failed
 *              checks it needs, plus a margin); 0s where something else waits, such as a preStop
 *              hook
 */
@Validated
@ConfigurationProperties("ordering.shutdown")
public record ShutdownProperties(@DefaultValue("5s") @NotNull Duration drain) {

    @AssertTrue(message = "drain must be between 0s and 5m")
    boolean isDrainSane() {
        return drain == null || !drain.isNegative() && drain.compareTo(Duration.ofMinutes(5)) <= 0;
    }
}
