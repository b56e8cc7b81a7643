package dev.bookstore.ordering.adapters.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/** The firewall's header rules answer exactly as Spring Security's own, only faster for printable ASCII. */
class PrintableAsciiHeadersTest {

    @Test
    void printableAsciiAndTabsInValuesAreAllowedControlsAreNot() {
        assertThat(PrintableAsciiHeaders.values().test("Bearer eyJ.abc~ \t!")).isTrue();
        assertThat(PrintableAsciiHeaders.names().test("Authorization")).isTrue();
        assertThat(PrintableAsciiHeaders.names().test("X\tY")).isFalse();
        assertThat(PrintableAsciiHeaders.values().test("a\nb")).isFalse();
        assertThat(PrintableAsciiHeaders.values().test("a\u007fb")).isFalse();
        assertThat(PrintableAsciiHeaders.values().test("caf\u00e9")).isTrue();
        assertThat(PrintableAsciiHeaders.values().test("a\u0085b")).isFalse();
    }

    /** Generated strings over ASCII, controls, Latin-1, unassigned code points and surrogates; seeded. */
    @Test
    void generatedNamesAndValuesGetSpringsAnswer() {
        Random random = new Random(20261204L);
        String edges = "\t\n\r\u0000\u001f\u007f\u0080\u0085\u009f\u00a0\u00e9\u0378\ufffe\uffff\ud800\udc00\ud83d";
        List<String> disagreements = new ArrayList<>();
        for (int n = 0; n < 50_000; n++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(16);
            for (int i = 0; i < length; i++) {
                s.append(random.nextInt(5) == 0 ? edges.charAt(random.nextInt(edges.length()))
                        : (char) (' ' + random.nextInt(95)));
            }
            String value = s.toString();
            if (disagree(PrintableAsciiHeaders.names(), StrictHttpFirewall.ALLOWED_HEADER_NAMES, value)
                    || disagree(PrintableAsciiHeaders.values(), StrictHttpFirewall.ALLOWED_HEADER_VALUES, value)) {
                disagreements.add(value);
            }
        }
        assertThat(disagreements).isEmpty();
    }

    @Test
    void theFirewallStillRejectsAControlCharacterInAHeader() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/orders");
        request.addHeader("X-Evil", "a\u0000b");
        var firewalled = PrintableAsciiHeaders.firewall().getFirewalledRequest(request);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> firewalled.getHeader("X-Evil"))
                .isInstanceOf(RequestRejectedException.class);
    }

    private static boolean disagree(Predicate<String> ours, Predicate<String> springs, String value) {
        return ours.test(value) != springs.test(value);
    }
}
