package dev.bookstore.ordering.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import com.tngtech.archunit.core.importer.ImportOption;
import dev.bookstore.ordering.architecture.fixture.modulith.ModulithFixtureApplication;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.core.Violations;

/**
 * Spring Modulith's view of the service: five application modules ({@link HexagonalModuleDetection}), none open,
 * no cycle, no module using another's internal types; and the same verification failing on a fixture that has a
 * cycle and an access to an internal type.
 */
class ModulithVerificationTest {

    private static final ApplicationModules MODULES = ApplicationModules.of(ArchitectureTest.ROOT);

    @Test
    void theServiceHasTheFiveModulesOfItsHexagonalLayoutAndNoneIsOpen() {
        assertThat(MODULES.stream().map(module -> module.getIdentifier().toString()))
                .containsExactlyInAnyOrderElementsOf(HexagonalModuleDetection.MODULES);
        assertThat(MODULES.stream().filter(ApplicationModule::isOpen)).isEmpty();
    }

    @Test
    void theApplicationModulesVerify() {
        assertThatNoException().isThrownBy(MODULES::verify);
    }

    @Test
    void dependenciesPointInwardOnly() {
        assertThat(dependencies()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "domain", List.of(),
                "application", List.of("domain"),
                "adapters.persistence", List.of("application", "domain"),
                "adapters.messaging", List.of("application", "domain"),
                "bootstrap", List.of("adapters.messaging", "adapters.persistence", "application")));
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

    private static Map<String, List<String>> dependencies() {
        return MODULES.stream().collect(Collectors.toMap(module -> module.getIdentifier().toString(),
                module -> module.getDirectDependencies(MODULES).uniqueModules()
                        .map(target -> target.getIdentifier().toString()).sorted().toList()));
    }
}
