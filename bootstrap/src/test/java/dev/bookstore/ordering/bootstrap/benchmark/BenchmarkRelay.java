package dev.bookstore.ordering.bootstrap.benchmark;

/** One of the relays the benchmark compares: drains every pending outbox row to the broker, then returns. */
interface BenchmarkRelay {

    /** The name printed in the report. */
    String name();

    /** Relays until no pending row is left; the caller times the call. */
    Phases drainAll() throws Exception;
}
