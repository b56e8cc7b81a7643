package dev.bookstore.ordering.bootstrap.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every figure is stated once: the README's headline table only quotes the page that holds the run. Each row's
 * figures must appear, written the same way, in the section of {@code docs/} that the row links to, so a rerun that
 * replaces a figure there and not in the README (or the other way round) fails the build.
 *
 * <p>A headline row is a row of the README's "Benchmarks" section whose last cell is one link into {@code docs/}:
 * {@code | measure | 18.5 ms; 31.0 ms | [API](docs/benchmarks.md#api) |}. Its figures are the numbers of the
 * second cell; the linked section runs from the heading whose GitHub anchor the link names to the next heading of
 * the same or a higher level.
 */
class HeadlineFiguresTest {

    private static final String README = "README.md";
    private static final Pattern HEADLINE_ROW =
            Pattern.compile("^\\|[^|]+\\|([^|]+)\\|\\s*\\[[^\\]]+]\\((docs/[^)#]+\\.md)#([a-z0-9-]+)\\)\\s*\\|\\s*$");
    private static final Pattern SEPARATOR_ROW = Pattern.compile("^\\|[-:| ]+\\|$");
    private static final Pattern FIGURE = Pattern.compile("(?<![\\d.,])\\d+(?:,\\d{3})*(?:\\.\\d+)?(?!\\d)");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*)$");

    @Test
    void everyHeadlineFigureOfTheReadmeIsStatedSoInTheSectionItLinksTo() throws IOException {
        List<HeadlineRow> rows = headlineRows();
        assertThat(rows).as("headline rows of the README's Benchmarks section (| measure | figure | [run](docs/…#…) |)")
                .hasSizeGreaterThanOrEqualTo(5);

        List<String> disagreements = new ArrayList<>();
        for (HeadlineRow row : rows) {
            String section = section(row.page(), row.anchor());
            List<String> stated = figures(section);
            for (String figure : figures(row.figures())) {
                if (!stated.contains(figure)) {
                    disagreements.add("%s in \"%s\" is not stated in %s#%s".formatted(
                            figure, row.figures().trim(), row.page(), row.anchor()));
                }
            }
        }
        assertThat(disagreements)
                .as("figures of the README's headline table that the page they link to does not state: rerun figures "
                        + "are replaced on the page that holds the run and quoted unchanged in the README")
                .isEmpty();
    }

    @Test
    void aFigureIsAWholeNumberAsWritten() {
        assertThat(figures("6,316; 0.97 and 18.5 ms, p99 (200/s), 2.35 ms: 1.50")).containsExactly(
                "6,316", "0.97", "18.5", "99", "200", "2.35", "1.50");
        assertThat(figures("31.0 ms")).doesNotContain("31");
        assertThat(figures("1,216 requests")).containsExactly("1,216");
    }

    @Test
    void anAnchorIsGitHubsSlugOfTheHeading() {
        assertThat(anchor("The outbox's cost against a plain dual-write service"))
                .isEqualTo("the-outboxs-cost-against-a-plain-dual-write-service");
        assertThat(anchor("Start-up and warm-up: an AOT cache on JDK 25, class data sharing on Java 17"))
                .isEqualTo("start-up-and-warm-up-an-aot-cache-on-jdk-25-class-data-sharing-on-java-17");
    }

    private record HeadlineRow(String figures, String page, String anchor) {
    }

    /** The body rows of the table in the README's "Benchmarks" section; each must link into {@code docs/}. */
    private static List<HeadlineRow> headlineRows() throws IOException {
        List<String> lines = section(README, "benchmarks").lines().toList();
        List<HeadlineRow> rows = new ArrayList<>();
        List<String> unlinked = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            boolean header = i + 1 < lines.size() && SEPARATOR_ROW.matcher(lines.get(i + 1)).matches();
            if (!line.startsWith("|") || header || SEPARATOR_ROW.matcher(line).matches()) {
                continue;
            }
            Matcher row = HEADLINE_ROW.matcher(line);
            if (row.matches()) {
                rows.add(new HeadlineRow(row.group(1), row.group(2), row.group(3)));
            } else {
                unlinked.add(line);
            }
        }
        assertThat(unlinked).as("rows of the README's headline table without a last cell linking to the section of "
                + "docs/ that holds their run: | measure | figure | [run](docs/page.md#section) |").isEmpty();
        return rows;
    }

    /** The text from the heading with this anchor to the next heading of its level or above, fenced code included. */
    private static String section(String document, String anchor) throws IOException {
        List<String> lines = Files.readAllLines(RepositoryFiles.file(document));
        StringBuilder section = new StringBuilder();
        int level = 0;
        boolean inFence = false;
        for (String line : lines) {
            if (line.startsWith("```")) {
                inFence = !inFence;
            }
            Matcher heading = inFence ? null : HEADING.matcher(line);
            if (heading != null && heading.matches()) {
                int depth = heading.group(1).length();
                if (level > 0 && depth <= level) {
                    break;
                }
                if (level == 0 && anchor(heading.group(2)).equals(anchor)) {
                    level = depth;
                }
            }
            if (level > 0) {
                section.append(line).append('\n');
            }
        }
        assertThat(level).as("a heading in %s whose anchor is #%s", document, anchor).isPositive();
        return section.toString();
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    private static String anchor(String heading) {
        return heading.trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    private static List<String> figures(String text) {
        List<String> figures = new ArrayList<>();
        Matcher figure = FIGURE.matcher(text);
        while (figure.find()) {
            figures.add(figure.group());
        }
        return figures;
    }
}
