package dev.bookstore.ordering.bootstrap.config;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * A start without a database ends with one message that says what to configure, and how to try the service out
 * on one's own machine instead. The service has no default profile and starts no database of its own, so a
 * missing {@code spring.datasource.url} is the first thing a new deployment can run into. It is ordered before
 * Boot's own analysis of the same failure, whose advice (put H2 on the classpath, activate a profile) does not
 * help here. Registered in {@code META-INF/spring.factories}.
 */
class DatabaseNotConfiguredFailureAnalyzer implements FailureAnalyzer, Ordered {

    static final String URL_PROPERTY = "spring.datasource.url";

    /** The name of Boot's DataSource bean, whichever pool it builds. */
    private static final String DATA_SOURCE_BEAN = "dataSource";

    static final String DESCRIPTION = """
            No database is configured: %s is not set. The service keeps its orders and its outbox in PostgreSQL \
            (or MariaDB, or SQL Server), and starts no database of its own.""".formatted(URL_PROPERTY);

    static final String ACTION = """
            Name the database, as arguments or as environment variables (SPRING_DATASOURCE_URL, \
            SPRING_DATASOURCE_USERNAME, SPRING_DATASOURCE_PASSWORD):

                --spring.datasource.url=jdbc:postgresql://<host>:5432/ordering \
            --spring.datasource.username=<user> --spring.datasource.password=<password>

            or start with --spring.profiles.active=postgres for jdbc:postgresql://localhost:5432/ordering (user \
            postgres), or mariadb for jdbc:mariadb://localhost:3306/ordering (user root). RabbitMQ is spring.rabbitmq.host, .port, .username and .password (default localhost:5672, \
            guest/guest).

            To try the service out on your machine instead, with an embedded PostgreSQL and AMQP broker, run this \
            in a checkout of its repository:

                ./mvnw -q install -DskipTests && ./mvnw -pl bootstrap spring-boot:test-run""";

    private final Environment environment;

    DatabaseNotConfiguredFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        if (StringUtils.hasText(environment.getProperty(URL_PROPERTY)) || !dataSourceFailed(failure)) {
            return null;
        }
        return new FailureAnalysis(DESCRIPTION, ACTION, failure);
    }

    private static boolean dataSourceFailed(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BeanCreationException creation && DATA_SOURCE_BEAN.equals(creation.getBeanName())) {
                return true;
            }
        }
        return false;
    }

    /** Before Boot's analyzers, which have no order of their own. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
