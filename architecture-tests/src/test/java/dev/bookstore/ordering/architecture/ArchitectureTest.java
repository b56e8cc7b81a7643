package dev.bookstore.ordering.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The architecture rules over every production class of the service (README.md says why each exists).
 * {@link RulesFireOnBadCodeTest} shows that each of these definitions reports a broken fixture.
 */
@AnalyzeClasses(locations = ProductionClassLocations.class, importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    static final String ROOT = "dev.bookstore.ordering";

    private static final OrderingArchitecture RULES = new OrderingArchitecture(ROOT);
    private static final DependencyRules DEPENDENCIES = RULES.dependencies();
    private static final ApplicationRules APPLICATION = RULES.application();
    private static final AdapterRules ADAPTERS = RULES.adapters();
    private static final DomainModelRules DOMAIN_MODEL = RULES.domainModel();

    // dependencies
    @ArchTest
    static final ArchRule DOMAIN_DEPENDS_ONLY_ON_THE_JDK = DEPENDENCIES.domainDependsOnlyOnTheJdk();

    @ArchTest
    static final ArchRule APPLICATION_DEPENDS_ONLY_ON_THE_JDK_AND_THE_DOMAIN =
            DEPENDENCIES.applicationDependsOnlyOnTheJdkAndTheDomain();

    @ArchTest
    static final ArchRule ADAPTERS_DO_NOT_DEPEND_ON_EACH_OTHER = DEPENDENCIES.adaptersDoNotDependOnEachOther();

    @ArchTest
    static final ArchRule ONLY_BOOTSTRAP_DEPENDS_ON_ADAPTERS = DEPENDENCIES.onlyBootstrapDependsOnAdapters();

    @ArchTest
    static final ArchRule CORE_DOES_NOT_DEPEND_ON_ADAPTERS_OR_BOOTSTRAP =
            DEPENDENCIES.coreDoesNotDependOnAdaptersOrBootstrap();

    @ArchTest
    static final ArchRule LAYERS_POINT_INWARDS = DEPENDENCIES.layersPointInwards();

    @ArchTest
    static final ArchRule BOOTSTRAP_REACHES_ADAPTERS_ONLY_THROUGH_ITS_WIRING =
            DEPENDENCIES.bootstrapReachesAdaptersOnlyThroughItsWiring();

    // application: use cases, services, driven ports
    @ArchTest
    static final ArchRule SERVICES_IMPLEMENT_A_USE_CASE = APPLICATION.servicesImplementAUseCase();

    @ArchTest
    static final ArchRule SERVICES_IMPLEMENT_NO_DRIVEN_PORT = APPLICATION.servicesImplementNoDrivenPort();

    @ArchTest
    static final ArchRule SERVICES_ARE_CONSTRUCTED_ONLY_BY_THE_APPLICATION_AND_THE_WIRING =
            APPLICATION.servicesAreConstructedOnlyByTheApplicationAndTheWiring();

    @ArchTest
    static final ArchRule ADAPTERS_DO_NOT_REFERENCE_SERVICES = APPLICATION.adaptersDoNotReferenceServices();

    @ArchTest
    static final ArchRule USE_CASES_AND_DRIVEN_PORTS_DO_NOT_REFERENCE_EACH_OTHER =
            APPLICATION.useCasesAndDrivenPortsDoNotReferenceEachOther();

    @ArchTest
    static final ArchRule DRIVEN_PORTS_ARE_NOT_NAMED_AFTER_TECHNOLOGY =
            APPLICATION.drivenPortsAreNotNamedAfterTechnology();

    @ArchTest
    static final ArchRule NO_PACKAGE_IS_NAMED_IN_OR_OUT = APPLICATION.noPackageIsNamedInOrOut();

    // adapters
    @ArchTest
    static final ArchRule DRIVEN_ADAPTERS_USE_NO_PORT_IMPLEMENTED_ELSEWHERE =
            ADAPTERS.drivenAdaptersUseNoPortImplementedElsewhere();

    @ArchTest
    static final ArchRule SPRING_AMQP_ONLY_IN_MESSAGING_AND_BOOTSTRAP =
            ADAPTERS.springAmqpOnlyInMessagingAndBootstrap();

    @ArchTest
    static final ArchRule DEBEZIUM_ONLY_IN_THE_CDC_ADAPTER = ADAPTERS.debeziumOnlyInTheCdcAdapter();

    @ArchTest
    static final ArchRule HTTP_ONLY_IN_THE_WEB_ADAPTER = ADAPTERS.httpOnlyInTheWebAdapter();

    @ArchTest
    static final ArchRule WEB_ADAPTER_USES_NO_PERSISTENCE_MESSAGING_OR_BOOTSTRAP =
            ADAPTERS.webAdapterUsesNoPersistenceMessagingOrBootstrap();

    // domain model
    @ArchTest
    static final ArchRule DOMAIN_EVENTS_ARE_PAST_TENSE_RECORDS = DOMAIN_MODEL.domainEventsArePastTenseRecords();

    @ArchTest
    static final ArchRule DOMAIN_HAS_NO_PUBLIC_SETTERS = DOMAIN_MODEL.domainHasNoPublicSetters();

    @ArchTest
    static final ArchRule DOMAIN_HAS_NO_PUBLIC_MUTABLE_FIELDS = DOMAIN_MODEL.domainHasNoPublicMutableFields();
}
