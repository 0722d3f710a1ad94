package dev.isocheck.hamcrest;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Recording;
import dev.isocheck.history.History;
import java.util.List;
import org.apiguardian.api.API;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.hamcrest.TypeSafeDiagnosingMatcher;

/**
 * Hamcrest matchers on a {@link History}, each checking it at a level, and on the running test's
 * {@link Recording}:
 *
 * <pre>{@code
 * import static dev.isocheck.hamcrest.IsocheckMatchers.*;
 *
 * assertThat(history, is(serializable()));
 * assertThat(history, hasAnomaly(IsolationLevel.SNAPSHOT_ISOLATION, "write skew"));
 * assertThat(recording.history(), is(serializable()));
 * assertThat(recording, hasNothingLeftOut());
 * }</pre>
 *
 * <p>A mismatch is described by isocheck's explanation. A check that cannot decide matches
 * nothing, saying why: it never passes.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class IsocheckMatchers {

    private IsocheckMatchers() {
    }

    /** A history that is serializable. */
    public static Matcher<History> serializable() {
        return satisfies(IsolationLevel.SERIALIZABLE);
    }

    /** A history that satisfies {@code level}. */
    public static Matcher<History> satisfies(IsolationLevel level) {
        return new LevelMatcher(level, true);
    }

    /** A history that violates {@code level}. */
    public static Matcher<History> violates(IsolationLevel level) {
        return new LevelMatcher(level, false);
    }

    /** A history whose violation of serializability shows an anomaly of {@code type}. */
    public static Matcher<History> hasAnomaly(AnomalyType type) {
        return hasAnomaly(IsolationLevel.SERIALIZABLE, type.shortName());
    }

    /** A history whose violation of serializability shows an anomaly named {@code name} ({@link CheckResult#showsAnomaly(String)}). */
    public static Matcher<History> hasAnomaly(String name) {
        return hasAnomaly(IsolationLevel.SERIALIZABLE, name);
    }

    /**
     * A history whose violation of {@code level} shows an anomaly named {@code name}: a type's
     * short name or description, or a familiar name such as {@code write skew}
     * ({@link CheckResult#showsAnomaly(String)}).
     */
    public static Matcher<History> hasAnomaly(IsolationLevel level, String name) {
        return new AnomalyMatcher(level, name);
    }

    /**
     * A test's recording that left nothing out of its history so far: every table the test
     * touched and every statement it ran was modelled. The mismatch lists what was left out.
     */
    public static Matcher<Recording> hasNothingLeftOut() {
        return new TypeSafeDiagnosingMatcher<>() {
            @Override
            protected boolean matchesSafely(Recording recording, Description mismatch) {
                List<String> leftOut = recording.leftOut();
                if (leftOut.isEmpty()) {
                    return true;
                }
                mismatch.appendText("it left out:");
                leftOut.forEach(entry -> mismatch.appendText("\n  " + entry));
                return false;
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("a recording that left nothing out of the check");
            }
        };
    }

    /** Checks the history at one level; an undecided check matches nothing. */
    private abstract static class CheckingMatcher extends TypeSafeDiagnosingMatcher<History> {

        final IsolationLevel level;

        CheckingMatcher(IsolationLevel level) {
            this.level = level;
        }

        @Override
        protected final boolean matchesSafely(History history, Description mismatch) {
            CheckResult result = Isocheck.check(history, level);
            if (result.isUnknown()) {
                mismatch.appendText("the check could not decide: " + result.unknownReason().orElse("unknown"));
                return false;
            }
            return matches(result, history, mismatch);
        }

        /** Whether the decided {@code result} matches; when not, says why in {@code mismatch}. */
        abstract boolean matches(CheckResult result, History history, Description mismatch);

        String satisfied(History history) {
            return "it satisfies " + level.cliName() + " (" + history.size() + " transactions)";
        }

        static String explanation(CheckResult result) {
            return result.explanationText().orElse(String.valueOf(result.verdict()));
        }
    }

    /** Matches by the verdict at one level. */
    private static final class LevelMatcher extends CheckingMatcher {

        private final boolean satisfied;

        LevelMatcher(IsolationLevel level, boolean satisfied) {
            super(level);
            this.satisfied = satisfied;
        }

        @Override
        boolean matches(CheckResult result, History history, Description mismatch) {
            if (result.isSatisfied() == satisfied) {
                return true;
            }
            mismatch.appendText(satisfied ? "it does not:\n" + explanation(result)
                    : satisfied(history));
            return false;
        }

        @Override
        public void describeTo(Description description) {
            description.appendText("a history that " + (satisfied ? "satisfies " : "violates ") + level.cliName());
        }
    }

    /** Matches by an anomaly a violation shows. */
    private static final class AnomalyMatcher extends CheckingMatcher {

        private final String name;

        AnomalyMatcher(IsolationLevel level, String name) {
            super(level);
            this.name = name;
        }

        @Override
        boolean matches(CheckResult result, History history, Description mismatch) {
            if (result.isSatisfied()) {
                mismatch.appendText(satisfied(history));
                return false;
            }
            if (result.showsAnomaly(name)) {
                return true;
            }
            mismatch.appendText("its violation shows " + result.anomaliesShown() + ":\n" + explanation(result));
            return false;
        }

        @Override
        public void describeTo(Description description) {
            description.appendText("a history whose violation of " + level.cliName() + " shows a " + name);
        }
    }
}
