package dev.bookstore.ordering.adapters.persistence.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.condition.EnabledIf;

/** Runs the class only where {@link TestSqlServer} can start a SQL Server; elsewhere it is skipped with the reason. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@EnabledIf(value = "dev.bookstore.ordering.adapters.persistence.testing.TestSqlServer#available",
        disabledReason = "SQL Server runs only through Testcontainers, and no Docker engine is available here; "
                + "the dialect tests still check the SQL Server statements")
public @interface EnabledWithSqlServer {
}
