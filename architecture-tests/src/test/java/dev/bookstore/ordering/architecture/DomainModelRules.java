package dev.bookstore.ordering.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;

import com.tngtech.archunit.lang.ArchRule;

/** The shape of the domain model: immutable past-tense events, state changed only through guarded verbs. */
final class DomainModelRules {

    private final OrderingLayout layout;

    DomainModelRules(OrderingLayout layout) {
        this.layout = layout;
    }

    ArchRule domainEventsArePastTenseRecords() {
        return classes().that().implement(layout.domainEvent)
                .should().beRecords().andShould().haveSimpleNameEndingWith("ed")
                .because("an event is an immutable fact that already happened: OrderPlaced, OrderCancelled "
                        + "(STYLE.md Domain)");
    }

    ArchRule domainHasNoPublicSetters() {
        return noMethods().that().areDeclaredInClassesThat().resideInAPackage(layout.domain).and().arePublic()
                .should().haveNameMatching("set[A-Z0-9_].*")
                .because("state changes are verbs that guard their invariants, such as order.cancel(reason, now); "
                        + "a setter bypasses them (STYLE.md Domain)");
    }

    ArchRule domainHasNoPublicMutableFields() {
        return noFields().that().areDeclaredInClassesThat().resideInAPackage(layout.domain).and().arePublic()
                .should().notBeFinal()
                .because("a public mutable field is a setter without a name: it bypasses the aggregate's guards "
                        + "(STYLE.md Domain)");
    }
}
