package dev.bookstore.ordering.architecture;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.springframework.modulith.core.ApplicationModuleDetectionStrategy;
import org.springframework.modulith.core.ApplicationModuleInformation;
import org.springframework.modulith.core.JavaPackage;
import org.springframework.modulith.core.NamedInterfaces;

/**
 * Spring Modulith's application modules of a hexagonal layout. By default Spring Modulith makes every direct
 * sub-package of the application's package a module whose API is that package alone; here the floors are
 * {@code domain}, {@code application}, {@code bootstrap}, and every adapter ({@code adapters.persistence},
 * {@code adapters.web}, any {@code adapters.<name>} added later) is a module of its own. Registered in
 * {@code META-INF/spring.factories}.
 */
public final class HexagonalModuleDetection implements ApplicationModuleDetectionStrategy {

    /** A module's name relative to the root package. */
    static final Pattern MODULE = Pattern.compile("domain|application|bootstrap|adapters\\.[^.]+");

    private static final Pattern ADAPTER = Pattern.compile(".+\\.adapters\\.[^.]+");

    @Override
    public Stream<JavaPackage> getModuleBasePackages(JavaPackage root) {
        return root.getSubPackagesMatching((candidate, trailingName) -> MODULE.matcher(trailingName).matches());
    }

    /**
     * What the core offers the others, by sub-package (a named interface per package, named by it): the domain
     * model, and the application's purposes with their use cases, ports and values. A package not listed is internal:
     * another module that uses it fails {@code ApplicationModules.verify()}.
     */
    static final Map<String, List<String>> EXPOSED = Map.of(
            "domain", List.of("order", "shared"),
            "application", List.of("ordering", "outbox", "idempotency", "summary", "inbox"));

    /** Every package of an adapter is open to the wiring, which constructs adapter classes from any of them. */
    @Override
    public NamedInterfaces detectNamedInterfaces(JavaPackage basePackage, ApplicationModuleInformation information) {
        String name = basePackage.getName();
        NamedInterfaces annotated = NamedInterfaces.discoverNamedInterfaces(basePackage);
        if (ADAPTER.matcher(name).matches()) {
            return annotated.and(NamedInterfaces.builder(basePackage).recursive().including(any -> true).build());
        }
        List<String> exposed = EXPOSED.getOrDefault(name.substring(name.lastIndexOf('.') + 1), List.of());
        return exposed.isEmpty()
                ? annotated
                : annotated.and(NamedInterfaces.builder(basePackage).recursive().matching(exposed).build());
    }
}
