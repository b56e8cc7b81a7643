package dev.bookstore.ordering.architecture;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.LocationProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the production classes are: the {@code target/classes} of every module the root {@code pom.xml} lists
 * (except this one), so that a module added to the build is checked without a change here.
 *
 * <p>Not the classpath: the bootstrap module is repackaged into a Spring Boot jar whose classes sit under
 * {@code BOOT-INF/classes}, where a package scan of the classpath does not find them. The project root is found
 * from Maven's {@code basedir} (Surefire runs with the architecture-tests module as base directory), or from the
 * working directory when a test is started elsewhere, e.g. from the reactor root in an IDE.
 */
public final class ProductionClassLocations implements LocationProvider {

    static final String THIS_MODULE = "architecture-tests";

    private static final Pattern MODULE = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>");
    private static final Path CLASSES = Path.of("target", "classes");

    @Override
    public Set<Location> get(Class<?> testClass) {
        Set<Location> locations = new LinkedHashSet<>();
        classesDirectories(projectRoot()).forEach(directory -> locations.add(Location.of(directory)));
        return locations;
    }

    /** The reactor root: the nearest directory whose {@code pom.xml} lists this module. */
    static Path projectRoot() {
        Path start = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath()
                .normalize();
        for (Path candidate = start; candidate != null; candidate = candidate.getParent()) {
            if (Files.isRegularFile(candidate.resolve("pom.xml")) && modulesOf(candidate).contains(THIS_MODULE)) {
                return candidate;
            }
        }
        throw new IllegalStateException("Cannot find the project root (a pom.xml listing the module "
                + THIS_MODULE + ") from " + start + " or any parent; run the architecture tests with Maven from the "
                + "project, or set -Dbasedir to the architecture-tests module directory");
    }

    /** The production modules of the reactor at {@code projectRoot}, in the order its pom lists them. */
    static List<String> productionModules(Path projectRoot) {
        return modulesOf(projectRoot).stream().filter(module -> !module.equals(THIS_MODULE)).toList();
    }

    /** Each production module's compiled classes, failing with the module's name when one has not been compiled. */
    static List<Path> classesDirectories(Path projectRoot) {
        return productionModules(projectRoot).stream().map(module -> {
            Path directory = projectRoot.resolve(module).resolve(CLASSES);
            if (!Files.isDirectory(directory)) {
                throw new IllegalStateException("Module '" + module + "' has no compiled classes: "
                        + projectRoot.relativize(directory) + " is missing. Build it before the architecture "
                        + "tests, e.g. ./mvnw -pl architecture-tests -am verify");
            }
            return directory;
        }).toList();
    }

    private static List<String> modulesOf(Path projectRoot) {
        Path pom = projectRoot.resolve("pom.xml");
        if (!Files.isRegularFile(pom)) {
            return List.of();
        }
        try {
            Matcher modules = MODULE.matcher(Files.readString(pom));
            return modules.results().map(result -> result.group(1)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
