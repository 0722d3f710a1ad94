package dev.isocheck.internal.schedule;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The runs of one interleaving test, planned one at a time as the runs before them end: round
 * robin first (the order that interleaves most), then every order of the points the first run
 * reached when they fit the budget (most interleaved first), else the orders with at most two
 * switches between threads (one thread run whole between two steps of another: a read skew's
 * order) and then random walks from seeds; after
 * a run that showed an anomaly, replays of its order, counting how often the anomaly comes back,
 * and no further exploration. With {@code replay} given, that order alone.
 */
public final class Exploration {

    /** The preemptions of the orders run first when every order does not fit the budget. */
    static final int FEW_SWITCHES = 2;

    /** How many times a run that showed an anomaly is replayed. */
    public static final int REPLAYS = 2;

    /** What kind of run a plan is. */
    public enum Kind {
        ROUND_ROBIN, EVERY_ORDER, FEW_SWITCHES, RANDOM_WALK, REPLAY, GIVEN_ORDER
    }

    /**
     * One run to make.
     *
     * @param number   the run's number, from 1
     * @param kind     its kind
     * @param strategy how its gate chooses
     * @param name     its name in the test tree
     * @param last     whether no run will follow it unless this one shows an anomaly
     */
    public record Plan(int number, Kind kind, Strategy strategy, String name, boolean last) {
    }

    private final int budget;
    private final long seed;
    private final String given;
    private final boolean expecting;
    private final Set<String> ordersRun = new HashSet<>();
    private Deque<String> everyOrder;
    /** Where every order does not fit: the orders with at most {@link #FEW_SWITCHES} switches, run before the random walks. */
    private Deque<String> fewSwitches;
    private long orderCount = -1;
    private int planned;
    private Plan violating;
    private String violatingOrder;
    private int replays;
    private int reproduced;
    private boolean stopped;

    /**
     * @param budget    how many runs to explore at most, replays not counted
     * @param seed      the random walks' first seed
     * @param given     the one order to run ({@code replay}), or empty
     * @param expecting whether the test expects an anomaly: then exploration ends at the first
     *                  run that shows it, and nothing is replayed
     */
    public Exploration(int budget, long seed, String given, boolean expecting) {
        if (budget < 1) {
            throw new IllegalArgumentException("budget " + budget + " < 1");
        }
        this.budget = budget;
        this.seed = seed;
        this.given = given.strip();
        this.expecting = expecting;
    }

    /** The next run to make, or empty when the exploration is over. */
    public synchronized Optional<Plan> next() {
        if (stopped) {
            return Optional.empty();
        }
        int number = ++planned;
        if (!given.isEmpty()) {
            stopped = true;
            return Optional.of(new Plan(number, Kind.GIVEN_ORDER, new Strategy.Order(given), "order " + given, true));
        }
        if (violating != null) {
            if (replays == REPLAYS) {
                stopped = true;
                return Optional.empty();
            }
            replays++;
            return Optional.of(new Plan(number, Kind.REPLAY, new Strategy.Order(violatingOrder),
                    "replay " + replays + " of " + REPLAYS + " of schedule " + violating.number() + " (" + abbreviated(violatingOrder) + ")",
                    replays == REPLAYS));
        }
        int explored = number - replays;
        if (explored > budget) {
            stopped = true;
            return Optional.empty();
        }
        String of = "schedule " + explored + " of " + budget + ": ";
        if (explored == 1) {
            return Optional.of(new Plan(number, Kind.ROUND_ROBIN, new Strategy.RoundRobin("A"), of + "round robin", explored == budget));
        }
        if (everyOrder != null) {
            String order = nextNotRun(everyOrder);
            if (order == null) {
                stopped = true;
                return Optional.empty();
            }
            boolean last = explored == budget || everyOrder.stream().allMatch(ordersRun::contains);
            return Optional.of(new Plan(number, Kind.EVERY_ORDER, new Strategy.Order(order), of + "order " + abbreviated(order), last));
        }
        if (fewSwitches != null) {
            String order = nextNotRun(fewSwitches);
            if (order != null) {
                return Optional.of(new Plan(number, Kind.FEW_SWITCHES, new Strategy.Order(order),
                        of + "order " + abbreviated(order) + " (few switches)", explored == budget));
            }
        }
        long walk = seed + explored;
        return Optional.of(new Plan(number, Kind.RANDOM_WALK, new Strategy.RandomWalk(walk), of + "random walk, seed " + walk,
                explored == budget));
    }

    /**
     * Whether no run would follow now: asked after a run was judged, when the plan's own
     * {@link Plan#last()} may no longer hold (a run took an order planned for later).
     */
    public synchronized boolean over() {
        if (stopped) {
            return true;
        }
        if (violating != null) {
            return replays == REPLAYS;
        }
        if (planned + 1 - replays > budget) {
            return true;
        }
        return everyOrder != null && everyOrder.stream().allMatch(ordersRun::contains);
    }

    /** A run ended with {@code trace}: after the first, every order is planned when they fit the budget. */
    public synchronized void ran(Plan plan, Trace trace) {
        ordersRun.add(trace.order());
        if (plan.number() == 1 && plan.kind() == Kind.ROUND_ROBIN && trace.threads().size() <= 1) {
            // One thread (or none) reached the database: there is one order, and it ran.
            orderCount = 1;
            everyOrder = new ArrayDeque<>();
        } else if (plan.number() == 1 && plan.kind() == Kind.ROUND_ROBIN) {
            orderCount = Orders.count(trace.stepsPerThread(), Long.MAX_VALUE - 1);
            if (orderCount <= budget) {
                everyOrder = new ArrayDeque<>(Orders.all(trace.stepsPerThread()));
            } else {
                // Too many to run each: those with few preemptions first, then random walks.
                fewSwitches = new ArrayDeque<>(Orders.withSwitchesAtMost(trace.stepsPerThread(), FEW_SWITCHES));
            }
        }
    }

    /**
     * A run was judged.
     *
     * @param violated whether it violated the level
     * @param expected whether the violation shows an anomaly the test expects
     */
    public synchronized void judged(Plan plan, Trace trace, boolean violated, boolean expected) {
        if (expecting && expected) {
            stopped = true;
        } else if (!expecting && violated && plan.kind() != Kind.REPLAY && plan.kind() != Kind.GIVEN_ORDER) {
            violating = plan;
            violatingOrder = trace.order();
        } else if (plan.kind() == Kind.REPLAY && violated) {
            reproduced++;
        }
    }

    /** The first of {@code orders} no run took yet, taken off; {@code null} when none is left. */
    private String nextNotRun(Deque<String> orders) {
        while (!orders.isEmpty() && ordersRun.contains(orders.peek())) {
            orders.poll();
        }
        return orders.poll();
    }

    /** How many replays ran so far, and in how many the anomaly came back. */
    public synchronized int replays() {
        return replays;
    }

    /** In how many replays so far the run violated the level again. */
    public synchronized int reproduced() {
        return reproduced;
    }

    /** How many orders of the first run's points there are, when counted (two threads or more); -1 before. */
    public synchronized long orderCount() {
        return orderCount;
    }

    /** How many distinct orders ran so far. */
    public synchronized int distinctOrders() {
        return ordersRun.size();
    }

    /** The budget. */
    public int budget() {
        return budget;
    }

    private static String abbreviated(String order) {
        return order.length() > 40 ? order.substring(0, 37) + "..." : order;
    }
}
