package dev.isocheck.hamcrest;

import static dev.isocheck.hamcrest.IsocheckMatchers.hasAnomaly;
import static dev.isocheck.hamcrest.IsocheckMatchers.satisfies;
import static dev.isocheck.hamcrest.IsocheckMatchers.serializable;
import static dev.isocheck.hamcrest.IsocheckMatchers.violates;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationLevel;
import dev.isocheck.SampleHistories;
import org.junit.jupiter.api.Test;

/** The Hamcrest matchers: what matches, and how a mismatch reads in "Expected: … but: …". */
class IsocheckMatchersTests {

    @Test
    void matchesAsTheChecksSay() {
        assertThat(SampleHistories.serial(), is(serializable()));
        assertThat(SampleHistories.writeSkew(), satisfies(IsolationLevel.SNAPSHOT_ISOLATION));
        assertThat(SampleHistories.writeSkew(), violates(IsolationLevel.SERIALIZABLE));
        assertThat(SampleHistories.writeSkew(), not(serializable()));
        assertThat(SampleHistories.writeSkew(), hasAnomaly("write skew"));
        assertThat(SampleHistories.writeSkew(), hasAnomaly(AnomalyType.G2_ITEM));
        assertThat(SampleHistories.serial(), not(hasAnomaly("write skew")));
    }

    @Test
    void aMismatchIsDescribedByTheExplanation() {
        assertThatThrownBy(() -> assertThat(SampleHistories.writeSkew(), is(serializable())))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected: is a history that satisfies serializable")
                .hasMessageContaining("but: it does not:")
                .hasMessageContaining("G2-item (write skew) at serializable");
        assertThatThrownBy(() -> assertThat(SampleHistories.writeSkew(), hasAnomaly("lost update")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected: a history whose violation of serializable shows a lost update")
                .hasMessageContaining("but: its violation shows [");
    }
}
