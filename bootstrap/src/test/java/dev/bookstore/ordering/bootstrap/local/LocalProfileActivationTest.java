package dev.bookstore.ordering.bootstrap.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.annotation.AnnotatedBeanDefinitionReader;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.mock.env.MockEnvironment;

/**
 * When the try-out run starts embedded servers, and when it must not: never for a database or broker whose
 * address is given. Its demo consumer and relay control exist in its {@code tryout} profile only, so the tests
 * that start the service themselves never get them. No server is started here.
 */
class LocalProfileActivationTest {

    @TempDir
    Path temp;

    @Test
    void withNothingGivenTheTryOutRunStartsTheDatabaseAndTheBrokerInTheConfiguredDirectory() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty(LocalInfrastructurePlan.DATA_DIR_PROPERTY, temp.resolve("data").toString());

        LocalInfrastructurePlan plan = LocalInfrastructurePlan.of(environment);

        assertThat(plan.startDatabase()).isTrue();
        assertThat(plan.startBroker()).isTrue();
        assertThat(plan.dataDirectory()).isEqualTo(temp.resolve("data").toAbsolutePath());
    }

    @Test
    void withoutAConfiguredDirectoryTheDataLivesUnderTargetOfTheWorkingDirectory() {
        LocalInfrastructurePlan plan = LocalInfrastructurePlan.of(new MockEnvironment());

        assertThat(plan.dataDirectory()).isEqualTo(Path.of("target", "local-data").toAbsolutePath());
    }

    @Test
    void aGivenDatasourceUrlKeepsTheEmbeddedDatabaseDownButNotTheBroker() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.datasource.url", "jdbc:postgresql://db.example:5432/ordering");

        LocalInfrastructurePlan plan = LocalInfrastructurePlan.of(environment);

        assertThat(plan.startDatabase()).isFalse();
        assertThat(plan.startBroker()).isTrue();
    }

    @Test
    void aGivenRabbitHostOrAddressListKeepsTheEmbeddedBrokerDownButAnEmptyHostDoesNot() {
        assertThat(LocalInfrastructurePlan.of(new MockEnvironment().withProperty("spring.rabbitmq.host", "mq.example"))
                .startBroker()).isFalse();
        assertThat(LocalInfrastructurePlan.of(new MockEnvironment()
                .withProperty("spring.rabbitmq.addresses", "mq1.example:5672,mq2.example:5672"))
                .startBroker()).isFalse();
        assertThat(LocalInfrastructurePlan.of(new MockEnvironment().withProperty("spring.rabbitmq.host", ""))
                .startBroker()).isTrue();
    }

    @Test
    void withDatabaseAndBrokerGivenTheInitializerStartsNothingAndTouchesNoDirectory() {
        Path dataDirectory = temp.resolve("must-not-exist");
        GenericApplicationContext context = new GenericApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                LocalInfrastructurePlan.DATA_DIR_PROPERTY, dataDirectory.toString(),
                "spring.datasource.url", "jdbc:postgresql://db.example:5432/ordering",
                "spring.rabbitmq.host", "mq.example")));

        new LocalInfrastructureInitializer().initialize(context);

        assertThat(context.containsBean(LocalInfrastructureInitializer.NAME)).isFalse();
        assertThat(context.getEnvironment().getPropertySources().contains(LocalInfrastructureInitializer.NAME))
                .isFalse();
        assertThat(context.getEnvironment().getProperty("spring.rabbitmq.host")).isEqualTo("mq.example");
        assertThat(dataDirectory).doesNotExist();
    }

    @Test
    void theDemoConsumerAndTheRelayControlExistInTheTryOutProfileOnly() {
        assertThat(beanTypesIn()).doesNotContain(
                TryOutConfiguration.class.getName(), RelayControlController.class.getName());
        assertThat(beanTypesIn("postgres")).doesNotContain(
                TryOutConfiguration.class.getName(), RelayControlController.class.getName());
        assertThat(beanTypesIn(TryOutConfiguration.PROFILE)).contains(
                TryOutConfiguration.class.getName(), RelayControlController.class.getName());
    }

    /** The bean classes registered from the candidates with {@code profiles} active (conditions evaluated). */
    private static List<String> beanTypesIn(String... profiles) {
        GenericApplicationContext context = new GenericApplicationContext();
        context.getEnvironment().setActiveProfiles(profiles);
        new AnnotatedBeanDefinitionReader(context).register(TryOutConfiguration.class, RelayControlController.class);
        return Arrays.stream(context.getBeanDefinitionNames())
                .map(name -> context.getBeanDefinition(name).getBeanClassName())
                .filter(Objects::nonNull)
                .toList();
    }
}
