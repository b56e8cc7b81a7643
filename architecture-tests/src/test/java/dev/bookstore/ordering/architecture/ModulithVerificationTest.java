package dev.bookstore.ordering.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import dev.bookstore.ordering.architecture.fixture.modulith.ModulithFixtureApplication;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.core.Violations;

/**
 * Spring Modulith's view of the service: the core modules and one module per adapter
 * ({@link HexagonalModuleDetection}), none open, no cycle, no module using another's internal types, every
 * dependency pointing inwards; and the same verification failing on a fixture that has a cycle and an access to an
 * internal type.
 */
class ModulithVerificationTest {

    private static final ApplicationModules MODULES = ApplicationModules.of(ArchitectureTest.ROOT);

    /** Inside out: a module may depend only on modules of a lower floor. */
    private static final List<String> FLOORS = List.of("domain", "application", "adapters", "bootstrap");

    @Test
    void theServiceHasItsCoreModulesAndOneModulePerAdapterAndNoneIsOpen() {
        assertThat(MODULES.stream().map(ModulithVerificationTest::name))
                .contains("domain", "application", "adapters.persistence", "adapters.messaging", "adapters.web",
                        "bootstrap")
                .allMatch(name -> HexagonalModuleDetection.MODULE.matcher(name).matches());
        assertThat(MODULES.stream().filter(ApplicationModule::isOpen)).isEmpty();
    }

    @Test
    void theApplicationModulesVerify() {
        assertThatNoException().isThrownBy(MODULES::verify);
    }

    /** Adapters share a floor, so one adapter depending on another fails here too. */
    @Test
    void dependenciesPointInwardOnly() {
        assertThat(MODULES.stream()).allSatisfy(module -> assertThat(module.getDirectDependencies(MODULES)
                .uniqueModules().map(ModulithVerificationTest::name))
                .as("modules %s depends on", name(module))
                .allMatch(target -> floor(target) < floor(name(module))));
        assertThat(MODULES.getModuleByName("application").orElseThrow().getDirectDependencies(MODULES)
                .uniqueModules().map(ModulithVerificationTest::name)).containsExactly("domain");
    }

    @Test
    void verificationFailsOnAModuleCycleAndOnAnInternalTypeUsedByAnotherModule() {
        // The fixture is test code: imported with every location, not only production classes.
        ApplicationModules fixture = ApplicationModules.of(ModulithFixtureApplication.class.getPackageName(),
                location -> true);

        Violations violations = fixture.detectViolations();

        assertThat(violations.hasViolations()).isTrue();
        assertThat(violations.getMessages()).anySatisfy(message -> assertThat(message).contains("Cycle detected")
                .contains("application").contains("domain"));
        assertThat(violations.getMessages()).anySatisfy(message -> assertThat(message)
                .contains("Module 'adapters.persistence' depends on non-exposed type "
                        + "dev.bookstore.ordering.architecture.fixture.modulith.application.internal.Pricing"));
    }

    private static String name(ApplicationModule module) {
        return module.getIdentifier().toString();
    }

    private static int floor(String module) {
        return FLOORS.indexOf(module.startsWith("adapters.") ? "adapters" : module);
    }
}
