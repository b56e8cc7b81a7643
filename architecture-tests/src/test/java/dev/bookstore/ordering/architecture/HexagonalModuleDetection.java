package dev.bookstore.ordering.architecture;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.springframework.modulith.core.ApplicationModuleDetectionStrategy;
import org.springframework.modulith.core.ApplicationModuleInformation;
import org.springframework.modulith.core.JavaPackage;
import org.springframework.modulith.core.NamedInterfaces;

/**
 * Spring Modulith's application modules of a hexagonal layout. By default Spring Modulith makes every direct
 * sub-package of the application's package a module whose API is that package alone; here the floors are
 * {@code domain}, {@code application}, {@code bootstrap}, and each adapter ({@code adapters.persistence},
 * {@code adapters.messaging}) is a module of its own. Registered in {@code META-INF/spring.factories}.
 */
public final class HexagonalModuleDetection implements ApplicationModuleDetectionStrategy {

    static final List<String> MODULES = List.of("domain", "application", "adapters.persistence",
            "adapters.messaging", "bootstrap");

    @Override
    public Stream<JavaPackage> getModuleBasePackages(JavaPackage root) {
        return MODULES.stream().map(module -> root.getSubPackagesMatching((candidate, trailing) ->
                        Objects.equals(candidate.getName(), root.getName() + "." + module)).findFirst().orElse(null))
                .filter(Objects::nonNull);
    }

    /**
     * What each module offers the others, by sub-package (a named interface per package, named by it): the domain
     * model; the application's ports, their values and the factory of its use cases; the adapters' classes that the
     * bootstrap wires. Everything else in a module is internal: another module that uses it fails
     * {@code ApplicationModules.verify()}.
     */
    static final Map<String, List<String>> EXPOSED = Map.of(
            "domain", List.of("order", "shared"),
            "application", List.of("port.in", "port.out", "outbox", "idempotency", "summary", "service"),
            "adapters.persistence", List.of("outbox", "inbox", "modulith"),
            "adapters.messaging", List.of("outbound", "inbound"),
            "bootstrap", List.of());

    @Override
    public NamedInterfaces detectNamedInterfaces(JavaPackage basePackage, ApplicationModuleInformation information) {
        String module = MODULES.stream().filter(name -> basePackage.getName().endsWith("." + name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("not a module of this layout: " + basePackage));
        List<String> exposed = EXPOSED.get(module);
        if (exposed.isEmpty()) {
            return NamedInterfaces.discoverNamedInterfaces(basePackage);
        }
        return NamedInterfaces.discoverNamedInterfaces(basePackage)
                .and(NamedInterfaces.builder(basePackage).recursive().matching(exposed).build());
    }
}
