package dev.isocheck.internal.recording.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Types;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where the recorder's hidden columns go in the application's SQL, and when it sends the SQL unchanged. */
class HiddenColumnsTests {

    private static final TableColumns DOCTORS = new TableColumns(List.of("id"), Map.of(
            "id", new TableColumns.Column("ID", Types.INTEGER), "name", new TableColumns.Column("NAME", Types.VARCHAR),
            "on_call", new TableColumns.Column("ON_CALL", Types.BOOLEAN), "born", new TableColumns.Column("BORN", Types.DATE)));

    private static String plan(String sql, Dialect dialect) {
        return HiddenColumns.plan(SqlAnalyzer.analyse(sql), sql, DOCTORS, dialect).map(HiddenColumns::sql).orElse(null);
    }

    @Test
    void anAggregateGetsOneArrayPerColumnOrderedByTheKey() {
        assertThat(plan("SELECT count(*) FROM doctors WHERE on_call", Dialect.POSTGRESQL)).isEqualTo(
                "SELECT count(*) , array_agg(\"ID\" ORDER BY \"ID\") AS isocheck_hidden_1,"
                        + " array_agg(\"ON_CALL\" ORDER BY \"ID\") AS isocheck_hidden_2 FROM doctors WHERE on_call");
        assertThat(plan("select max(name) /* from */ as \"from\" -- from\nfrom doctors", Dialect.H2)).isEqualTo(
                "select max(name) /* from */ as \"from\" -- from\n, ARRAY_AGG(\"ID\" ORDER BY \"ID\") AS isocheck_hidden_1,"
                        + " ARRAY_AGG(\"NAME\" ORDER BY \"ID\") AS isocheck_hidden_2 from doctors");
    }

    @Test
    void columnsWhoseArraysMayConvertDifferentlyAreNotAggregated() {
        assertThat(plan("SELECT max(born) FROM doctors", Dialect.H2)).isEqualTo(
                "SELECT max(born) , ARRAY_AGG(\"ID\" ORDER BY \"ID\") AS isocheck_hidden_1 FROM doctors");
    }

    @Test
    void aPlainQueryGetsTheKeyAndTheWheresColumnsItOmits() {
        assertThat(plan("SELECT name FROM doctors WHERE on_call = ?", Dialect.H2)).isEqualTo(
                "SELECT name , \"ID\" AS isocheck_hidden_1, \"ON_CALL\" AS isocheck_hidden_2 FROM doctors WHERE on_call = ?");
        assertThat(plan("SELECT id, on_call FROM doctors WHERE on_call", Dialect.H2)).isNull();
        assertThat(plan("SELECT * FROM doctors WHERE on_call", Dialect.H2)).isNull();
        assertThat(plan("SELECT DISTINCT name FROM doctors WHERE on_call", Dialect.H2)).isNull();
    }

    @Test
    void whatTheScannerCannotReadWithCertaintyIsSentUnchanged() {
        assertThat(plan("SELECT count(*) AS \"a\"\"from\" FROM doctors", Dialect.POSTGRESQL)).isEqualTo(
                "SELECT count(*) AS \"a\"\"from\" , array_agg(\"ID\" ORDER BY \"ID\") AS isocheck_hidden_1 FROM doctors");
        assertThat(plan("SELECT count(*) /* a /* nested */ FROM */ FROM doctors", Dialect.POSTGRESQL)).isNull();
        assertThat(plan("SELECT count(*) FROM doctors", Dialect.OTHER)).isNull();
        assertThat(HiddenColumns.plan(SqlAnalyzer.analyse("SELECT count(*) FROM doctors"), "SELECT count(*) FROM doctors",
                new TableColumns(List.of(), DOCTORS.columns()), Dialect.H2)).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void aQueryOrderedOrGroupedByPositionGetsNoHiddenColumns() {
        org.assertj.core.api.Assertions.assertThat(HiddenColumns.ordersByPosition("SELECT v FROM t ORDER BY 2", 1)).isTrue();
        org.assertj.core.api.Assertions.assertThat(HiddenColumns.ordersByPosition("SELECT v, w FROM t ORDER BY v, 3 DESC NULLS LAST LIMIT 5", 2)).isTrue();
        org.assertj.core.api.Assertions.assertThat(HiddenColumns.ordersByPosition("SELECT v FROM t ORDER BY 1", 1)).isFalse();
        org.assertj.core.api.Assertions.assertThat(HiddenColumns.ordersByPosition("SELECT count(*) FROM t ORDER BY 1", -1)).isTrue();
        org.assertj.core.api.Assertions.assertThat(HiddenColumns.ordersByPosition("SELECT v FROM t ORDER BY v LIMIT 10", 1)).isFalse();
        org.assertj.core.api.Assertions.assertThat(HiddenColumns.ordersByPosition("SELECT v FROM t ORDER BY v + 1 OFFSET 2", 1)).isFalse();
        org.assertj.core.api.Assertions.assertThat(HiddenColumns.ordersByPosition("SELECT v FROM t WHERE id = 2", 1)).isFalse();
    }
}
