package dev.isocheck.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExcerptTests {

    @Test
    void shortTextIsShownWhole() {
        assertThat(Excerpt.of("a".repeat(Excerpt.LIMIT))).isEqualTo("a".repeat(Excerpt.LIMIT));
    }

    @Test
    void longTextIsCutAndTheRestCounted() {
        assertThat(Excerpt.of("a".repeat(10_000_000))).isEqualTo("a".repeat(200) + "… (9,999,800 more characters)");
        assertThat(Excerpt.of("abcdef", 3, s -> "[" + s + "]")).isEqualTo("[abc]… (3 more characters)");
    }

    @Test
    void aSurrogatePairIsNeverCut() {
        String text = "ab\uD83D\uDE00cd";
        assertThat(Excerpt.of(text, 3, s -> s)).isEqualTo("ab… (4 more characters)");
        assertThat(Excerpt.of(text, 4, s -> s)).isEqualTo("ab\uD83D\uDE00… (2 more characters)");
    }
}
