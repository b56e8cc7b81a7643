package dev.bookstore.ordering.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The other side of {@link RulesFireOnBadCodeTest}: every rule passes on the well-behaved miniature, fails when it
 * checks no classes at all ({@code failOnEmptyShould}), and {@link ArchitectureTest} checks each of them once.
 */
class RuleSetTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodRules")
    void everyRulePassesOnTheGoodFixture(ArchRule rule) {
        assertThatCode(() -> rule.check(Fixtures.GOOD_CLASSES)).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodRules")
    void everyRuleFailsWhenItChecksNoClasses(ArchRule rule) {
        JavaClasses nothing = new ClassFileImporter().importClasses();

        assertThatThrownBy(() -> rule.check(nothing)).isInstanceOf(AssertionError.class);
    }

    @Test
    void architectureTestChecksEveryRuleOnce() {
        OrderingArchitecture production = new OrderingArchitecture(ArchitectureTest.ROOT);
        String[] expected = production.all().values().stream().map(ArchRule::getDescription).sorted()
                .toArray(String[]::new);

        String[] checked = Arrays.stream(ArchitectureTest.class.getDeclaredFields())
                .filter(field -> field.isAnnotationPresent(ArchTest.class))
                .peek(field -> assertThat(Modifier.isStatic(field.getModifiers())
                        && Modifier.isFinal(field.getModifiers())).as(field.getName()).isTrue())
                .map(RuleSetTest::rule).map(ArchRule::getDescription).sorted().toArray(String[]::new);

        assertThat(checked).containsExactly(expected);
    }

    private static Stream<Arguments> goodRules() {
        return Fixtures.named(Fixtures.GOOD);
    }

    private static ArchRule rule(Field field) {
        try {
            field.setAccessible(true);
            return (ArchRule) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
