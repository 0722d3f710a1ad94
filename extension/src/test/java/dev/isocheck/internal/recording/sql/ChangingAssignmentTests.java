package dev.isocheck.internal.recording.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChangingAssignmentTests {

    private static final TableColumns ACCOUNTS = new TableColumns(List.of("id"), Map.of(
            "id", new TableColumns.Column("id", Types.INTEGER, false, true),
            "balance", new TableColumns.Column("balance", Types.BIGINT, false, true),
            "maybe", new TableColumns.Column("maybe", Types.INTEGER, false, false),
            "amount", new TableColumns.Column("amount", Types.DECIMAL, false, true)));

    private static boolean changes(String sql, Object... parameters) {
        List<Object> bound = new java.util.ArrayList<>(Arrays.asList(parameters));
        bound.add(0, null);
        return ChangingAssignment.changesEveryRow(sql, bound, ACCOUNTS);
    }

    @Test
    void aNonzeroIntegerAddedToANotNullIntegerColumnChangesEveryRow() {
        assertThat(changes("UPDATE accounts SET balance = balance + 1 WHERE id = 1")).isTrue();
        assertThat(changes("UPDATE accounts SET balance = balance - ? WHERE id = ?", 5, 1)).isTrue();
        assertThat(changes("UPDATE accounts SET maybe = 3, balance = 2 + balance WHERE id = ?", 1)).isTrue();
        assertThat(changes("UPDATE accounts SET `balance` = `balance` + ? WHERE id = ?", 7L, 1)).isTrue();
    }

    @Test
    void anythingThatMayLeaveARowAsItWasDoesNot() {
        assertThat(changes("UPDATE accounts SET balance = balance + 0 WHERE id = 1")).as("zero").isFalse();
        assertThat(changes("UPDATE accounts SET balance = balance - ? WHERE id = ?", 0, 1)).as("zero bound").isFalse();
        assertThat(changes("UPDATE accounts SET balance = balance - ? WHERE id = ?", "5", 1)).as("a string bound").isFalse();
        assertThat(changes("UPDATE accounts SET maybe = maybe + 1 WHERE id = 1")).as("NULL + 1 is NULL").isFalse();
        assertThat(changes("UPDATE accounts SET balance = 1 - balance WHERE id = 1")).as("1 - 0.5").isFalse();
        assertThat(changes("UPDATE accounts SET amount = amount + 1 WHERE id = 1")).as("not an integer column").isFalse();
        assertThat(changes("UPDATE accounts SET balance = balance + 1.5 WHERE id = 1")).as("not an integer").isFalse();
        assertThat(changes("UPDATE accounts SET balance = 5 WHERE id = 1")).isFalse();
        assertThat(changes("UPDATE accounts SET balance = maybe + 1 WHERE id = 1")).as("another column").isFalse();
        assertThat(changes("UPDATE accounts a JOIN other o ON o.id = a.id SET a.balance = a.balance + 1")).isFalse();
        assertThat(changes("DELETE FROM accounts WHERE id = 1")).isFalse();
        assertThat(changes("UPDATE accounts SET balance = balance + 1, balance = balance - 1 WHERE id = 1")).as("set twice").isFalse();
        assertThat(changes("UPDATE IGNORE accounts SET balance = balance + 1 WHERE id = 1")).as("clamps").isFalse();
        assertThat(changes("UPDATE accounts SET balance = balance + 1; DELETE FROM accounts")).isFalse();
    }
}
