package dev.bookstore.ordering.architecture;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.LocationProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where the production classes are: each module's {@code target/classes}.
 *
 * <p>Not the classpath: the bootstrap module is repackaged into a Spring Boot jar whose classes sit under
 * {@code BOOT-INF/classes}, where a package scan of the classpath does not find them. The module directories
 * are found from Maven's {@code basedir} (Surefire runs with the architecture-tests module as base directory),
 * or from the working directory when a test is started elsewhere, e.g. from the reactor root in an IDE.
 */
public final class ProductionClassLocations implements LocationProvider {

    /** Every production module, inside out. */
    static final List<String> MODULES = List.of(
            "ordering-domain", "ordering-application", "adapters-persistence", "adapters-messaging", "bootstrap");

    private static final Path CLASSES = Path.of("target", "classes");

    @Override
    public Set<Location> get(Class<?> testClass) {
        Set<Location> locations = new LinkedHashSet<>();
        classesDirectories(projectRoot()).forEach(directory -> locations.add(Location.of(directory)));
        return locations;
    }

    /** The reactor root: the directory that holds every production module. */
    static Path projectRoot() {
        Path start = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath()
                .normalize();
        for (Path candidate = start; candidate != null; candidate = candidate.getParent()) {
            if (holdsEveryModule(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("Cannot find the project root (a directory containing the modules "
                + MODULES + ") from " + start + " or any parent; run the architecture tests with Maven from the "
                + "project, or set -Dbasedir to the architecture-tests module directory");
    }

    private static boolean holdsEveryModule(Path directory) {
        return MODULES.stream().allMatch(module -> Files.isDirectory(directory.resolve(module)));
    }

    /** Each module's compiled classes, failing with the module's name when one has not been compiled. */
    static List<Path> classesDirectories(Path projectRoot) {
        return MODULES.stream().map(module -> {
            Path directory = projectRoot.resolve(module).resolve(CLASSES);
            if (!Files.isDirectory(directory)) {
                throw new IllegalStateException("Module '" + module + "' has no compiled classes: "
                        + projectRoot.relativize(directory) + " is missing. Build it before the architecture "
                        + "tests, e.g. ./mvnw -pl architecture-tests -am verify");
            }
            return directory;
        }).toList();
    }
}
