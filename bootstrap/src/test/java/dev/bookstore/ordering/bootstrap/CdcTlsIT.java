package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.cdc.CdcRelay;
import dev.bookstore.ordering.bootstrap.cdc.CdcTestBed;
import dev.bookstore.ordering.bootstrap.cdc.TlsPostgres;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The service on a PostgreSQL that offers TLS and accepts only TLS connections with a client certificate
 * ({@link TlsPostgres}), configured as an operator would: {@code sslmode=verify-full} and the root certificate in
 * the JDBC URL, the client certificate and key in {@code spring.datasource.hikari.data-source-properties}. Every
 * connection the service keeps outside its pools is made the same way: the CDC relay's engine (its replication
 * stream included), lock and offset store, and the polling relay's LISTEN and NOTIFY connections.
 */
class CdcTlsIT {

    private static TlsPostgres postgres;
    private CdcTestBed bed;
    private JdbcTemplate jdbc;

    @BeforeAll
    static void tlsServer() {
        postgres = TlsPostgres.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        postgres.close();
    }

    @BeforeEach
    void databaseExchangeAndQueue() {
        bed = CdcTestBed.create(postgres.newMigratedDatabase());
        jdbc = bed.jdbc();
    }

    @AfterEach
    void cleanUp() {
        bed.close();
    }

    @Test
    void everyCdcConnectionIsEncryptedAndVerifiedAsThePoolsIs() {
        try (ServiceInstance cdc = start(Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.slot-name", bed.slot()))) {
            bed.awaitReading();
            assertThat(cdc.http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1)).status())
                    .isEqualTo(201);
            await().atMost(Duration.ofSeconds(60)).until(bed::receive, message -> message != null);

            List<Map<String, Object>> sessions = sessions();
            assertThat(sessions).extracting(session -> session.get("application_name").toString())
                    .anyMatch(name -> name.startsWith("ordering-cdc-lock "))
                    .anyMatch(name -> name.startsWith("ordering-cdc-offsets "));
            assertThat(sessions).extracting(session -> session.get("backend_type")).contains("walsender");
            assertThat(sessions).allSatisfy(session -> assertThat(session)
                    .as("session %s", session).containsEntry("ssl", true)
                    .extractingByKey("client_dn").asString().contains("CN=postgres"));
            assertThat(jdbc.queryForObject("""
                    SELECT s.ssl FROM pg_stat_replication r JOIN pg_stat_ssl s USING (pid)
                      JOIN pg_replication_slots slot ON slot.active_pid = r.pid WHERE slot.slot_name = ?""",
                    Boolean.class, bed.slot())).as("the slot's WAL sender").isTrue();
            assertThat(cdc.bean(CdcRelay.class).engineConfiguration())
                    .containsEntry("database.sslmode", "verify-full")
                    .containsEntry("database.sslrootcert", postgres.rootCertificate().toString())
                    .containsEntry("database.sslcert", postgres.clientCertificate().toString())
                    .containsEntry("database.sslkey", postgres.clientKey().toString());
        }
    }

    @Test
    void thePollingRelaysListenAndNotifyConnectionsAreEncryptedAndVerifiedAsThePoolsIs() {
        try (ServiceInstance polling = start(Map.of("ordering.outbox.relay", "polling"))) {
            assertThat(polling.http.postJson("/orders", HttpJson.orderJson(UUID.randomUUID().toString(), 1))
                    .status()).isEqualTo(201);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sessions())
                    .extracting(session -> session.get("query"))
                    .contains("LISTEN ordering_outbox", "NOTIFY ordering_outbox"));
            assertThat(sessions()).allSatisfy(session -> assertThat(session)
                    .as("session %s", session).containsEntry("ssl", true));
        }
    }

    /** Every session on the bed's database but this query's own, with its TLS status. */
    private List<Map<String, Object>> sessions() {
        return jdbc.queryForList("""
                SELECT a.application_name, a.backend_type, a.query, s.ssl, s.client_dn
                  FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid)
                 WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()""");
    }

    /**
     * An instance configured as an operator would for this server: the URL verifies the server, the pool's driver
     * properties carry the client certificate.
     */
    private ServiceInstance start(Map<String, String> overrides) {
        Map<String, String> properties = new LinkedHashMap<>(overrides);
        properties.put("spring.datasource.url", postgres.plainUrl(bed.database().name())
                + "&sslmode=verify-full&sslrootcert=" + postgres.rootCertificate());
        properties.put("spring.datasource.hikari.data-source-properties.sslcert",
                postgres.clientCertificate().toString());
        properties.put("spring.datasource.hikari.data-source-properties.sslkey", postgres.clientKey().toString());
        return ServiceInstance.start(bed, bed.broker().port(), properties);
    }
}
