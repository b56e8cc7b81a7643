package dev.bookstore.ordering.bootstrap.retention;

import java.util.List;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/** Runs every {@link RetentionJob} bean on this instance, each at its own interval, the first run one interval in. */
public final class RetentionScheduling implements SchedulingConfigurer {

    private final List<RetentionJob> jobs;

    public RetentionScheduling(List<RetentionJob> jobs) {
        this.jobs = List.copyOf(jobs);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        for (RetentionJob job : jobs) {
            registrar.addFixedDelayTask(new FixedDelayTask(job::run, job.interval(), job.interval()));
        }
    }
}
