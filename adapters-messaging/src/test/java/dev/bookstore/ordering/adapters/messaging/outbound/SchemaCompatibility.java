package dev.bookstore.ordering.adapters.messaging.outbound;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Whether a new version of an event's JSON Schema still describes every message the released one allowed, so that
 * consumers written against the released schema keep working, and so do messages replayed from before the change.
 * Compares the keywords that decide that, recursively through {@code properties} and {@code items}:
 *
 * <ul>
 *   <li>a property removed: breaking (consumers read it);</li>
 *   <li>{@code type} or {@code format} changed: breaking (consumers parse it);</li>
 *   <li>a property newly required: breaking (messages already sent, and replayed, lack it); an optional one
 *       added: compatible (consumers ignore what they do not know);</li>
 *   <li>a property no longer required: breaking (consumers count on it);</li>
 *   <li>an {@code enum} value removed: breaking; one added, or the enum dropped: compatible.</li>
 * </ul>
 *
 * Descriptions, examples and bounds are not compared. Schemas are self-contained (no {@code $ref}).
 */
final class SchemaCompatibility {

    private SchemaCompatibility() {
    }

    /** The breaking changes from {@code released} to {@code current}, each with where it is; empty if none. */
    static List<String> breakingChanges(JsonNode released, JsonNode current) {
        List<String> found = new ArrayList<>();
        compare("$", released, current, found);
        return found;
    }

    private static void compare(String at, JsonNode released, JsonNode current, List<String> found) {
        sameKeyword(at, "type", released, current, found);
        sameKeyword(at, "format", released, current, found);

        Set<String> wasRequired = names(released.get("required"));
        Set<String> isRequired = names(current.get("required"));
        for (String name : isRequired) {
            if (!wasRequired.contains(name)) {
                found.add(at + "." + name + ": newly required (messages sent before lack it)");
            }
        }
        for (String name : wasRequired) {
            if (!isRequired.contains(name) && has(current.get("properties"), name)) {
                found.add(at + "." + name + ": no longer required (consumers count on it)");
            }
        }

        JsonNode releasedProperties = released.get("properties");
        JsonNode currentProperties = current.get("properties");
        if (releasedProperties != null) {
            for (String name : releasedProperties.propertyNames()) {
                if (!has(currentProperties, name)) {
                    found.add(at + "." + name + ": removed");
                } else {
                    compare(at + "." + name, releasedProperties.get(name), currentProperties.get(name), found);
                }
            }
        }

        if (released.has("enum") && current.has("enum")) {
            Set<String> values = values(current.get("enum"));
            for (String value : values(released.get("enum"))) {
                if (!values.contains(value)) {
                    found.add(at + ": enum value " + value + " removed");
                }
            }
        }

        if (released.has("items") && current.has("items")) {
            compare(at + "[]", released.get("items"), current.get("items"), found);
        } else if (released.has("items")) {
            found.add(at + "[]: item schema removed");
        }
    }

    private static void sameKeyword(String at, String keyword, JsonNode released, JsonNode current,
                                    List<String> found) {
        JsonNode was = released.get(keyword);
        JsonNode is = current.get(keyword);
        boolean same = was == null ? is == null : was.equals(is);
        if (!same) {
            found.add(at + ": " + keyword + " changed from " + was + " to " + is);
        }
    }

    private static boolean has(JsonNode properties, String name) {
        return properties != null && properties.has(name);
    }

    private static Set<String> names(JsonNode array) {
        Set<String> names = new LinkedHashSet<>();
        if (array != null) {
            array.values().forEach(name -> names.add(name.asString()));
        }
        return names;
    }

    /** Enum values as JSON text, so that {@code 1} and {@code "1"} stay apart. */
    private static Set<String> values(JsonNode array) {
        Set<String> values = new LinkedHashSet<>();
        if (array != null) {
            array.values().forEach(value -> values.add(value.toString()));
        }
        return values;
    }
}
