package dev.bookstore.ordering.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import org.yaml.snakeyaml.Yaml;

/**
 * The Kubernetes manifests in {@code deploy/kubernetes} agree with the service's settings in application.yml: the
 * container port is the server's port, the probes ask the health groups the service serves, and the grace period
 * outlasts the whole stop (preStop, the drain, a shutdown phase, the listener executor's wait), so that Kubernetes
 * never kills an instance that is still settling its relay's batch.
 */
class KubernetesManifestsTest {

    private static final Path DEPLOYMENT = Path.of("..", "deploy", "kubernetes", "deployment.yaml");
    private static final Path APPLICATION_YML = Path.of("src", "main", "resources", "application.yml");

    @Test
    void theContainerPortAndTheProbesAreTheServicesOwn() throws IOException {
        Map<String, Object> container = container();
        int serverPort = ((Number) setting("server.port", 8080)).intValue();

        Map<String, Object> port = maps(container.get("ports")).get(0);
        assertThat(port.get("containerPort")).isEqualTo(serverPort);
        assertThat(setting("management.endpoint.health.probes.enabled", false)).isEqualTo(true);
        assertThat(setting("management.server.port", null)).as("probes on the server's port").isNull();
        assertProbe(container, "readinessProbe", "/actuator/health/readiness", port);
        assertProbe(container, "livenessProbe", "/actuator/health/liveness", port);
        assertProbe(container, "startupProbe", "/actuator/health/liveness", port);
    }

    @Test
    void theGracePeriodOutlastsTheWholeStop() throws IOException {
        Map<String, Object> pod = map(map(map(deployment().get("spec")).get("template")).get("spec"));
        Duration grace = Duration.ofSeconds(((Number) pod.get("terminationGracePeriodSeconds")).longValue());
        Duration preStop = Duration.ofSeconds(((Number) map(map(map(container().get("lifecycle")).get("preStop"))
                .get("sleep")).get("seconds")).longValue());

        Duration stop = preStop.plus(duration("ordering.shutdown.drain"))
                .plus(duration("spring.lifecycle.timeout-per-shutdown-phase"))
                .plus(duration("spring.task.execution.shutdown.await-termination-period"));

        assertThat(setting("server.shutdown", null)).isEqualTo("graceful");
        assertThat(preStop).isPositive();
        assertThat(stop).isLessThan(grace);
    }

    @Test
    void aRolloutNeverTakesAReadyPodAwayBeforeItsReplacementIsReady() throws IOException {
        Map<String, Object> rollingUpdate = map(map(map(deployment().get("spec")).get("strategy"))
                .get("rollingUpdate"));

        assertThat(rollingUpdate.get("maxUnavailable")).isEqualTo(0);
        assertThat(rollingUpdate.get("maxSurge")).isEqualTo(1);
    }

    private static void assertProbe(Map<String, Object> container, String probe, String path,
                                    Map<String, Object> port) {
        Map<String, Object> get = map(map(container.get(probe)).get("httpGet"));
        assertThat(get.get("path")).as(probe).isEqualTo(path);
        assertThat(get.get("port")).as(probe).isIn(port.get("name"), port.get("containerPort"));
    }

    private static Map<String, Object> deployment() throws IOException {
        return documents(DEPLOYMENT).stream().filter(doc -> "Deployment".equals(doc.get("kind"))).findFirst()
                .orElseThrow();
    }

    private static Map<String, Object> container() throws IOException {
        Map<String, Object> pod = map(map(map(deployment().get("spec")).get("template")).get("spec"));
        return maps(pod.get("containers")).get(0);
    }

    /** A setting of application.yml's default document, by its dotted name. */
    private static Object setting(String name, Object otherwise) throws IOException {
        Object node = documents(APPLICATION_YML).get(0);
        for (String key : name.split("\\.")) {
            if (!(node instanceof Map<?, ?> map) || !map.containsKey(key)) {
                return otherwise;
            }
            node = map.get(key);
        }
        return node;
    }

    private static Duration duration(String name) throws IOException {
        Object value = setting(name, null);
        assertThat(value).as(name).isNotNull();
        return DurationStyle.detectAndParse(value.toString());
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> documents(Path file) throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file)) {
            for (Object document : new Yaml().loadAll(reader)) {
                documents.add((Map<String, Object>) document);
            }
        }
        return documents;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node) {
        assertThat(node).isInstanceOf(Map.class);
        return (Map<String, Object>) node;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> maps(Object node) {
        assertThat(node).isInstanceOf(List.class);
        return (List<Map<String, Object>>) node;
    }
}
