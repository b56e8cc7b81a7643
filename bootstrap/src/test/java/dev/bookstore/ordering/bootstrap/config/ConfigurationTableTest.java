package dev.bookstore.ordering.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.bootstrap.docs.RepositoryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The property tables of the docs say what the jar binds: {@code docs/configuration.md} lists exactly the
 * {@code ordering.*} properties of the configuration metadata, each with the metadata's default, and the README's
 * short table names none that the metadata lacks.
 *
 * <p>A table row counts when its first cell is one property name in backticks: {@code | `ordering.x.y` | `default`
 * | meaning |}. The metadata is the configuration processor's {@code META-INF/spring-configuration-metadata.json}
 * of this module together with {@code META-INF/additional-spring-configuration-metadata.json} (properties bound
 * otherwise than through a {@code @ConfigurationProperties} record).
 */
class ConfigurationTableTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern PROPERTY_ROW = Pattern.compile("^\\|\\s*`(ordering\\.[a-z0-9.-]+)`\\s*\\|([^|]*)\\|");
    private static final String FULL_TABLE = "docs/configuration.md";
    private static final String README = "README.md";

    @Test
    void theConfigurationPageListsExactlyThePropertiesOfTheMetadata() throws IOException {
        Map<String, String> metadata = orderingPropertiesOfTheMetadata();
        Map<String, String> table = propertyRows(FULL_TABLE);

        Set<String> missing = new TreeSet<>(metadata.keySet());
        missing.removeAll(table.keySet());
        Set<String> unknown = new TreeSet<>(table.keySet());
        unknown.removeAll(metadata.keySet());

        assertThat(missing).as("""
                ordering.* properties of the configuration metadata that %s does not list: add a row for each, \
                | `name` | `default` | meaning |""", FULL_TABLE).isEmpty();
        assertThat(unknown).as("""
                properties %s lists that the configuration metadata does not have: remove their rows (or bind the \
                property through a @ConfigurationProperties record, or describe it in \
                bootstrap/src/main/resources/META-INF/additional-spring-configuration-metadata.json)""", FULL_TABLE)
                .isEmpty();
    }

    @Test
    void theConfigurationPageGivesTheDefaultsOfTheMetadata() throws IOException {
        assertThat(wrongDefaults(FULL_TABLE, orderingPropertiesOfTheMetadata()))
                .as("rows of %s whose default differs from the configuration metadata's (expected → written)",
                        FULL_TABLE)
                .isEmpty();
    }

    @Test
    void theReadmeNamesOnlyPropertiesOfTheMetadataWithTheirDefaults() throws IOException {
        Map<String, String> metadata = orderingPropertiesOfTheMetadata();
        Map<String, String> table = propertyRows(README);

        Set<String> unknown = new TreeSet<>(table.keySet());
        unknown.removeAll(metadata.keySet());
        assertThat(table).as("the README's configuration table (rows | `ordering.…` | `default` | meaning |)")
                .isNotEmpty();
        assertThat(unknown).as("properties the README's table names that the configuration metadata does not have: "
                + "remove their rows").isEmpty();
        assertThat(wrongDefaults(README, metadata))
                .as("rows of the README whose default differs from the configuration metadata's "
                        + "(expected → written)")
                .isEmpty();
    }

    @Test
    void aRowIsReadFromItsFirstTwoCells() {
        Matcher row = PROPERTY_ROW.matcher("| `ordering.outbox.batch-size` | `100` | rows claimed together |");

        assertThat(row.find()).isTrue();
        assertThat(row.group(1)).isEqualTo("ordering.outbox.batch-size");
        assertThat(defaultOf(row.group(2))).isEqualTo("100");
        assertThat(PROPERTY_ROW.matcher("| `ordering.outbox.retention` / `retention-chunk` | x |").find()).isFalse();
        assertThat(PROPERTY_ROW.matcher("the gauge `ordering.modulith.incomplete.publications` |").find()).isFalse();
    }

    private static List<String> wrongDefaults(String document, Map<String, String> metadata) throws IOException {
        List<String> wrong = new ArrayList<>();
        propertyRows(document).forEach((name, written) -> {
            String expected = metadata.get(name);
            if (expected != null && !expected.isEmpty() && !expected.equals(written)) {
                wrong.add("%s: `%s` → `%s`".formatted(name, expected, written));
            }
        });
        return wrong;
    }

    /** Property name → its default cell without backticks, for every property row of the document. */
    private static Map<String, String> propertyRows(String document) throws IOException {
        Map<String, String> rows = new LinkedHashMap<>();
        List<String> twice = new ArrayList<>();
        for (String line : Files.readAllLines(RepositoryFiles.file(document))) {
            Matcher row = PROPERTY_ROW.matcher(line);
            if (row.find() && rows.put(row.group(1), defaultOf(row.group(2))) != null) {
                twice.add(row.group(1));
            }
        }
        assertThat(twice).as("properties with more than one row in %s", document).isEmpty();
        return rows;
    }

    /** {@code `100`} → {@code 100}; a cell that is not one value in backticks (e.g. "unset: ...") stays as it is. */
    private static String defaultOf(String cell) {
        String trimmed = cell.trim();
        return trimmed.matches("`[^`]*`") ? trimmed.substring(1, trimmed.length() - 1) : trimmed;
    }

    /** Name → default (empty when the metadata gives none) of every {@code ordering.*} property. */
    private static Map<String, String> orderingPropertiesOfTheMetadata() throws IOException {
        Map<String, String> properties = new TreeMap<>();
        OrderingConfigurationMetadata.properties()
                .forEach((name, property) -> properties.put(name, OrderingConfigurationMetadata.text(property, "defaultValue")));
        assertThat(properties).as("ordering.* properties in the configuration metadata").isNotEmpty();
        return properties;
    }
}
