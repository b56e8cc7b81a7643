package dev.bookstore.ordering.bootstrap.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetentionJobTest {

    @Test
    void purgeDeletesChunkAfterChunkUntilOneComesBackShort() {
        List<Integer> asked = new ArrayList<>();
        int[] left = {5};
        RetentionJob job = new RetentionJob("rows", Duration.ofDays(7), Duration.ofMinutes(1), 2, (age, limit) -> {
            asked.add(limit);
            int deleted = Math.min(limit, left[0]);
            left[0] -= deleted;
            return deleted;
        });

        assertThat(job.purge()).isEqualTo(5);
        assertThat(asked).containsExactly(2, 2, 2);
    }

    @Test
    void aFullLastChunkCostsOneMoreStatementThatFindsNothing() {
        List<Integer> deleted = new ArrayList<>(List.of(2, 2, 0));
        RetentionJob job = new RetentionJob("rows", Duration.ofDays(7), Duration.ofMinutes(1), 2,
                (age, limit) -> deleted.remove(0));

        assertThat(job.purge()).isEqualTo(4);
        assertThat(deleted).isEmpty();
    }

    @Test
    void aScheduledRunSurvivesAFailingDatabaseSoTheNextRunTriesAgain() {
        int[] runs = {0};
        RetentionJob job = new RetentionJob("rows", Duration.ofDays(7), Duration.ofMinutes(1), 2, (age, limit) -> {
            runs[0]++;
            throw new IllegalStateException("database down");
        });

        assertThatNoException().isThrownBy(job::run);
        assertThatNoException().isThrownBy(job::run);
        assertThat(runs[0]).isEqualTo(2);
    }
}
