package dev.bookstore.ordering.architecture;

import static com.tngtech.archunit.lang.conditions.ArchConditions.have;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The architecture of the ordering service as ArchUnit rules, relative to a root package.
 *
 * <p>The rules take the root as a parameter so that the very same definitions that guard the production code
 * ({@code dev.bookstore.ordering}) can be run against the deliberately broken fixture under
 * {@code ...architecture.fixture.bad}: a rule that never fires proves nothing. Every rule keeps ArchUnit's
 * {@code failOnEmptyShould}, so a rule whose packages are empty (a typo, a moved package) fails instead of
 * passing silently.
 */
final class OrderingArchitecture {

    private static final String JDK = "java..";

    /** Technology words that must not name a driven port (matched case-insensitively in the simple name). */
    private static final Pattern TECHNOLOGY = Pattern.compile("(?i)jpa|jdbc|rabbit|amqp|sql|kafka|http");

    private final String root;
    private final String domain;
    private final String application;
    private final String portIn;
    private final String portOut;
    private final String service;
    private final String adapters;
    private final String persistence;
    private final String messaging;
    /**
     * Driving adapters inside an adapter module: they stand where a use case would and may use the driven ports
     * of other adapters (the inbox listener records deliveries through {@code InboxStore}).
     */
    private final String drivingAdapters;
    /** The bootstrap module: the application class in the root package itself, and {@code bootstrap..}. */
    private final String[] bootstrap;
    private final String web;
    private final String domainEvent;

    OrderingArchitecture(String root) {
        this.root = Objects.requireNonNull(root, "root");
        this.domain = root + ".domain..";
        this.application = root + ".application..";
        this.portIn = root + ".application.port.in..";
        this.portOut = root + ".application.port.out..";
        this.service = root + ".application.service..";
        this.adapters = root + ".adapters..";
        this.persistence = root + ".adapters.persistence..";
        this.messaging = root + ".adapters.messaging..";
        this.drivingAdapters = root + ".adapters.messaging.inbound..";
        this.bootstrap = new String[] {root, root + ".bootstrap.."};
        this.web = root + ".bootstrap.web..";
        this.domainEvent = root + ".domain.shared.DomainEvent";
    }

    String root() {
        return root;
    }

    /** Every rule by name, in the order of the README. */
    Map<String, ArchRule> all() {
        Map<String, ArchRule> rules = new LinkedHashMap<>();
        rules.put("domainDependsOnlyOnTheJdk", domainDependsOnlyOnTheJdk());
        rules.put("applicationDependsOnlyOnTheJdkAndTheDomain", applicationDependsOnlyOnTheJdkAndTheDomain());
        rules.put("adaptersDoNotDependOnEachOther", adaptersDoNotDependOnEachOther());
        rules.put("adaptersUseNoPortImplementedByAnotherAdapter", adaptersUseNoPortImplementedByAnotherAdapter());
        rules.put("onlyBootstrapDependsOnAdapters", onlyBootstrapDependsOnAdapters());
        rules.put("coreDoesNotDependOnAdaptersOrBootstrap", coreDoesNotDependOnAdaptersOrBootstrap());
        rules.put("layersPointInwards", layersPointInwards());
        rules.put("servicesArePackagePrivate", servicesArePackagePrivate());
        rules.put("servicesAreUsedOnlyInsideTheApplication", servicesAreUsedOnlyInsideTheApplication());
        rules.put("servicesImplementAPortIn", servicesImplementAPortIn());
        rules.put("portInInterfacesAreUseCasesOrQueries", portInInterfacesAreUseCasesOrQueries());
        rules.put("portsInAndOutDoNotReferenceEachOther", portsInAndOutDoNotReferenceEachOther());
        rules.put("portsOutAreNotNamedAfterTechnology", portsOutAreNotNamedAfterTechnology());
        rules.put("jpaOnlyInThePersistenceAdapter", jpaOnlyInThePersistenceAdapter());
        rules.put("springAmqpOnlyInMessagingAndBootstrap", springAmqpOnlyInMessagingAndBootstrap());
        rules.put("springWebOnlyInBootstrapWeb", springWebOnlyInBootstrapWeb());
        rules.put("domainEventsArePastTenseRecords", domainEventsArePastTenseRecords());
        rules.put("domainHasNoPublicSetters", domainHasNoPublicSetters());
        rules.put("domainHasNoPublicMutableFields", domainHasNoPublicMutableFields());
        return rules;
    }

    // 1 ------------------------------------------------------------------------------------------------------

    ArchRule domainDependsOnlyOnTheJdk() {
        return classes().that().resideInAPackage(domain)
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, domain)
                .because("the domain is plain Java that every other layer builds on and no framework may change "
                        + "(DESIGN.md 2: ordering-domain depends on the JDK only)");
    }

    // 2 ------------------------------------------------------------------------------------------------------

    ArchRule applicationDependsOnlyOnTheJdkAndTheDomain() {
        return classes().that().resideInAPackage(application)
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, domain, application)
                .because("use cases and the relay policy are plain Java, testable with in-memory fakes; Spring, "
                        + "Jakarta, Jackson and transactions are put around them by the adapters and bootstrap "
                        + "(DESIGN.md 2)");
    }

    // 3 ------------------------------------------------------------------------------------------------------

    ArchRule adaptersDoNotDependOnEachOther() {
        return CompositeArchRule
                .of(noClasses().that().resideInAPackage(persistence)
                        .should().dependOnClassesThat().resideInAPackage(messaging))
                .and(noClasses().that().resideInAPackage(messaging)
                        .should().dependOnClassesThat().resideInAPackage(persistence))
                .because("adapters meet only through the application's ports, so each can be replaced or tested "
                        + "alone (DESIGN.md 2: adapters never depend on each other)");
    }

    /**
     * Generic: for every driven port an adapter class uses, the port's implementations are looked up among the
     * imported classes; one that lives in another adapter or in bootstrap means the adapter's write path goes
     * through someone else's code (the persistence adapter asking the messaging adapter's contract what to
     * store). The application decides and hands the adapter what to write.
     */
    ArchRule adaptersUseNoPortImplementedByAnotherAdapter() {
        String adaptersPackage = packageOf(adapters);
        ArchCondition<JavaClass> useNoForeignPort = new ArchCondition<>(
                "use no driven port implemented by another adapter or by bootstrap") {
            @Override
            public void check(JavaClass adapterClass, ConditionEvents events) {
                String ownAdapter = adapterOf(adapterClass, adaptersPackage);
                Set<String> reported = new TreeSet<>();
                for (Dependency dependency : adapterClass.getDirectDependenciesFromSelf()) {
                    JavaClass port = dependency.getTargetClass();
                    // implementing a port is the adapter's job; only using one is checked
                    if (!port.isInterface() || !isInPackageOrBelow(port, packageOf(portOut))
                            || adapterClass.isAssignableTo(port.getName())) {
                        continue;
                    }
                    for (JavaClass implementation : port.getAllSubclasses()) {
                        boolean foreign = !implementation.isInterface()
                                && (isInPackageOrBelow(implementation, adaptersPackage)
                                        || isBootstrap(implementation))
                                && !isInPackageOrBelow(implementation, ownAdapter);
                        if (foreign && reported.add(port.getName() + implementation.getName())) {
                            events.add(SimpleConditionEvent.violated(adapterClass, "Class <"
                                    + adapterClass.getName() + "> uses port <" + port.getName()
                                    + ">, implemented by <" + implementation.getName() + "> outside its adapter"
                                    + " (" + dependency.getDescription() + ")"));
                        }
                    }
                }
            }
        };
        return classes().that().resideInAPackage(adapters).and().resideOutsideOfPackage(drivingAdapters)
                .should(useNoForeignPort)
                .because("the write flows one way: the application decides what leaves the service and builds it; "
                        + "an adapter stores or sends what it is given and never asks another adapter (DESIGN.md 2)");
    }

    /** The adapter module a class belongs to: {@code <root>.adapters.<name>}. */
    private static String adapterOf(JavaClass javaClass, String adaptersPackage) {
        String rest = javaClass.getPackageName().substring(adaptersPackage.length() + 1);
        int dot = rest.indexOf('.');
        return adaptersPackage + "." + (dot < 0 ? rest : rest.substring(0, dot));
    }

    private boolean isBootstrap(JavaClass javaClass) {
        return javaClass.getPackageName().equals(root) || isInPackageOrBelow(javaClass, root + ".bootstrap");
    }

    ArchRule onlyBootstrapDependsOnAdapters() {
        return noClasses().that().resideOutsideOfPackages(concat(adapters, bootstrap))
                .should().dependOnClassesThat().resideInAPackage(adapters)
                .because("adapters are plugged in by the wiring only; nothing but bootstrap knows them "
                        + "(DESIGN.md 2)");
    }

    ArchRule coreDoesNotDependOnAdaptersOrBootstrap() {
        return noClasses().that().resideInAnyPackage(domain, application)
                .should().dependOnClassesThat().resideInAnyPackage(concat(adapters, bootstrap))
                .because("dependencies point inwards: the core defines ports and never knows who implements or "
                        + "drives them (DESIGN.md 2)");
    }

    // 4 ------------------------------------------------------------------------------------------------------

    ArchRule layersPointInwards() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Domain").definedBy(domain)
                .layer("Application").definedBy(application)
                .layer("Persistence adapter").definedBy(persistence)
                .layer("Messaging adapter").definedBy(messaging)
                .layer("Bootstrap").definedBy(bootstrap)
                .whereLayer("Bootstrap").mayNotBeAccessedByAnyLayer()
                .whereLayer("Persistence adapter").mayOnlyBeAccessedByLayers("Bootstrap")
                .whereLayer("Messaging adapter").mayOnlyBeAccessedByLayers("Bootstrap")
                .whereLayer("Application")
                .mayOnlyBeAccessedByLayers("Persistence adapter", "Messaging adapter", "Bootstrap")
                .whereLayer("Domain")
                .mayOnlyBeAccessedByLayers("Application", "Persistence adapter", "Messaging adapter", "Bootstrap")
                .whereLayer("Domain").mayNotAccessAnyLayer()
                .whereLayer("Application").mayOnlyAccessLayers("Domain")
                .whereLayer("Persistence adapter").mayOnlyAccessLayers("Application", "Domain")
                .whereLayer("Messaging adapter").mayOnlyAccessLayers("Application", "Domain")
                .ensureAllClassesAreContainedInArchitecture()
                .because("DESIGN.md 2: domain <- application <- {persistence, messaging} <- bootstrap, and every "
                        + "class lives in one of these layers so that no package escapes the rules");
    }

    // 5 ------------------------------------------------------------------------------------------------------

    ArchRule servicesArePackagePrivate() {
        return classes().that().resideInAPackage(service).and().haveSimpleNameEndingWith("Service")
                .should().bePackagePrivate()
                .because("services are reached only through the public OrderingUseCases factory, so driving "
                        + "adapters and the wiring depend on port.in interfaces only (STYLE.md Application)");
    }

    ArchRule servicesAreUsedOnlyInsideTheApplication() {
        return classes().that().resideInAPackage(service).and().haveSimpleNameEndingWith("Service")
                .should().onlyHaveDependentClassesThat().resideInAPackage(application)
                .because("nothing outside the application references a service class; callers see use cases "
                        + "(STYLE.md Application)");
    }

    ArchRule servicesImplementAPortIn() {
        DescribedPredicate<JavaClass> portInInterface = DescribedPredicate.describe(
                "an interface in " + portIn,
                javaClass -> javaClass.isInterface() && isInPackageOrBelow(javaClass, packageOf(portIn)));
        return classes().that().resideInAPackage(service).and().haveSimpleNameEndingWith("Service")
                .should().implement(portInInterface)
                .because("a service is the implementation of a use case or query: <Verb><Noun>Service implements "
                        + "<Verb><Noun>UseCase (STYLE.md Application)");
    }

    // 6 ------------------------------------------------------------------------------------------------------

    ArchRule portInInterfacesAreUseCasesOrQueries() {
        return classes().that().resideInAPackage(portIn).and().areInterfaces()
                .should().haveSimpleNameEndingWith("UseCase").orShould().haveSimpleNameEndingWith("Query")
                .because("one interface per use case, named for what the caller wants: PlaceOrderUseCase, "
                        + "GetOrderQuery (STYLE.md Application)");
    }

    ArchRule portsInAndOutDoNotReferenceEachOther() {
        return CompositeArchRule
                .of(noClasses().that().resideInAPackage(portIn)
                        .should().dependOnClassesThat().resideInAPackage(portOut))
                .and(noClasses().that().resideInAPackage(portOut)
                        .should().dependOnClassesThat().resideInAPackage(portIn))
                .because("driving and driven ports are the two independent sides of the hexagon; the services "
                        + "connect them (STYLE.md Application)");
    }

    ArchRule portsOutAreNotNamedAfterTechnology() {
        DescribedPredicate<JavaClass> technologyName = DescribedPredicate.describe(
                "a simple name containing a technology (" + TECHNOLOGY.pattern().substring(4) + ")",
                javaClass -> TECHNOLOGY.matcher(javaClass.getSimpleName()).find());
        return noClasses().that().resideInAPackage(portOut)
                .should(have(technologyName))
                .because("driven ports are named for the domain (OrderRepository, OutboxStore, MessagePublisher); "
                        + "the technology is the adapter's business (STYLE.md Application)");
    }

    // 7 ------------------------------------------------------------------------------------------------------

    ArchRule jpaOnlyInThePersistenceAdapter() {
        return noClasses().that().resideOutsideOfPackage(persistence)
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.persistence..", "javax.persistence..")
                .because("JPA entities and annotations are a persistence detail; the domain is mapped, never "
                        + "annotated (STYLE.md Adapters: JPA annotations live only in adapters-persistence)");
    }

    ArchRule springAmqpOnlyInMessagingAndBootstrap() {
        return noClasses().that().resideOutsideOfPackages(concat(messaging, bootstrap))
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.amqp..", "com.rabbitmq..")
                .because("the broker is reached through the MessagePublisher port, implemented by the messaging "
                        + "adapter and wired by bootstrap (DESIGN.md 2)");
    }

    ArchRule springWebOnlyInBootstrapWeb() {
        return noClasses().that().resideOutsideOfPackage(web)
                .should().dependOnClassesThat().resideInAPackage("org.springframework.web..")
                .because("HTTP is one driving adapter, bootstrap.web; everything else is reachable without a "
                        + "web stack (DESIGN.md 2)");
    }

    // 8 ------------------------------------------------------------------------------------------------------

    ArchRule domainEventsArePastTenseRecords() {
        return classes().that().implement(domainEvent)
                .should().beRecords().andShould().haveSimpleNameEndingWith("ed")
                .because("an event is an immutable fact that already happened: OrderPlaced, OrderCancelled "
                        + "(STYLE.md Domain)");
    }

    ArchRule domainHasNoPublicSetters() {
        return noMethods().that().areDeclaredInClassesThat().resideInAPackage(domain).and().arePublic()
                .should().haveNameMatching("set[A-Z0-9_].*")
                .because("state changes are verbs that guard their invariants, such as order.cancel(reason, now); "
                        + "a setter bypasses them (STYLE.md Domain)");
    }

    ArchRule domainHasNoPublicMutableFields() {
        return noFields().that().areDeclaredInClassesThat().resideInAPackage(domain).and().arePublic()
                .should().notBeFinal()
                .because("a public mutable field is a setter without a name: it bypasses the aggregate's guards "
                        + "(STYLE.md Domain)");
    }

    private static boolean isInPackageOrBelow(JavaClass javaClass, String packageName) {
        String name = javaClass.getPackageName();
        return name.equals(packageName) || name.startsWith(packageName + ".");
    }

    private static String packageOf(String packageIdentifier) {
        return packageIdentifier.endsWith("..")
                ? packageIdentifier.substring(0, packageIdentifier.length() - 2)
                : packageIdentifier;
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
