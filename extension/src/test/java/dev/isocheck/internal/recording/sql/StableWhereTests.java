package dev.isocheck.internal.recording.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Which UPDATE WHEREs are stable (select the same rows each time they are evaluated on the same
 * rows), and the text and parameters a read back by one is sent with.
 */
class StableWhereTests {

    @Test
    void aStableWhereKeepsItsTextItsParametersInOrderAndItsColumns() {
        StableWhere where = StableWhere.ofUpdate(
                "UPDATE jobs SET n = n + ?, note = ? WHERE (grp = ? AND `state` LIKE 'o%') OR n BETWEEN ? AND -5 OR id IN (1, ?)").orElseThrow();
        assertThat(where.text()).isEqualTo("(grp = ? AND `state` LIKE 'o%') OR n BETWEEN ? AND -5 OR id IN (1, ?)");
        assertThat(where.parameters()).containsExactly(3, 4, 5);
        assertThat(where.columns()).isEqualTo(Set.of("grp", "state", "n", "id"));
    }

    @Test
    void comparisonsNegationNullTestsAndArithmeticAreStable() {
        for (String sql : List.of("UPDATE t SET a = 1 WHERE b <> 2 AND c != 'x' AND NOT d >= 3 AND e IS NOT NULL",
                "UPDATE t SET a = 1 WHERE b + 1 * c - 2 < 7", "UPDATE t SET a = 1 WHERE b NOT IN (1, 2) AND c NOT LIKE 'x%'",
                "UPDATE t SET a = 1 WHERE flag", "UPDATE t SET a = 1 WHERE b = 1.5")) {
            assertThat(StableWhere.ofUpdate(sql)).as(sql).isPresent();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "UPDATE t SET a = 1 WHERE b < NOW()",
            "UPDATE t SET a = 1 WHERE lower(b) = 'x'",
            "UPDATE t SET a = 1 WHERE b = (SELECT max(b) FROM t)",
            "UPDATE t SET a = 1 WHERE b IN (SELECT b FROM u)",
            "UPDATE t SET a = 1 WHERE EXISTS (SELECT 1 FROM u)",
            "UPDATE t SET a = 1 WHERE t.b = 1",
            "UPDATE t x SET a = 1 WHERE x.b = 1",
            "UPDATE t SET a = 1 WHERE b = @v",
            "UPDATE t SET a = 1 WHERE b = 'it\\'s'",
            "UPDATE t SET a = 1 WHERE b = _latin1'x'",
            "UPDATE t SET a = 1 WHERE b = x'ff'",
            "UPDATE t SET a = 1 WHERE b LIKE 'a|%' ESCAPE '|'",
            "UPDATE t SET a = 1 WHERE b REGEXP 'x'",
            "UPDATE t SET a = 1 WHERE b = 1 ORDER BY c LIMIT 1",
            "UPDATE t SET a = 1 WHERE b = 1 LIMIT 2",
            "UPDATE t SET a = 1",
            "UPDATE t, u SET t.a = u.a WHERE t.b = u.b",
            "UPDATE t JOIN u ON t.b = u.b SET t.a = 1 WHERE u.c = 1",
            "UPDATE t SET a = 1 WHERE b = RAND()",
            "UPDATE t SET a = 1 WHERE b = CURRENT_TIMESTAMP",
            "UPDATE t SET a = 1 WHERE b = 1 COLLATE utf8mb4_bin",
            "UPDATE t SET a = 1 WHERE b IS TRUE",
            "UPDATE t SET a = 1 WHERE b = CAST(1 AS CHAR)",
            "UPDATE t SET a = 1 WHERE b = 1; UPDATE t SET a = 2 WHERE b = 2",
            "DELETE FROM t WHERE b = 1",
            "SELECT * FROM t WHERE b = 1",
    })
    void anythingElseIsNot(String sql) {
        assertThat(StableWhere.ofUpdate(sql)).as(sql).isEmpty();
    }
}
