package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.spring.jdbc.JdbcStockroom;
import dev.isocheck.examples.spring.jpa.JpaStockroom;
import dev.isocheck.examples.spring.mybatis.MyBatisStockroom;
import dev.isocheck.explain.Explanation;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ContextConfiguration;

/**
 * The stockroom on MariaDB, the same application (Hibernate picks its MariaDB dialect, MyBatis and
 * JdbcTemplate send the same SQL): at READ COMMITTED two nurses lose a box of gloves in each stack,
 * and the check says so, naming the lost update and the UPDATE each stack sent, with nothing left
 * out (MariaDB's UPDATE has no RETURNING: the recorder reads the row back inside the transaction).
 * The fixed code of each stack passes: {@link FixedStockroomOnMariadbTests}.
 */
class StockroomOnMariadbTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "withJpa          | update supply set on_hand=? where sku=?  [9, gloves]",
        "withJdbcTemplate | UPDATE supply SET on_hand = ? WHERE sku = ?  [9, gloves]",
        "withMyBatis      | UPDATE supply SET on_hand = ? WHERE sku = ?  [9, gloves]",
    })
    void theLostUpdateFailsTheTest(String method, String update) {
        Throwable thrown = ExploredRun.of(TwoNursesOnMariadb.class, method, reports).firstFailure(3);

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError failure = (IsolationViolationError) thrown;
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class,
                cycles -> assertThat(cycles.familiarName()).contains("lost update"));
        assertThat(failure.getMessage()).contains("supply/gloves", update, "thread nurse-1", "thread nurse-2");
        assertThat(failure.notModelled()).isEmpty();
    }

    /** The application on the tests' MariaDB, its {@code DataSource} recorded. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @SpringBootTest(classes = dev.isocheck.examples.spring.HospitalApplication.class)
    @Import(RecordTheDataSource.class)
    @ContextConfiguration(initializers = EmbeddedMariadbUrl.class)
    public @interface OnMariadb {
    }

    /** 10 boxes of gloves on the MariaDB, set up unrecorded. */
    static void stockTenBoxes() {
        JdbcTemplate unrecorded = new JdbcTemplate(EmbeddedMariadb.dataSource());
        unrecorded.update("DELETE FROM supply");
        unrecorded.update("INSERT INTO supply (sku, on_hand) VALUES (?, 10)", Ward.GLOVES);
    }

    static int glovesOnHand() {
        return new JdbcTemplate(EmbeddedMariadb.dataSource())
                .queryForObject("SELECT on_hand FROM supply WHERE sku = ?", Integer.class, Ward.GLOVES);
    }

    static List<Throwable> bothTakeOne(BiConsumer<String, Integer> take) throws InterruptedException {
        return Ward.atOnce("nurse-1", () -> take.accept(Ward.GLOVES, 1), "nurse-2", () -> take.accept(Ward.GLOVES, 1));
    }

    /** The stockroom's test at READ COMMITTED on MariaDB, in each stack; run by the test above only. */
    @OnMariadb
    @SerializableCheck
    static class TwoNursesOnMariadb {

        @Autowired
        JpaStockroom jpa;

        @Autowired
        JdbcStockroom jdbcTemplate;

        @Autowired
        MyBatisStockroom myBatis;

        @BeforeEach
        void tenBoxes() {
            stockTenBoxes();
        }

        @InterleavingTest
        void withJpa() throws Exception {
            bothTakeOneOf(jpa::take);
        }

        @InterleavingTest
        void withJdbcTemplate() throws Exception {
            bothTakeOneOf(jdbcTemplate::take);
        }

        @InterleavingTest
        void withMyBatis() throws Exception {
            bothTakeOneOf(myBatis::take);
        }

        private static void bothTakeOneOf(BiConsumer<String, Integer> take) throws Exception {
            assertThat(bothTakeOne(take)).containsOnlyNulls();
            // 8 where one request ran after the other, 9 where both read 10 (the lost update).
            assertThat(glovesOnHand()).isIn(8, 9);
        }
    }
}
