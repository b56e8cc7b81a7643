package dev.bookstore.ordering.architecture;

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

    // 1. domain
    @ArchTest
    static final ArchRule DOMAIN_DEPENDS_ONLY_ON_THE_JDK = RULES.domainDependsOnlyOnTheJdk();

    // 2. application
    @ArchTest
    static final ArchRule APPLICATION_DEPENDS_ONLY_ON_THE_JDK_AND_THE_DOMAIN =
            RULES.applicationDependsOnlyOnTheJdkAndTheDomain();

    // 3. adapters
    @ArchTest
    static final ArchRule ADAPTERS_DO_NOT_DEPEND_ON_EACH_OTHER = RULES.adaptersDoNotDependOnEachOther();

    @ArchTest
    static final ArchRule ADAPTERS_USE_NO_PORT_IMPLEMENTED_BY_ANOTHER_ADAPTER =
            RULES.adaptersUseNoPortImplementedByAnotherAdapter();

    @ArchTest
    static final ArchRule ONLY_BOOTSTRAP_DEPENDS_ON_ADAPTERS = RULES.onlyBootstrapDependsOnAdapters();

    @ArchTest
    static final ArchRule CORE_DOES_NOT_DEPEND_ON_ADAPTERS_OR_BOOTSTRAP =
            RULES.coreDoesNotDependOnAdaptersOrBootstrap();

    // 4. direction of the layers
    @ArchTest
    static final ArchRule LAYERS_POINT_INWARDS = RULES.layersPointInwards();

    // 5. services
    @ArchTest
    static final ArchRule SERVICES_ARE_PACKAGE_PRIVATE = RULES.servicesArePackagePrivate();

    @ArchTest
    static final ArchRule SERVICES_ARE_USED_ONLY_INSIDE_THE_APPLICATION =
            RULES.servicesAreUsedOnlyInsideTheApplication();

    @ArchTest
    static final ArchRule SERVICES_IMPLEMENT_A_PORT_IN = RULES.servicesImplementAPortIn();

    // 6. ports
    @ArchTest
    static final ArchRule PORT_IN_INTERFACES_ARE_USE_CASES_OR_QUERIES = RULES.portInInterfacesAreUseCasesOrQueries();

    @ArchTest
    static final ArchRule PORTS_IN_AND_OUT_DO_NOT_REFERENCE_EACH_OTHER = RULES.portsInAndOutDoNotReferenceEachOther();

    @ArchTest
    static final ArchRule PORTS_OUT_ARE_NOT_NAMED_AFTER_TECHNOLOGY = RULES.portsOutAreNotNamedAfterTechnology();

    // 7. frameworks stay in their adapter
    @ArchTest
    static final ArchRule JPA_ONLY_IN_THE_PERSISTENCE_ADAPTER = RULES.jpaOnlyInThePersistenceAdapter();

    @ArchTest
    static final ArchRule SPRING_AMQP_ONLY_IN_MESSAGING_AND_BOOTSTRAP = RULES.springAmqpOnlyInMessagingAndBootstrap();

    @ArchTest
    static final ArchRule SPRING_WEB_ONLY_IN_BOOTSTRAP_WEB = RULES.springWebOnlyInBootstrapWeb();

    // 8. domain model
    @ArchTest
    static final ArchRule DOMAIN_EVENTS_ARE_PAST_TENSE_RECORDS = RULES.domainEventsArePastTenseRecords();

    @ArchTest
    static final ArchRule DOMAIN_HAS_NO_PUBLIC_SETTERS = RULES.domainHasNoPublicSetters();

    @ArchTest
    static final ArchRule DOMAIN_HAS_NO_PUBLIC_MUTABLE_FIELDS = RULES.domainHasNoPublicMutableFields();
}
