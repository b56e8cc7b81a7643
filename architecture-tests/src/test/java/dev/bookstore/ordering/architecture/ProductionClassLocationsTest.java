package dev.bookstore.ordering.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProductionClassLocationsTest {

    @TempDir
    Path project;

    @Test
    void findsTheClassesDirectoryOfEveryModule() throws IOException {
        for (String module : ProductionClassLocations.MODULES) {
            Files.createDirectories(project.resolve(module).resolve("target/classes"));
        }

        assertThat(ProductionClassLocations.classesDirectories(project))
                .hasSize(ProductionClassLocations.MODULES.size())
                .allSatisfy(directory -> assertThat(directory).isDirectory().endsWith(Path.of("target", "classes")));
    }

    @Test
    void aModuleWithoutCompiledClassesFailsWithItsName() throws IOException {
        for (String module : ProductionClassLocations.MODULES) {
            Files.createDirectories(project.resolve(module).resolve(module.equals("bootstrap") ? "" : "target/classes"));
        }

        assertThatThrownBy(() -> ProductionClassLocations.classesDirectories(project))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Module 'bootstrap' has no compiled classes");
    }
}
