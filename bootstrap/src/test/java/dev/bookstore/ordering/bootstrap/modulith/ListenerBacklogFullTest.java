package dev.bookstore.ordering.bootstrap.modulith;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ListenerBacklogFullTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void aRunThatFindsTheQueueFullIsDroppedAndCountedAndTheOthersRun() throws Exception {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1),
                new ListenerBacklogFull(registry, Clock.systemUTC()));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        executor.execute(() -> {
            started.countDown();
            await(release);
            ran.incrementAndGet();
        });
        started.await();

        executor.execute(ran::incrementAndGet);   // queued
        executor.execute(ran::incrementAndGet);   // dropped
        executor.execute(ran::incrementAndGet);   // dropped

        assertThat(dropped()).isEqualTo(2);
        release.countDown();
        executor.shutdown();
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).hasValue(2);
    }

    @Test
    void runsRefusedBecauseTheExecutorShutsDownAreCountedToo() {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1),
                new ListenerBacklogFull(registry, Clock.systemUTC()));
        executor.shutdown();

        executor.execute(() -> { });

        assertThat(dropped()).isEqualTo(1);
    }

    private double dropped() {
        return registry.get(ListenerBacklogFull.NAME).counter().count();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
