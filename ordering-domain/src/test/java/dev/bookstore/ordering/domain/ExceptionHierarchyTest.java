package dev.bookstore.ordering.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.domain.order.InvalidOrderException;
import dev.bookstore.ordering.domain.order.OrderCannotBeCancelledException;
import dev.bookstore.ordering.domain.shared.InvalidMoneyException;
import dev.bookstore.ordering.domain.shared.OrderingException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ExceptionHierarchyTest {

    /**
     * Scans the compiled domain classes rather than listing them, so that a new exception that forgets the
     * common root fails here.
     */
    @Test
    void everyExceptionOfTheDomainExtendsOrderingException() throws Exception {
        List<Class<?>> exceptions = domainClasses().stream()
                .filter(Throwable.class::isAssignableFrom)
                .filter(type -> type != OrderingException.class)
                .toList();

        assertThat(exceptions).contains(InvalidMoneyException.class, InvalidOrderException.class,
                OrderCannotBeCancelledException.class);
        assertThat(exceptions).allSatisfy(type -> assertThat(type).isAssignableTo(OrderingException.class));
    }

    private static List<Class<?>> domainClasses() throws IOException, URISyntaxException {
        Path root = Path.of(OrderingException.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(root).isDirectory();
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(file -> file.toString().endsWith(".class"))
                    .map(file -> root.relativize(file).toString())
                    .map(name -> name.substring(0, name.length() - ".class".length())
                            .replace(root.getFileSystem().getSeparator(), "."))
                    .filter(name -> name.startsWith("dev.bookstore.ordering.domain."))
                    .map(ExceptionHierarchyTest::load)
                    .toList();
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, ExceptionHierarchyTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
