package dev.bookstore.ordering.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * {@code docs/modules/} is what Spring Modulith's {@code Documenter} makes of the current code (the diagram of all
 * modules and of each, the module canvases, the aggregating document). The test generates it into the build
 * directory and fails, naming the files, when the committed copy differs; with {@code -Dmodules.write=true} it first
 * replaces the committed copy by the generated one.
 */
class ModuleDocumentationTest {

    static final String REFRESH_COMMAND = "./mvnw -B -pl architecture-tests -am verify -DskipITs "
            + "-Dtest=ModuleDocumentationTest -Dsurefire.failIfNoSpecifiedTests=false -Dmodules.write=true";

    @Test
    void docsModulesDescribeTheModulesOfTheCurrentCode() throws IOException {
        Path root = ProductionClassLocations.projectRoot();
        Path generated = root.resolve(ProductionClassLocations.THIS_MODULE).resolve("target/spring-modulith-docs");
        Path committed = root.resolve("docs/modules");

        new Documenter(ApplicationModules.of(ArchitectureTest.ROOT),
                Documenter.Options.defaults().withOutputFolder(generated.toString()))
                .writeModulesAsPlantUml()
                .writeIndividualModulesAsPlantUml()
                .writeModuleCanvases()
                .writeAggregatingDocument();
        Map<String, String> expected = read(generated);
        if (Boolean.getBoolean("modules.write")) {
            replace(committed, expected);
        }

        assertThat(differences(read(committed), expected))
                .as("docs/modules/ does not match the modules of the code (generated into %s). Refresh it with%n"
                        + "  %s%nand commit the change", root.relativize(generated), REFRESH_COMMAND)
                .isEmpty();
    }

    @Test
    void normalisingSortsEachRunOfRelationsAndOfCanvasItems() {
        assertThat(normalised("a\r\nRel(b)\r\nRel(a)\r\nc\r\n|* y\r\n* x\r\n|===\r\n"))
                .isEqualTo("a\nRel(a)\nRel(b)\nc\n|* x\n* y\n|===\n");
    }

    private static List<String> differences(Map<String, String> committed, Map<String, String> generated) {
        Set<String> names = new TreeSet<>(committed.keySet());
        names.addAll(generated.keySet());
        List<String> differences = new ArrayList<>();
        for (String name : names) {
            if (!committed.containsKey(name)) {
                differences.add(name + " is missing");
            } else if (!generated.containsKey(name)) {
                differences.add(name + " describes no module any more");
            } else if (!committed.get(name).equals(generated.get(name))) {
                differences.add(name + " differs");
            }
        }
        return differences;
    }

    /** Each file by name, {@linkplain #normalised normalised}. */
    private static Map<String, String> read(Path directory) throws IOException {
        Map<String, String> files = new TreeMap<>();
        if (!Files.isDirectory(directory)) {
            return files;
        }
        try (Stream<Path> paths = Files.list(directory)) {
            for (Path file : paths.filter(Files::isRegularFile).toList()) {
                files.put(file.getFileName().toString(), normalised(Files.readString(file)));
            }
        }
        return files;
    }

    /**
     * The Documenter writes the relations of a diagram ({@code Rel(...)} lines) and the items of a canvas cell
     * ({@code |* first}, {@code * next}) in hash order, which changes from one JVM to the next; each run of them is
     * sorted here. Any line end reads as one, so that a checkout on Windows compares equal.
     */
    static String normalised(String content) {
        List<String> lines = content.lines().toList();
        List<String> result = new ArrayList<>();
        for (int i = 0; i < lines.size(); ) {
            String line = lines.get(i);
            boolean relations = line.startsWith("Rel(");
            boolean cell = line.startsWith("|* ");
            if (!relations && !cell) {
                result.add(line);
                i++;
                continue;
            }
            List<String> run = new ArrayList<>(List.of(cell ? line.substring(1) : line));
            for (i++; i < lines.size() && lines.get(i).startsWith(relations ? "Rel(" : "* "); i++) {
                run.add(lines.get(i));
            }
            Collections.sort(run);
            if (cell) {
                run.set(0, "|" + run.get(0));
            }
            result.addAll(run);
        }
        return String.join("\n", result) + "\n";
    }

    /** Replaces the committed files by the generated ones, normalised so that a refresh changes only what changed. */
    private static void replace(Path committed, Map<String, String> generated) throws IOException {
        Files.createDirectories(committed);
        try (Stream<Path> old = Files.list(committed)) {
            old.filter(Files::isRegularFile).forEach(ModuleDocumentationTest::delete);
        }
        for (Map.Entry<String, String> file : generated.entrySet()) {
            Files.writeString(committed.resolve(file.getKey()), file.getValue());
        }
    }

    private static void delete(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
