package dev.bookstore.ordering.adapters.persistence;

/**
 * MariaDB: the order's {@code INSERT}, then its lines as one JDBC batch (Connector/J sends it as one bulk command).
 * A text of several statements would need {@code allowMultiQueries} on the connection, which the service does not
 * ask its users to set.
 */
final class MariaDbOrderDialect implements OrderDialect {
}
