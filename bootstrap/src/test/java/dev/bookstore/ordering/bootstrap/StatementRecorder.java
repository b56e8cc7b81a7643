package dev.bookstore.ordering.bootstrap;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Records the SQL the service sends, as the driver receives it: every statement prepared or executed on a
 * connection of the application's data source, and every {@code executeBatch} as one entry. Registered as a
 * bean post-processor, it wraps the data source bean; tests read what one request sent.
 */
final class StatementRecorder implements BeanPostProcessor {

    /**
     * The service's own background threads, whose statements belong to no request or call of the test: the
     * in-process event listeners, the outbox statistics count (every 2 s) and the scheduled jobs.
     */
    static final List<String> BACKGROUND_THREADS = List.of("ordering-events-", "outbox-stats", "scheduling-");

    private final List<String> statements = new ArrayList<>();
    private boolean recording;

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof DataSource dataSource && "dataSource".equals(beanName)) {
            return new DelegatingDataSource(dataSource) {
                @Override
                public Connection getConnection() throws java.sql.SQLException {
                    return recording(super.getConnection());
                }
            };
        }
        return bean;
    }

    /** Starts a new recording; what was recorded before is forgotten. */
    synchronized void start() {
        statements.clear();
        recording = true;
    }

    /** Stops recording and gives back what was sent since {@link #start()}, in order. */
    synchronized List<String> stop() {
        recording = false;
        return List.copyOf(statements);
    }

    private synchronized void record(String sql) {
        String thread = Thread.currentThread().getName();
        if (recording && BACKGROUND_THREADS.stream().noneMatch(thread::startsWith)) {
            statements.add(sql.strip().replaceAll("\\s+", " "));
        }
    }

    private Connection recording(Connection connection) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(connection, method, args);
                    String name = method.getName();
                    if (name.equals("prepareStatement") || name.equals("prepareCall")) {
                        return recording((Statement) result, (String) args[0]);
                    }
                    if (name.equals("createStatement")) {
                        return recording((Statement) result, null);
                    }
                    if (name.equals("commit") || name.equals("rollback")) {
                        record(name.toUpperCase());
                    }
                    return result;
                });
    }

    private Statement recording(Statement statement, String prepared) {
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        for (Class<?> type = statement.getClass(); type != null; type = type.getSuperclass()) {
            for (Class<?> candidate : type.getInterfaces()) {
                if (candidate.getName().startsWith("java.sql.")) {
                    interfaces.add(candidate);
                }
            }
        }
        return (Statement) Proxy.newProxyInstance(getClass().getClassLoader(), interfaces.toArray(Class<?>[]::new),
                (proxy, method, args) -> {
                    String name = method.getName();
                    if (name.equals("executeBatch")) {
                        record("BATCH " + prepared);
                    } else if (name.startsWith("execute")) {
                        record(args != null && args.length > 0 && args[0] instanceof String sql ? sql : prepared);
                    }
                    return invoke(statement, method, args);
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
