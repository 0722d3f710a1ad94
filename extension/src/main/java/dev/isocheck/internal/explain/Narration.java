package dev.isocheck.internal.explain;

import dev.isocheck.explain.AnomalyCycle;
import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.Dependency;
import dev.isocheck.explain.DependencyType;
import dev.isocheck.explain.OperationRef;
import dev.isocheck.explain.TransactionSummary;
import dev.isocheck.explain.UnreturnedRow;
import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns what the search found (local nodes, keys, observations, choices) into the explanation's
 * data, with every sentence naming transactions, keys and values: the operations
 * ({@link OperationRef}), the edges' justifications ({@link Dependency}), the cases' assumptions
 * ({@link Assumption}) and the transactions' summaries.
 */
final class Narration {

    private final ExplanationSpace space;
    private final History history;
    /** The observations whose premises the sentences so far rest on ({@link ExplanationSpace#premise}). */
    private final java.util.SortedSet<Integer> restingOn = new java.util.TreeSet<>();

    Narration(ExplanationSpace space) {
        this.space = space;
        this.history = space.history();
    }

    /** An item operation, a predicate read as a whole ({@code row < 0}), or a row it returned. */
    static OperationRef operation(History history, Transaction t, int op, int row) {
        OpKind kind = t.kind(op);
        if (kind != OpKind.PREDICATE) {
            String key = history.keys().name(t.key(op));
            Value value = history.values().get(t.value(op));
            String text = (kind == OpKind.READ ? "read " : "write ") + key + " = " + value;
            return new OperationRef(t.id(), op, -1, kind, Optional.of(key), Optional.of(value), text, t.statementOf(op));
        }
        PredicateRead read = t.predicate(op);
        String query = "read " + read.table() + " where " + read.where();
        if (row < 0) {
            List<String> rows = new ArrayList<>();
            read.rows().forEach(r -> rows.add(r.getKey() + " = " + r.getValue()));
            String text = query + (rows.isEmpty() ? ": no row" : ": " + String.join(", ", rows));
            return new OperationRef(t.id(), op, -1, kind, Optional.empty(), Optional.empty(), text, t.statementOf(op));
        }
        String key = history.keys().name(read.rowKey(row));
        Value value = history.values().get(read.rowValue(row));
        return new OperationRef(t.id(), op, row, kind, Optional.of(key), Optional.of(value),
                query + " returned " + key + " = " + value, t.statementOf(op));
    }

    /** The predicate read at {@code op} of {@code t}, as not returning {@code key}. */
    static OperationRef unreturned(History history, Transaction t, int op, int key) {
        PredicateRead read = t.predicate(op);
        String name = history.keys().name(key);
        return new OperationRef(t.id(), op, -1, OpKind.PREDICATE, Optional.of(name), Optional.empty(),
                "read " + read.table() + " where " + read.where() + " did not return " + name, t.statementOf(op));
    }

    /** A transaction with its session, times and operations, and its thread and statements when recorded. */
    static TransactionSummary summary(History history, Transaction t) {
        List<OperationRef> operations = new ArrayList<>(t.size());
        for (int op = 0; op < t.size(); op++) {
            operations.add(operation(history, t, op, -1));
        }
        Session session = history.sessionOf(t);
        return new TransactionSummary(t.id(), session.isImplicit() ? Optional.empty() : Optional.of(session.name()),
                t.isCommitted(), t.start(), t.end(), operations, t.thread(), t.statements());
    }

    /** The summaries of the transactions with these ids, in history order. */
    static List<TransactionSummary> summaries(History history, java.util.Collection<String> ids) {
        List<TransactionSummary> out = new ArrayList<>();
        for (Transaction t : history.transactions()) {
            if (ids.contains(t.id())) {
                out.add(summary(history, t));
            }
        }
        return out;
    }

    /**
     * The premises of everything narrated so far: the reads behind write-read edges, and behind
     * assumptions naming the one source left, that are not of the initial value only because
     * unknown initial values are read as unwritten. In history order.
     */
    List<Assumption.UnwrittenInitialValue> premises() {
        List<Assumption.UnwrittenInitialValue> out = new ArrayList<>();
        for (int o : restingOn) {
            out.add(space.premise(o).orElseThrow());
        }
        return out;
    }

    /** The cycle {@code found}, justified under {@code facts}; {@code path} tells assumed order from derived order. */
    AnomalyCycle cycle(CertainGraph.Found found, Facts facts, List<ProofSearch.Choice> path) {
        List<String> ids = new ArrayList<>();
        List<Dependency> edges = new ArrayList<>();
        int n = found.nodes().length;
        for (int i = 0; i < n; i++) {
            ids.add(id(found.nodes()[i]));
            edges.add(dependency(found.nodes()[i], found.nodes()[(i + 1) % n], found.types()[i], facts, path));
        }
        return new AnomalyCycle(ids, edges);
    }

    /** The assumption a choice makes, worded with what {@code facts} (before it) still allow. */
    Assumption assumption(ProofSearch.Choice choice, Facts facts) {
        ProofSearch.Split split = choice.split();
        if (split.order()) {
            int a = choice.yes() ? split.a() : split.b();
            int b = choice.yes() ? split.b() : split.a();
            int key = split.subject();
            return new Assumption.VersionOrder(keyName(key), id(a), id(b), versionOf(key, a) + " was installed before "
                    + versionOf(key, b));
        }
        int o = split.subject();
        ExplanationSpace.Observation obs = space.observations().get(o);
        int source = obs.candidates()[split.a()];
        Optional<String> writer = source >= 0 ? Optional.of(id(source)) : Optional.empty();
        int left = facts.remaining(o) & ~(1 << split.a());
        if (!choice.yes() && Integer.bitCount(left) == 1 && space.premise(o).isPresent()) {
            // "so it saw T3's write": the initial value is left out only by the default reading.
            restingOn.add(o);
        }
        String text = readPhrase(obs) + (choice.yes() ? " saw " + seen(source)
                : " did not see " + seen(source)
                        + (Integer.bitCount(left) == 1 ? ", so it saw " + seen(obs.candidates()[Integer.numberOfTrailingZeros(left)]) : ""));
        return new Assumption.ReadFrom(readOperation(obs), keyName(obs.key()), writer, choice.yes(), text);
    }

    private Dependency dependency(int a, int b, DependencyType type, Facts facts, List<ProofSearch.Choice> path) {
        String from = id(a);
        String to = id(b);
        return switch (type) {
            case SESSION -> new Dependency(from, to, type, Optional.empty(), List.of(), List.of(), false,
                    from + " and " + to + " ran in session " + history.sessionOf(transaction(a)).name() + ", " + from + " first");
            case REAL_TIME -> new Dependency(from, to, type, Optional.empty(), List.of(), List.of(), false,
                    from + " ended (at " + transaction(a).endTime() + ") before " + to + " started (at "
                            + transaction(b).startTime() + ")");
            case WRITE_WRITE -> writeWrite(a, b, facts, path);
            case WRITE_READ -> writeRead(a, b, facts);
            case READ_WRITE, PREDICATE_READ_WRITE -> readWrite(a, b, type, facts);
        };
    }

    private Dependency writeWrite(int a, int b, Facts facts, List<ProofSearch.Choice> path) {
        for (int key = 0; key < space.keyCount(); key++) {
            if (facts.ordered(key, a, b)) {
                boolean direct = false;
                for (ProofSearch.Choice choice : path) {
                    ProofSearch.Split split = choice.split();
                    direct |= split.order() && split.subject() == key
                            && (choice.yes() ? split.a() == a && split.b() == b : split.a() == b && split.b() == a);
                }
                return new Dependency(id(a), id(b), DependencyType.WRITE_WRITE, Optional.of(keyName(key)),
                        List.of(finalWrite(key, a)), List.of(finalWrite(key, b)), true,
                        versionOf(key, a) + " was installed before " + versionOf(key, b)
                                + (direct ? " (assumed in this case)" : " (follows from this case's assumptions)"));
            }
        }
        throw new IllegalStateException("no write-write edge from " + id(a) + " to " + id(b));
    }

    private Dependency writeRead(int a, int b, Facts facts) {
        // An observation that rests on no premise justifies the edge if one does.
        int chosen = -1;
        for (int o = 0; o < space.observations().size(); o++) {
            ExplanationSpace.Observation obs = space.observations().get(o);
            int remaining = facts.remaining(o);
            if (obs.reader() != b || Integer.bitCount(remaining) != 1
                    || obs.candidates()[Integer.numberOfTrailingZeros(remaining)] != a) {
                continue;
            }
            if (chosen < 0 || space.premise(chosen).isPresent() && space.premise(o).isEmpty()) {
                chosen = o;
            }
        }
        if (chosen >= 0) {
            int o = chosen;
            ExplanationSpace.Observation obs = space.observations().get(o);
            if (space.premise(o).isPresent()) {
                restingOn.add(o);
            }
            boolean assumed = obs.candidates().length > 1 || obs.pinned();
            Optional<String> notInitial = notInitial(o, facts);
            // A reason that already says "in this case" needs no "(assumed in this case)".
            boolean saysWhy = notInitial.isPresent() && space.notInitial(o).isEmpty();
            Optional<UnreturnedRow> unreturned = obs.isUnreturned()
                    ? Optional.of(unreturnedRow(obs, Optional.of(installed(obs.key(), a)), Optional.empty()))
                    : Optional.empty();
            String reason = unreturned.map(UnreturnedRow::text).orElseGet(() -> readPhrase(obs) + ", which " + id(a) + " wrote")
                    + notInitial.map(w -> " (" + w + ")").orElse("");
            return new Dependency(id(a), id(b), DependencyType.WRITE_READ, Optional.of(keyName(obs.key())),
                    List.of(finalWrite(obs.key(), a)), List.of(readOperation(obs)), assumed,
                    reason + (assumed && !saysWhy ? " (assumed in this case)" : ""), unreturned);
        }
        throw new IllegalStateException("no write-read edge from " + id(a) + " to " + id(b));
    }

    private Dependency readWrite(int a, int b, DependencyType type, Facts facts) {
        for (int o = 0; o < space.observations().size(); o++) {
            ExplanationSpace.Observation obs = space.observations().get(o);
            if (obs.reader() != a || obs.isUnreturned() != (type == DependencyType.PREDICATE_READ_WRITE)
                    || (CertainGraph.laterThanEverySource(space, facts, o) & (1 << b)) == 0) {
                continue;
            }
            int remaining = facts.remaining(o);
            Sources sources = sources(obs, remaining);
            boolean certain = obs.candidates().length == 1 && obs.candidates()[0] == ExplanationSpace.INITIAL && !obs.pinned();
            Optional<UnreturnedRow> unreturned = Optional.empty();
            String saw;
            if (obs.isUnreturned()) {
                // Which version it saw is named only where the case leaves one; else the sentence lists them.
                Optional<UnreturnedRow.Version> seen = sources.count() == 1
                        ? source(obs.key(), obs.candidates()[Integer.numberOfTrailingZeros(remaining)]) : Optional.empty();
                unreturned = Optional.of(unreturnedRow(obs, seen, Optional.of(installed(obs.key(), b))));
                saw = unreturned.get().text() + (seen.isEmpty() ? ", " + sources.versions() : "");
            } else {
                saw = readPhrase(obs) + ", " + sources.which() + notInitial(o, facts).map(w -> " (" + w + ")").orElse("");
            }
            String later = versionOf(obs.key(), b);
            String order = sources.writers().isEmpty()
                    ? "; " + id(b) + " installed a later version, " + later.substring(later.indexOf("'s ") + 3)
                            + (certain ? "" : " (assumed in this case)")
                    : "; " + later + " was installed after " + (sources.count() == 1 ? "it" : "each of them") + " (in this case)";
            String reason = saw + order + ", so " + id(a) + " did not see " + id(b) + "'s write";
            return new Dependency(id(a), id(b), type, Optional.of(keyName(obs.key())), List.of(readOperation(obs)),
                    List.of(finalWrite(obs.key(), b)), !certain, reason, unreturned);
        }
        throw new IllegalStateException("no read-write edge from " + id(a) + " to " + id(b));
    }

    /**
     * Why observation {@code o} did not see its key's initial value, where the read alone allows it:
     * other reads fixed that value ({@link ExplanationSpace#notInitial}), or, in this case, another
     * observation saw it and disagrees ({@link ExplanationSpace#settle}). Empty when neither.
     */
    private Optional<String> notInitial(int o, Facts facts) {
        Optional<String> fixed = space.notInitial(o);
        ExplanationSpace.Observation obs = space.observations().get(o);
        if (fixed.isPresent() || obs.candidates().length == 0 || obs.candidates()[0] != ExplanationSpace.INITIAL
                || (facts.remaining(o) & 1) != 0) {
            return fixed;
        }
        java.util.OptionalInt taken = space.initialTakenBy(facts, o);
        if (taken.isEmpty()) {
            return Optional.empty();
        }
        ExplanationSpace.Observation other = space.observations().get(taken.getAsInt());
        String key = keyName(obs.key());
        if (other.isUnreturned()) {
            return Optional.of("not " + key + "'s initial value: in this case " + readPhrase(other)
                    + " because it saw the initial version, so that version does not satisfy the predicate, which selects "
                    + history.values().get(obs.value()));
        }
        Value value = history.values().get(other.value());
        if (obs.isUnreturned()) {
            return Optional.of("not the initial version: in this case " + key + "'s initial value is " + value + ", which "
                    + seer(other) + " saw, and it satisfies the predicate");
        }
        return Optional.of("not " + key + "'s initial value: in this case that is " + value + ", which " + seer(other) + " saw");
    }

    /** "T1's read (operation 0)", "T1's read of t where ... (operation 2)": who saw a value, without the value. */
    private String seer(ExplanationSpace.Observation obs) {
        Transaction t = transaction(obs.reader());
        if (obs.row() >= 0) {
            PredicateRead read = t.predicate(obs.operation());
            return t.id() + "'s read of " + read.table() + " where " + read.where() + " (operation " + obs.operation() + ")";
        }
        return t.id() + "'s read (operation " + obs.operation() + ")";
    }

    /**
     * The sources of a read still possible, in words.
     *
     * @param writers  the transactions among them, by id
     * @param initial  whether the initial state is among them
     * @param which    for an item read: "the initial value", "which T3 wrote", "which T3 or T4 wrote",
     *                 "the initial value, or the version T3 wrote"
     * @param versions for a predicate read that left the key out, among which it saw one: "the
     *                 initial one (absent) or T3's", "T3's or T4's"
     */
    private record Sources(List<String> writers, boolean initial, String which, String versions) {
        int count() {
            return writers.size() + (initial ? 1 : 0);
        }
    }

    private Sources sources(ExplanationSpace.Observation obs, int mask) {
        List<String> names = new ArrayList<>();
        boolean initial = false;
        for (int at = 0; at < obs.candidates().length; at++) {
            if ((mask & (1 << at)) == 0) {
                continue;
            }
            int source = obs.candidates()[at];
            if (source == ExplanationSpace.INITIAL) {
                initial = true;
            } else {
                names.add(source == ExplanationSpace.OUTSIDE ? "a transaction not shown here" : id(source));
            }
        }
        String writers = names.isEmpty() ? "" : names.size() == 1 ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
        String which = names.isEmpty() ? "the initial value"
                : (initial ? "the initial value, or the version " : "which ") + writers + " wrote";
        List<String> versions = new ArrayList<>();
        if (initial) {
            versions.add("the initial one" + initialValue(obs.key()));
        }
        names.forEach(name -> versions.add(name.equals("a transaction not shown here") ? "one " + name + " installed" : name + "'s"));
        String either = versions.size() == 1 ? versions.get(0)
                : String.join(", ", versions.subList(0, versions.size() - 1)) + " or " + versions.get(versions.size() - 1);
        return new Sources(List.copyOf(names), initial, which, either);
    }

    /** One source, as what a read saw: "the initial value", "T3's write". */
    private String seen(int source) {
        return source == ExplanationSpace.INITIAL ? "the initial value"
                : source == ExplanationSpace.OUTSIDE ? "a write by a transaction not shown here" : id(source) + "'s write";
    }

    private String initialValue(int key) {
        int value = history.initialState().valueOf(space.keyId(key));
        if (value == InitialState.UNKNOWN) {
            return "";
        }
        Value initial = history.values().get(value);
        return " (" + (initial.isAbsent() ? "absent" : initial.toString()) + ")";
    }

    /** "T2 read x = 1", "T2's read of t where … returned t/1 = …", "T2's read of t where … did not return t/3". */
    private String readPhrase(ExplanationSpace.Observation obs) {
        Transaction t = transaction(obs.reader());
        if (obs.isUnreturned() || obs.row() >= 0) {
            PredicateRead read = t.predicate(obs.operation());
            String query = t.id() + "'s read of " + read.table() + " where " + read.where();
            if (obs.isUnreturned()) {
                return query + " did not return " + keyName(obs.key());
            }
            return query + " returned " + keyName(obs.key()) + " = " + history.values().get(obs.value());
        }
        return t.id() + " read " + keyName(obs.key()) + " = " + history.values().get(obs.value());
    }

    private OperationRef readOperation(ExplanationSpace.Observation obs) {
        Transaction t = transaction(obs.reader());
        return obs.isUnreturned() ? unreturned(history, t, obs.operation(), space.keyId(obs.key()))
                : operation(history, t, obs.operation(), obs.row());
    }

    /** Observation {@code obs}, of a row a predicate read left out, as an edge carries it. */
    private UnreturnedRow unreturnedRow(ExplanationSpace.Observation obs, Optional<UnreturnedRow.Version> saw,
            Optional<UnreturnedRow.Version> missed) {
        Transaction t = transaction(obs.reader());
        PredicateRead read = t.predicate(obs.operation());
        return new UnreturnedRow(t.id(), readOperation(obs), statement(t, obs.operation()), read.table(), read.where(),
                keyName(obs.key()), saw, missed);
    }

    /** A node's installed version of a key, with the write behind it. */
    private UnreturnedRow.Version installed(int key, int node) {
        Transaction t = transaction(node);
        int op = space.finalWrite(key, node);
        return new UnreturnedRow.Version(Optional.of(t.id()), Optional.of(history.values().get(t.value(op))),
                Optional.of(finalWrite(key, node)), statement(t, op));
    }

    /** One source of a read as a version; none for a write by a transaction not shown, which has no one value. */
    private Optional<UnreturnedRow.Version> source(int key, int source) {
        if (source == ExplanationSpace.OUTSIDE) {
            return Optional.empty();
        }
        if (source != ExplanationSpace.INITIAL) {
            return Optional.of(installed(key, source));
        }
        int value = history.initialState().valueOf(space.keyId(key));
        return Optional.of(UnreturnedRow.Version.initial(
                value == InitialState.UNKNOWN ? Optional.empty() : Optional.of(history.values().get(value))));
    }

    /** The statement that did operation {@code op} of {@code t}, when recorded. */
    private static Optional<SqlStatement> statement(Transaction t, int op) {
        OptionalInt index = t.statementOf(op);
        return index.isPresent() && index.getAsInt() < t.statements().size()
                ? Optional.of(t.statements().get(index.getAsInt())) : Optional.empty();
    }

    private OperationRef finalWrite(int key, int node) {
        return operation(history, transaction(node), space.finalWrite(key, node), -1);
    }

    /** "T1's x = 1": a node's installed version of a key. */
    private String versionOf(int key, int node) {
        Transaction t = transaction(node);
        return t.id() + "'s " + keyName(key) + " = " + history.values().get(t.value(space.finalWrite(key, node)));
    }

    private Transaction transaction(int node) {
        return history.transaction(space.transaction(node));
    }

    private String id(int node) {
        return transaction(node).id();
    }

    private String keyName(int key) {
        return history.keys().name(space.keyId(key));
    }
}
