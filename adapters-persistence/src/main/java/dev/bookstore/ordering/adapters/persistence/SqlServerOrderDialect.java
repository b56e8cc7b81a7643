package dev.bookstore.ordering.adapters.persistence;

/** SQL Server: the order's {@code INSERT}, then its lines as one JDBC batch. */
final class SqlServerOrderDialect implements OrderDialect {
}
