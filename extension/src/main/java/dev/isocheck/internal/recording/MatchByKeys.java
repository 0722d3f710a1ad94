package dev.isocheck.internal.recording;

import dev.isocheck.internal.recording.TransactionLog.Finished;
import dev.isocheck.internal.recording.TransactionLog.Outcome;
import dev.isocheck.internal.recording.WriteLog.CommittedTransaction;
import dev.isocheck.internal.recording.WriteLog.CommittedWrite;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds in a database's log the transactions whose statements said exactly which rows they
 * changed ({@link TransactionLog#keysWritten()}), without their ids. Input: such recorded
 * transactions, and the log's transactions no other has claimed, in commit order; output: the
 * pairs it can prove.
 *
 * <p>The recorded transactions are grouped by the set of keys they changed. A transaction of the
 * log is a candidate for a group when it changed every one of those keys: the true account of
 * each member is one (its changes were committed, and the log lists every committed change). A
 * group is matched only when its candidates not claimed by a group matched before are exactly as
 * many as its members, and none changed another row of the group's tables (rows of other tables
 * are allowed: a trigger's); then those candidates are its members' accounts. Anything else stays
 * unmatched, never guessed (the transaction's id is then unknown, which leaves the check weaker).
 *
 * <p>Within a group the members are paired with the candidates in order: the log's commit order
 * against the members' commit order, where that is proven ({@link #inCommitOrder}). For
 * transactions with auto-commit off it is the order in which they sent their commits, because the
 * members changed a common row by UPDATE or DELETE (the only statements {@code WrittenKeys}
 * answers for), and such a change holds the row's lock to the end of its transaction: if A
 * committed before B, B's change of the row returned only after A's commit had been sent, and B
 * sent its own commit after that.
 */
final class MatchByKeys {

    private MatchByKeys() {
    }

    /**
     * Whether {@code f} is one this matching is for: committed, its keys known, and either one
     * auto-commit statement or a transaction whose commit was sent at a known instant.
     */
    static boolean applies(Finished f) {
        return f.outcome() == Outcome.COMMITTED && (f.autoCommit() || f.commitSent() >= 0)
                && TransactionLog.keysWritten(f.observations()).isPresent();
    }

    /**
     * The pairs proven.
     *
     * @param recorded  transactions for which {@link #applies} holds
     * @param committed the log's transactions none else has claimed, in commit order
     */
    static Map<Finished, CommittedTransaction> match(List<Finished> recorded, List<CommittedTransaction> committed) {
        Map<Set<String>, Group> groups = new LinkedHashMap<>();
        for (Finished f : recorded) {
            groups.computeIfAbsent(TransactionLog.keysWritten(f.observations()).orElseThrow(), Group::new).members.add(f);
        }
        Map<CommittedTransaction, Integer> order = new IdentityHashMap<>();
        Map<CommittedTransaction, Set<String>> keysOf = new IdentityHashMap<>();
        Map<String, List<CommittedTransaction>> byKey = new HashMap<>();
        for (CommittedTransaction c : committed) {
            order.put(c, order.size());
            Set<String> keys = new HashSet<>();
            for (CommittedWrite w : c.writes()) {
                if (keys.add(w.key())) {
                    byKey.computeIfAbsent(w.key(), k -> new ArrayList<>()).add(c);
                }
            }
            keysOf.put(c, keys);
        }
        Map<CommittedTransaction, List<Group>> groupsOf = new IdentityHashMap<>();
        for (Group group : groups.values()) {
            group.findCandidates(byKey, keysOf);
            group.candidates.forEach(c -> groupsOf.computeIfAbsent(c, k -> new ArrayList<>()).add(group));
        }
        // A candidate claimed by a group matched before is another's account, never this group's:
        // a group waits until every candidate it cannot account for is claimed so (a transaction
        // that changed rows 1 and 2 is a candidate for the group that changed row 1 alone, until
        // the group of rows 1 and 2 takes it).
        Map<Finished, CommittedTransaction> matched = new IdentityHashMap<>();
        ArrayDeque<Group> ready = new ArrayDeque<>();
        groups.values().stream().filter(Group::ready).forEach(ready::add);
        while (!ready.isEmpty()) {
            Group group = ready.poll();
            if (!group.ready()) {
                continue;
            }
            group.done = true;
            List<Finished> byCommitOrder = group.members;
            List<CommittedTransaction> byCommit = new ArrayList<>(group.open());
            byCommit.sort(Comparator.comparingInt(order::get));
            for (int i = 0; i < byCommitOrder.size(); i++) {
                CommittedTransaction c = byCommit.get(i);
                matched.put(byCommitOrder.get(i), c);
                for (Group other : groupsOf.get(c)) {
                    if (other != group && other.claim(c) && other.ready()) {
                        ready.add(other);
                    }
                }
            }
        }
        return matched;
    }

    /** The tables of keys {@code table/pk} (an integer key holds no slash). */
    private static Set<String> tablesOf(Set<String> keys) {
        Set<String> tables = new HashSet<>();
        for (String key : keys) {
            tables.add(key.substring(0, key.lastIndexOf('/')));
        }
        return tables;
    }

    /** The recorded transactions that changed one set of keys, and the log's candidates for them. */
    private static final class Group {

        final Set<String> keys;
        final Set<String> tables;
        final List<Finished> members = new ArrayList<>();
        /** The log's transactions that changed every one of {@link #keys}. */
        List<CommittedTransaction> candidates = List.of();
        /** Those that changed other rows of the same tables too: never a member's account. */
        final Set<CommittedTransaction> inexact = Collections.newSetFromMap(new IdentityHashMap<>());
        /** Those another group matched before. */
        final Set<CommittedTransaction> claimed = Collections.newSetFromMap(new IdentityHashMap<>());
        int inexactOpen;
        boolean done;
        /** Whether the order of the members' commits is known (they are then in it); {@code null} until asked. */
        Boolean ordered;

        Group(Set<String> keys) {
            this.keys = keys;
            this.tables = tablesOf(keys);
        }

        void findCandidates(Map<String, List<CommittedTransaction>> byKey, Map<CommittedTransaction, Set<String>> keysOf) {
            List<CommittedTransaction> fewest = null;
            for (String key : keys) {
                List<CommittedTransaction> with = byKey.getOrDefault(key, List.of());
                if (fewest == null || with.size() < fewest.size()) {
                    fewest = with;
                }
            }
            List<CommittedTransaction> found = new ArrayList<>();
            for (CommittedTransaction c : fewest) {
                Set<String> written = keysOf.get(c);
                if (written.containsAll(keys)) {
                    found.add(c);
                    for (String key : written) {
                        if (!keys.contains(key) && tables.contains(key.substring(0, key.lastIndexOf('/')))) {
                            inexact.add(c);
                            break;
                        }
                    }
                }
            }
            candidates = found;
            inexactOpen = inexact.size();
        }

        /** Notes that another group took {@code c}; whether it was one of this group's candidates not yet claimed. */
        boolean claim(CommittedTransaction c) {
            if (!claimed.add(c)) {
                return false;
            }
            if (inexact.contains(c)) {
                inexactOpen--;
            }
            return true;
        }

        /** The candidates no other group claimed. */
        List<CommittedTransaction> open() {
            return candidates.stream().filter(c -> !claimed.contains(c)).toList();
        }

        /**
         * Whether it can be matched now: its candidates not claimed are as many as its members
         * and all could be theirs, and the order of the members' commits is known.
         */
        boolean ready() {
            if (done || inexactOpen > 0 || candidates.size() - claimed.size() != members.size()) {
                return false;
            }
            if (ordered == null) {
                ordered = members.size() == 1 || inCommitOrder(members);
            }
            return ordered;
        }
    }

    /**
     * Sorts {@code members} in the order of their commits and says whether that order is proven:
     * each commit is known to have come before the next. Two transactions with auto-commit off
     * that changed a common row committed in the order they sent their commits (the row lock, in
     * the class comment). Otherwise one committed before the other began to commit only when it
     * had been acknowledged before: an auto-commit statement commits at an instant between its
     * sending and its answer, which the client does not see.
     */
    static boolean inCommitOrder(List<Finished> members) {
        members.sort(Comparator.comparingLong(MatchByKeys::commitFrom));
        for (int i = 1; i < members.size(); i++) {
            Finished before = members.get(i - 1);
            Finished after = members.get(i);
            boolean proven = !before.autoCommit() && !after.autoCommit() ? before.commitSent() < after.commitSent()
                    : before.end() < commitFrom(after);
            if (!proven) {
                return false;
            }
        }
        return true;
    }

    /** The earliest instant at which {@code f} can have committed. */
    private static long commitFrom(Finished f) {
        return f.autoCommit() ? f.start() : f.commitSent();
    }
}
