package dev.bookstore.ordering.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.implement;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Set;
import java.util.TreeSet;

/** What each adapter may use: frameworks stay in their adapter, and adapters meet only through the application. */
final class AdapterRules {

    private final OrderingLayout layout;

    AdapterRules(OrderingLayout layout) {
        this.layout = layout;
    }

    /**
     * For every driven port a driven adapter class (one that implements a port) uses, the port's implementations
     * are looked up among the imported classes; one in another adapter or in bootstrap means the adapter's write
     * path goes through someone else's code (the persistence adapter asking the messaging adapter's contract what
     * to store). Driving adapters (controllers, listeners) stand where a use case would and may use ports.
     */
    ArchRule drivenAdaptersUseNoPortImplementedElsewhere() {
        ArchCondition<JavaClass> useNoForeignPort = new ArchCondition<>(
                "use no driven port implemented by another adapter or by bootstrap") {
            @Override
            public void check(JavaClass adapterClass, ConditionEvents events) {
                String ownAdapter = layout.adapterOf(adapterClass);
                Set<String> reported = new TreeSet<>();
                for (Dependency dependency : adapterClass.getDirectDependenciesFromSelf()) {
                    JavaClass port = dependency.getTargetClass();
                    // implementing a port is the adapter's job; only using one is checked
                    if (!layout.drivenPort.test(port) || adapterClass.isAssignableTo(port.getName())) {
                        continue;
                    }
                    for (JavaClass implementation : port.getAllSubclasses()) {
                        boolean foreign = !implementation.isInterface()
                                && (layout.isAdapter(implementation) || layout.isBootstrap(implementation))
                                && !OrderingLayout.isInPackageOrBelow(implementation, ownAdapter);
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
        return classes().that().resideInAPackage(layout.adapters).and(implement(layout.drivenPort))
                .should(useNoForeignPort)
                .because("the write flows one way: the application decides what leaves the service and builds it; "
                        + "an adapter stores or sends what it is given and never asks another adapter (DESIGN.md 2)");
    }

    ArchRule springAmqpOnlyInMessagingAndBootstrap() {
        return noClasses().that().resideOutsideOfPackages(
                        DependencyRules.concat(layout.messaging, DependencyRules.concat(layout.consumer, layout.bootstrap)))
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.amqp..", "com.rabbitmq..")
                .because("the broker is reached through the MessagePublisher port, implemented by the messaging "
                        + "adapter and wired by bootstrap; the consumer library is a consuming service's listener "
                        + "(DESIGN.md 2)");
    }

    ArchRule debeziumOnlyInTheCdcAdapter() {
        return noClasses().that().resideOutsideOfPackage(layout.cdc)
                .should().dependOnClassesThat().resideInAnyPackage("io.debezium..", "org.apache.kafka..")
                .because("Debezium's engine brings Kafka Connect's runtime; it stays in adapters-cdc, which the "
                        + "wiring starts only in cdc mode, so no other module compiles against it (issue 40)");
    }

    ArchRule httpOnlyInTheWebAdapter() {
        return noClasses().that().resideOutsideOfPackage(layout.web)
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..",
                        "org.springframework.http..", "jakarta.servlet..", "org.springdoc..", "io.swagger..")
                .because("HTTP (Spring web, servlets, the OpenAPI description) is one driving adapter, "
                        + "adapters-web; everything else runs without a web stack (DESIGN.md 2)");
    }

    /**
     * Mapping Spring's data-access exceptions ({@code org.springframework.dao}, {@code transaction}) to a 503 is the
     * web adapter's job and stays allowed; talking to the database or the broker is not.
     */
    ArchRule webAdapterUsesNoPersistenceMessagingOrBootstrap() {
        DescribedPredicate<JavaClass> otherAdapter = resideInAPackage(layout.adapters)
                .and(not(resideInAPackage(layout.web))).as("belong to another adapter");
        return noClasses().that().resideInAPackage(layout.web)
                .should().dependOnClassesThat(otherAdapter
                        .or(resideInAnyPackage(layout.bootstrap).as("belong to bootstrap"))
                        .or(resideInAnyPackage("org.springframework.jdbc..", "javax.sql..",
                                "org.springframework.amqp..", "com.rabbitmq..")
                                .as("are JDBC or AMQP (org.springframework.jdbc, javax.sql, org.springframework.amqp, "
                                        + "com.rabbitmq)")))
                .because("a request reaches the database and the broker only through use cases; the web adapter "
                        + "knows HTTP and the application, nothing else (DESIGN.md 2: adapters-web depends on the "
                        + "application, Spring web/security, springdoc)");
    }
}
