package dev.isocheck.internal.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.explain.AnomalyCycle;
import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.Dependency;
import dev.isocheck.explain.DependencyType;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.OperationRef;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.internal.graph.ValueRelations;
import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.function.Predicate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The test's own enumeration of every explanation of a small history, written without the
 * explainer's search: each permutation of each key's committed versions, each choice of source for
 * each observation (as {@link ReadExplanations} lists them, and, for the keys a predicate read did
 * not return, the initial state or a committed last write that does not satisfy it), the dependency
 * graph each one gives (transitive {@code ww}, {@code rw} to every later version, session order,
 * real time at strict serializability), and its shortest forbidden cycle. An explanation takes each
 * key's unknown initial value to be one value: the observations it takes to be of it agree, pairwise
 * ({@link #initialValuesAgree}); {@link #everyChoice} leaves that to the caller.
 */
final class BruteForceExplanations {

    static final int NONE = Integer.MAX_VALUE;
    static final int INITIAL = -1;

    /** An edge of one explanation's graph. */
    record Edge(String from, String to, DependencyType type, Optional<String> key) {
    }

    /** An observation and its possible sources (transaction indexes, or {@link #INITIAL}). */
    record Observation(int reader, int operation, int row, boolean unreturned, int key, int[] sources) {
    }

    /** One explanation: the version order of each key and each observation's source. */
    record Choice(Map<Integer, List<Integer>> orders, int[] sources) {
    }

    private final History history;
    private final IsolationLevel level;
    private final List<Integer> committed = new ArrayList<>();
    private final Map<Integer, List<Integer>> installers = new HashMap<>();
    private final List<Observation> observations = new ArrayList<>();
    /** The value ids of the item observations, which come first in {@link #observations}. */
    private final List<Integer> values = new ArrayList<>();
    private boolean contradiction;
    /** Whether only the explanations with one initial value per key are enumerated ({@link #initialValuesAgree}). */
    private final boolean oneValue;

    BruteForceExplanations(History history, IsolationLevel level) {
        this(history, level, true);
    }

    /**
     * Every explanation without ruling out the initial state from what other reads fix of it: an
     * enumeration to be judged one choice at a time by {@link #initialValuesAgree}, so that the
     * rule {@link #initialIsOneValue} applies (and the explainer) is checked against the semantics.
     */
    static BruteForceExplanations everyChoice(History history, IsolationLevel level) {
        return new BruteForceExplanations(history, level, false);
    }

    private BruteForceExplanations(History history, IsolationLevel level, boolean oneValue) {
        this.history = history;
        this.level = level;
        this.oneValue = oneValue;
        for (Transaction t : history.transactions()) {
            if (!t.isCommitted()) {
                continue;
            }
            committed.add(t.index());
            Set<Integer> written = new HashSet<>();
            for (int op = 0; op < t.size(); op++) {
                if (t.kind(op) == OpKind.WRITE) {
                    written.add(t.key(op));
                }
            }
            for (int key : written) {
                installers.computeIfAbsent(key, k -> new ArrayList<>()).add(t.index());
            }
        }
        ReadExplanations explanations = ReadExplanations.of(history);
        for (int obs = 0; obs < explanations.size(); obs++) {
            int[] writers = explanations.writers(obs);
            int[] sources = new int[writers.length + (explanations.initialStateExplains(obs) ? 1 : 0)];
            int n = 0;
            if (explanations.initialStateExplains(obs)) {
                sources[n++] = INITIAL;
            }
            for (int w : writers) {
                sources[n++] = w;
            }
            observations.add(new Observation(explanations.transaction(obs), explanations.operation(obs), explanations.row(obs),
                    false, explanations.key(obs), sources));
        }
        for (Transaction t : history.transactions()) {
            for (int op = 0; t.isCommitted() && op < t.size(); op++) {
                if (t.kind(op) == OpKind.PREDICATE) {
                    unreturned(t, op);
                }
            }
        }
        for (int obs = 0; obs < explanations.size(); obs++) {
            values.add(explanations.value(obs));
        }
        if (oneValue) {
            initialIsOneValue(explanations);
        }
    }

    /**
     * Whether {@code choice} is possible with one initial value per key, judged on the choice
     * itself: the values of the reads it takes to be of a key's initial value give no field two
     * values, and no predicate read it takes to have left the key out for its initial version
     * certainly selects one of them.
     */
    boolean initialValuesAgree(Choice choice) {
        for (int o = 0; o < values.size(); o++) {
            if (choice.sources()[o] != INITIAL) {
                continue;
            }
            Value value = history.values().get(values.get(o));
            for (int p = 0; p < observations.size(); p++) {
                Observation other = observations.get(p);
                if (p == o || other.key() != observations.get(o).key() || choice.sources()[p] != INITIAL) {
                    continue;
                }
                if (other.unreturned()) {
                    PredicateRead read = history.transaction(other.reader()).predicate(other.operation());
                    if (((WherePredicate) WherePredicate.parse(read.where())).certainlySelects(value)) {
                        return false;
                    }
                } else if (!ValueRelations.compatible(value, history.values().get(values.get(p)))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The unknown initial value of a key is one value: an observation that only it can explain
     * shows it (in the fields seen), and a key a predicate read left out that only the initial
     * version can explain shows that version fails the predicate. A read of a value either rules
     * out did not see the initial value (the read keeps at least one source).
     */
    private void initialIsOneValue(ReadExplanations explanations) {
        for (int o = 0; o < explanations.size(); o++) {
            Observation obs = observations.get(o);
            if (obs.sources().length < 2 || obs.sources()[0] != INITIAL) {
                continue;
            }
            Value value = history.values().get(explanations.value(o));
            boolean ruledOut = false;
            for (int p = 0; p < observations.size(); p++) {
                Observation other = observations.get(p);
                if (other.key() != obs.key() || other.sources().length != 1 || other.sources()[0] != INITIAL) {
                    continue;
                }
                if (other.unreturned()) {
                    PredicateRead read = history.transaction(other.reader()).predicate(other.operation());
                    ruledOut |= ((WherePredicate) WherePredicate.parse(read.where())).certainlySelects(value);
                } else {
                    ruledOut |= !ValueRelations.compatible(value, history.values().get(explanations.value(p)));
                }
            }
            if (ruledOut) {
                observations.set(o, new Observation(obs.reader(), obs.operation(), obs.row(), false, obs.key(),
                        Arrays.copyOfRange(obs.sources(), 1, obs.sources().length)));
            }
        }
    }

    private void unreturned(Transaction t, int op) {
        PredicateRead read = t.predicate(op);
        if (!(WherePredicate.parse(read.where()) instanceof WherePredicate where)) {
            return;
        }
        for (int key : history.keys().keysOfTable(read.table())) {
            boolean ownEarlier = false;
            for (int i = 0; i < op; i++) {
                ownEarlier |= t.kind(i) == OpKind.WRITE && t.key(i) == key;
            }
            if (read.valueReturnedFor(key) >= 0 || ownEarlier) {
                continue;
            }
            List<Integer> sources = new ArrayList<>();
            int initial = history.initialState().valueOf(key);
            if (initial == InitialState.UNKNOWN || !where.evaluate(history.values().get(initial)).isTrue()) {
                sources.add(INITIAL);
            }
            for (int w : installers.getOrDefault(key, List.of())) {
                Transaction writer = history.transaction(w);
                if (w != t.index() && !where.evaluate(history.values().get(writer.value(lastWrite(writer, key)))).isTrue()) {
                    sources.add(w);
                }
            }
            if (sources.isEmpty()) {
                contradiction = true;
            }
            observations.add(new Observation(t.index(), op, -1, true, key,
                    sources.stream().mapToInt(Integer::intValue).toArray()));
        }
    }

    private static int lastWrite(Transaction t, int key) {
        int last = -1;
        for (int i = 0; i < t.size(); i++) {
            if (t.kind(i) == OpKind.WRITE && t.key(i) == key) {
                last = i;
            }
        }
        return last;
    }

    /** Whether some unreturned key has no version that could explain it (no explanation at all). */
    boolean contradiction() {
        return contradiction;
    }

    /** How many explanations there are. */
    long count() {
        long count = 1;
        for (List<Integer> writers : installers.values()) {
            for (int i = 2; i <= writers.size(); i++) {
                count *= i;
            }
        }
        for (Observation obs : observations) {
            count *= Math.max(1, obs.sources().length);
        }
        return count;
    }

    /** Calls {@code each} with every explanation. */
    void forEach(Consumer<Choice> each) {
        List<Integer> keys = new ArrayList<>(installers.keySet());
        Map<Integer, List<Integer>> orders = new HashMap<>();
        orders(keys, 0, orders, new int[observations.size()], each);
    }

    private void orders(List<Integer> keys, int k, Map<Integer, List<Integer>> orders, int[] sources, Consumer<Choice> each) {
        if (k == keys.size()) {
            sources(0, orders, sources, each);
            return;
        }
        for (List<Integer> permutation : permutations(installers.get(keys.get(k)))) {
            orders.put(keys.get(k), permutation);
            orders(keys, k + 1, orders, sources, each);
        }
    }

    private void sources(int o, Map<Integer, List<Integer>> orders, int[] sources, Consumer<Choice> each) {
        if (o == observations.size()) {
            Choice choice = new Choice(Map.copyOf(orders), sources.clone());
            if (!oneValue || initialValuesAgree(choice)) {
                each.accept(choice);
            }
            return;
        }
        for (int source : observations.get(o).sources()) {
            sources[o] = source;
            sources(o + 1, orders, sources, each);
        }
    }

    private static List<List<Integer>> permutations(List<Integer> items) {
        List<List<Integer>> out = new ArrayList<>();
        permute(new ArrayList<>(items), 0, out);
        return out;
    }

    private static void permute(List<Integer> items, int at, List<List<Integer>> out) {
        if (at == items.size()) {
            out.add(List.copyOf(items));
            return;
        }
        for (int i = at; i < items.size(); i++) {
            java.util.Collections.swap(items, at, i);
            permute(items, at + 1, out);
            java.util.Collections.swap(items, at, i);
        }
    }

    /** The dependency graph of one explanation. */
    Set<Edge> edges(Choice choice) {
        Set<Edge> edges = new HashSet<>();
        for (Session session : history.sessions()) {
            List<Integer> earlier = new ArrayList<>();
            for (int s = 0; s < session.size(); s++) {
                Transaction t = history.transaction(session.transaction(s));
                if (t.isCommitted()) {
                    for (int e : earlier) {
                        edges.add(new Edge(id(e), t.id(), DependencyType.SESSION, Optional.empty()));
                    }
                    earlier.add(t.index());
                }
            }
        }
        if (level == IsolationLevel.STRICT_SERIALIZABLE) {
            for (int a : committed) {
                for (int b : committed) {
                    Transaction ta = history.transaction(a);
                    Transaction tb = history.transaction(b);
                    if (ta.endTime() != Transaction.NO_TIME && tb.startTime() != Transaction.NO_TIME && ta.endTime() < tb.startTime()) {
                        edges.add(new Edge(ta.id(), tb.id(), DependencyType.REAL_TIME, Optional.empty()));
                    }
                }
            }
        }
        choice.orders().forEach((key, order) -> {
            for (int i = 0; i < order.size(); i++) {
                for (int j = i + 1; j < order.size(); j++) {
                    edges.add(new Edge(id(order.get(i)), id(order.get(j)), DependencyType.WRITE_WRITE, Optional.of(name(key))));
                }
            }
        });
        for (int o = 0; o < observations.size(); o++) {
            Observation obs = observations.get(o);
            int source = choice.sources()[o];
            if (source != INITIAL) {
                edges.add(new Edge(id(source), id(obs.reader()), DependencyType.WRITE_READ, Optional.of(name(obs.key()))));
            }
            List<Integer> order = choice.orders().getOrDefault(obs.key(), List.of());
            int from = source == INITIAL ? -1 : order.indexOf(source);
            for (int i = from + 1; i < order.size(); i++) {
                if (order.get(i) != obs.reader()) {
                    edges.add(new Edge(id(obs.reader()), id(order.get(i)),
                            obs.unreturned() ? DependencyType.PREDICATE_READ_WRITE : DependencyType.READ_WRITE, Optional.of(name(obs.key()))));
                }
            }
        }
        return edges;
    }

    /**
     * The length of the shortest cycle of {@code edges} the level forbids (at snapshot isolation: no
     * two anti-dependencies in a row, around the cycle): for each edge that is not an
     * anti-dependency (any edge, at the serializable levels), a breadth-first search from its end
     * back to its start over (transaction, last edge was an anti-dependency) states.
     */
    int shortestForbidden(Set<Edge> edges) {
        Map<String, Integer> index = new HashMap<>();
        for (int t : committed) {
            index.put(id(t), index.size());
        }
        int n = index.size();
        boolean[][] anti = new boolean[n][n];
        boolean[][] other = new boolean[n][n];
        for (Edge e : edges) {
            (e.type().isAntiDependency() ? anti : other)[index.get(e.from())][index.get(e.to())] = true;
        }
        boolean snapshot = level == IsolationLevel.SNAPSHOT_ISOLATION;
        int best = NONE;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (other[a][b]) {
                    best = Math.min(best, 1 + distance(b, false, a, anti, other, snapshot));
                }
                if (anti[a][b] && !snapshot) {
                    best = Math.min(best, 1 + distance(b, true, a, anti, other, snapshot));
                }
            }
        }
        return best < 0 ? NONE : best;
    }

    /** Edges from {@code start} (entered by an anti-dependency or not) to {@code target}; a huge negative-safe value if unreachable. */
    private static int distance(int start, boolean enteredByAnti, int target, boolean[][] anti, boolean[][] other, boolean snapshot) {
        int n = anti.length;
        int[][] dist = new int[2][n];
        for (int[] row : dist) {
            java.util.Arrays.fill(row, -1);
        }
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        dist[enteredByAnti ? 1 : 0][start] = 0;
        queue.add(new int[] {start, enteredByAnti ? 1 : 0});
        while (!queue.isEmpty()) {
            int[] state = queue.poll();
            int node = state[0];
            int d = dist[state[1]][node];
            if (node == target) {
                return d;
            }
            for (int next = 0; next < n; next++) {
                if (other[node][next] && dist[0][next] < 0) {
                    dist[0][next] = d + 1;
                    queue.add(new int[] {next, 0});
                }
                if (anti[node][next] && !(snapshot && state[1] == 1) && dist[1][next] < 0) {
                    dist[1][next] = d + 1;
                    queue.add(new int[] {next, 1});
                }
            }
        }
        return NONE - 1;
    }

    /**
     * Asserts that the cases prove what they claim over the explanations {@code within} keeps: each
     * satisfies some case's assumptions, and in each explanation a case's assumptions hold, that
     * case's cycle is present.
     *
     * @return how many explanations {@code within} kept
     */
    long assertCovered(List<Explanation.Case> cases, Predicate<Choice> within, Object what) {
        long[] kept = {0};
        forEach(choice -> {
            if (!within.test(choice)) {
                return;
            }
            kept[0]++;
            Set<Edge> edges = edges(choice);
            boolean covered = false;
            for (Explanation.Case c : cases) {
                if (holds(c, choice)) {
                    covered = true;
                    assertThat(present(c.cycle(), edges))
                            .as("%s: case %s holds in %s but its cycle %s is missing", what, c.assuming(), choice, c.cycle())
                            .isTrue();
                }
            }
            assertThat(covered).as("%s: no case covers %s", what, choice).isTrue();
        });
        return kept[0];
    }

    /** Whether every assumption of {@code c} holds in the explanation. */
    boolean holds(Explanation.Case c, Choice choice) {
        return holds(c.assuming(), choice);
    }

    /** Whether every one of {@code assumptions} holds in the explanation. */
    boolean holds(List<? extends Assumption> assumptions, Choice choice) {
        for (Assumption assumption : assumptions) {
            if (assumption instanceof Assumption.VersionOrder order) {
                List<Integer> versions = choice.orders().get(history.keys().idOf(order.key()));
                int earlier = history.transaction(order.earlier()).orElseThrow().index();
                int later = history.transaction(order.later()).orElseThrow().index();
                if (versions.indexOf(earlier) > versions.indexOf(later)) {
                    return false;
                }
            } else if (assumption instanceof Assumption.ReadFrom read) {
                int o = observation(read.read());
                int writer = read.writer().map(id -> history.transaction(id).orElseThrow().index()).orElse(INITIAL);
                if ((choice.sources()[o] == writer) != read.saw()) {
                    return false;
                }
            }
        }
        return true;
    }

    private int observation(OperationRef read) {
        for (int o = 0; o < observations.size(); o++) {
            Observation obs = observations.get(o);
            boolean unreturned = read.kind() == OpKind.PREDICATE && read.row() < 0;
            if (id(obs.reader()).equals(read.transaction()) && obs.operation() == read.index() && obs.unreturned() == unreturned
                    && (unreturned ? read.key().orElseThrow().equals(name(obs.key())) : obs.row() == read.row())) {
                return o;
            }
        }
        throw new AssertionError("no observation for " + read);
    }

    /** Whether every edge of {@code cycle} is in {@code edges}. */
    static boolean present(AnomalyCycle cycle, Set<Edge> edges) {
        for (Dependency d : cycle.edges()) {
            if (!edges.contains(new Edge(d.from(), d.to(), d.type(), d.key()))) {
                return false;
            }
        }
        return true;
    }

    private String id(int transaction) {
        return history.transaction(transaction).id();
    }

    private String name(int key) {
        return history.keys().name(key);
    }
}
