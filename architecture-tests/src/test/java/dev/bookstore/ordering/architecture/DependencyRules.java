package dev.bookstore.ordering.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;

/** Which part of the service may depend on which: the direction of the hexagon's dependencies. */
final class DependencyRules {

    private static final String JDK = "java..";

    private final OrderingLayout layout;

    DependencyRules(OrderingLayout layout) {
        this.layout = layout;
    }

    ArchRule domainDependsOnlyOnTheJdk() {
        return classes().that().resideInAPackage(layout.domain)
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, layout.domain)
                .because("the domain is plain Java that every other layer builds on and no framework may change "
                        + "(DESIGN.md 2: ordering-domain depends on the JDK only)");
    }

    ArchRule applicationDependsOnlyOnTheJdkAndTheDomain() {
        return classes().that().resideInAPackage(layout.application)
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, layout.domain, layout.application)
                .because("use cases and the relay policy are plain Java, testable with in-memory fakes; Spring, "
                        + "Jakarta, Jackson and transactions are put around them by the adapters and bootstrap "
                        + "(DESIGN.md 2)");
    }

    /** One slice per {@code adapters.<name>}: an adapter module added later is covered without a change here. */
    ArchRule adaptersDoNotDependOnEachOther() {
        return slices().matching(layout.adapterSlices).namingSlices("adapter '$1'")
                .should().notDependOnEachOther()
                .because("adapters meet only through the application's ports, so each can be replaced or tested "
                        + "alone (DESIGN.md 2: adapters never depend on each other)");
    }

    ArchRule onlyBootstrapDependsOnAdapters() {
        return noClasses().that().resideOutsideOfPackages(concat(layout.adapters, layout.bootstrap))
                .should().dependOnClassesThat().resideInAPackage(layout.adapters)
                .because("adapters are plugged in by the wiring only; nothing but bootstrap knows them "
                        + "(DESIGN.md 2)");
    }

    ArchRule coreDoesNotDependOnAdaptersOrBootstrap() {
        return noClasses().that().resideInAnyPackage(layout.domain, layout.application)
                .should().dependOnClassesThat().resideInAnyPackage(concat(layout.adapters, layout.bootstrap))
                .because("dependencies point inwards: the core defines ports and never knows who implements or "
                        + "drives them (DESIGN.md 2)");
    }

    /**
     * The adapters form one layer here, since a layer cannot be declared per package found; that they stay apart
     * from each other is {@link #adaptersDoNotDependOnEachOther()}. A class outside every layer (a stray package,
     * or a class directly in {@code adapters} that belongs to no adapter) fails the rule.
     */
    ArchRule layersPointInwards() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Domain").definedBy(layout.domain)
                .layer("Application").definedBy(layout.application)
                .layer("Adapters").definedBy(layout.anyAdapter)
                .layer("Bootstrap").definedBy(layout.bootstrap)
                .optionalLayer("Consumer library").definedBy(layout.consumer)
                .whereLayer("Bootstrap").mayNotBeAccessedByAnyLayer()
                .whereLayer("Consumer library").mayNotBeAccessedByAnyLayer()
                .whereLayer("Consumer library").mayNotAccessAnyLayer()
                .whereLayer("Adapters").mayOnlyBeAccessedByLayers("Bootstrap")
                .whereLayer("Application").mayOnlyBeAccessedByLayers("Adapters", "Bootstrap")
                .whereLayer("Domain").mayOnlyBeAccessedByLayers("Application", "Adapters", "Bootstrap")
                .whereLayer("Domain").mayNotAccessAnyLayer()
                .whereLayer("Application").mayOnlyAccessLayers("Domain")
                .whereLayer("Adapters").mayOnlyAccessLayers("Application", "Domain")
                .ensureAllClassesAreContainedInArchitecture()
                .because("DESIGN.md 2: domain <- application <- adapters (persistence, messaging, web, ...) <- "
                        + "bootstrap, and every class lives in one of these layers so that no package escapes "
                        + "the rules; the consumer library stands apart, a consuming service adds it alone");
    }

    /**
     * Bootstrap outside {@code bootstrap.config} runs things (relay workers, retention, observability) and is a
     * driving side like any other: it uses the application's use cases and ports, never an adapter class.
     */
    ArchRule bootstrapReachesAdaptersOnlyThroughItsWiring() {
        return noClasses().that().resideInAnyPackage(layout.bootstrap).and().resideOutsideOfPackage(layout.wiring)
                .should().dependOnClassesThat().resideInAPackage(layout.adapters)
                .because("only the wiring (bootstrap.config) knows adapter classes; the workers and jobs beside it "
                        + "reach the adapters through the application's ports, so an adapter can change without "
                        + "them (DESIGN.md 2: nothing but bootstrap knows several adapters)");
    }

    static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
