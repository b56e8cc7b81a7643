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
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the same rule definitions as {@link ArchitectureTest} against fixtures that mirror the production
 * packages: {@code fixture.bad} breaks every rule at least once, and each rule must name the class at fault;
 * {@code fixture.good} is a miniature that follows every rule. A rule that cannot fail would guard nothing.
 */
class RulesFireOnBadCodeTest {

    private static final String FIXTURE = "dev.bookstore.ordering.architecture.fixture";
    private static final String BAD_ROOT = FIXTURE + ".bad";

    private static final OrderingArchitecture BAD = new OrderingArchitecture(BAD_ROOT);
    private static final OrderingArchitecture GOOD = new OrderingArchitecture(FIXTURE + ".good");

    private static final JavaClasses BAD_CLASSES = new ClassFileImporter().importPackages(BAD.root());
    private static final JavaClasses GOOD_CLASSES = new ClassFileImporter().importPackages(GOOD.root());

    // 1 ------------------------------------------------------------------------------------------------------

    @Test
    void aDomainClassThatUsesSpringBreaksDomainDependsOnlyOnTheJdk() {
        assertFires(BAD.domainDependsOnlyOnTheJdk(),
                BAD_ROOT + ".domain.order.SpringAwareOrder",
                "org.springframework.context.ApplicationEventPublisher",
                BAD_ROOT + ".domain.order.OrderCache");
    }

    // 2 ------------------------------------------------------------------------------------------------------

    @Test
    void applicationCodeThatUsesSpringOrJacksonBreaksApplicationDependsOnlyOnTheJdkAndTheDomain() {
        assertFires(BAD.applicationDependsOnlyOnTheJdkAndTheDomain(),
                BAD_ROOT + ".application.outbox.RelayScheduler",
                "org.springframework.scheduling.TaskScheduler",
                "tools.jackson.databind.ObjectMapper");
    }

    // 3 ------------------------------------------------------------------------------------------------------

    @Test
    void adaptersThatCallEachOtherBreakAdaptersDoNotDependOnEachOther() {
        assertFires(BAD.adaptersDoNotDependOnEachOther(),
                BAD_ROOT + ".adapters.persistence.OutboxRelayTrigger",
                BAD_ROOT + ".adapters.messaging.inbound.OrderListener");
    }

    @Test
    void persistenceThatAsksTheMessagingContractOrTheTracerBreaksAdaptersUseNoPortImplementedByAnotherAdapter() {
        assertFires(BAD.adaptersUseNoPortImplementedByAnotherAdapter(),
                "Class <" + BAD_ROOT + ".adapters.persistence.OutboxRowWriter> uses port <"
                        + BAD_ROOT + ".application.port.out.WireContract>, implemented by <"
                        + BAD_ROOT + ".adapters.messaging.outbound.RabbitWireContract>",
                "Class <" + BAD_ROOT + ".adapters.persistence.OutboxRowWriter> uses port <"
                        + BAD_ROOT + ".application.port.out.CurrentTrace>, implemented by <"
                        + BAD_ROOT + ".bootstrap.config.MicrometerCurrentTrace>");
        // implementing a port is not using it
        assertDoesNotBlame(BAD.adaptersUseNoPortImplementedByAnotherAdapter(),
                ".adapters.messaging.outbound.RabbitWireContract");
    }

    @Test
    void aDomainClassThatHoldsAJpaEntityBreaksOnlyBootstrapDependsOnAdapters() {
        assertFires(BAD.onlyBootstrapDependsOnAdapters(), BAD_ROOT + ".domain.order.OrderCache");
    }

    @Test
    void coreCodeThatReachesOutBreaksCoreDoesNotDependOnAdaptersOrBootstrap() {
        assertFires(BAD.coreDoesNotDependOnAdaptersOrBootstrap(),
                BAD_ROOT + ".domain.order.OrderCache",
                BAD_ROOT + ".application.outbox.RelayScheduler");
    }

    // 4 ------------------------------------------------------------------------------------------------------

    @Test
    void dependenciesAgainstTheDirectionAndClassesOutsideTheLayersBreakLayersPointInwards() {
        assertFires(BAD.layersPointInwards(),
                BAD_ROOT + ".domain.order.OrderCache",
                BAD_ROOT + ".adapters.messaging.outbound.RabbitOrderPublisher",
                BAD_ROOT + ".adapters.persistence.OutboxRelayTrigger",
                BAD_ROOT + ".util.Strings");
    }

    // 5 ------------------------------------------------------------------------------------------------------

    @Test
    void aPublicServiceBreaksServicesArePackagePrivate() {
        assertFires(BAD.servicesArePackagePrivate(), BAD_ROOT + ".application.service.CancelOrderService");
        assertDoesNotBlame(BAD.servicesArePackagePrivate(), ".application.service.PlaceOrderService");
    }

    @Test
    void aControllerThatHoldsAServiceBreaksServicesAreUsedOnlyInsideTheApplication() {
        assertFires(BAD.servicesAreUsedOnlyInsideTheApplication(),
                BAD_ROOT + ".bootstrap.web.OrderController", "CancelOrderService");
    }

    @Test
    void aServiceWithoutAUseCaseBreaksServicesImplementAPortIn() {
        assertFires(BAD.servicesImplementAPortIn(), BAD_ROOT + ".application.service.ShipOrderService");
        assertDoesNotBlame(BAD.servicesImplementAPortIn(), ".application.service.CancelOrderService");
    }

    // 6 ------------------------------------------------------------------------------------------------------

    @Test
    void aDrivingPortNamedOtherwiseBreaksPortInInterfacesAreUseCasesOrQueries() {
        assertFires(BAD.portInInterfacesAreUseCasesOrQueries(), BAD_ROOT + ".application.port.in.OrderPlacer");
        assertDoesNotBlame(BAD.portInInterfacesAreUseCasesOrQueries(), ".application.port.in.PlaceOrderUseCase");
    }

    @Test
    void portsThatReferenceEachOtherBreakPortsInAndOutDoNotReferenceEachOther() {
        assertFires(BAD.portsInAndOutDoNotReferenceEachOther(),
                BAD_ROOT + ".application.port.in.OrderPlacer",
                BAD_ROOT + ".application.port.out.OrderEvents");
    }

    @Test
    void aDrivenPortNamedAfterATechnologyBreaksPortsOutAreNotNamedAfterTechnology() {
        assertFires(BAD.portsOutAreNotNamedAfterTechnology(),
                BAD_ROOT + ".application.port.out.JpaOrderStore",
                BAD_ROOT + ".application.port.out.OutboxSQLStore");
        assertDoesNotBlame(BAD.portsOutAreNotNamedAfterTechnology(), ".application.port.out.OrderRepository");
    }

    // 7 ------------------------------------------------------------------------------------------------------

    @Test
    void jpaInTheMessagingAdapterBreaksJpaOnlyInThePersistenceAdapter() {
        assertFires(BAD.jpaOnlyInThePersistenceAdapter(),
                BAD_ROOT + ".adapters.messaging.inbound.OrderListener", "jakarta.persistence.EntityManager");
    }

    @Test
    void springAmqpInThePersistenceAdapterBreaksSpringAmqpOnlyInMessagingAndBootstrap() {
        assertFires(BAD.springAmqpOnlyInMessagingAndBootstrap(),
                BAD_ROOT + ".adapters.persistence.OutboxRelayTrigger", "org.springframework.amqp.core.AmqpTemplate");
        assertDoesNotBlame(BAD.springAmqpOnlyInMessagingAndBootstrap(), ".adapters.messaging.outbound.RabbitOrderPublisher");
    }

    @Test
    void aRestControllerOutsideBootstrapWebBreaksSpringWebOnlyInBootstrapWeb() {
        assertFires(BAD.springWebOnlyInBootstrapWeb(),
                BAD_ROOT + ".bootstrap.config.StatusEndpoint", "org.springframework.web.bind.annotation.RestController");
        assertDoesNotBlame(BAD.springWebOnlyInBootstrapWeb(), ".bootstrap.web.OrderController");
    }

    // 8 ------------------------------------------------------------------------------------------------------

    @Test
    void aPresentTenseEventAndAClassEventBreakDomainEventsArePastTenseRecords() {
        assertFires(BAD.domainEventsArePastTenseRecords(),
                BAD_ROOT + ".domain.order.OrderShipping",
                BAD_ROOT + ".domain.order.OrderRefunded");
        assertDoesNotBlame(BAD.domainEventsArePastTenseRecords(), ".domain.order.OrderPlaced");
    }

    @Test
    void aPublicSetterBreaksDomainHasNoPublicSetters() {
        assertFires(BAD.domainHasNoPublicSetters(), BAD_ROOT + ".domain.order.MutableOrder.setStatus");
    }

    @Test
    void aPublicNonFinalFieldBreaksDomainHasNoPublicMutableFields() {
        assertFires(BAD.domainHasNoPublicMutableFields(), BAD_ROOT + ".domain.order.MutableOrder.note");
    }

    // every rule ----------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRules")
    void everyRuleFiresOnTheBadFixture(ArchRule rule) {
        assertThatThrownBy(() -> rule.check(BAD_CLASSES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(BAD_ROOT)
                .hasMessageNotContaining("failed to check any classes");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodRules")
    void everyRulePassesOnTheGoodFixture(ArchRule rule) {
        assertThatCode(() -> rule.check(GOOD_CLASSES)).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodRules")
    void everyRuleFailsWhenItChecksNoClasses(ArchRule rule) {
        JavaClasses nothing = new ClassFileImporter().importClasses();

        assertThatThrownBy(() -> rule.check(nothing)).isInstanceOf(AssertionError.class);
    }

    @Test
    void architectureTestChecksEveryRuleOnce() {
        String[] expected = new OrderingArchitecture(ArchitectureTest.ROOT).all().values().stream()
                .map(ArchRule::getDescription).sorted().toArray(String[]::new);

        String[] checked = Arrays.stream(ArchitectureTest.class.getDeclaredFields())
                .filter(field -> field.isAnnotationPresent(ArchTest.class))
                .peek(field -> assertThat(Modifier.isStatic(field.getModifiers())
                        && Modifier.isFinal(field.getModifiers())).as(field.getName()).isTrue())
                .map(RulesFireOnBadCodeTest::rule).map(ArchRule::getDescription).sorted().toArray(String[]::new);

        assertThat(checked).containsExactly(expected);
    }

    private static Stream<Arguments> badRules() {
        return named(BAD);
    }

    private static Stream<Arguments> goodRules() {
        return named(GOOD);
    }

    private static Stream<Arguments> named(OrderingArchitecture architecture) {
        return architecture.all().entrySet().stream()
                .map(rule -> Arguments.of(Named.of(rule.getKey(), rule.getValue())));
    }

    private static void assertFires(ArchRule rule, String... expectedInMessage) {
        assertThatThrownBy(() -> rule.check(BAD_CLASSES))
                .isInstanceOf(AssertionError.class)
                .hasMessageNotContaining("failed to check any classes")
                .hasMessageContainingAll(expectedInMessage);
    }

    /**
     * The class (given relative to the bad root) is not the origin of any reported violation: the rule tells
     * the broken classes from the correct ones next to them. Violation lines start with the origin, e.g.
     * {@code Field <a.b.C.field> has type ...}, while a correct class may still appear later in a line.
     */
    private static void assertDoesNotBlame(ArchRule rule, String relativeClassName) {
        String className = BAD_ROOT + relativeClassName;
        assertThat(messageOf(rule))
                .contains("was violated")
                .doesNotContainPattern("(?m)^\\w+ <" + Pattern.quote(className) + "[.>$]");
    }

    private static String messageOf(ArchRule rule) {
        try {
            rule.check(BAD_CLASSES);
        } catch (AssertionError violation) {
            return violation.getMessage();
        }
        throw new AssertionError("expected a violation of " + rule.getDescription());
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
