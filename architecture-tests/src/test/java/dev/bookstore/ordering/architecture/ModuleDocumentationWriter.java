package dev.bookstore.ordering.architecture;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * Regenerates {@code docs/modules/} (PlantUML diagrams of all modules and of each, module canvases, the
 * aggregating document) from the classes. Not part of the normal build (its name matches no Surefire pattern); run
 * it with {@value #REGENERATE_COMMAND}.
 */
class ModuleDocumentationWriter {

    static final String REGENERATE_COMMAND = "./mvnw -B -pl architecture-tests -am test "
            + "-Dtest=ModuleDocumentationWriter -Dsurefire.failIfNoSpecifiedTests=false";

    /** Relative to the module's directory, where Surefire runs the tests. */
    static final String OUTPUT = "../docs/modules";

    @Test
    void writeModuleDocumentation() {
        new Documenter(ApplicationModules.of(ArchitectureTest.ROOT),
                Documenter.Options.defaults().withOutputFolder(OUTPUT))
                .writeDocumentation()
                .writeIndividualModulesAsPlantUml();
    }
}
