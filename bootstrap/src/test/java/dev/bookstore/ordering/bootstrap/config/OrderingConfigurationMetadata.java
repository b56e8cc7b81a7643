package dev.bookstore.ordering.bootstrap.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code ordering.*} properties of the configuration metadata on the classpath: what the configuration processor
 * generated in each of the service's modules, plus bootstrap's {@code additional-spring-configuration-metadata.json}.
 */
final class OrderingConfigurationMetadata {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> FILES = List.of("META-INF/spring-configuration-metadata.json",
            "META-INF/additional-spring-configuration-metadata.json");

    private OrderingConfigurationMetadata() {
    }

    /** Name → the property's entry, for every {@code ordering.*} property. */
    static Map<String, JsonNode> properties() throws IOException {
        Map<String, JsonNode> properties = new TreeMap<>();
        ClassLoader loader = OrderingConfigurationMetadata.class.getClassLoader();
        for (String file : FILES) {
            for (URL url : Collections.list(loader.getResources(file))) {
                try (InputStream in = url.openStream()) {
                    for (JsonNode property : JSON.readTree(in).get("properties")) {
                        String name = property.get("name").asString();
                        if (name.startsWith("ordering.")) {
                            properties.putIfAbsent(name, property);
                        }
                    }
                }
            }
        }
        return properties;
    }

    /** The text of an entry's field, or "" when it has none. */
    static String text(JsonNode property, String field) {
        JsonNode value = property.get(field);
        return value == null || value.isNull() ? "" : value.asString();
    }
}
