package dev.bookstore.ordering.application.outbox.capture;

/**
 * Measures the change stream's lag, one cheap query per call, for the gauges and the health component; its
 * {@link UnconfirmedChangeAge} follows from successive measurements.
 */
public interface CaptureLagProbe {

    CaptureLag measure();
}
