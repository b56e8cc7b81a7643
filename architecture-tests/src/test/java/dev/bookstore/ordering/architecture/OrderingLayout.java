package dev.bookstore.ordering.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import java.util.Objects;

/**
 * Where each part of the service lives, relative to a root package, and how the roles inside the application are
 * recognised. The application is grouped by purpose ({@code application.ordering}, {@code application.outbox.relay},
 * ...), so a role is told by name and kind, not by package: a use case is an interface named {@code *UseCase} or
 * {@code *Query}, a service a class named {@code *Service}, and every other interface of the application is a driven
 * port, implemented by an adapter or by bootstrap. Every {@code adapters.<name>} package is an adapter of its own.
 */
final class OrderingLayout {

    final String root;
    final String domain;
    final String application;
    /** Every adapter, and nothing directly in {@code adapters}: {@code adapters.<name>} and below. */
    final String anyAdapter;
    /** One slice per adapter, named by the package under {@code adapters}. */
    final String adapterSlices;
    final String adapters;
    final String web;
    final String persistence;
    final String messaging;
    /** The CDC relay's adapter: the only place Debezium and Kafka Connect are used. */
    final String cdc;
    /** The library a consuming service adds (ordering-consumer-inbox): knows nothing of the service itself. */
    final String consumer;
    /** The bootstrap module: the application class in the root package itself, and {@code bootstrap..}. */
    final String[] bootstrap;
    /** Bootstrap's wiring: the only bootstrap package that knows adapter classes and constructs services. */
    final String wiring;
    final String domainEvent;

    final DescribedPredicate<JavaClass> useCase;
    final DescribedPredicate<JavaClass> service;
    final DescribedPredicate<JavaClass> drivenPort;

    OrderingLayout(String root) {
        this.root = Objects.requireNonNull(root, "root");
        this.domain = root + ".domain..";
        this.application = root + ".application..";
        this.adapters = root + ".adapters..";
        this.anyAdapter = root + ".adapters.*..";
        this.adapterSlices = root + ".adapters.(*)..";
        this.web = root + ".adapters.web..";
        this.persistence = root + ".adapters.persistence..";
        this.messaging = root + ".adapters.messaging..";
        this.cdc = root + ".adapters.cdc..";
        this.consumer = root + ".consumer..";
        this.bootstrap = new String[] {root, root + ".bootstrap.."};
        this.wiring = root + ".bootstrap.config..";
        this.domainEvent = root + ".domain.shared.DomainEvent";

        String applicationPackage = root + ".application";
        this.useCase = DescribedPredicate.describe("use cases (interfaces of the application named *UseCase or *Query)",
                javaClass -> javaClass.isInterface() && isInPackageOrBelow(javaClass, applicationPackage)
                        && isUseCaseName(javaClass.getSimpleName()));
        this.service = DescribedPredicate.describe("services (classes of the application named *Service)",
                javaClass -> !javaClass.isInterface() && isInPackageOrBelow(javaClass, applicationPackage)
                        && javaClass.getSimpleName().endsWith("Service"));
        this.drivenPort = DescribedPredicate.describe("driven ports (the other interfaces of the application)",
                javaClass -> javaClass.isInterface() && isInPackageOrBelow(javaClass, applicationPackage)
                        && !isUseCaseName(javaClass.getSimpleName()));
    }

    boolean isBootstrap(JavaClass javaClass) {
        return javaClass.getPackageName().equals(root) || isInPackageOrBelow(javaClass, root + ".bootstrap");
    }

    /** The adapter of a class in {@code adapters.<name>..}: {@code <root>.adapters.<name>}; else its package. */
    String adapterOf(JavaClass javaClass) {
        String adaptersPackage = root + ".adapters";
        if (!isAdapter(javaClass)) {
            return javaClass.getPackageName();
        }
        String rest = javaClass.getPackageName().substring(adaptersPackage.length() + 1);
        int dot = rest.indexOf('.');
        return adaptersPackage + "." + (dot < 0 ? rest : rest.substring(0, dot));
    }

    boolean isAdapter(JavaClass javaClass) {
        return javaClass.getPackageName().startsWith(root + ".adapters.");
    }

    static boolean isInPackageOrBelow(JavaClass javaClass, String packageName) {
        String name = javaClass.getPackageName();
        return name.equals(packageName) || name.startsWith(packageName + ".");
    }

    private static boolean isUseCaseName(String simpleName) {
        return simpleName.endsWith("UseCase") || simpleName.endsWith("Query");
    }
}
