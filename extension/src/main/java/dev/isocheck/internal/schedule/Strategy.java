package dev.isocheck.internal.schedule;

import java.util.List;
import java.util.Random;

/**
 * How the {@link Gate} chooses which held thread goes next. Threads are named by letters
 * ({@code A}, {@code B}, …) in the order they were created, so that a choice means the same
 * thread in every run of the test.
 */
public sealed interface Strategy {

    /**
     * The letter of the thread to release.
     *
     * @param held the letters of the threads held now, in order; never empty
     * @param step how many threads were released before in this run
     */
    String choose(List<String> held, int step);

    /**
     * Round robin from the thread with letter {@code first}: each step the next held thread after
     * the one before, the order that interleaves most.
     */
    final class RoundRobin implements Strategy {

        private String previous;
        private final String first;

        /** Round robin from {@code first}. */
        public RoundRobin(String first) {
            this.first = first;
        }

        @Override
        public String choose(List<String> held, int step) {
            String chosen = previous == null
                    ? held.stream().filter(l -> Letters.compare(l, first) >= 0).findFirst().orElse(held.get(0))
                    : held.stream().filter(l -> Letters.compare(l, previous) > 0).findFirst().orElse(held.get(0));
            previous = chosen;
            return chosen;
        }
    }

    /** A uniform choice among the held threads, from a seed. */
    final class RandomWalk implements Strategy {

        private final long seed;
        private final Random random;

        /** A walk from {@code seed}. */
        public RandomWalk(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
        }

        /** The seed. */
        public long seed() {
            return seed;
        }

        @Override
        public String choose(List<String> held, int step) {
            return held.get(random.nextInt(held.size()));
        }
    }

    /**
     * A given order of letters, one per step; where the thread it names is not held (it waits for
     * a lock, it finished, the run went otherwise), the first held thread goes instead, and after
     * the order's end, the first held thread.
     */
    record Order(String letters) implements Strategy {

        @Override
        public String choose(List<String> held, int step) {
            List<String> wanted = Letters.split(letters);
            if (step < wanted.size() && held.contains(wanted.get(step))) {
                return wanted.get(step);
            }
            return held.get(0);
        }
    }
}
