package dev.bookstore.ordering.bootstrap.local;

import dev.bookstore.ordering.TestOrderingApplication;
import dev.bookstore.ordering.bootstrap.HttpJson;
import java.nio.file.Path;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service started the way a newcomer tries it out ({@code TestOrderingApplication}, what
 * {@code spring-boot:test-run} starts): no profile, no database, no broker; only a data directory of its own
 * (instead of {@code target/local-data}) and a free HTTP port, given on the command line.
 */
final class LocalApp implements AutoCloseable {

    final ConfigurableApplicationContext context;
    final HttpJson http;
    final int port;

    private LocalApp(ConfigurableApplicationContext context) {
        this.context = context;
        this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
        // As the page and the README's examples do: a demo token from the try-out run itself.
        HttpJson anonymous = new HttpJson(port).anonymous();
        this.http = anonymous.as(anonymous.get("/try-out/token").body().strip());
    }

    static LocalApp start(Path dataDirectory) {
        // Command-line arguments, as a user would pass them: they outrank application.yml.
        return new LocalApp(TestOrderingApplication.run(
                "--" + LocalInfrastructurePlan.DATA_DIR_PROPERTY + "=" + dataDirectory,
                "--server.port=0"));
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        context.close();
    }
}
