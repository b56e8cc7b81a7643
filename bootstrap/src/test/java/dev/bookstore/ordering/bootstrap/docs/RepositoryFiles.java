package dev.bookstore.ordering.bootstrap.docs;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the repository (the README, the pages under {@code docs/}) for the tests that check the docs. */
public final class RepositoryFiles {

    private RepositoryFiles() {
    }

    /** A file of the repository, found from the module's directory (Maven runs tests there) upwards. */
    public static Path file(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(relative);
            if (Files.isRegularFile(candidate) && Files.isRegularFile(dir.resolve("mvnw"))) {
                return candidate;
            }
        }
        throw new IllegalStateException(relative + " not found in the repository above " + Path.of("").toAbsolutePath());
    }
}
