package dev.bookstore.ordering.application.ordering;

import dev.bookstore.ordering.domain.order.OrderLine;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What makes two requests to place an order the same request: a SHA-256 of the parsed command, never of the
 * bytes the client sent. So whitespace, the order of the JSON keys and the spelling of a number
 * ({@code "9.9"} or {@code "9.90"}) do not matter; the customer, the currency and the lines in their order do.
 * The idempotency key itself is not part of it.
 */
final class RequestFingerprint {

    /** Named and versioned, so a later format can never equal a fingerprint of this one by accident. */
    private static final String FORMAT = "place-order/v1";

    private RequestFingerprint() {
    }

    /** 64 lowercase hex digits. */
    static String of(PlaceOrderCommand command) {
        // Every value has a fixed format without the separators (a UUID, an ISO 4217 code, book ids of letters,
        // digits, '-' and '_', integers, plain decimals), so the text is unambiguous.
        StringBuilder canonical = new StringBuilder(FORMAT)
                .append('|').append(command.customerId().value())
                .append('|').append(command.currency().getCurrencyCode());
        for (OrderLine line : command.lines()) {
            canonical.append('|').append(line.bookId().value())
                    .append(':').append(line.quantity())
                    .append(':').append(line.unitPrice().amount().toPlainString());
        }
        return HexFormat.of().formatHex(sha256().digest(canonical.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
