package dev.bookstore.ordering.bootstrap.benchmark;

/** One of the relays the benchmark compares: drains every pending outbox row to the broker, then returns. */
interface BenchmarkRelay {

    /** The name printed in the report. */
    String name();

    /** Relays until no pending row is left; the caller times the call. */
    Phases drainAll() throws Exception;

    /** Whether the relay marks the rows it relayed published (the polling relays do; a log reader does not). */
    default boolean marksPublished() {
        return true;
    }

    /** Called before the {@code messages} rows of a drain are seeded (a log reader makes its slot here). */
    default void beforeSeeding(int messages) throws Exception {
    }

    /** Called after a drain was timed and before it is checked (a log reader stops here). */
    default void afterDrain() throws Exception {
    }
}
