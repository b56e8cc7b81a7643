package dev.bookstore.ordering.architecture;

import com.tngtech.archunit.lang.ArchRule;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The architecture of the ordering service as ArchUnit rules, relative to a root package, grouped by concern.
 *
 * <p>The rules take the root as a parameter so that the very same definitions that guard the production code
 * ({@code dev.bookstore.ordering}) can be run against the deliberately broken fixture under
 * {@code ...architecture.fixture.bad}: a rule that never fires proves nothing. Every rule keeps ArchUnit's
 * {@code failOnEmptyShould}, so a rule whose packages are empty (a typo, a moved package) fails instead of
 * passing silently.
 */
final class OrderingArchitecture {

    private final OrderingLayout layout;
    private final DependencyRules dependencies;
    private final ApplicationRules application;
    private final AdapterRules adapters;
    private final DomainModelRules domainModel;

    /** The rules for the classes under {@code root}. */
    OrderingArchitecture(String root) {
        this.layout = new OrderingLayout(root);
        this.dependencies = new DependencyRules(layout);
        this.application = new ApplicationRules(layout);
        this.adapters = new AdapterRules(layout);
        this.domainModel = new DomainModelRules(layout);
    }

    String root() {
        return layout.root;
    }

    DependencyRules dependencies() {
        return dependencies;
    }

    ApplicationRules application() {
        return application;
    }

    AdapterRules adapters() {
        return adapters;
    }

    DomainModelRules domainModel() {
        return domainModel;
    }

    /** Every rule by name, in the order of the README. */
    Map<String, ArchRule> all() {
        Map<String, ArchRule> rules = new LinkedHashMap<>();
        rules.put("domainDependsOnlyOnTheJdk", dependencies.domainDependsOnlyOnTheJdk());
        rules.put("applicationDependsOnlyOnTheJdkAndTheDomain",
                dependencies.applicationDependsOnlyOnTheJdkAndTheDomain());
        rules.put("adaptersDoNotDependOnEachOther", dependencies.adaptersDoNotDependOnEachOther());
        rules.put("onlyBootstrapDependsOnAdapters", dependencies.onlyBootstrapDependsOnAdapters());
        rules.put("coreDoesNotDependOnAdaptersOrBootstrap", dependencies.coreDoesNotDependOnAdaptersOrBootstrap());
        rules.put("layersPointInwards", dependencies.layersPointInwards());
        rules.put("bootstrapReachesAdaptersOnlyThroughItsWiring",
                dependencies.bootstrapReachesAdaptersOnlyThroughItsWiring());
        rules.put("servicesImplementAUseCase", application.servicesImplementAUseCase());
        rules.put("servicesImplementNoDrivenPort", application.servicesImplementNoDrivenPort());
        rules.put("servicesAreConstructedOnlyByTheApplicationAndTheWiring",
                application.servicesAreConstructedOnlyByTheApplicationAndTheWiring());
        rules.put("adaptersDoNotReferenceServices", application.adaptersDoNotReferenceServices());
        rules.put("useCasesAndDrivenPortsDoNotReferenceEachOther",
                application.useCasesAndDrivenPortsDoNotReferenceEachOther());
        rules.put("drivenPortsAreNotNamedAfterTechnology", application.drivenPortsAreNotNamedAfterTechnology());
        rules.put("noPackageIsNamedInOrOut", application.noPackageIsNamedInOrOut());
        rules.put("drivenAdaptersUseNoPortImplementedElsewhere",
                adapters.drivenAdaptersUseNoPortImplementedElsewhere());
        rules.put("springAmqpOnlyInMessagingAndBootstrap", adapters.springAmqpOnlyInMessagingAndBootstrap());
        rules.put("debeziumOnlyInTheCdcAdapter", adapters.debeziumOnlyInTheCdcAdapter());
        rules.put("httpOnlyInTheWebAdapter", adapters.httpOnlyInTheWebAdapter());
        rules.put("webAdapterUsesNoPersistenceMessagingOrBootstrap",
                adapters.webAdapterUsesNoPersistenceMessagingOrBootstrap());
        rules.put("domainEventsArePastTenseRecords", domainModel.domainEventsArePastTenseRecords());
        rules.put("domainHasNoPublicSetters", domainModel.domainHasNoPublicSetters());
        rules.put("domainHasNoPublicMutableFields", domainModel.domainHasNoPublicMutableFields());
        return rules;
    }
}
