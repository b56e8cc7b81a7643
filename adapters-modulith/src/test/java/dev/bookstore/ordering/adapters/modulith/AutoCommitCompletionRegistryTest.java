package dev.bookstore.ordering.adapters.modulith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.modulith.events.core.DefaultEventPublicationRegistry;
import org.springframework.modulith.events.core.EventPublicationRepository;

/** Which registry the service runs with: this one only where completing a publication is one {@code DELETE}. */
class AutoCommitCompletionRegistryTest {

    private final EventPublicationRepository repository = mock(EventPublicationRepository.class);
    private final DefaultEventPublicationRegistry springModulithsOwn =
            new DefaultEventPublicationRegistry(repository, Clock.systemUTC());

    @Test
    void replacesSpringModulithsRegistryWhereCompletionDeletes() {
        Object registry = replacer("delete").postProcessBeforeInitialization(springModulithsOwn, "registry");

        assertThat(registry).isInstanceOf(AutoCommitCompletionRegistry.class);
    }

    @Test
    void leavesSpringModulithsRegistryInAnyOtherCompletionMode() {
        for (String mode : new String[] {"update", "archive"}) {
            assertThat(replacer(mode).postProcessBeforeInitialization(springModulithsOwn, "registry")).as(mode)
                    .isSameAs(springModulithsOwn);
        }
    }

    @Test
    void leavesEveryOtherBeanAlone() {
        Object other = new Object();

        assertThat(replacer("delete").postProcessBeforeInitialization(other, "other")).isSameAs(other);
    }

    private BeanPostProcessor replacer(String completionMode) {
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("repository", repository);
        // as in the service: Boot's conversion, which reads the mode as written in application.yml
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.modulith.events.completion-mode", completionMode);
        environment.setConversionService(new ApplicationConversionService());
        return AutoCommitCompletionRegistry.inPlaceOfSpringModulithsRegistry(
                beans.getBeanProvider(EventPublicationRepository.class), beans.getBeanProvider(Clock.class),
                environment);
    }
}
