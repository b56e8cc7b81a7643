package dev.bookstore.ordering.adapters.persistence.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Released migrations are never edited: an instance of the previous release, and every database already migrated,
 * relies on them as they were shipped (Flyway would refuse to start on a changed checksum, or worse, a changed
 * script would never run where it already ran). This pins the SHA-256 of the bytes of every released script of every
 * vendor (V1 to V5 as of 9db46ed, V6 and V7 with the operations and Modulith work); any edit, even of a comment or
 * a line ending, fails the build. MariaDB's folder starts at V7, one script with the whole schema as the other
 * vendors have it after V7. A new migration (V8 and later) is not listed here and changes nothing; once it is
 * released, add its checksum. {@code .gitattributes} keeps the scripts' line endings as committed on every
 * checkout.
 */
class ReleasedMigrationsTest {

    private static final Map<String, String> RELEASED = released();
    /** The newest released version; later scripts are not pinned yet. */
    private static final int NEWEST_RELEASED = 7;
    /** The released versions of each vendor folder, in the order Flyway runs them. */
    private static final Map<String, List<Integer>> RELEASED_VERSIONS = Map.of(
            "postgresql", IntStream.rangeClosed(1, NEWEST_RELEASED).boxed().toList(),
            "sqlserver", IntStream.rangeClosed(1, NEWEST_RELEASED).boxed().toList(),
            "mariadb", List.of(7));
    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__\\w+\\.sql");

    private static Map<String, String> released() {
        Map<String, String> scripts = new LinkedHashMap<>();
        scripts.put("postgresql/V1__orders_outbox_inbox.sql",
                "587a8ef6f795651a068d6bc8dd8e9a6468c9e551ca7b8c5e03adc032af63f527");
        scripts.put("postgresql/V2__outbox_published_count.sql",
                "6d83479628229c1ee46f74bb85976edfd714ac74722f01b154e26af269e7c7c7");
        scripts.put("postgresql/V3__idempotency_key.sql",
                "d8c9c7005a98d48c9664ba1154cff0dff4170fe44bfb59d846912398e0bda8b0");
        scripts.put("postgresql/V4__orders_by_customer.sql",
                "9a7bc489b0d732b7b2fee1fb03a5042539e0ce70abddaab2e1bdd6e1ba239105");
        scripts.put("postgresql/V5__outbox_position_and_created_at.sql",
                "feeaa85079d1d78b1f47863ffce5367f3c4eb837fe615b426a8e726c79c6c792");
        scripts.put("postgresql/V6__outbox_parked_at.sql",
                "800c9d3d7bdfe106849a18802a04c1525f2580d9ed5aa9498714c78d920b7201");
        scripts.put("postgresql/V7__customer_order_summary.sql",
                "981a3e8558202dfd83e6015da666dc2c27c15a370749260e95cb08ae5be8f97e");
        scripts.put("sqlserver/V1__orders_outbox_inbox.sql",
                "24e580ef8df3323cbb14fad67bfe179a608a4495bf2c5cc34a9d6def63e56569");
        scripts.put("sqlserver/V2__outbox_published_count.sql",
                "5097fd5228fc582c5fbefe8c3a580ffa47b685d33dcbdedc709331d09ed337cb");
        scripts.put("sqlserver/V3__idempotency_key.sql",
                "78b4e3f7eea7b71de871c68dc96d0a7480ef3a6180f94534502186ca14c4e1cc");
        scripts.put("sqlserver/V4__orders_by_customer.sql",
                "9a7bc489b0d732b7b2fee1fb03a5042539e0ce70abddaab2e1bdd6e1ba239105");
        scripts.put("sqlserver/V5__outbox_position_and_created_at.sql",
                "d6e034f2ce36c647b2b8aa42141ea69fa8adf5a5febdfe1db4f9a19c704a54d9");
        scripts.put("sqlserver/V6__outbox_parked_at.sql",
                "81223efd17dced474fa36b7af4489f9a083a20029868e5698e8375e0e10d5fd6");
        scripts.put("sqlserver/V7__customer_order_summary.sql",
                "09186c4ba1982f5cb5acd359c872dfca11ca7d8654cb6c6185e1e53d1d0a2961");
        scripts.put("mariadb/V7__ordering_schema.sql",
                "a06faa34ace0a1bcd66d087954a2941455d74f873fb1abb21a91dd21d26d0672");
        return scripts;
    }

    @Test
    void everyReleasedMigrationOfEveryVendorIsByteForByteAsReleased() {
        Map<String, String> actual = new LinkedHashMap<>();
        RELEASED.keySet().forEach(script -> actual.put(script, sha256(read(script))));

        assertThat(actual).as("released migrations are never edited; write a new version instead")
                .containsExactlyEntriesOf(RELEASED);
    }

    @Test
    void everyVendorHasItsReleasedVersions() {
        RELEASED_VERSIONS.forEach((vendor, versions) -> assertThat(RELEASED.keySet().stream()
                .filter(script -> script.startsWith(vendor + "/")).map(ReleasedMigrationsTest::version))
                .as(vendor).containsExactlyElementsOf(versions));
        assertThat(RELEASED.keySet()).allSatisfy(script -> assertThat(RELEASED_VERSIONS)
                .containsKey(script.substring(0, script.indexOf('/'))));
    }

    /** A vendor folder or a script up to the newest released version that nobody pinned fails here. */
    @Test
    void everyScriptOnTheClasspathUpToTheNewestReleasedVersionIsPinned() throws Exception {
        URL migrations = ReleasedMigrationsTest.class.getClassLoader().getResource("db/migration");
        assertThat(migrations).isNotNull();
        assertThat(migrations.getProtocol()).as("read from the module's classes folder").isEqualTo("file");
        Path root = Path.of(migrations.toURI());

        try (Stream<Path> folders = Files.list(root)) {
            assertThat(folders.map(folder -> folder.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(RELEASED_VERSIONS.keySet());
        }
        for (String vendor : RELEASED_VERSIONS.keySet()) {
            try (Stream<Path> scripts = Files.list(root.resolve(vendor))) {
                List<String> released = scripts.map(script -> vendor + "/" + script.getFileName())
                        .filter(script -> version(script) <= NEWEST_RELEASED).sorted().toList();
                assertThat(released).as(vendor).isNotEmpty().allSatisfy(script ->
                        assertThat(RELEASED).as("pinned").containsKey(script));
            }
        }
    }

    @Test
    void aChangedByteChangesTheChecksum() {
        // Proves the pin can fail: one space added to a released script gives another digest.
        byte[] script = read("postgresql/V1__orders_outbox_inbox.sql");
        byte[] edited = new byte[script.length + 1];
        System.arraycopy(script, 0, edited, 0, script.length);
        edited[script.length] = ' ';

        assertThat(sha256(edited)).isNotEqualTo(RELEASED.get("postgresql/V1__orders_outbox_inbox.sql"));
    }

    /** The version of {@code vendor/Vn__name.sql}. */
    private static int version(String script) {
        Matcher matcher = VERSIONED.matcher(script.substring(script.indexOf('/') + 1));
        assertThat(matcher.matches()).as("a versioned migration: %s", script).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    private static byte[] read(String script) {
        String path = "db/migration/" + script;
        try (InputStream in = ReleasedMigrationsTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(path, e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
