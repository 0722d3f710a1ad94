package dev.isocheck.internal.recording.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("reads inside a statement that the recorder does not see")
class UnseenReadsTests {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // the double booking
        "INSERT INTO bookings (room, day) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE room = ? AND day = ?)"
                + "|table bookings read inside it",
        "INSERT INTO archive SELECT * FROM orders WHERE shipped|table orders read inside it",
        "INSERT INTO t (id, n) VALUES (?, (SELECT max(n) FROM u))|table u read inside it",
        // the last doctor on call
        "UPDATE doctors SET on_call = false WHERE id = ? AND (SELECT count(*) FROM doctors WHERE on_call) >= 2"
                + "|table doctors read inside it",
        "UPDATE a SET x = (SELECT y FROM b WHERE b.id = a.id)|table b read inside it",
        "UPDATE a SET x = b.x FROM b WHERE a.id = b.id|table b read inside it",
        "DELETE FROM a USING b WHERE a.id = b.id|table b read inside it",
        "DELETE FROM a WHERE id IN (SELECT a_id FROM b)|table b read inside it",
        "SELECT * FROM t WHERE id IN (SELECT tid FROM u)|table u read inside it",
        "SELECT id, (SELECT count(*) FROM u WHERE u.t = t.id) FROM t|table u read inside it",
        "SELECT reserve(?)|function reserve, which may read any table",
        // a writable WITH: the rows its DELETE ranged over; its name is not a table
        "WITH moved AS (DELETE FROM inbox WHERE id = 1 RETURNING id, body) INSERT INTO archive SELECT id, body FROM moved"
                + "|table inbox read inside it (",
        "UPDATE t SET n = bump(n) WHERE id IN (SELECT id FROM \"Public\".\"U\")|table u read inside it (a subquery, INSERT ... SELECT,"
                + " UPDATE ... FROM or DELETE ... USING); function bump, which may read any table",
    })
    void aStatementThatReadsInsideItselfIsListedWithWhatItReads(String sql, String reads) {
        assertThat(UnseenReads.of(sql)).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("what it reads besides its own rows is not checked: ").contains(reads));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT * FROM t WHERE id = ?",
        "SELECT on_call FROM doctors WHERE shift = ? AND on_call",
        "SELECT count(*) FROM doctors WHERE on_call",
        "INSERT INTO t (id, n) VALUES (?, ?)",
        "INSERT INTO t (id, made) VALUES (nextval('t_id'), now())",
        "UPDATE t SET n = n + 1 WHERE id = ?",
        "UPDATE doctors d SET on_call = false WHERE d.id = ? AND d.shift = 2",
        "SELECT d.name FROM doctors d WHERE d.on_call",
        "DELETE FROM t WHERE id = ? AND n > 2",
        "SELECT 1",
        "SELECT * FROM a JOIN b ON a.id = b.a",
        "WITH open AS (SELECT * FROM orders) SELECT * FROM open",
        "not sql at all (((",
        // listed where it is recorded (PostgreSQL 18), or its table left out
        "MERGE INTO stock s USING deliveries d ON s.sku = d.sku WHEN MATCHED THEN UPDATE SET n = s.n + d.n",
    })
    void aStatementWhoseReadsAreItsOwnRowsOrListedOtherwiseIsNot(String sql) {
        assertThat(UnseenReads.of(sql)).isEmpty();
    }
}
