package dev.bookstore.ordering.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the same rule definitions as {@link ArchitectureTest} against {@code fixture.bad}, which mirrors the production
 * packages and breaks every rule at least once: each rule must name the class at fault and leave the correct classes
 * next to it alone. A rule that cannot fail would guard nothing ({@link RuleSetTest} shows the other side).
 */
class RulesFireOnBadCodeTest {

    private static final String BAD_ROOT = Fixtures.BAD_ROOT;
    private static final OrderingArchitecture BAD = Fixtures.BAD;
    private static final JavaClasses BAD_CLASSES = Fixtures.BAD_CLASSES;

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
                BAD_ROOT + ".adapters.web.OutboxStatusController",
                BAD_ROOT + ".adapters.modulith.OrderSummaryListener");
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
        assertDoesNotBlame(rule, ".application.ordering.CancelOrderService");
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
        assertDoesNotBlame(rule, ".adapters.web.OutboxStatusController");
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
    void debeziumInThePersistenceAdapterBreaksDebeziumOnlyInTheCdcAdapter() {
        ArchRule rule = BAD.adapters().debeziumOnlyInTheCdcAdapter();
        assertFires(rule, BAD_ROOT + ".adapters.persistence.OutboxLogReader", "io.debezium.engine.DebeziumEngine");
        assertDoesNotBlame(rule, ".adapters.messaging.outbound.RabbitOrderPublisher");
    }

    @Test
    void aRestControllerInBootstrapBreaksHttpOnlyInTheWebAdapter() {
        ArchRule rule = BAD.adapters().httpOnlyInTheWebAdapter();
        assertFires(rule, BAD_ROOT + ".bootstrap.config.StatusEndpoint",
                "org.springframework.web.bind.annotation.RestController");
        assertDoesNotBlame(rule, ".adapters.web.CancelController");
    }

    @Test
    void aControllerThatQueriesTheDatabaseBreaksWebAdapterUsesNoPersistenceMessagingOrBootstrap() {
        ArchRule rule = BAD.adapters().webAdapterUsesNoPersistenceMessagingOrBootstrap();
        assertFires(rule, BAD_ROOT + ".adapters.web.OutboxStatusController",
                "org.springframework.jdbc.core.JdbcTemplate",
                BAD_ROOT + ".adapters.persistence.OrderRow",
                BAD_ROOT + ".bootstrap.config.OutboxProperties");
        assertDoesNotBlame(rule, ".adapters.web.CancelController");
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRules")
    void everyRuleFiresOnTheBadFixture(ArchRule rule) {
        assertThat(messageOf(rule)).contains(BAD_ROOT).doesNotContain("failed to check any classes");
    }

    private static Stream<Arguments> badRules() {
        return Fixtures.named(BAD);
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
}
