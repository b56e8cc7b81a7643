package dev.bookstore.ordering.application.ordering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.bookstore.ordering.application.ordering.PlaceOrderCommand.Item;
import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.InvalidOrderException;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.shared.Money;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class PlaceOrderCommandTest {

    private static final UUID CUSTOMER = UUID.fromString("3f0c6a8e-2a41-4d8f-9e43-0c1b7d5e6f70");

    @Test
    void validInputBecomesACommandOfOrderLines() {
        PlaceOrderCommand command = PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(
                item("978-0134494166", 2, "9.99"),
                item("978-0201633610", 1, "45.5")));

        assertThat(command.customerId()).isEqualTo(new CustomerId(CUSTOMER));
        assertThat(command.currency()).isEqualTo(Currency.getInstance("EUR"));
        assertThat(command.lines()).containsExactly(
                new OrderLine(new BookId("978-0134494166"), 2, Money.of("9.99", "EUR")),
                new OrderLine(new BookId("978-0201633610"), 1, Money.of("45.50", "EUR")));
    }

    @Test
    void aCustomerIdIsRequired() {
        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(null, "EUR", List.of(item("b-1", 1, "9.99")))))
                .isEqualTo("customerId");
    }

    @ParameterizedTest
    @ValueSource(strings = {"XYZ", "QQQ"})
    void anUnknownCurrencyIsRejected(String code) {
        InvalidOrderException rejected =
                rejected(() -> PlaceOrderCommand.of(CUSTOMER, code, List.of(item("b-1", 1, "9.99"))));

        assertThat(rejected.field()).isEqualTo("currency");
        assertThat(rejected.reason()).startsWith("unknown ISO 4217 currency").contains(code);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"eur", "Eur", "EURO", "EU", " EUR", "€"})
    void aMalformedCurrencyIsRejected(String code) {
        InvalidOrderException rejected =
                rejected(() -> PlaceOrderCommand.of(CUSTOMER, code, List.of(item("b-1", 1, "9.99"))));

        assertThat(rejected.field()).isEqualTo("currency");
        assertThat(rejected.reason()).isEqualTo("must be an ISO 4217 code such as EUR");
    }

    @Test
    void missingItemsAreRejected() {
        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(CUSTOMER, "EUR", null))).isEqualTo("items");
    }

    @Test
    void oneHundredItemsAreAccepted() {
        assertThat(PlaceOrderCommand.of(CUSTOMER, "EUR", items(100)).lines()).hasSize(100);
    }

    /** The line count is an invariant of the order, checked by the domain only (PlaceOrderServiceTest). */
    @Test
    void theLineCountIsLeftToTheDomain() {
        assertThat(PlaceOrderCommand.of(CUSTOMER, "EUR", items(101)).lines()).hasSize(101);
        assertThat(PlaceOrderCommand.of(CUSTOMER, "EUR", List.of()).lines()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1001})
    void aQuantityOutOfRangeIsReportedWithTheItemIndex(int quantity) {
        List<Item> items = new ArrayList<>(items(3));
        items.set(2, new Item("b-2", quantity, new BigDecimal("9.99")));

        InvalidOrderException rejected = rejected(() -> PlaceOrderCommand.of(CUSTOMER, "EUR", items));

        assertThat(rejected.field()).isEqualTo("items[2].quantity");
        assertThat(rejected.getMessage()).startsWith("items[2].quantity: ");
        assertThat(rejected.reason()).contains(String.valueOf(quantity));
    }

    @Test
    void aMissingQuantityIsReportedWithTheItemIndex() {
        List<Item> items = List.of(item("b-0", 1, "1.00"), new Item("b-1", null, new BigDecimal("1.00")));

        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(CUSTOMER, "EUR", items))).isEqualTo("items[1].quantity");
    }

    @Test
    void aPriceWithTooManyDecimalsIsReportedAsTheItemsUnitPrice() {
        InvalidOrderException rejected = rejected(() ->
                PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(item("b-0", 1, "9.999"), item("b-1", 1, "1.00"))));

        assertThat(rejected.field()).isEqualTo("items[0].unitPrice");
        assertThat(rejected.reason()).contains("9.999");
    }

    @Test
    void aYenPriceWithDecimalsIsReportedAsTheItemsUnitPrice() {
        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(CUSTOMER, "JPY", List.of(item("b-0", 1, "1500.5")))))
                .isEqualTo("items[0].unitPrice");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "0.00", "-1.00"})
    void aPriceThatIsNotPositiveIsReportedAsTheItemsUnitPrice(String price) {
        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(item("b-0", 1, price)))))
                .isEqualTo("items[0].unitPrice");
    }

    @Test
    void theHighestUnitPriceHasTenDigitsBeforeTheDecimalPoint() {
        PlaceOrderCommand command = PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(item("b-0", 1, "9999999999.99")));

        assertThat(command.lines().get(0).unitPrice()).isEqualTo(Money.of("9999999999.99", "EUR"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"10000000000", "1E+10", "1E+400", "1E+999999999", "-1E+999999999", "1E+2147483647"})
    void aPriceTooLargeIsRejectedAsWrittenBeforeAnythingComputesWithIt(String price) {
        InvalidOrderException rejected = rejectedQuickly(price);

        assertThat(rejected.field()).isEqualTo("items[0].unitPrice");
        assertThat(rejected.reason()).startsWith("must have at most 10 digits before the decimal point, got ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1E-3", "1E-400", "1E-999999999", "-1E-2147483647"})
    void aPriceWithATinyExponentIsRejectedAsTooManyDecimalPlacesInScientificNotation(String price) {
        InvalidOrderException rejected = rejectedQuickly(price);

        assertThat(rejected.field()).isEqualTo("items[0].unitPrice");
        assertThat(rejected.reason()).startsWith("EUR allows at most 2 decimal place(s), got ");
        assertThat(rejected.getMessage()).hasSizeLessThan(100);
    }

    @Test
    void aPriceOfMoreThanFortyDigitsIsRejectedWithoutCountingThemAll() {
        assertThat(rejectedQuickly("1." + "0".repeat(40)).reason()).isEqualTo("must have at most 40 digits");

        BigDecimal enormous = new BigDecimal(BigInteger.ONE.shiftLeft(4_000_000), 4_000_000);
        InvalidOrderException rejected = assertTimeoutPreemptively(Duration.ofSeconds(1), () -> rejected(() ->
                PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(new Item("b-0", 1, enormous)))));
        assertThat(rejected.field()).isEqualTo("items[0].unitPrice");
        assertThat(rejected.reason()).isEqualTo("must have at most 40 digits");
    }

    @Test
    void aYenPriceWithTrailingZeroDecimalsIsAWholeNumber() {
        PlaceOrderCommand command = PlaceOrderCommand.of(CUSTOMER, "JPY", List.of(item("b-0", 1, "1500.000")));

        assertThat(command.lines().get(0).unitPrice()).isEqualTo(Money.of("1500", "JPY"));
    }

    @Test
    void aMissingPriceIsReportedAsTheItemsUnitPrice() {
        List<Item> items = List.of(item("b-0", 1, "1.00"), new Item("b-1", 1, null));

        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(CUSTOMER, "EUR", items))).isEqualTo("items[1].unitPrice");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not a book id!", "978/0134494166"})
    void aMalformedBookIdIsReportedWithTheItemIndex(String bookId) {
        List<Item> items = List.of(item("b-0", 1, "1.00"), item(bookId, 1, "1.00"), item("b-2", 1, "1.00"));

        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(CUSTOMER, "EUR", items))).isEqualTo("items[1].bookId");
    }

    @Test
    void aMissingBookIdIsReportedWithTheItemIndex() {
        List<Item> items = List.of(item("b-0", 1, "1.00"), new Item(null, 1, new BigDecimal("1.00")));

        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(CUSTOMER, "EUR", items))).isEqualTo("items[1].bookId");
    }

    @Test
    void aMissingItemIsReportedByItsIndex() {
        List<Item> items = Arrays.asList(item("b-0", 1, "1.00"), null);

        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(CUSTOMER, "EUR", items))).isEqualTo("items[1]");
    }

    @Test
    void theFirstItemAtFaultIsReported() {
        List<Item> items = List.of(item("b-0", 1, "1.00"), item("b-1", 0, "1.00"), item("b-2", 0, "1.00"));

        assertThat(fieldAtFault(() -> PlaceOrderCommand.of(CUSTOMER, "EUR", items))).isEqualTo("items[1].quantity");
    }

    @Test
    void theCommandCannotBeChangedThroughTheListItWasBuiltFrom() {
        List<OrderLine> lines = new ArrayList<>(List.of(
                new OrderLine(new BookId("b-0"), 1, Money.of("1.00", "EUR"))));
        PlaceOrderCommand command = new PlaceOrderCommand(new CustomerId(CUSTOMER), Currency.getInstance("EUR"),
                lines);

        lines.clear();

        assertThat(command.lines()).hasSize(1);
    }

    @Test
    void theCanonicalConstructorLeavesTheNumberOfLinesToTheDomainToo() {
        assertThat(new PlaceOrderCommand(new CustomerId(CUSTOMER), Currency.getInstance("EUR"), List.of()).lines())
                .isEmpty();
    }

    private static Item item(String bookId, int quantity, String unitPrice) {
        return new Item(bookId, quantity, new BigDecimal(unitPrice));
    }

    private static List<Item> items(int count) {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(item("b-" + i, 1, "9.99"));
        }
        return items;
    }

    /** Rejected within a second: no check may expand 1E+999999999 into its digits. */
    private static InvalidOrderException rejectedQuickly(String price) {
        BigDecimal number = new BigDecimal(price);
        return assertTimeoutPreemptively(Duration.ofSeconds(1), () -> rejected(() ->
                PlaceOrderCommand.of(CUSTOMER, "EUR", List.of(new Item("b-0", 1, number)))));
    }

    private static String fieldAtFault(ThrowingCallable call) {
        return rejected(call).field();
    }

    private static InvalidOrderException rejected(ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).isInstanceOf(InvalidOrderException.class);
        return (InvalidOrderException) thrown;
    }
}
