package dev.isocheck.internal.schedule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Every order of a run's points, given how many each thread reached: the interleavings of their
 * sequences, {@code (a + b)! / (a! b!)} of them for two threads. Listed most interleaved first
 * (most switches between threads), where the shallow anomalies (both reads before both writes)
 * lie.
 */
final class Orders {

    private Orders() {
    }

    /** How many orders there are, or {@code Long.MAX_VALUE} past {@code limit}. */
    static long count(Map<String, Integer> steps, long limit) {
        long total = 1;
        int placed = 0;
        for (int n : steps.values()) {
            for (int i = 1; i <= n; i++) {
                placed++;
                // total * placed / i stays an integer at each step: a product of binomials.
                total = Math.multiplyHigh(total, placed) != 0 ? Long.MAX_VALUE : total * placed / i;
                if (total > limit) {
                    return Long.MAX_VALUE;
                }
            }
        }
        return total;
    }

    /** Every order, most switches first, then alphabetically; call only where {@link #count} is small. */
    static List<String> all(Map<String, Integer> steps) {
        return withSwitchesAtMost(steps, Integer.MAX_VALUE);
    }

    /**
     * The orders with at most {@code most} switches between threads, the most switches first:
     * where the orders are too many to run every one, those with few preemptions (one thread run
     * whole between two steps of another, as a read skew needs) come first, as in CHESS's
     * preemption bounding; their number grows polynomially, not exponentially.
     */
    static List<String> withSwitchesAtMost(Map<String, Integer> steps, int most) {
        List<String> letters = new ArrayList<>(steps.keySet());
        int[] left = letters.stream().mapToInt(steps::get).toArray();
        List<List<String>> orders = new ArrayList<>();
        bounded(letters, left, new ArrayList<>(), 0, most, orders);
        return orders.stream()
                .sorted(Comparator.comparingInt(Orders::switches).reversed().thenComparing(Letters::join))
                .map(Letters::join).toList();
    }

    private static void bounded(List<String> letters, int[] left, List<String> prefix, int switches, int most,
            List<List<String>> orders) {
        boolean any = false;
        for (int i = 0; i < left.length; i++) {
            if (left[i] > 0) {
                any = true;
                int more = prefix.isEmpty() || prefix.get(prefix.size() - 1).equals(letters.get(i)) ? 0 : 1;
                if (switches + more > most) {
                    continue;
                }
                left[i]--;
                prefix.add(letters.get(i));
                bounded(letters, left, prefix, switches + more, most, orders);
                prefix.remove(prefix.size() - 1);
                left[i]++;
            }
        }
        if (!any) {
            orders.add(List.copyOf(prefix));
        }
    }

    private static int switches(List<String> order) {
        int switches = 0;
        for (int i = 1; i < order.size(); i++) {
            if (!order.get(i).equals(order.get(i - 1))) {
                switches++;
            }
        }
        return switches;
    }
}
