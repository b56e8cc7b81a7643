package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.Random;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Generated hostile bodies against {@code POST /orders} of the real service on PostgreSQL, over HTTP. Whatever the
 * body, the answer is a {@code 201} or a {@code 4xx} problem detail, it comes within {@value #MAX_ANSWER_MILLIS}
 * ms (the fastest of {@value #MAX_ATTEMPTS} answers, see there), and the database holds exactly one order per
 * {@code 201}. A third of the bodies are valid orders; the others are valid orders with one hostile change, or no
 * order at all: what broke the service before (fractional quantities, exponents up to 10^9, 2^31, -0), long digit
 * strings, nulls, wrong types, missing keys, keys given twice, deep nesting, broken syntax.
 *
 * <p>A property test written with JUnit alone: the bodies come from small generators over a seeded
 * {@link Random} ({@link Gen}), {@value #TRIES} of them, the same on every run unless {@code -Dhostile.seed=...}
 * asks for others (a failure names its body). jqwik would be the usual tool; its maintainers ask that AI coding
 * agents not use it, and this test was written by one.
 */
class HostileOrderBodiesIT {

    private static final long MAX_ANSWER_MILLIS = 100;
    private static final int TRIES = 400;
    private static final long SEED = Long.getLong("hostile.seed", 20261202L);

    /**
     * A body that costs CPU costs it every time; a pause of the machine (a garbage collection, another process on a
     * shared 2-core machine) does not come three times in a row. So a slow answer is asked for again, and the
     * fastest of up to three answers must be within {@link #MAX_ANSWER_MILLIS}.
     */
    private static final int MAX_ATTEMPTS = 3;

    private static TestDatabase database;
    private static ServiceInstance service;
    private static Connection connection;
    private static long created;

    @BeforeAll
    static void startTheService() throws SQLException {
        database = TestPostgres.newDatabase();
        service = ServiceInstance.start(database, "127.0.0.1", 1, "bookstore.hostile", Map.of(
                "ordering.outbox.relay", "none",
                "ordering.outbox.retention-interval", "1h"));
        connection = database.connect();
        warmUp();
    }

    @AfterAll
    static void stopTheService() throws SQLException {
        if (connection != null) {
            connection.close();
        }
        if (service != null) {
            service.close();
        }
        if (database != null) {
            TestPostgres.drop(database);
        }
    }

    /** The first requests of a fresh JVM run interpreted code; the time limit is for a service that is warm. */
    private static void warmUp() throws SQLException {
        String customer = UUID.randomUUID().toString();
        for (int i = 0; i < 100; i++) {
            service.http.postJson("/orders", HttpJson.orderJson(customer, 1 + i % 3));
            service.http.postJson("/orders", "{\"customerId\":\"" + customer + "\",\"currency\":\"EUR\",\"items\":"
                    + "[{\"bookId\":\"978-0134494166\",\"quantity\":" + (i % 2 == 0 ? "1.5" : "\"2\"")
                    + ",\"unitPrice\":" + (i % 3 == 0 ? "1e400" : "\"39.90\"") + "}]}");
            service.http.postJson("/orders", "{\"customerId\":");
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("DELETE FROM outbox_message");
            statement.execute("DELETE FROM orders");
        }
    }

    static Stream<String> bodies() {
        Random random = new Random(SEED);
        Gen<String> bodies = orderBodies(random);
        return IntStream.range(0, TRIES).mapToObj(i -> bodies.next());
    }

    @ParameterizedTest(name = "body {index}")
    @MethodSource("bodies")
    void everyBodyGetsA201OrA4xxProblemQuicklyAndOnlyA201WritesAnOrder(String body) throws SQLException {
        Duration fastest = answer(body);
        for (int attempt = 2; attempt <= MAX_ATTEMPTS && fastest.toMillis() >= MAX_ANSWER_MILLIS; attempt++) {
            Duration again = answer(body);
            fastest = again.compareTo(fastest) < 0 ? again : fastest;
        }

        assertThat(fastest).as("fastest of up to %d answers to %s", MAX_ATTEMPTS, abbreviated(body))
                .isLessThan(Duration.ofMillis(MAX_ANSWER_MILLIS));
    }

    /** Sends the body once, checks the answer and what it wrote, and returns how long the answer took. */
    private static Duration answer(String body) throws SQLException {
        long before = orders();

        long started = System.nanoTime();
        HttpJson.Response response = service.http.postJson("/orders", body);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        if (response.status() == 201) {
            created++;
            assertThat(orders()).as("orders after a 201").isEqualTo(before + 1);
            assertThat(response.json().get("status").asString()).isEqualTo("PLACED");
            return took;
        }
        assertThat(response.status()).as("status for %s: %s", abbreviated(body), response.body()).isBetween(400, 499);
        assertThat(response.header("Content-Type")).as("content type of %s", response.body())
                .startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("status").asInt()).isEqualTo(response.status());
        assertThat(problem.get("title").asString()).isNotBlank();
        assertThat(response.body()).doesNotContain("\tat ", "Exception");
        assertThat(orders()).as("orders after a %d", response.status()).isEqualTo(before);
        return took;
    }

    @AfterEach
    void theDatabaseHoldsOneOrderPerCreatedAnswer() throws SQLException {
        assertThat(orders()).isEqualTo(created);
    }

    private static long orders() throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet count = statement.executeQuery("SELECT count(*) FROM orders")) {
            count.next();
            return count.getLong(1);
        }
    }

    private static String abbreviated(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "... (" + body.length() + " characters)";
    }

    // --- generators: JSON text, written by hand so that it can hold what no object mapper would write

    /** A third valid orders, the rest valid orders with one hostile change, and documents that are no order. */
    private static Gen<String> orderBodies(Random random) {
        Gen<Body> validOrders = validOrders(random);
        Gen<UnaryOperator<Body>> changes = changes(random);
        return Gen.frequency(random,
                3, validOrders.map(Body::json),
                6, (Gen<String>) () -> changes.next().apply(validOrders.next()).json(),
                1, oddDocuments(random));
    }

    /**
     * A generator: a source of values drawn from the test's one seeded {@link Random}, so a run is repeatable.
     * Just what this test needs of a property-testing library's generators.
     */
    @FunctionalInterface
    interface Gen<T> {

        T next();

        default <R> Gen<R> map(Function<? super T, ? extends R> mapper) {
            return () -> mapper.apply(next());
        }

        @SafeVarargs
        static <T> Gen<T> of(Random random, T... values) {
            return () -> values[random.nextInt(values.length)];
        }

        static Gen<Integer> between(Random random, int min, int max) {
            return () -> min + random.nextInt(max - min + 1);
        }

        @SafeVarargs
        static <T> Gen<T> oneOf(Random random, Gen<? extends T>... gens) {
            return () -> gens[random.nextInt(gens.length)].next();
        }

        /** Pairs of weight and generator: {@code frequency(random, 3, a, 1, b)} draws from a three times in four. */
        @SuppressWarnings("unchecked")
        static <T> Gen<T> frequency(Random random, Object... weightsAndGens) {
            int total = 0;
            for (int i = 0; i < weightsAndGens.length; i += 2) {
                total += (Integer) weightsAndGens[i];
            }
            int sum = total;
            return () -> {
                int pick = random.nextInt(sum);
                for (int i = 0; i < weightsAndGens.length; i += 2) {
                    pick -= (Integer) weightsAndGens[i];
                    if (pick < 0) {
                        return ((Gen<T>) weightsAndGens[i + 1]).next();
                    }
                }
                throw new IllegalStateException("weights add up to " + sum);
            };
        }
    }

    /** An order as raw JSON values: {@code null} leaves the key out; {@code twice} is a key given a second time. */
    record Body(String customerId, String currency, List<Line> lines, String items, String twice) {

        String json() {
            String itemList = items != null ? items
                    : lines == null ? null : "[" + String.join(",", lines.stream().map(Line::json).toList()) + "]";
            return object(twice, "customerId", customerId, "currency", currency, "items", itemList);
        }

        Body withLine(int index, UnaryOperator<Line> change) {
            List<Line> changed = new ArrayList<>(lines);
            changed.set(index % changed.size(), change.apply(changed.get(index % changed.size())));
            return new Body(customerId, currency, changed, items, twice);
        }
    }

    record Line(String bookId, String quantity, String unitPrice, String twice) {

        String json() {
            return object(twice, "bookId", bookId, "quantity", quantity, "unitPrice", unitPrice);
        }
    }

    /** A JSON object of the given keys and raw values; a null value leaves its key out. */
    private static String object(String twice, String... keysAndValues) {
        List<String> members = new ArrayList<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] != null) {
                members.add("\"" + keysAndValues[i] + "\":" + keysAndValues[i + 1]);
            }
        }
        if (twice != null) {
            members.add(twice);
        }
        return "{" + String.join(",", members) + "}";
    }

    private static String quoted(String text) {
        return "\"" + text + "\"";
    }

    /** 1 to 3 lines in EUR, USD, JPY or KWD, prices with the currency's decimals, as strings or as numbers. */
    private static Gen<Body> validOrders(Random random) {
        Gen<String> currencies = Gen.of(random, "EUR", "USD", "JPY", "KWD");
        Gen<String> books = Gen.of(random, "978-0134494166", "978-0201633610", "b-1");
        return () -> {
            String currency = currencies.next();
            int decimals = Currency.getInstance(currency).getDefaultFractionDigits();
            List<Line> lines = new ArrayList<>();
            for (int i = 1 + random.nextInt(3); i > 0; i--) {
                // from the currency's smallest unit up to 99999 in its decimals
                long units = 1 + (long) (random.nextDouble() * 99_999 * Math.pow(10, decimals));
                BigDecimal price = BigDecimal.valueOf(units, decimals);
                boolean asString = random.nextBoolean();
                lines.add(new Line(quoted(books.next()), String.valueOf(1 + random.nextInt(1000)),
                        asString ? quoted(price.toPlainString()) : price.toPlainString(), null));
            }
            return new Body(quoted(UUID.randomUUID().toString()), quoted(currency), lines, null, null);
        };
    }

    /** One hostile change of a valid order: a value, a missing key, or a key given twice. */
    private static Gen<UnaryOperator<Body>> changes(Random random) {
        Gen<Integer> line = Gen.between(random, 0, 2);
        Gen<String> customerIds = hostileCustomerIds(random);
        Gen<String> currencies = hostileCurrencies(random);
        Gen<String> itemLists = hostileItemLists(random);
        Gen<String> bookIds = hostileBookIds(random);
        Gen<String> quantities = hostileQuantities(random);
        Gen<String> unitPrices = hostileUnitPrices(random);
        Gen<String> missingKeys = Gen.of(random, "customerId", "currency", "items");
        Gen<String> lineKeysTwice = Gen.of(random, "\"quantity\":1000", "\"quantity\":1.5", "\"unitPrice\":\"0.01\"",
                "\"bookId\":\"b-2\"", "\"bookId\":null");
        Gen<String> orderKeysTwice = Gen.of(random, "\"currency\":\"JPY\"",
                "\"customerId\":\"" + UUID.randomUUID() + "\"", "\"items\":[]");
        return Gen.oneOf(random,
                customerIds.map(value -> change(order -> new Body(value, order.currency(), order.lines(), null, null))),
                currencies.map(value -> change(order ->
                        new Body(order.customerId(), value, order.lines(), null, null))),
                itemLists.map(value -> change(order ->
                        new Body(order.customerId(), order.currency(), null, value, null))),
                () -> lineChange(line.next(), l -> new Line(bookIds.next(), l.quantity(), l.unitPrice(), null)),
                () -> lineChange(line.next(), l -> new Line(l.bookId(), quantities.next(), l.unitPrice(), null)),
                () -> lineChange(line.next(), l -> new Line(l.bookId(), l.quantity(), unitPrices.next(), null)),
                missingKeys.map(key -> change(order -> new Body(
                        "customerId".equals(key) ? null : order.customerId(),
                        "currency".equals(key) ? null : order.currency(),
                        "items".equals(key) ? null : order.lines(), null, null))),
                () -> lineChange(line.next(), l -> new Line(l.bookId(), l.quantity(), l.unitPrice(),
                        lineKeysTwice.next())),
                orderKeysTwice.map(twice -> change(order ->
                        new Body(order.customerId(), order.currency(), order.lines(), null, twice))));
    }

    /** Changes one line; the values are drawn now, so that the change is the same however often it is applied. */
    private static UnaryOperator<Body> lineChange(int index, UnaryOperator<Line> change) {
        Line[] changed = new Line[1];
        return order -> order.withLine(index, l -> {
            if (changed[0] == null) {
                changed[0] = change.apply(l);
            }
            return changed[0];
        });
    }

    /** Gives the lambda its type, which {@code map} cannot infer from a lambda that returns a lambda. */
    private static UnaryOperator<Body> change(UnaryOperator<Body> change) {
        return change;
    }

    private static Gen<String> hostileCustomerIds(Random random) {
        return Gen.of(random, "null", "42", "\"not-a-uuid\"", "\"\"", "[]", "{}", "true",
                "\"00000000-0000-0000-0000-000000000000\"", quoted("f".repeat(5000)));
    }

    private static Gen<String> hostileCurrencies(Random random) {
        return Gen.of(random, "\"XYZ\"", "\"eur\"", "\"XAU\"", "\"\"", "null", "3", "[]", "{}", "\"EURO\"",
                "\"€\"", "\"JPY\"", "\"KWD\"");
    }

    private static Gen<String> hostileItemLists(Random random) {
        return Gen.of(random, "null", "[]", "{}", "\"items\"", "[null]", "42", "[[]]", "[1,2]",
                "[" + String.join(",", Collections.nCopies(101,
                        "{\"bookId\":\"b-1\",\"quantity\":1,\"unitPrice\":\"1.00\"}")) + "]");
    }

    private static Gen<String> hostileBookIds(Random random) {
        return Gen.of(random, "null", "\"\"", "42", "[]", "{}", "\"not a book id!\"", quoted("9".repeat(100)));
    }

    private static Gen<String> hostileQuantities(Random random) {
        return Gen.frequency(random,
                2, Gen.between(random, -3, 1003).map(String::valueOf),
                4, Gen.of(random, "1.5", "1.0", "1e0", "2E2", "-0", "-0.0", "0", "2147483647",
                        "2147483648", "-2147483648", "-2147483649", "9223372036854775808", "1e400", "1e-400",
                        "\"2\"", "\"many\"", "\"\"", "null", "true", "false", "[]", "[1]", "{}", "NaN", "01"),
                2, exponents(random),
                1, longDigitStrings(random));
    }

    private static Gen<String> hostileUnitPrices(Random random) {
        Gen<String> longDigits = longDigitStrings(random);
        return Gen.frequency(random,
                4, Gen.of(random, "1e400", "1e-400", "\"1e400\"", "\"1e-400\"", "-0", "\"-0\"", "0",
                        "\"0.00\"", "1e999999999", "\"1e999999999\"", "-1e999999999", "1e-999999999",
                        "1e2147483648", "\"1e2147483648\"", "9999999999.99", "10000000000", "\"1E+10\"",
                        "39.901", "2147483648", "\"NaN\"", "\"Infinity\"", "\"abc\"", "\"\"", "null", "true",
                        "[]", "[\"39.90\"]", "{}", "-39.90"),
                3, exponents(random),
                1, longDigits,
                1, longDigits.map(HostileOrderBodiesIT::quoted));
    }

    /** {@code 1e+N}, {@code 39.9E-N}, ... with N up to 10^9. */
    private static Gen<String> exponents(Random random) {
        Gen<String> mantissas = Gen.of(random, "1", "-1", "0", "39.9", "0.01", "-0");
        Gen<String> es = Gen.of(random, "e", "E");
        Gen<String> signs = Gen.of(random, "", "+", "-");
        Gen<Integer> exponents = Gen.between(random, 0, 1_000_000_000);
        return () -> mantissas.next() + es.next() + signs.next() + exponents.next();
    }

    /** Digit strings from 21 to 5001 characters: past any int, past 40 digits, past Jackson's 1000. */
    private static Gen<String> longDigitStrings(Random random) {
        return () -> {
            StringBuilder digits = new StringBuilder("1");
            for (int i = 20 + random.nextInt(4981); i > 0; i--) {
                digits.append((char) ('0' + random.nextInt(10)));
            }
            return digits.toString();
        };
    }

    private static Gen<String> oddDocuments(Random random) {
        String customer = "\"customerId\":\"" + UUID.randomUUID() + "\"";
        return Gen.of(random, "", "null", "[]", "{}", "\"order\"", "42", "true", "{", "}", "{\"items\":",
                "{" + customer + ",\"currency\":\"EUR\",\"items\":[" + "[".repeat(2000) + "]".repeat(2000) + "]}",
                "{" + customer + ",\"padding\":" + "{\"a\":".repeat(2000) + "1" + "}".repeat(2000) + "}",
                "{\"customerId\":null,\"currency\":null,\"items\":null}",
                "{" + customer + ",\"currency\":\"EUR\",\"items\":[{\"bookId\":\"b-1\",\"quantity\":1,"
                        + "\"unitPrice\":\"1.00\"}]} trailing");
    }
}
