package dev.isocheck.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Printable: names made safe for a terminal, echoes bounded")
class PrintableTests {

    @ParameterizedTest(name = "U+{0}")
    @CsvSource({"0000", "0007", "0008", "000b", "000c", "001b", "007f", "0080", "0085", "009b", "009f", "061c", "200e",
        "200f", "202a", "202b", "202c", "202d", "202e", "2066", "2067", "2068", "2069", "2028", "2029", "d800", "dfff"})
    void controlsBidiControlsSeparatorsAndLoneSurrogatesAreWrittenAsEscapes(String hex) {
        char c = (char) Integer.parseInt(hex, 16);

        assertThat(Printable.escape("a" + c + "b")).isEqualTo("a\\u" + hex + "b");
    }

    @Test
    void lineEndsAndTabsHaveShortEscapes() {
        assertThat(Printable.escape("T1\nb.jsonl: OK\r\t")).isEqualTo("T1\\nb.jsonl: OK\\r\\t");
    }

    @Test
    void everythingElseStaysAsItIs() {
        String text = "é ü ß 東京 ﷺ \uD83D\uDE00 \u200D \u00A0 \\n \"quoted\" {\"json\":1}";

        assertThat(Printable.escape(text)).isSameAs(text);
    }

    @Test
    void aSurrogatePairIsKeptAndHalfOfOneIsNot() {
        assertThat(Printable.escape("\uD83D\uDE00\uD83D")).isEqualTo("\uD83D\uDE00\\ud83d");
        assertThat(Printable.escape("\uDE00\uD83D\uDE00")).isEqualTo("\\ude00\uD83D\uDE00");
    }

    @Test
    void escapingTwiceChangesNothingMore() {
        String once = Printable.escape("a\n\u001b[31m\u202e");

        assertThat(Printable.escape(once)).isEqualTo(once);
    }

    @Test
    void aLongTextIsCutAndSaysHowMuchWasLeftOut() {
        assertThat(Printable.bounded("abcdef", 6)).isEqualTo("abcdef");
        assertThat(Printable.bounded("abcdefgh", 6)).isEqualTo("abcdef… (2 more characters)");
        assertThat(Printable.bounded("x".repeat(10_000_000), 200)).isEqualTo("x".repeat(200) + "… (9,999,800 more characters)");
        // Never half a pair.
        assertThat(Printable.bounded("ab\uD83D\uDE00cd", 3)).isEqualTo("ab… (4 more characters)");
        assertThat(Printable.echo("\n".repeat(300))).isEqualTo("\\n".repeat(200) + "… (100 more characters)");
    }
}
