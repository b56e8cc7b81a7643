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
 * When the {@code local} profile starts embedded servers, and when it must not: never in the {@code postgres} or
 * {@code sqlserver} profiles, never for a database or broker whose address is given. No server is started here.
 */
class LocalProfileActivationTest {

    private static final String RELAY_CONTROL_CONTROLLER =
            "dev.bookstore.ordering.bootstrap.web.RelayControlController";

    @TempDir
    Path temp;

    @Test
    void theDefaultLocalProfileWithNothingGivenStartsTheDatabaseAndTheBrokerInTheConfiguredDirectory() {
        MockEnvironment environment = localByDefault()
                .withProperty(LocalInfrastructurePlan.DATA_DIR_PROPERTY, temp.resolve("data").toString());

        LocalInfrastructurePlan plan = LocalInfrastructurePlan.of(environment).orElseThrow();

        assertThat(plan.startDatabase()).isTrue();
        assertThat(plan.startBroker()).isTrue();
        assertThat(plan.dataDirectory()).isEqualTo(temp.resolve("data").toAbsolutePath());
    }

    @Test
    void withoutAConfiguredDirectoryTheDataLivesUnderTargetOfTheWorkingDirectory() {
        LocalInfrastructurePlan plan = LocalInfrastructurePlan.of(localByDefault()).orElseThrow();

        assertThat(plan.dataDirectory()).isEqualTo(Path.of("target", "local-data").toAbsolutePath());
    }

    @Test
    void aGivenDatasourceUrlKeepsTheEmbeddedDatabaseDownButNotTheBroker() {
        MockEnvironment environment = localByDefault()
                .withProperty("spring.datasource.url", "jdbc:postgresql://db.example:5432/ordering");

        LocalInfrastructurePlan plan = LocalInfrastructurePlan.of(environment).orElseThrow();

        assertThat(plan.startDatabase()).isFalse();
        assertThat(plan.startBroker()).isTrue();
    }

    @Test
    void aGivenRabbitHostOrAddressListKeepsTheEmbeddedBrokerDownButAnEmptyHostDoesNot() {
        assertThat(LocalInfrastructurePlan.of(localByDefault().withProperty("spring.rabbitmq.host", "mq.example"))
                .orElseThrow().startBroker()).isFalse();
        assertThat(LocalInfrastructurePlan.of(localByDefault()
                .withProperty("spring.rabbitmq.addresses", "mq1.example:5672,mq2.example:5672"))
                .orElseThrow().startBroker()).isFalse();
        assertThat(LocalInfrastructurePlan.of(localByDefault().withProperty("spring.rabbitmq.host", ""))
                .orElseThrow().startBroker()).isTrue();
    }

    @Test
    void thePostgresAndSqlServerProfilesStartNothingEvenTogetherWithLocal() {
        for (String[] profiles : new String[][] {{"postgres"}, {"sqlserver"}, {"local", "postgres"}}) {
            MockEnvironment environment = new MockEnvironment();
            environment.setActiveProfiles(profiles);

            assertThat(LocalInfrastructurePlan.of(environment)).as(String.join(",", profiles)).isEmpty();
        }
        MockEnvironment local = new MockEnvironment();
        local.setActiveProfiles("local");
        assertThat(LocalInfrastructurePlan.of(local)).isPresent();
    }

    @Test
    void inThePostgresProfileTheInitializerStartsNothingAndTouchesNoDirectory() {
        Path dataDirectory = temp.resolve("must-not-exist");
        GenericApplicationContext context = new GenericApplicationContext();
        context.getEnvironment().setActiveProfiles("postgres");
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test",
                Map.of(LocalInfrastructurePlan.DATA_DIR_PROPERTY, dataDirectory.toString())));

        new LocalInfrastructureInitializer().initialize(context);

        assertThat(context.containsBean(LocalInfrastructureInitializer.NAME)).isFalse();
        assertThat(context.getEnvironment().getPropertySources().contains(LocalInfrastructureInitializer.NAME))
                .isFalse();
        assertThat(dataDirectory).doesNotExist();
    }

    @Test
    void inTheLocalProfileWithDatabaseAndBrokerGivenTheInitializerStartsNothing() {
        Path dataDirectory = temp.resolve("must-not-exist");
        GenericApplicationContext context = new GenericApplicationContext();
        context.getEnvironment().setDefaultProfiles("local");
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                LocalInfrastructurePlan.DATA_DIR_PROPERTY, dataDirectory.toString(),
                "spring.datasource.url", "jdbc:postgresql://db.example:5432/ordering",
                "spring.rabbitmq.host", "mq.example")));

        new LocalInfrastructureInitializer().initialize(context);

        assertThat(context.containsBean(LocalInfrastructureInitializer.NAME)).isFalse();
        assertThat(context.getEnvironment().getProperty("spring.rabbitmq.host")).isEqualTo("mq.example");
        assertThat(dataDirectory).doesNotExist();
    }

    @Test
    void theDemoConsumerAndTheRelayControlExistInTheLocalProfileOnly() throws ClassNotFoundException {
        Class<?> relayControl = Class.forName(RELAY_CONTROL_CONTROLLER);

        assertThat(beanTypesIn("postgres", relayControl)).doesNotContain(
                LocalProfileConfiguration.class.getName(), RELAY_CONTROL_CONTROLLER);
        assertThat(beanTypesIn("sqlserver", relayControl)).doesNotContain(
                LocalProfileConfiguration.class.getName(), RELAY_CONTROL_CONTROLLER);
        assertThat(beanTypesIn("local", relayControl)).contains(
                LocalProfileConfiguration.class.getName(), RELAY_CONTROL_CONTROLLER);
    }

    /** The bean classes registered from the candidates when {@code profile} is active (conditions evaluated). */
    private static List<String> beanTypesIn(String profile, Class<?> relayControl) {
        GenericApplicationContext context = new GenericApplicationContext();
        context.getEnvironment().setActiveProfiles(profile);
        new AnnotatedBeanDefinitionReader(context).register(LocalProfileConfiguration.class, relayControl);
        return Arrays.stream(context.getBeanDefinitionNames())
                .map(name -> context.getBeanDefinition(name).getBeanClassName())
                .filter(Objects::nonNull)
                .toList();
    }

    /** No active profile, {@code local} as the default: what {@code application.yml} sets up. */
    private static MockEnvironment localByDefault() {
        MockEnvironment environment = new MockEnvironment();
        environment.setDefaultProfiles("local");
        return environment;
    }
}
