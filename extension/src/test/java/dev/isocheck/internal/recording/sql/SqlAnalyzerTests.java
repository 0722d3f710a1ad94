package dev.isocheck.internal.recording.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.internal.recording.sql.AnalysedStatement.NoRowsKnown;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Opaque;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Operand;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Query;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlAnalyzerTests {

    @Test
    void aSingleTableSelectIsAQuery() {
        Query q = (Query) SqlAnalyzer.analyse("SELECT on_call, d.name FROM Doctors d WHERE d.id = ? AND shift = 2");

        assertThat(q.table()).isEqualTo("doctors");
        assertThat(q.columns()).containsExactly("on_call", "name");
        assertThat(q.equalities()).containsEntry("id", new Operand.Parameter(1)).containsEntry("shift", new Operand.Literal(2L));
        assertThat(q.onlyEqualities()).isTrue();
        assertThat(q.limited()).isFalse();
    }

    @Test
    void parametersAreNumberedAcrossTheWholeStatement() {
        Query q = (Query) SqlAnalyzer.analyse("SELECT * FROM t WHERE a > ? AND id = ? LIMIT 3");

        assertThat(q.columns()).isNull();
        assertThat(q.equalities()).containsExactly(java.util.Map.entry("id", new Operand.Parameter(2)));
        assertThat(q.onlyEqualities()).isFalse();
        assertThat(q.limited()).isTrue();
        assertThat(WhereText.of(q.where(), Arrays.asList(null, 5, "o'k"))).contains("a > 5 AND id = 'o''k'");
        assertThat(WhereText.of(q.where(), Arrays.asList(null, 5, new Object()))).isEmpty();
    }

    @Test
    void queriesThatSkipRowsAreNotWholeResults() {
        assertThat(((Query) SqlAnalyzer.analyse("SELECT * FROM t WHERE n > 1 FOR UPDATE SKIP LOCKED")).limited()).isTrue();
        assertThat(((Query) SqlAnalyzer.analyse("SELECT * FROM t WHERE n > 1 FOR UPDATE")).limited()).isFalse();
    }

    @Test
    void readsThatCannotBeKeyedAreNotRecorded() {
        for (String sql : List.of("SELECT a.x + 1 FROM a JOIN b ON a.id = b.id", "SELECT a.x FROM a RIGHT JOIN b ON a.id = b.id",
                "SELECT DISTINCT a.x FROM a JOIN b ON a.id = b.id", "SELECT a.x FROM a JOIN (SELECT id FROM b) c ON a.id = c.id",
                "SELECT a.x FROM a JOIN b ON a.id = b.id GROUP BY a.x", "SELECT x FROM t JOIN t ON t.id = t.id",
                "SELECT count(*) FROM t GROUP BY x", "SELECT EXISTS (SELECT 1 FROM doctor WHERE on_call)",
                "SELECT count(*) + 1 FROM t", "SELECT count(x + 1) FROM t", "SELECT count(*) OVER () FROM t",
                "SELECT count(*), x FROM t", "SELECT string_agg(x, ',') FROM t", "SELECT count(*) FROM t HAVING count(*) > 1",
                "SELECT x + 1 FROM t", "SELECT x FROM (SELECT x FROM t) s", "SELECT x FROM t GROUP BY x",
                "SELECT x FROM a UNION SELECT x FROM b")) {
            assertThat(SqlAnalyzer.analyse(sql)).as(sql).isInstanceOf(NoRowsKnown.class);
        }
    }

    @Test
    void joinsOfTablesWithAPlainProjectionAreJoined() {
        assertThat(SqlAnalyzer.analyse("select d1_0.id, s1_0.name from doctor d1_0 left join shift s1_0 on s1_0.id=d1_0.shift_id"
                + " where d1_0.id=?")).isInstanceOfSatisfying(AnalysedStatement.Joined.class, j -> {
                    assertThat(j.sources()).extracting(AnalysedStatement.Joined.Source::table).containsExactly("doctor", "shift");
                    assertThat(j.sources()).extracting(AnalysedStatement.Joined.Source::alias).containsExactly("d1_0", "s1_0");
                    assertThat(j.keepsEveryRowOfTheFirst()).isTrue();
                    assertThat(j.where()).hasToString("d1_0.id = ?");
                    assertThat(j.limited()).isFalse();
                });
        assertThat(SqlAnalyzer.analyse("SELECT * FROM a, b WHERE a.id = b.a_id LIMIT 3"))
                .isInstanceOfSatisfying(AnalysedStatement.Joined.class, j -> {
                    assertThat(j.keepsEveryRowOfTheFirst()).isFalse();
                    assertThat(j.limited()).isTrue();
                });
        // A pool's validation query reads no table, and says nothing.
        assertThat(SqlAnalyzer.analyse("SELECT 1")).isInstanceOfSatisfying(NoRowsKnown.class, n -> assertThat(n.readsRows()).isFalse());
    }

    @Test
    void plainAggregatesWithoutGroupByAreAggregatesOverTheirWhere() {
        assertThat(SqlAnalyzer.analyse("SELECT count(*) FROM doctors WHERE on_call"))
                .isInstanceOfSatisfying(AnalysedStatement.Aggregate.class, a -> {
                    assertThat(a.table()).isEqualTo("doctors");
                    assertThat(a.where()).hasToString("on_call");
                    assertThat(a.arguments()).isEmpty();
                    assertThat(a.limited()).isFalse();
                });
        assertThat(SqlAnalyzer.analyse("SELECT COUNT(DISTINCT x), sum(y) AS s, min(z), max(z), avg(\"W\") FROM t"))
                .isEqualTo(new AnalysedStatement.Aggregate("t", null, Set.of("x", "y", "z", "w"), false));
        assertThat(((AnalysedStatement.Aggregate) SqlAnalyzer.analyse("SELECT count(*) FROM t OFFSET 1")).limited()).isTrue();
    }

    @Test
    void writesNameTheirTableAndTheColumnsTheySet() {
        Write update = (Write) SqlAnalyzer.analyse("UPDATE public.T SET n = n + 1, \"Id\" = 2 WHERE id = 1");
        assertThat(List.of(update.kind(), update.table(), update.assigned())).isEqualTo(List.of(WriteKind.UPDATE, "t", Set.of("n", "id")));
        Write upsert = (Write) SqlAnalyzer.analyse("INSERT INTO t (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET n = 0");
        assertThat(List.of(upsert.kind(), upsert.table(), upsert.assigned(), upsert.isUpsert()))
                .isEqualTo(List.of(WriteKind.INSERT, "t", Set.of("n"), true));
        // SET n = 0 overwrites n without using it; SET n = t.n + 1 uses it.
        assertThat(upsert.used()).doesNotContain("n");
        assertThat(((Write) SqlAnalyzer.analyse("INSERT INTO t VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = t.n + 1")).used())
                .contains("n");
        Write delete = (Write) SqlAnalyzer.analyse("DELETE FROM t WHERE id = 1;");
        assertThat(List.of(delete.kind(), delete.table(), delete.assigned(), String.valueOf(delete.where()), delete.limited()))
                .isEqualTo(List.of(WriteKind.DELETE, "t", Set.of(), "id = 1", false));
        assertThat(((Write) SqlAnalyzer.analyse("DELETE FROM t WHERE id > 1 LIMIT 2")).limited()).isTrue();
    }

    @Test
    void writesThatCannotBeRewrittenLeaveTheirTableOut() {
        assertThat(SqlAnalyzer.analyse("UPDATE t SET n = 1 RETURNING id")).isEqualTo(new Opaque(Optional.of("t"),
                "an UPDATE with RETURNING (where it cannot be sent with columns of its own added), WITH, joins or ON DUPLICATE KEY"));
        assertThat(SqlAnalyzer.returningWrite("UPDATE t SET n = 1 RETURNING id")).hasValueSatisfying(w -> {
            assertThat(w.kind()).isEqualTo(WriteKind.UPDATE);
            assertThat(w.assigned()).containsExactly("n");
        });
        assertThat(SqlAnalyzer.returningWrite("UPDATE t SET n = 1 RETURNING (SELECT max(n) FROM u)")).isEmpty();
        assertThat(SqlAnalyzer.returningWrite("UPDATE t SET n = u.n FROM u WHERE t.id = u.id RETURNING t.id")).isEmpty();
        assertThat(SqlAnalyzer.returningWrite("UPDATE t SET n = 1")).isEmpty();
        assertThat(SqlAnalyzer.analyse("UPDATE t SET n = u.n FROM u WHERE t.id = u.id")).isInstanceOf(Opaque.class);
        assertThat(((Opaque) SqlAnalyzer.analyse("TRUNCATE TABLE t")).table()).contains("t");
        // A MERGE is a write of its table, which only a dialect returning old rows records (else its table is left out).
        Write merge = (Write) SqlAnalyzer.analyse("MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN UPDATE SET n = 1");
        assertThat(List.of(merge.kind(), merge.table(), merge.assigned())).isEqualTo(List.of(WriteKind.MERGE, "t", Set.of("n")));
        assertThat(Dialect.POSTGRESQL.rewrite(merge, "MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN DELETE")).isEmpty();
        assertThat(Dialect.H2.rewrite(merge, "MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN DELETE")).isEmpty();
        assertThat(Dialect.POSTGRESQL.rewriteWithOldRows(merge, "MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN DELETE", 17)).isEmpty();
        assertThat(Dialect.POSTGRESQL.rewriteWithOldRows(merge, "MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN DELETE", 18))
                .contains("MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN DELETE\nRETURNING new.*, old.*");
    }

    @Test
    void settingsLocksAndPlansChangeNoRow() {
        for (String sql : List.of("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "SET search_path TO app",
                "LOCK TABLE t IN EXCLUSIVE MODE", "EXPLAIN SELECT * FROM t", "COMMENT ON TABLE t IS 'x'", "SHOW x")) {
            assertThat(SqlAnalyzer.analyse(sql)).as(sql).isInstanceOf(NoRowsKnown.class);
        }
        assertThat(SqlAnalyzer.analyse("EXPLAIN ANALYZE DELETE FROM t")).isInstanceOf(Opaque.class);
    }

    @Test
    void whatCannotBeAnalysedMayChangeAnyTable() {
        for (String sql : List.of("CALL transfer(1, 2)", "UPDATE a SET x = 1; UPDATE b SET x = 1", "DO $$ BEGIN END $$",
                "COMMIT", "BEGIN", "SAVEPOINT a", "WITH gone AS (DELETE FROM t RETURNING *) SELECT * FROM gone")) {
            assertThat(SqlAnalyzer.analyse(sql)).as(sql).isInstanceOfSatisfying(Opaque.class, o -> assertThat(o.table()).isEmpty());
        }
    }

    @Test
    void dialectsRewriteWritesToReturnTheirRows() {
        Write update = new Write(WriteKind.UPDATE, "t", Set.of("n"));
        Write delete = new Write(WriteKind.DELETE, "t", Set.of());
        assertThat(Dialect.POSTGRESQL.rewrite(update, "UPDATE t SET n = 1 -- note\n;")).contains("UPDATE t SET n = 1 -- note\nRETURNING *");
        assertThat(Dialect.H2.rewrite(delete, "DELETE FROM t")).contains("SELECT * FROM OLD TABLE (DELETE FROM t\n)");
        assertThat(Dialect.H2.rewrite(update, "UPDATE t SET n = 1")).contains("SELECT * FROM FINAL TABLE (UPDATE t SET n = 1\n)");
        assertThat(Dialect.OTHER.rewrite(update, "UPDATE t SET n = 1")).isEmpty();
        assertThat(Dialect.of("HSQL Database Engine", "2.7.4")).isEqualTo(Dialect.HSQLDB);
        assertThat(Dialect.HSQLDB.rewrite(update, "UPDATE t SET n = 1")).isEmpty();
        assertThat(Dialect.of("MySQL", "8.4.3")).isEqualTo(Dialect.MYSQL);
        assertThat(Dialect.MYSQL.rewrite(delete, "DELETE FROM t")).isEmpty();
        // MySQL's driver calls MariaDB MySQL; the version says which it is.
        assertThat(Dialect.of("MySQL", "11.4.5-MariaDB-log")).isEqualTo(Dialect.MARIADB);
        assertThat(Dialect.of("MariaDB", "11.4.5-MariaDB-log")).isEqualTo(Dialect.MARIADB);
        assertThat(Dialect.MARIADB.rewrite(delete, "DELETE FROM t -- note")).contains("DELETE FROM t -- note\nRETURNING *");
        // No UPDATE ... RETURNING: its row is read back instead.
        assertThat(Dialect.MARIADB.rewrite(update, "UPDATE t SET n = 1")).isEmpty();
        assertThat(Dialect.MARIADB.readsBackWrites()).isTrue();
        assertThat(Dialect.MARIADB.quote("we`ird")).isEqualTo("`we``ird`");
        assertThat(Dialect.POSTGRESQL.quote("we\"ird")).isEqualTo("\"we\"\"ird\"");
        assertThat(Dialect.of("Oracle", "23")).isEqualTo(Dialect.OTHER);
    }

    @Test
    void columnValuesConvertByWhatTheyMean() {
        assertThat(ColumnValues.toJson(java.sql.Date.valueOf("2024-01-02"))).isEqualTo("2024-01-02");
        assertThat(ColumnValues.toJson(new byte[] {1, (byte) 255})).isEqualTo("0x01ff");
        assertThat(ColumnValues.toJson(Double.NaN)).isEqualTo("NaN");
        assertThat(ColumnValues.toJson(new Object())).isSameAs(ColumnValues.UNSUPPORTED);
        assertThat(ColumnValues.keyPart(new java.math.BigDecimal("5.00"))).contains(java.math.BigInteger.valueOf(5));
        assertThat(ColumnValues.keyPart(1.5)).isEmpty();
    }

    @Test
    void theRowsAnInsertListsAreItsValuesByColumn() {
        SqlAnalyzer.InsertedValues one = SqlAnalyzer.insertedValues("INSERT INTO t (id, Name, at) VALUES (?, 'a''b', NOW())").orElseThrow();
        assertThat(one.columns()).containsExactly("id", "name", "at");
        assertThat(one.rows()).singleElement().isEqualTo(Arrays.asList(new Operand.Parameter(1), new Operand.Literal("a'b"), null));

        SqlAnalyzer.InsertedValues two = SqlAnalyzer.insertedValues("INSERT INTO t (id) VALUES (7), (?)").orElseThrow();
        assertThat(two.rows()).containsExactly(List.of(new Operand.Literal(7L)), List.of(new Operand.Parameter(1)));

        // A backslash escapes on MySQL: the literal's value is not read.
        assertThat(SqlAnalyzer.insertedValues("INSERT INTO t (id) VALUES ('a\\b')").orElseThrow().rows())
                .singleElement().isEqualTo(Arrays.asList((Operand) null));
        for (String other : List.of("INSERT INTO t VALUES (1)", "INSERT INTO t (id) SELECT 1",
                "INSERT INTO t (id) VALUES (1) ON DUPLICATE KEY UPDATE id = 2", "INSERT INTO t (id, id) VALUES (1, 2)",
                "INSERT INTO t (id, n) VALUES (1)", "UPDATE t SET id = 1", "INSERT INTO t (id) VALUES (1); DELETE FROM t")) {
            assertThat(SqlAnalyzer.insertedValues(other)).as(other).isEmpty();
        }
    }

    @Test
    void anInListOfKeysIsReadFromTheTopLevelConjuncts() {
        Write update = (Write) SqlAnalyzer.analyse("UPDATE t SET n = 1 WHERE (ID IN (?, 3, 'x')) AND n > 0");
        assertThat(SqlAnalyzer.inList(update.where(), "id"))
                .contains(List.of(new Operand.Parameter(1), new Operand.Literal(3L), new Operand.Literal("x")));
        for (String other : List.of("UPDATE t SET n = 1 WHERE id NOT IN (1, 2)", "UPDATE t SET n = 1 WHERE id IN (1, 2) OR n = 0",
                "UPDATE t SET n = 1 WHERE id IN (SELECT id FROM u)", "UPDATE t SET n = 1 WHERE id IN (1, n)",
                "UPDATE t SET n = 1 WHERE id IN (1) AND id IN (2)")) {
            assertThat(SqlAnalyzer.inList(((Write) SqlAnalyzer.analyse(other)).where(), "id")).as(other).isEmpty();
        }
    }
}
