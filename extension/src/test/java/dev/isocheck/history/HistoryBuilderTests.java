package dev.isocheck.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.OptionalInt;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryBuilderTests {

    @Test
    void aRecordedTransactionKeepsItsThreadAndWhichStatementProducedEachOperation() {
        HistoryBuilder builder = History.builder();
        SqlStatement select = SqlStatement.of("SELECT * FROM doctors WHERE id = ?", List.of("1"));
        SqlStatement update = new SqlStatement("UPDATE doctors SET on_call = FALSE WHERE id = ?", List.of("2"),
                java.util.Optional.of("DoctorDao.goOffCall"));
        builder.transaction("T1").thread("worker-1").read("x", 0)
                .statement(select).read("doctors/1", 1)
                .statement(update).read("doctors/2", 1).write("doctors/2", 0);
        builder.transaction("T2").write("x", 1);
        History history = builder.build();

        Transaction t1 = history.transaction(0);
        assertThat(t1.thread()).contains("worker-1");
        assertThat(t1.statements()).containsExactly(select, update);
        assertThat(List.of(t1.statementOf(0), t1.statementOf(1), t1.statementOf(2), t1.statementOf(3)))
                .containsExactly(OptionalInt.empty(), OptionalInt.of(0), OptionalInt.of(1), OptionalInt.of(1));
        assertThat(update.toString()).isEqualTo("UPDATE doctors SET on_call = FALSE WHERE id = ?  [2]");
        Transaction t2 = history.transaction(1);
        assertThat(t2.thread()).isEmpty();
        assertThat(t2.statements()).isEmpty();
        assertThat(t2.statementOf(0)).isEmpty();

        Transaction restricted = history.restrictedTo(new int[] {0}, (t, i) -> i != 1).transaction(0);
        assertThat(restricted.statements()).containsExactly(select, update);
        assertThat(List.of(restricted.statementOf(0), restricted.statementOf(1), restricted.statementOf(2)))
                .containsExactly(OptionalInt.empty(), OptionalInt.of(1), OptionalInt.of(1));
    }

    @Test
    void transactionsKeepFileOrderAndSessionsGroupThem() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").session("alice").write("x", 1);
        b.transaction("T2").read("x", 1);
        b.transaction("T3").session("bob").read("x", 1);
        b.transaction(4).session("alice").aborted().write("x", 2);
        History h = b.build();

        assertThat(h.transactions()).extracting(Transaction::id).containsExactly("T1", "T2", "T3", "4");
        assertThat(h.transaction(3).hasNumericId()).isTrue();
        assertThat(h.sessions()).extracting(Session::name).containsExactly("alice", "T2", "bob");
        assertThat(h.sessions().get(0).transactions()).containsExactly(0, 3);
        assertThat(h.sessions().get(1).isImplicit()).isTrue();
        assertThat(h.sessionOf(h.transaction(3)).name()).isEqualTo("alice");
        assertThat(h.committedCount()).isEqualTo(3);
        assertThat(h.transaction("T3")).map(Transaction::index).contains(2);
        assertThat(h.transaction("T9")).isEmpty();
    }

    @Test
    void unknownInitialValuesAreUnwrittenUnlessDeclaredAny() {
        HistoryBuilder b = History.builder().initialValue("x", 0);
        b.transaction("T1").read("x", 0).read("y", 1);
        History h = b.build();
        assertThat(h.initialState().unknownValues()).isEqualTo(UnknownInitialValues.UNWRITTEN);
        assertThat(h.initialState().mayBeAnyValue(h.keys().idOf("y"))).isFalse();

        HistoryBuilder any = History.builder().initialValue("x", 0).unknownInitialValues(UnknownInitialValues.ANY);
        any.transaction("T1").read("x", 0).read("y", 1);
        History a = any.build();
        assertThat(a.initialState().unknownValues()).isEqualTo(UnknownInitialValues.ANY);
        assertThat(a.initialState().mayBeAnyValue(a.keys().idOf("y"))).isTrue();
        assertThat(a.initialState().mayBeAnyValue(a.keys().idOf("x"))).as("a listed key is known").isFalse();

        HistoryBuilder complete = History.builder().initialStateComplete(true).unknownInitialValues(UnknownInitialValues.ANY);
        complete.transaction("T1").read("y", null);
        assertThat(complete.build().initialState().mayBeAnyValue(0)).as("complete: nothing is unknown").isFalse();

        assertThatThrownBy(() -> History.builder().unknownInitialValues(null)).isInstanceOf(NullPointerException.class);
        assertThat(UnknownInitialValues.ANY.formatName()).isEqualTo("any");
        assertThat(UnknownInitialValues.fromFormatName("unwritten")).contains(UnknownInitialValues.UNWRITTEN);
        assertThat(UnknownInitialValues.fromFormatName("Any")).isEmpty();
        assertThat(UnknownInitialValues.fromFormatName(null)).isEmpty();
    }

    @Test
    void operationsAreStoredWithInternedKeysAndValues() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").read("x", null).write("x", 5).write("y", 5).write("x", 6).delete("y");
        History h = b.build();
        Transaction t = h.transaction(0);

        assertThat(t.size()).isEqualTo(5);
        assertThat(t.kind(0)).isEqualTo(OpKind.READ);
        assertThat(t.value(0)).isEqualTo(ValueTable.ABSENT);
        assertThat(t.value(1)).isEqualTo(t.value(2)).isEqualTo(h.values().idOf(Value.of(5)));
        assertThat(h.keys().name(t.key(2))).isEqualTo("y");
        assertThat(t.isFinalWrite(1)).isFalse();
        assertThat(t.isFinalWrite(3)).isTrue();
        assertThat(t.isFinalWrite(4)).isTrue();
        assertThat(t.isExternalRead(0)).isTrue();
        assertThat(t.writes(h.keys().idOf("y"))).isTrue();
        assertThat(t.toString()).isEqualTo("T1: r(x, null) w(x, 5) w(y, 5) w(x, 6) w(y, null)");
    }

    @Test
    void laterReadsOfAKeyAreInternal() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").read("x", 1).read("x", 1).write("y", 2).read("y", 2).read("z", 3);
        Transaction t = b.build().transaction(0);
        assertThat(t.isExternalRead(0)).isTrue();
        assertThat(t.isExternalRead(1)).isFalse();
        assertThat(t.isExternalRead(3)).isFalse();
        assertThat(t.isExternalRead(4)).isTrue();
    }

    @Test
    void initialStateIsKnownAbsentOrUnknown() {
        HistoryBuilder open = History.builder().initialValue("x", 0);
        open.transaction("T1").read("y", 1);
        History unknown = open.build();
        assertThat(unknown.initialState().valueOf(unknown.keys().idOf("x"))).isEqualTo(unknown.values().idOf(Value.of(0)));
        assertThat(unknown.initialState().valueOf(unknown.keys().idOf("y"))).isEqualTo(InitialState.UNKNOWN);
        assertThat(unknown.initialState().isComplete()).isFalse();

        HistoryBuilder closed = History.builder().initialValue("x", 0).initialStateComplete(true);
        closed.transaction("T1").read("y", null);
        History complete = closed.build();
        assertThat(complete.initialState().valueOf(complete.keys().idOf("y"))).isEqualTo(ValueTable.ABSENT);
        assertThat(complete.initialState().isKnown(complete.keys().idOf("y"))).isTrue();
        assertThat(complete.initialState().listedCount()).isEqualTo(1);
    }

    @Test
    void predicateReadsKeepTheirRowsInOrder() {
        Map<String, Object> rows = new LinkedHashMap<>();
        rows.put("doctors/2", Map.of("id", 2, "on_call", true));
        rows.put("doctors/1", Map.of("id", 1, "on_call", true));
        HistoryBuilder b = History.builder();
        b.transaction("T1").predicate("doctors", "on_call = TRUE", rows).write("doctors/1", Map.of("id", 1, "on_call", false));
        b.transaction("T2").write("doctors/3", Map.of("id", 3, "on_call", false)).write("nurses/1", 1);
        History h = b.build();
        PredicateRead p = h.transaction(0).predicate(0);

        assertThat(p.table()).isEqualTo("doctors");
        assertThat(p.where()).isEqualTo("on_call = TRUE");
        assertThat(p.rows()).extracting(Map.Entry::getKey).containsExactly("doctors/2", "doctors/1");
        assertThat(p.valueReturnedFor(h.keys().idOf("doctors/1"))).isEqualTo(p.rowValue(1));
        assertThat(p.valueReturnedFor(h.keys().idOf("doctors/3"))).isEqualTo(-1);
        assertThat(java.util.Arrays.stream(h.keys().keysOfTable("doctors")).mapToObj(h.keys()::name))
                .containsExactly("doctors/2", "doctors/1", "doctors/3");
        assertThat(h.transaction(0).key(0)).isEqualTo(-1);
        assertThat(h.transaction(0).hasPredicateReads()).isTrue();
        assertThatThrownBy(() -> h.transaction(0).predicate(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("operation 1 of T1 is a WRITE, not a predicate read");
    }

    @Test
    void keyIndexListsReadsAndWritesPerKeyInTransactionOrder() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").write("x", 1).read("y", null);
        b.transaction("T2").aborted().write("x", 2).write("x", 3);
        b.transaction("T3").read("x", 1);
        History h = b.build();
        KeyIndex index = h.index();
        int x = h.keys().idOf("x");

        assertThat(index.writeCount(x)).isEqualTo(3);
        assertThat(KeyIndex.transactionOf(index.write(x, 0))).isZero();
        assertThat(KeyIndex.transactionOf(index.write(x, 2))).isEqualTo(1);
        assertThat(KeyIndex.operationOf(index.write(x, 2))).isEqualTo(1);
        assertThat(index.readCount(x)).isEqualTo(1);
        assertThat(KeyIndex.transactionOf(index.read(x, 0))).isEqualTo(2);
        assertThat(index.readCount(h.keys().idOf("y"))).isEqualTo(1);
        assertThat(h.index()).isSameAs(index);
        assertThat(h.operationCount()).isEqualTo(5);
    }

    @Test
    void aRestrictionKeepsTheChosenTransactionsAndOperationsWithTheirSessionsAndTimes() {
        HistoryBuilder b = History.builder().initialValue("x", 0);
        b.transaction("T1").session("a").times(1, 2).read("x", 0).write("x", 1);
        b.transaction("T2").session("b").read("x", 1);
        b.transaction("T3").session("a").times(5, 6).read("y", 0).predicate("t", "v > 1", Map.of())
                .predicate("t", "v > 2", Map.of("t/1", Map.of("v", 3))).write("y", 2);
        History h = b.build();

        History r = h.restrictedTo(new int[] {2, 0, 2},
                (t, op) -> !(t.id().equals("T3") && (op == 0 || op == 1)));

        assertThat(r.transactions()).extracting(Transaction::id).containsExactly("T1", "T3");
        assertThat(r.transactions()).extracting(Transaction::index).containsExactly(0, 1);
        assertThat(r.sessions()).extracting(Session::name).containsExactly("a");
        assertThat(r.sessions().get(0).transactions()).containsExactly(0, 1);
        assertThat(r.sessionOf(r.transaction(1)).name()).isEqualTo("a");
        assertThat(r.transaction(1).start().getAsLong()).isEqualTo(5);
        assertThat(r.transaction(0).toString()).isEqualTo(h.transaction(0).toString());
        assertThat(r.transaction(1).size()).isEqualTo(2);
        assertThat(r.transaction(1).predicate(0).where()).isEqualTo("v > 2");
        assertThat(r.transaction(1).describe(1)).isEqualTo("w(y, 2)");
        assertThat(r.initialState().valueOf(r.keys().idOf("x"))).isEqualTo(h.initialState().valueOf(h.keys().idOf("x")));
        assertThat(r.committedCount()).isEqualTo(2);
        assertThat(r.transaction("T2")).isEmpty();
    }

    @Test
    void misuseIsRefusedWithAMessageNamingIt() {
        HistoryBuilder b = History.builder();
        b.transaction("T1");
        assertThatThrownBy(() -> b.transaction("T1")).hasMessage("duplicate transaction id T1");
        assertThatThrownBy(() -> b.transaction(1.5)).hasMessage("a transaction id must be a string or an integer, not 1.5");
        assertThatThrownBy(() -> b.transaction("T2").times(10, 5)).hasMessage("transaction T2 ends (5) before it starts (10)");
        assertThatThrownBy(() -> b.transaction("T3").predicate("doctors", "TRUE", Map.of("nurses/1", 1)))
                .hasMessageContaining("row nurses/1 returned by a predicate read of table doctors is not a key of that table");
        b.build();
        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class);
    }
}
