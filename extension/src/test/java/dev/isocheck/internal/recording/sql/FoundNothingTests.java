package dev.isocheck.internal.recording.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which subqueries of a write must have found nothing for it to write a row: only those whose
 * emptiness its writing proves. Every form refused here is one where a written row does not
 * prove the subquery empty, or where the subquery may read more than its WHERE says.
 */
class FoundNothingTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // The double booking, with and without an alias.
            "INSERT INTO bookings (id, room, night) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE room = ? AND night = ?)"
                    + "|bookings|room = ? AND night = ?|night,room|true",
            "insert into bookings (id, room) select ?, ? where not exists (select * from public.bookings b where b.room = ?)"
                    + "|bookings|b.room = ?||true",
            // A count that must be 0, either way round, and beside another condition.
            "UPDATE rooms SET free = false WHERE id = ? AND (SELECT count(*) FROM bookings WHERE room = 7) = 0"
                    + "|bookings|room = 7|room|true",
            "UPDATE rooms SET free = false WHERE id = ? AND 1 > (SELECT COUNT(*) FROM bookings WHERE room = ?)"
                    + "|bookings|room = ?|room|true",
            "DELETE FROM rooms WHERE id = ? AND (SELECT count(1) FROM bookings WHERE room = ?) <= 0|bookings|room = ?|room|true",
            // NOT EXISTS of a whole table.
            "DELETE FROM rooms WHERE NOT EXISTS (SELECT 1 FROM bookings)|bookings|||true",
            // NOT (EXISTS ...), in parentheses.
            "UPDATE rooms SET free = true WHERE (NOT (EXISTS (SELECT 1 FROM bookings WHERE room = 3)))|bookings|room = 3|room|true",
            // An INSERT whose query has a FROM reads that table too: not every read is known.
            "INSERT INTO archive SELECT * FROM bookings WHERE night < 3 AND NOT EXISTS (SELECT 1 FROM locks WHERE name = 'archive')"
                    + "|locks|name = 'archive'|name|false",
    })
    void aWriteThatWroteSaysItsSubqueryFoundNothing(String sql, String table, String where, String unqualified, boolean every) {
        Optional<FoundNothing.Analysis> found = FoundNothing.of(sql);

        assertThat(found).isPresent();
        assertThat(found.get().subqueries()).singleElement().satisfies(subquery -> {
            assertThat(subquery.table()).isEqualTo(table);
            assertThat(subquery.where() == null ? null : subquery.where().toString()).isEqualTo(where);
            assertThat(String.join(",", new java.util.TreeSet<>(subquery.unqualified())))
                    .isEqualTo(unqualified == null ? "" : unqualified);
        });
        assertThat(found.get().every()).isEqualTo(every);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // EXISTS: a written row says the subquery found something, not what.
            "INSERT INTO t (id) SELECT ? WHERE EXISTS (SELECT 1 FROM u WHERE a = 1)",
            // Under an OR, the NOT EXISTS need not have held.
            "UPDATE t SET x = 1 WHERE id = ? OR NOT EXISTS (SELECT 1 FROM u WHERE a = 1)",
            // A correlated subquery: a column qualified by the outer table.
            "UPDATE t SET x = 1 WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a)",
            "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u x WHERE x.a = t.id)",
            // LIMIT 0 makes any subquery empty; OFFSET too; SKIP LOCKED skips rows that are there.
            "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE a = 1 LIMIT 0)",
            "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE a = 1 OFFSET 5)",
            "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE a = 1 FOR UPDATE SKIP LOCKED)",
            // A join, a group with HAVING: more than one table's WHERE.
            "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u JOIN v ON u.id = v.id WHERE u.a = 1)",
            "DELETE FROM t WHERE NOT EXISTS (SELECT a FROM u GROUP BY a HAVING count(*) > 1)",
            // A set-returning projection returns no row for a row matched.
            "DELETE FROM t WHERE NOT EXISTS (SELECT generate_series(1, 0) FROM u WHERE a = 1)",
            // A count that may be more than 0, or of a column's non-null values.
            "UPDATE doctors SET on_call = false WHERE id = ? AND (SELECT count(*) FROM doctors WHERE on_call) >= 2",
            "UPDATE t SET x = 1 WHERE (SELECT count(a) FROM u WHERE b = 1) = 0",
            "UPDATE t SET x = 1 WHERE (SELECT count(DISTINCT a) FROM u WHERE b = 1) = 0",
            "UPDATE t SET x = 1 WHERE (SELECT count(*) FROM u WHERE b = 1) = 1",
            // An INSERT whose query aggregates returns a row whether its WHERE held or not.
            "INSERT INTO t (n) SELECT count(*) WHERE NOT EXISTS (SELECT 1 FROM u)",
            "INSERT INTO t (n) SELECT my_aggregate(1) WHERE NOT EXISTS (SELECT 1 FROM u)",
            "INSERT INTO t (n) SELECT DISTINCT 1 WHERE NOT EXISTS (SELECT 1 FROM u)",
            // A subquery inside the subquery.
            "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE a IN (SELECT b FROM v))",
            // A qualifier with a schema is not the subquery's alias.
            "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE other.u.a = 1)",
            // Not a write; several statements; a MERGE; INSERT ... VALUES.
            "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM u)",
            "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u); DELETE FROM u",
            "INSERT INTO t VALUES ((SELECT count(*) FROM u))",
            "WITH x AS (SELECT 1) INSERT INTO t (id) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM u)",
    })
    void nothingIsSaidWhereAWrittenRowDoesNotProveTheSubqueryEmpty(String sql) {
        assertThat(FoundNothing.of(sql)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // Another subquery beside the recognised one reads what is not recorded.
            "UPDATE t SET x = (SELECT max(a) FROM v) WHERE NOT EXISTS (SELECT 1 FROM u WHERE a = 1)",
            // A function that may read any table.
            "UPDATE t SET x = my_function(1) WHERE NOT EXISTS (SELECT 1 FROM u WHERE a = 1)",
            // UPDATE ... FROM reads its other table.
            "UPDATE t SET x = 1 FROM v WHERE t.id = v.id AND NOT EXISTS (SELECT 1 FROM u WHERE a = 1)",
            // A literal that spells SELECT costs only a note.
            "UPDATE t SET note = 'select' WHERE NOT EXISTS (SELECT 1 FROM u WHERE a = 1)",
    })
    void otherReadsInsideTheStatementAreNotCovered(String sql) {
        assertThat(FoundNothing.of(sql)).hasValueSatisfying(found -> assertThat(found.every()).isFalse());
    }
}
