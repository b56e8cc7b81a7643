package dev.bookstore.ordering.bootstrap.cdc;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;

/**
 * An embedded PostgreSQL of one test's own that offers TLS and accepts nothing else on the test databases:
 * {@code wal_level=logical}, {@code ssl=on} with a server certificate for {@code localhost}, {@code 127.0.0.1} and
 * {@code ::1} signed by a CA made for it, and {@code hostssl ... cert} for every database but {@code postgres}
 * (the embedded server's own checks): a connection must use TLS and present a client certificate for its user,
 * signed by the same CA. Certificates and keys are made with {@code openssl} in a temporary directory; {@link #close()}
 * stops the server and deletes them.
 */
public final class TlsPostgres implements AutoCloseable {

    private static final String USER = "postgres";

    private final Path dir;
    private final EmbeddedPostgres server;

    private TlsPostgres(Path dir, EmbeddedPostgres server) {
        this.dir = dir;
        this.server = server;
    }

    public static TlsPostgres start() {
        try {
            Path dir = Files.createTempDirectory("ordering-tls-postgres");
            certificates(dir);
            Files.writeString(dir.resolve("pg_hba.conf"), """
                    local   all       all                trust
                    host    postgres  all  127.0.0.1/32  trust
                    host    postgres  all  ::1/128       trust
                    hostssl all       all  127.0.0.1/32  cert
                    hostssl all       all  ::1/128       cert
                    """);
            EmbeddedPostgres server = EmbeddedPostgres.builder()
                    .setServerConfig("wal_level", "logical")
                    .setServerConfig("max_replication_slots", "10")
                    .setServerConfig("max_wal_senders", "10")
                    .setServerConfig("ssl", "on")
                    .setServerConfig("ssl_cert_file", dir.resolve("server.crt").toString())
                    .setServerConfig("ssl_key_file", dir.resolve("server.key").toString())
                    .setServerConfig("ssl_ca_file", dir.resolve("ca.crt").toString())
                    .setServerConfig("hba_file", dir.resolve("pg_hba.conf").toString())
                    .start();
            return new TlsPostgres(dir, server);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the TLS PostgreSQL", e);
        }
    }

    /** The CA certificate that signed the server's certificate: what {@code sslrootcert} names. */
    public Path rootCertificate() {
        return dir.resolve("ca.crt");
    }

    /** The client certificate for user {@code postgres}. */
    public Path clientCertificate() {
        return dir.resolve("client.crt");
    }

    /** Its key, PKCS-8 DER as the JDBC driver reads it. */
    public Path clientKey() {
        return dir.resolve("client.pk8");
    }

    /** {@code jdbc:postgresql://localhost:port/database?user=postgres}, with no TLS parameter. */
    public String plainUrl(String database) {
        return "jdbc:postgresql://localhost:" + server.getPort() + "/" + database + "?user=" + USER;
    }

    /** The URL with TLS verified against the root certificate and the client certificate: what this server accepts. */
    public String verifiedUrl(String database) {
        return plainUrl(database) + "&sslmode=verify-full&sslrootcert=" + rootCertificate() + "&sslcert="
                + clientCertificate() + "&sslkey=" + clientKey();
    }

    /** A database of its own with the service's schema, reached with {@link #verifiedUrl}. */
    public TestDatabase newMigratedDatabase() {
        String name = "ordering_tls_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)
                .toLowerCase(Locale.ROOT);
        try (Connection admin = server.getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create " + name, e);
        }
        TestDatabase database = new TestDatabase(verifiedUrl(name), USER, "", name);
        Flyway.configure().dataSource(database.url(), database.username(), database.password())
                .locations("classpath:db/migration/postgresql").load().migrate();
        return database;
    }

    @Override
    public void close() throws IOException {
        try {
            server.close();
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** CA, server certificate (SAN localhost, 127.0.0.1, ::1) and client certificate (CN postgres), with openssl. */
    private static void certificates(Path dir) throws IOException {
        Files.writeString(dir.resolve("server.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n");
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
                "-days", "2", "-subj", "/CN=ordering-test-ca");
        openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
                "-subj", "/CN=localhost");
        openssl(dir, "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.crt", "-days", "2", "-extfile", "server.ext");
        openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "client.key", "-out", "client.csr",
                "-subj", "/CN=" + USER);
        openssl(dir, "x509", "-req", "-in", "client.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "client.crt", "-days", "2");
        openssl(dir, "pkcs8", "-topk8", "-inform", "PEM", "-outform", "DER", "-in", "client.key", "-out",
                "client.pk8", "-nocrypt");
        // the server refuses a key others may read
        Files.setPosixFilePermissions(dir.resolve("server.key"), java.nio.file.attribute.PosixFilePermissions
                .fromString("rw-------"));
    }

    private static void openssl(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile()).start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("openssl " + String.join(" ", args) + " failed: "
                        + Files.readString(dir.resolve("openssl.log")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
