package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * What the ITs that start a service with its relay need around it: a database of their own on the real PostgreSQL (or MariaDB),
 * a durable topic exchange of their own on the real RabbitMQ and a queue bound to it with {@code order.#}, plus the
 * connections a test uses to look at both. {@link #close()} removes all of it.
 */
record OutboxTestBed(TestDatabase database, JdbcTemplate jdbc, TestRabbit.Broker broker,
                     CachingConnectionFactory consumerConnection, RabbitAdmin admin, String exchange, Queue queue)
        implements AutoCloseable {

    static OutboxTestBed create() {
        return create(TestEngine.POSTGRESQL);
    }

    static OutboxTestBed create(TestEngine engine) {
        TestDatabase database = engine.newDatabase();
        JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(database.url(), database.username(),
                database.password()));
        TestRabbit.Broker broker = TestRabbit.broker();
        TestRabbit.TopicQueue topic = broker.topicQueue("order.#");
        return new OutboxTestBed(database, jdbc, broker, topic.connection(), topic.admin(), topic.exchange(),
                topic.queue());
    }

    @Override
    public void close() {
        admin.deleteQueue(queue.getName());
        admin.deleteExchange(exchange);
        consumerConnection.destroy();
        database.drop();
    }
}
