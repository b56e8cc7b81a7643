package dev.bookstore.ordering.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.conditions.ArchConditions.have;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.constructors;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.util.regex.Pattern;

/**
 * The inside of the hexagon: use cases, the services that implement them, the driven ports they need, and packages
 * named for their purpose. Roles are recognised by name and kind ({@link OrderingLayout}).
 */
final class ApplicationRules {

    /** Technology words that must not name a driven port (matched case-insensitively in the simple name). */
    private static final Pattern TECHNOLOGY = Pattern.compile("(?i)jpa|jdbc|rabbit|amqp|sql|kafka|http");

    private final OrderingLayout layout;

    ApplicationRules(OrderingLayout layout) {
        this.layout = layout;
    }

    ArchRule servicesImplementAUseCase() {
        return classes().that(layout.service)
                .should().implement(layout.useCase)
                .because("a service is the implementation of a use case or query: <Verb><Noun>Service implements "
                        + "<Verb><Noun>UseCase (STYLE.md Application)");
    }

    /** What a service implements is the driving side, so it must carry a use case's name. */
    ArchRule servicesImplementNoDrivenPort() {
        return noClasses().that(layout.service)
                .should().implement(layout.drivenPort)
                .because("an interface a service implements is a use case, named for what its caller wants "
                        + "(PlaceOrderUseCase, GetOrderQuery); a driven port is implemented outside the application "
                        + "(STYLE.md Application)");
    }

    ArchRule servicesAreConstructedOnlyByTheApplicationAndTheWiring() {
        return constructors().that().areDeclaredInClassesThat(layout.service)
                .should().onlyBeCalled().byClassesThat(resideInAnyPackage(layout.application, layout.wiring))
                .because("bootstrap's wiring (bootstrap.config) builds each service once and puts a transaction "
                        + "around it; a service built elsewhere would run without one (STYLE.md Application)");
    }

    ArchRule adaptersDoNotReferenceServices() {
        return noClasses().that().resideInAPackage(layout.adapters)
                .should().dependOnClassesThat(layout.service)
                .because("adapters call use-case interfaces, never a service class, so the wiring decides what "
                        + "stands behind them (STYLE.md Application: nothing outside the application references a "
                        + "service)");
    }

    ArchRule useCasesAndDrivenPortsDoNotReferenceEachOther() {
        return CompositeArchRule
                .of(noClasses().that(layout.useCase).should().dependOnClassesThat(layout.drivenPort))
                .and(noClasses().that(layout.drivenPort).should().dependOnClassesThat(layout.useCase))
                .because("driving and driven ports are the two independent sides of the hexagon; the services "
                        + "connect them (STYLE.md Application)");
    }

    ArchRule drivenPortsAreNotNamedAfterTechnology() {
        DescribedPredicate<JavaClass> technologyName = DescribedPredicate.describe(
                "a simple name containing a technology (" + TECHNOLOGY.pattern().substring(4) + ")",
                javaClass -> TECHNOLOGY.matcher(javaClass.getSimpleName()).find());
        return noClasses().that(layout.drivenPort)
                .should(have(technologyName))
                .because("driven ports are named for the domain (OrderRepository, OutboxStore, MessagePublisher); "
                        + "the technology is the adapter's business (STYLE.md Application)");
    }

    ArchRule noPackageIsNamedInOrOut() {
        return noClasses().that().resideInAPackage(layout.root + "..")
                .should().resideInAnyPackage(layout.root + "..in..", layout.root + "..out..")
                .because("packages are named for their purpose (application.ordering, adapters.messaging.outbound); "
                        + "structure viewers and ignore templates take a folder named out for build output and hide "
                        + "it (STYLE.md Packages)");
    }
}
