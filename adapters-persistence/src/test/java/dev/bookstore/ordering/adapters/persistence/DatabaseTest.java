package dev.bookstore.ordering.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DatabaseTest {

    @Test
    void theEngineIsToldFromTheProductNameTheDriverReports() throws Exception {
        assertThat(Database.of(connectionTo("PostgreSQL"))).isEqualTo(Database.POSTGRESQL);
        assertThat(Database.of(connectionTo("Microsoft SQL Server"))).isEqualTo(Database.SQL_SERVER);
    }

    @Test
    void anEngineWithoutDialectsFailsNamingItInsteadOfPassingForAnother() {
        for (String product : new String[] {"MariaDB", "MySQL", "H2"}) {
            assertThatIllegalStateException().isThrownBy(() -> Database.of(connectionTo(product)))
                    .withMessageContaining(product).withMessageContaining("PostgreSQL and Microsoft SQL Server");
        }
    }

    @Test
    void eachEngineBindsAnIdAsItsDriverExpects() {
        UUID id = UUID.randomUUID();

        assertThat(Database.POSTGRESQL.id(id)).isSameAs(id);
        assertThat(Database.SQL_SERVER.id(id)).isEqualTo(id.toString());
    }

    /** A connection that only names its database. */
    static Connection connectionTo(String productName) {
        ClassLoader loader = DatabaseTest.class.getClassLoader();
        DatabaseMetaData metaData = (DatabaseMetaData) Proxy.newProxyInstance(loader,
                new Class<?>[] {DatabaseMetaData.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getDatabaseProductName" -> productName;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (Connection) Proxy.newProxyInstance(loader, new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getMetaData" -> metaData;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
