package dev.bookstore.ordering.bootstrap.tracing;

import dev.bookstore.ordering.application.port.out.TraceContext;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * W3C Trace Context for the current thread: the request's {@code traceparent} (or a new trace when the
 * client sent none) with a new span id for this service. {@link TraceContext#currentHeaders()} hands it to
 * the outbox row, so the consumer of the message continues the same trace, however late the relay sends it.
 */
public final class W3cTraceContext implements TraceContext {

    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
    private static final String INVALID_TRACE_ID = "0".repeat(32);
    private static final String INVALID_SPAN_ID = "0".repeat(16);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ThreadLocal<Map<String, String>> CURRENT = new ThreadLocal<>();

    /** The trace this thread works in; returns the headers to send downstream (and back to the client). */
    public Map<String, String> begin(String incomingTraceparent, String incomingTracestate) {
        String traceId = parse(incomingTraceparent).orElseGet(() -> randomHex(16));
        String traceparent = "00-" + traceId + "-" + randomHex(8) + "-01";
        Map<String, String> headers = incomingTracestate == null || incomingTracestate.isBlank()
                ? Map.of("traceparent", traceparent)
                : Map.of("traceparent", traceparent, "tracestate", incomingTracestate);
        CURRENT.set(headers);
        return headers;
    }

    public void end() {
        CURRENT.remove();
    }

    @Override
    public Map<String, String> currentHeaders() {
        Map<String, String> headers = CURRENT.get();
        return headers == null ? Map.of() : headers;
    }

    /** The trace id of a valid version-00 {@code traceparent}, as the W3C spec defines valid. */
    static Optional<String> parse(String traceparent) {
        if (traceparent == null) {
            return Optional.empty();
        }
        var matcher = TRACEPARENT.matcher(traceparent.trim());
        if (!matcher.matches() || matcher.group(1).equals(INVALID_TRACE_ID)
                || matcher.group(2).equals(INVALID_SPAN_ID)) {
            return Optional.empty();
        }
        return Optional.of(matcher.group(1));
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
