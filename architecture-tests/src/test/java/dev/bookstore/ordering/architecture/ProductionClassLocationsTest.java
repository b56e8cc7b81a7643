package dev.bookstore.ordering.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProductionClassLocationsTest {

    private static final String POM = """
            <project>
              <modules>
                <module>ordering-domain</module>
                <module>adapters-modulith</module>
                <module>bootstrap</module>
                <module>architecture-tests</module>
              </modules>
            </project>
            """;

    @TempDir
    Path project;

    @Test
    void findsTheClassesDirectoryOfEveryModuleTheRootPomListsButThisOne() throws IOException {
        Files.writeString(project.resolve("pom.xml"), POM);
        for (String module : List.of("ordering-domain", "adapters-modulith", "bootstrap")) {
            Files.createDirectories(project.resolve(module).resolve("target/classes"));
        }

        assertThat(ProductionClassLocations.classesDirectories(project))
                .containsExactly(project.resolve("ordering-domain/target/classes"),
                        project.resolve("adapters-modulith/target/classes"), project.resolve("bootstrap/target/classes"));
    }

    @Test
    void aModuleWithoutCompiledClassesFailsWithItsName() throws IOException {
        Files.writeString(project.resolve("pom.xml"), POM);
        Files.createDirectories(project.resolve("ordering-domain/target/classes"));
        Files.createDirectories(project.resolve("adapters-modulith"));

        assertThatThrownBy(() -> ProductionClassLocations.classesDirectories(project))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Module 'adapters-modulith' has no compiled classes");
    }

    /** Otherwise the reactor may build this module before one it checks, and the rules would read stale classes. */
    @Test
    void thisModuleDependsOnEveryProductionModule() throws IOException {
        Path root = ProductionClassLocations.projectRoot();
        String ownPom = Files.readString(root.resolve(ProductionClassLocations.THIS_MODULE).resolve("pom.xml"));

        assertThat(ProductionClassLocations.productionModules(root)).isNotEmpty()
                .allSatisfy(module -> assertThat(ownPom).contains("<artifactId>" + module + "</artifactId>"));
    }
}
