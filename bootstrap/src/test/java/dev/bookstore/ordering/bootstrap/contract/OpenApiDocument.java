package dev.bookstore.ordering.bootstrap.contract;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.bootstrap.WritePathService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.springframework.test.context.DynamicPropertyRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The checked-in API description, {@code docs/openapi.json}: where it is, how the served one differs from it, and
 * how it is written by the one program allowed to ({@link OpenApiDocumentWriter}).
 */
final class OpenApiDocument {

    /** The one command that regenerates {@code docs/openapi.json} from the running service. */
    static final String REGENERATE_COMMAND = "./mvnw -B -pl bootstrap -am verify -Popenapi -DskipTests";

    static final String PATH = "docs/openapi.json";

    private static final int MAX_REPORTED = 25;

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();

    private OpenApiDocument() {
    }

    /** The settings of a service that serves the description: a database of its own, no broker, no relay. */
    static void serviceProperties(DynamicPropertyRegistry registry, TestDatabase database) {
        WritePathService.register(registry, database);
        registry.add("ordering.idempotency.retention-interval", () -> "1h");
        // the database is dropped before the context closes: its last calls give up fast instead of after 30 s
        registry.add("spring.datasource.hikari.connection-timeout", () -> "2000");
    }

    /** {@code docs/openapi.json} of this repository, found from the module directory the tests run in. */
    static Path checkedIn() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("docs"))) {
                return dir.resolve(PATH);
            }
        }
        throw new IllegalStateException("No repository root (with mvnw and docs/) above " + Path.of("")
                .toAbsolutePath());
    }

    static JsonNode parse(String json) {
        return JSON.readTree(json);
    }

    static JsonNode read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Pretty-printed, object keys sorted at every level, ending with a newline: stable diffs in review. */
    static String format(JsonNode document) {
        return JSON.writeValueAsString(document) + "\n";
    }

    /**
     * Where two documents differ, as JSON pointers ({@code /paths/~1orders/post/responses/409: ...}); empty when
     * they are equal as JSON (key order and formatting do not count, array order does).
     */
    static List<String> differences(JsonNode expected, JsonNode actual) {
        List<String> found = new ArrayList<>();
        compare("", expected, actual, found);
        return found;
    }

    private static void compare(String pointer, JsonNode expected, JsonNode actual, List<String> found) {
        if (expected.equals(actual)) {
            return;
        }
        String at = pointer.isEmpty() ? "/" : pointer;
        if (expected.isObject() && actual.isObject()) {
            TreeSet<String> names = new TreeSet<>(expected.propertyNames());
            names.addAll(actual.propertyNames());
            for (String name : names) {
                String child = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
                if (!actual.has(name)) {
                    found.add(child + ": in " + PATH + " but not served");
                } else if (!expected.has(name)) {
                    found.add(child + ": served but not in " + PATH);
                } else {
                    compare(child, expected.get(name), actual.get(name), found);
                }
            }
        } else if (expected.isArray() && actual.isArray() && expected.size() == actual.size()) {
            Iterator<JsonNode> served = actual.values().iterator();
            int index = 0;
            for (JsonNode item : expected.values()) {
                compare(pointer + "/" + index++, item, served.next(), found);
            }
        } else {
            found.add(at + ": " + PATH + " has " + abbreviated(expected) + ", served " + abbreviated(actual));
        }
    }

    private static String abbreviated(JsonNode node) {
        String text = node.toString();
        return text.length() > 120 ? text.substring(0, 117) + "..." : text;
    }

    /** The failure message: what differs (the first {@value #MAX_REPORTED}) and how to accept the change. */
    static String report(List<String> differences) {
        StringBuilder message = new StringBuilder("The served API description (/v3/api-docs) differs from ")
                .append(PATH).append(" in ").append(differences.size()).append(" place(s):\n");
        differences.stream().limit(MAX_REPORTED).forEach(d -> message.append("  ").append(d).append('\n'));
        if (differences.size() > MAX_REPORTED) {
            message.append("  ... and ").append(differences.size() - MAX_REPORTED).append(" more\n");
        }
        return message.append("If the API change is intended, regenerate the file and commit it with the change:\n  ")
                .append(REGENERATE_COMMAND).toString();
    }

    static void write(JsonNode document, Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, format(document));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
