package dev.bookstore.ordering.bootstrap.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.bootstrap.HttpJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The live outbox page in a real browser (the machine's headless Chromium): place an order through the form,
 * see it listed and counted as published, pause the relay and watch the backlog stay, resume and watch it drain.
 * Skipped, with the reason, where Chromium or chromedriver is not installed.
 */
class OutboxPageIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOT = Path.of("target", "outbox-page.png");
    private static final Path SCREENSHOT_PAUSED = Path.of("target", "outbox-page-paused.png");
    private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    static Path temp;

    private static LocalApp app;
    private static WebDriver browser;

    @BeforeAll
    static void startServiceAndBrowser() throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                () -> "No headless browser: " + CHROMIUM + " and " + CHROMEDRIVER + " are needed "
                        + "(Debian packages chromium and chromium-driver)");
        app = LocalApp.start(temp.resolve("data"));

        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1280,1000",
                "--user-data-dir=" + Files.createDirectories(temp.resolve("chromium-profile")));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void stopBrowserAndService() {
        if (browser != null) {
            browser.quit();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aNewcomerPlacesAnOrderPausesTheRelayWatchesTheBacklogAndSeesItDrain() throws IOException {
        browser.get(app.baseUrl() + "/");
        await().atMost(PAGE_TIMEOUT).until(() -> count("pending") == 0 && count("published") == 0);
        // the outbox health component, from the same snapshot as the counts
        await().atMost(PAGE_TIMEOUT).until(() -> text("health").equals("up"));
        assertThat(text("relay-state")).isEqualTo("relay publishing");
        assertThat(rows()).isEmpty();

        // 1. an order through the form: listed, published, received by the demo consumer
        click("place-order");
        await().atMost(PAGE_TIMEOUT).until(() -> text("form-message").contains("placed (201 Created)"));
        await().atMost(PAGE_TIMEOUT).until(() -> rows().size() == 1);
        String firstOrder = newestOrderId();
        assertThat(app.http.get("/orders/" + firstOrder).status()).isEqualTo(200);
        await().atMost(PAGE_TIMEOUT).until(() -> count("published") == 1 && count("pending") == 0);
        await().atMost(PAGE_TIMEOUT).until(() -> count("received") == 1);

        // 2. relay paused: the API still takes the order, the message stays pending
        click("relay-toggle");
        await().atMost(PAGE_TIMEOUT).until(() -> text("relay-state").equals("relay paused"));
        assertThat(app.http.get("/outbox/relay").json().get("paused").asBoolean()).isTrue();
        click("place-order");
        await().atMost(PAGE_TIMEOUT).until(() -> rows().size() == 2 && count("pending") == 1);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6)).until(() -> count("pending") >= 1);
        assertThat(count("published")).isEqualTo(1);
        assertThat(newestOrderId()).isNotEqualTo(firstOrder);
        assertThat(browser.findElement(By.id("pending-line")).getAttribute("points")).isNotBlank();
        saveScreenshot(SCREENSHOT_PAUSED);

        // 3. relay resumed: the backlog drains
        click("relay-toggle");
        await().atMost(PAGE_TIMEOUT).until(() -> text("relay-state").equals("relay publishing"));
        await().atMost(PAGE_TIMEOUT).until(() -> count("pending") == 0 && count("published") == 2);
        await().atMost(PAGE_TIMEOUT).until(() -> count("received") == 2);
        HttpJson.Response stats = app.http.get("/outbox/stats");
        assertThat(stats.json().get("published").asLong()).isEqualTo(2);
        saveScreenshot(SCREENSHOT);
        assertThat(SCREENSHOT).isNotEmptyFile();
    }

    private static void click(String id) {
        browser.findElement(By.id(id)).click();
    }

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText().trim();
    }

    /** The number shown in the element, or -1 while it shows none (before the first refresh). */
    private static long count(String id) {
        try {
            return Long.parseLong(text(id));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static List<WebElement> rows() {
        return browser.findElements(By.cssSelector("#orders tbody tr"));
    }

    /** Read in one script: the page replaces its rows every second, so a row element may go stale meanwhile. */
    private static String newestOrderId() {
        return (String) ((JavascriptExecutor) browser).executeScript(
                "const row = document.querySelector('#orders tbody tr'); return row ? row.dataset.orderId : null;");
    }

    private static void saveScreenshot(Path target) throws IOException {
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.createDirectories(target.toAbsolutePath().getParent());
        Files.copy(shot, target, StandardCopyOption.REPLACE_EXISTING);
    }
}
