package dev.bookstore.ordering.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.json.JsonMapper;

/**
 * IDEs complete and explain every {@code ordering.*} property: the configuration processor's
 * {@code META-INF/spring-configuration-metadata.json} (from the {@code @ConfigurationProperties} records' javadoc,
 * plus {@code META-INF/additional-spring-configuration-metadata.json} for anything bound otherwise) names each
 * one that {@code application.yml} sets, with a description.
 */
class ConfigurationMetadataTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void everyOrderingPropertyInApplicationYmlIsInTheMetadataWithADescription() throws IOException {
        TreeSet<String> inYml = orderingKeysOfApplicationYml();
        Map<String, String> described = orderingPropertiesOfTheMetadata();

        assertThat(inYml).as("ordering.* keys in application.yml").isNotEmpty()
                .contains("ordering.outbox.batch-size", "ordering.idempotency.retention");
        assertThat(described.keySet()).as("""
                ordering.* keys of application.yml missing from the configuration metadata: bind them through a \
                @ConfigurationProperties record with an @param each, or describe them in \
                bootstrap/src/main/resources/META-INF/additional-spring-configuration-metadata.json""")
                .containsAll(inYml);
    }

    @Test
    void everyOrderingPropertyInTheMetadataHasAPlainTextDescription() throws IOException {
        Map<String, String> described = orderingPropertiesOfTheMetadata();

        assertThat(described).isNotEmpty();
        described.forEach((name, description) -> assertThat(description)
                .as("description of %s (an @param of its properties record; plain text, the processor copies "
                        + "javadoc tags as they are)", name)
                .isNotBlank().doesNotContain("{@"));
    }

    private static TreeSet<String> orderingKeysOfApplicationYml() throws IOException {
        TreeSet<String> keys = new TreeSet<>();
        for (PropertySource<?> document : new YamlPropertySourceLoader()
                .load("application.yml", new ClassPathResource("application.yml"))) {
            for (String name : ((EnumerablePropertySource<?>) document).getPropertyNames()) {
                if (name.startsWith("ordering.")) {
                    keys.add(name);
                }
            }
        }
        return keys;
    }

    /** Name → description of every {@code ordering.*} property in the metadata of the service's modules. */
    private static Map<String, String> orderingPropertiesOfTheMetadata() throws IOException {
        Map<String, String> described = new TreeMap<>();
        OrderingConfigurationMetadata.properties()
                .forEach((name, property) -> described.put(name, OrderingConfigurationMetadata.text(property, "description")));
        return described;
    }
}
