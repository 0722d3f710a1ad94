package dev.isocheck.internal.text;

import java.util.Collection;
import java.util.Optional;

/**
 * The known name that an unknown one looks like a slip of: a configuration key
 * ({@code isocheck.levle}) or a history file's field ({@code "stauts"}).
 */
public final class NearestName {

    /** Edits at most for a slip: more, and the suggestion is a guess that misleads more than it helps. */
    private static final int MAX_EDITS = 2;
    /** Both names at least this long before one being a longer spelling of the other counts. */
    private static final int MIN_PREFIX = 3;

    private NearestName() {
    }

    /**
     * The known name {@code name} is nearest to, when it looks like a slip of it: at most two
     * edits away (a letter inserted, deleted or replaced, or two neighbours swapped), and fewer
     * edits than the known name has letters ({@code "x"} is no slip of {@code "id"}); or, failing
     * that, one of the two a longer spelling of the other ({@code report.directory} for
     * {@code report.dir}). Of equally near names the first in {@code known}'s order; empty when
     * none is near.
     */
    public static Optional<String> of(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            // Lengths further apart than a slip's edits need no table (and a name of megabytes none).
            int d = Math.abs(name.length() - candidate.length()) > MAX_EDITS ? Integer.MAX_VALUE : distance(name, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        if (best != null && bestDistance <= MAX_EDITS && bestDistance < best.length()) {
            return Optional.of(best);
        }
        for (String candidate : known) {
            if (Math.min(name.length(), candidate.length()) >= MIN_PREFIX
                    && (name.startsWith(candidate) || candidate.startsWith(name))) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The edit distance of two strings, a swap of neighbouring characters counting as one edit
     * (optimal string alignment): {@code stauts} is one edit from {@code status}, as a typist
     * would count it, not two.
     */
    public static int distance(String a, String b) {
        // Three rows suffice: a swap looks two rows back.
        int[] twoBack = new int[b.length() + 1];
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int d = Math.min(previous[j - 1] + cost, Math.min(previous[j], current[j - 1]) + 1);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d = Math.min(d, twoBack[j - 2] + 1);
                }
                current[j] = d;
            }
            int[] spare = twoBack;
            twoBack = previous;
            previous = current;
            current = spare;
        }
        return previous[b.length()];
    }
}
