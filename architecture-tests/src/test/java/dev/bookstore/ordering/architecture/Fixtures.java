package dev.bookstore.ordering.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The rules over the fixtures, which mirror the production packages: {@code fixture.bad} breaks every rule at least
 * once, {@code fixture.good} is a miniature that follows every rule.
 */
final class Fixtures {

    static final String BAD_ROOT = "dev.bookstore.ordering.architecture.fixture.bad";
    static final String GOOD_ROOT = "dev.bookstore.ordering.architecture.fixture.good";

    static final OrderingArchitecture BAD = new OrderingArchitecture(BAD_ROOT);
    static final OrderingArchitecture GOOD = new OrderingArchitecture(GOOD_ROOT);

    static final JavaClasses BAD_CLASSES = new ClassFileImporter().importPackages(BAD_ROOT);
    static final JavaClasses GOOD_CLASSES = new ClassFileImporter().importPackages(GOOD_ROOT);

    private Fixtures() {
    }

    /** Every rule as a parameter named by the rule. */
    static Stream<Arguments> named(OrderingArchitecture architecture) {
        return architecture.all().entrySet().stream()
                .map(rule -> Arguments.of(Named.of(rule.getKey(), rule.getValue())));
    }
}
