package dev.bookstore.ordering.application.ordering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.ordering.PlaceOrderCommand.Item;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestFingerprintTest {

    private static final UUID CUSTOMER = UUID.fromString("3f0c6a8e-2a41-4d8f-9e43-0c1b7d5e6f70");
    private static final Item BOOK_A = new Item("978-0134494166", 2, new BigDecimal("9.99"));
    private static final Item BOOK_B = new Item("978-0201633610", 1, new BigDecimal("45.50"));

    @Test
    void aFingerprintIs64LowercaseHexDigits() {
        assertThat(RequestFingerprint.of(command(CUSTOMER, "EUR", BOOK_A))).matches("[0-9a-f]{64}");
    }

    @Test
    void equalCommandsHaveEqualFingerprints() {
        assertThat(RequestFingerprint.of(command(CUSTOMER, "EUR", BOOK_A, BOOK_B)))
                .isEqualTo(RequestFingerprint.of(command(CUSTOMER, "EUR", BOOK_A, BOOK_B)));
    }

    @Test
    void theSpellingOfAPriceDoesNotMatter() {
        Item spelledShort = new Item("b-1", 1, new BigDecimal("45.5"));
        Item spelledLong = new Item("b-1", 1, new BigDecimal("45.500"));

        assertThat(RequestFingerprint.of(command(CUSTOMER, "EUR", spelledShort)))
                .isEqualTo(RequestFingerprint.of(command(CUSTOMER, "EUR", spelledLong)));
    }

    @Test
    void theIdempotencyKeyIsNotPartOfTheRequest() {
        PlaceOrderCommand command = command(CUSTOMER, "EUR", BOOK_A);

        assertThat(RequestFingerprint.of(command.withIdempotencyKey(new IdempotencyKey("k-1"))))
                .isEqualTo(RequestFingerprint.of(command.withIdempotencyKey(new IdempotencyKey("k-2"))))
                .isEqualTo(RequestFingerprint.of(command));
    }

    @Test
    void everyValueOfTheOrderChangesTheFingerprint() {
        String original = RequestFingerprint.of(command(CUSTOMER, "EUR", BOOK_A, BOOK_B));

        List<PlaceOrderCommand> changed = List.of(
                command(UUID.randomUUID(), "EUR", BOOK_A, BOOK_B),
                command(CUSTOMER, "USD", BOOK_A, BOOK_B),
                command(CUSTOMER, "EUR", BOOK_A),
                command(CUSTOMER, "EUR", BOOK_B, BOOK_A),
                command(CUSTOMER, "EUR", BOOK_A, BOOK_B, BOOK_B),
                command(CUSTOMER, "EUR", new Item("978-0134494167", 2, new BigDecimal("9.99")), BOOK_B),
                command(CUSTOMER, "EUR", new Item("978-0134494166", 3, new BigDecimal("9.99")), BOOK_B),
                command(CUSTOMER, "EUR", new Item("978-0134494166", 2, new BigDecimal("9.98")), BOOK_B));

        assertThat(changed).extracting(RequestFingerprint::of).doesNotContain(original).doesNotHaveDuplicates();
    }

    @Test
    void valuesCannotRunIntoTheirNeighbours() {
        // "b-1" x 12 and "b-11" x 2 would be the same text without separators.
        assertThat(RequestFingerprint.of(command(CUSTOMER, "EUR", new Item("b-1", 12, new BigDecimal("1.00")))))
                .isNotEqualTo(RequestFingerprint.of(command(CUSTOMER, "EUR",
                        new Item("b-11", 2, new BigDecimal("1.00")))));
    }

    @Test
    void theFingerprintCoversEveryComponentOfTheCommand() {
        // A new component of the command is a new part of the request: add it to RequestFingerprint (or say
        // here why it is not part of it, like the key), then to this list.
        assertThat(Arrays.stream(PlaceOrderCommand.class.getRecordComponents()).map(RecordComponent::getName))
                .containsExactly("customerId", "currency", "lines", "idempotencyKey");
    }

    private static PlaceOrderCommand command(UUID customer, String currency, Item... items) {
        return PlaceOrderCommand.of(customer, currency, List.of(items));
    }
}
