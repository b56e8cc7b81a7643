package dev.bookstore.ordering.adapters.web.problem;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.StreamReadException;

/** The JSON path of the field a Jackson error is about ({@code items[0].quantity}), and its message cleaned up. */
final class JsonFieldPath {

    /** "(but could if coercion was enabled using `CoercionConfig`)" and its variants. */
    private static final Pattern COERCION_ADVICE = Pattern.compile(" \\(but \\w+ if coercion [^)]*\\)");

    private JsonFieldPath() {
    }

    /**
     * The field at fault. A reading problem (a key given twice, broken syntax, an integer out of range) is where the
     * parser stood when it stopped; a binding problem is Jackson's reference chain. Jackson's constraints (nesting,
     * number length) report neither parser nor key: for them the chain names the enclosing object at best.
     */
    static String of(JacksonException e) {
        JsonParser parser = e instanceof StreamReadException read ? read.processor() : null;
        if (parser != null) {
            String where = path(parser.streamReadContext());
            if (!where.isEmpty()) {
                return where;
            }
        }
        return path(e);
    }

    /** {@code items[0].quantity} from the parser's context chain. */
    private static String path(TokenStreamContext context) {
        Deque<String> segments = new ArrayDeque<>();
        for (TokenStreamContext level = context; level != null && !level.inRoot(); level = level.getParent()) {
            if (level.inArray() && level.hasCurrentIndex()) {
                segments.push("[" + level.getCurrentIndex() + "]");
            } else if (level.inObject() && level.currentName() != null) {
                segments.push(level.currentName());
            }
        }
        StringBuilder path = new StringBuilder();
        for (String segment : segments) {
            if (!path.isEmpty() && !segment.startsWith("[")) {
                path.append('.');
            }
            path.append(segment);
        }
        return path.toString();
    }

    /** {@code items[0].quantity} from Jackson's reference chain. */
    private static String path(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    /** Jackson's message without its second line and without advice that only its configuration could follow. */
    static String firstLine(String message) {
        if (message == null) {
            return "unreadable value";
        }
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        return COERCION_ADVICE.matcher(line).replaceFirst("");
    }

}
