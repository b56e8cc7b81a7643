package dev.bookstore.ordering.bootstrap;

import dev.bookstore.ordering.OrderingApplication;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.bootstrap.cdc.CdcTestBed;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ConfigurableApplicationContext;

/** One running instance of the service, as a separate application context on a random port. */
final class ServiceInstance implements AutoCloseable {

    private final ConfigurableApplicationContext context;
    final HttpJson http;

    private ServiceInstance(ConfigurableApplicationContext context) {
        this.context = context;
        this.http = new HttpJson(((WebServerApplicationContext) context).getWebServer().getPort());
    }

    static ServiceInstance start(TestDatabase database, String rabbitHost, int rabbitPort,
                                 String exchange, Map<String, String> overrides) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("server.port", "0");
        properties.put("spring.datasource.url", database.url());
        properties.put("spring.datasource.username", database.username());
        properties.put("spring.datasource.password", database.password());
        properties.put("spring.rabbitmq.host", rabbitHost);
        properties.put("spring.rabbitmq.port", String.valueOf(rabbitPort));
        properties.put("spring.rabbitmq.connection-timeout", "2s");
        properties.put("ordering.outbox.exchange", exchange);
        properties.put(TestTokens.PUBLIC_KEY_PROPERTY, TestTokens.publicKeyLocation());
        properties.put(TestTokens.AUDIENCES_PROPERTY, TestTokens.AUDIENCE);
        properties.putAll(overrides);
        // As command-line arguments: they outrank application.yml, as a deployment's settings would.
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(OrderingApplication.class)
                .profiles(database.mariaDb() ? TestEngine.MARIADB.profile() : TestEngine.POSTGRESQL.profile())
                .run(args);
        return new ServiceInstance(context);
    }

    /** An instance on a CDC test bed's database and exchange, reaching its broker at {@code rabbitPort} (or a proxy). */
    static ServiceInstance start(CdcTestBed bed, int rabbitPort, Map<String, String> overrides) {
        Map<String, String> properties = new LinkedHashMap<>(overrides);
        properties.put("spring.rabbitmq.username", bed.broker().username());
        properties.put("spring.rabbitmq.password", bed.broker().password());
        return start(bed.database(), bed.broker().host(), rabbitPort, bed.exchange(), properties);
    }

    int port() {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    <T> T bean(String name, Class<T> type) {
        return context.getBean(name, type);
    }

    /** This instance's event bus, as the order's transaction publishes to it. */
    ApplicationEventPublisher events() {
        return context;
    }

    long publishedByThisInstance() {
        return (long) bean(MeterRegistry.class).get("ordering.outbox.messages.published").counter().count();
    }

    @Override
    public void close() {
        context.close();
    }
}
