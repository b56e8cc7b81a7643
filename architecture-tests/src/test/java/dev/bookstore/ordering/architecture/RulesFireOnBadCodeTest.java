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
import java.util.Set;
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

    // dependencies --------------------------------------------------------------------------------------------

    @Test
    void aDomainClassThatUsesSpringBreaksDomainDependsOnlyOnTheJdk() {
        assertFires(BAD.dependencies().domainDependsOnlyOnTheJdk(),
                BAD_ROOT + ".domain.order.SpringAwareOrder",
                "org.springframework.context.ApplicationEventPublisher",
                BAD_ROOT + ".domain.order.OrderCache");
    }

    @Test
    void applicationCodeThatUsesSpringOrJacksonBreaksApplicationDependsOnlyOnTheJdkAndTheDomain() {
        assertFires(BAD.dependencies().applicationDependsOnlyOnTheJdkAndTheDomain(),
                BAD_ROOT + ".application.outbox.RelayScheduler",
                "org.springframework.scheduling.TaskScheduler",
                "tools.jackson.databind.ObjectMapper");
    }

    @Test
    void adaptersThatUseEachOtherBreakAdaptersDoNotDependOnEachOther() {
        assertFires(BAD.dependencies().adaptersDoNotDependOnEachOther(),
                BAD_ROOT + ".adapters.persistence.OutboxRelayTrigger",
                BAD_ROOT + ".adapters.messaging.inbound.OrderListener",
                BAD_ROOT + ".adapters.web.OutboxStatusController");
    }

    @Test
    void aDomainClassThatHoldsAnAdapterRowBreaksOnlyBootstrapDependsOnAdapters() {
        assertFires(BAD.dependencies().onlyBootstrapDependsOnAdapters(), BAD_ROOT + ".domain.order.OrderCache");
    }

    @Test
    void coreCodeThatReachesOutBreaksCoreDoesNotDependOnAdaptersOrBootstrap() {
        assertFires(BAD.dependencies().coreDoesNotDependOnAdaptersOrBootstrap(),
                BAD_ROOT + ".domain.order.OrderCache",
                BAD_ROOT + ".application.outbox.RelayScheduler");
    }

    @Test
    void dependenciesAgainstTheDirectionAndClassesOutsideTheLayersBreakLayersPointInwards() {
        assertFires(BAD.dependencies().layersPointInwards(),
                BAD_ROOT + ".domain.order.OrderCache",
                BAD_ROOT + ".adapters.messaging.outbound.RabbitOrderPublisher",
                BAD_ROOT + ".util.Strings",
                BAD_ROOT + ".adapters.SharedMapper");
    }

    @Test
    void aRelayHelperThatHoldsAnAdapterClassBreaksBootstrapReachesAdaptersOnlyThroughItsWiring() {
        ArchRule rule = BAD.dependencies().bootstrapReachesAdaptersOnlyThroughItsWiring();
        assertFires(rule, BAD_ROOT + ".bootstrap.relay.RelayConnections",
                BAD_ROOT + ".adapters.persistence.OutboxRowWriter");
        assertDoesNotBlame(rule, ".bootstrap.config.Wiring");
    }

    @Test
    void exemptClassesPassBootstrapReachesAdaptersOnlyThroughItsWiringByNameOnly() {
        String relayConnections = BAD_ROOT + ".bootstrap.relay.RelayConnections";
        ArchRule exempting = new OrderingArchitecture(BAD_ROOT, Set.of(relayConnections))
                .dependencies().bootstrapReachesAdaptersOnlyThroughItsWiring();

        assertThat(exempting.evaluate(BAD_CLASSES).hasViolation()).isFalse();
        assertThat(exempting.getDescription()).contains("known violations being moved [" + relayConnections + "]");
    }

    // application ---------------------------------------------------------------------------------------------

    @Test
    void aServiceOfAMisnamedInterfaceBreaksServicesImplementAUseCase() {
        ArchRule rule = BAD.application().servicesImplementAUseCase();
        assertFires(rule, BAD_ROOT + ".application.ordering.ShipOrderService");
        assertDoesNotBlame(rule, ".application.ordering.CancelOrderService");
    }

    @Test
    void aServiceThatImplementsAPortBreaksServicesImplementNoDrivenPort() {
        ArchRule rule = BAD.application().servicesImplementNoDrivenPort();
        assertFires(rule, BAD_ROOT + ".application.ordering.ShipOrderService");
        assertDoesNotBlame(rule, ".application.ordering.PlaceOrderService");
    }

    @Test
    void aJobThatBuildsItsServiceBreaksServicesAreConstructedOnlyByTheApplicationAndTheWiring() {
        ArchRule rule = BAD.application().servicesAreConstructedOnlyByTheApplicationAndTheWiring();
        assertFires(rule, BAD_ROOT + ".bootstrap.retention.RetentionJob",
                BAD_ROOT + ".application.ordering.CancelOrderService.<init>()");
        assertThat(messageOf(rule)).doesNotContain(".bootstrap.config.Wiring");
    }

    @Test
    void aControllerThatHoldsAServiceBreaksAdaptersDoNotReferenceServices() {
        ArchRule rule = BAD.application().adaptersDoNotReferenceServices();
        assertFires(rule, BAD_ROOT + ".adapters.web.CancelController", "CancelOrderService");
        assertDoesNotBlame(rule, ".adapters.web.OrderController");
    }

    @Test
    void useCasesAndPortsThatReferenceEachOtherBreakUseCasesAndDrivenPortsDoNotReferenceEachOther() {
        assertFires(BAD.application().useCasesAndDrivenPortsDoNotReferenceEachOther(),
                BAD_ROOT + ".application.ordering.ImportOrdersUseCase",
                BAD_ROOT + ".application.ordering.OrderEvents");
    }

    @Test
    void aDrivenPortNamedAfterATechnologyBreaksDrivenPortsAreNotNamedAfterTechnology() {
        ArchRule rule = BAD.application().drivenPortsAreNotNamedAfterTechnology();
        assertFires(rule, BAD_ROOT + ".application.ordering.JpaOrderStore",
                BAD_ROOT + ".application.outbox.OutboxSQLStore");
        assertDoesNotBlame(rule, ".application.ordering.OrderRepository");
    }

    @Test
    void aPortFiledUnderPortOutBreaksNoPackageIsNamedInOrOut() {
        ArchRule rule = BAD.application().noPackageIsNamedInOrOut();
        assertFires(rule, BAD_ROOT + ".application.port.out.OrderArchive");
        assertDoesNotBlame(rule, ".adapters.messaging.inbound.OrderListener");
    }

    // adapters ------------------------------------------------------------------------------------------------

    @Test
    void persistenceThatAsksTheMessagingContractOrTheTracerBreaksDrivenAdaptersUseNoPortImplementedElsewhere() {
        ArchRule rule = BAD.adapters().drivenAdaptersUseNoPortImplementedElsewhere();
        assertFires(rule,
                "Class <" + BAD_ROOT + ".adapters.persistence.OutboxRowWriter> uses port <"
                        + BAD_ROOT + ".application.outbox.WireContract>, implemented by <"
                        + BAD_ROOT + ".adapters.messaging.outbound.RabbitWireContract>",
                "Class <" + BAD_ROOT + ".adapters.persistence.OutboxRowWriter> uses port <"
                        + BAD_ROOT + ".application.outbox.CurrentTrace>, implemented by <"
                        + BAD_ROOT + ".bootstrap.config.MicrometerCurrentTrace>");
        // implementing a port is not using it, and a driving adapter may use ports
        assertDoesNotBlame(rule, ".adapters.messaging.outbound.RabbitWireContract");
        assertDoesNotBlame(rule, ".adapters.messaging.inbound.OrderListener");
    }

    @Test
    void springAmqpInThePersistenceAdapterBreaksSpringAmqpOnlyInMessagingAndBootstrap() {
        ArchRule rule = BAD.adapters().springAmqpOnlyInMessagingAndBootstrap();
        assertFires(rule, BAD_ROOT + ".adapters.persistence.OutboxRelayTrigger",
                "org.springframework.amqp.core.AmqpTemplate");
        assertDoesNotBlame(rule, ".adapters.messaging.outbound.RabbitOrderPublisher");
    }

    @Test
    void aRestControllerInBootstrapBreaksHttpOnlyInTheWebAdapter() {
        ArchRule rule = BAD.adapters().httpOnlyInTheWebAdapter();
        assertFires(rule, BAD_ROOT + ".bootstrap.config.StatusEndpoint",
                "org.springframework.web.bind.annotation.RestController");
        assertDoesNotBlame(rule, ".adapters.web.OrderController");
    }

    @Test
    void aControllerThatQueriesTheDatabaseBreaksWebAdapterUsesNoPersistenceMessagingOrBootstrap() {
        ArchRule rule = BAD.adapters().webAdapterUsesNoPersistenceMessagingOrBootstrap();
        assertFires(rule, BAD_ROOT + ".adapters.web.OutboxStatusController",
                "org.springframework.jdbc.core.JdbcTemplate",
                BAD_ROOT + ".adapters.persistence.OrderRow",
                BAD_ROOT + ".bootstrap.config.OutboxProperties");
        assertDoesNotBlame(rule, ".adapters.web.OrderController");
    }

    // domain model --------------------------------------------------------------------------------------------

    @Test
    void aPresentTenseEventAndAClassEventBreakDomainEventsArePastTenseRecords() {
        ArchRule rule = BAD.domainModel().domainEventsArePastTenseRecords();
        assertFires(rule, BAD_ROOT + ".domain.order.OrderShipping", BAD_ROOT + ".domain.order.OrderRefunded");
        assertDoesNotBlame(rule, ".domain.order.OrderPlaced");
    }

    @Test
    void aPublicSetterBreaksDomainHasNoPublicSetters() {
        assertFires(BAD.domainModel().domainHasNoPublicSetters(), BAD_ROOT + ".domain.order.MutableOrder.setStatus");
    }

    @Test
    void aPublicNonFinalFieldBreaksDomainHasNoPublicMutableFields() {
        assertFires(BAD.domainModel().domainHasNoPublicMutableFields(), BAD_ROOT + ".domain.order.MutableOrder.note");
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
        String[] expected = new OrderingArchitecture(ArchitectureTest.ROOT, ArchitectureTest.KNOWN_VIOLATIONS_BEING_MOVED)
                .all().values().stream().map(ArchRule::getDescription).sorted().toArray(String[]::new);

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
        assertThat(messageOf(rule)).doesNotContain("failed to check any classes").contains(expectedInMessage);
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
