package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.spring.jpa.JpaStockroom;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.ContextConfiguration;

/**
 * The hospital recorded the other way a Spring team can: by its JDBC URL, with {@code isocheck:}
 * put after {@code jdbc:} in {@code spring.datasource.url} and the driver class named, and no
 * bean of the test's own. The lost update at READ COMMITTED fails the test as it does with the
 * {@code DataSource} recorded by a post-processor. Without {@code driver-class-name}, Spring Boot
 * cannot tell the driver from the URL, and the application does not start: the last test pins the
 * message it prints, which the user's guide quotes.
 */
@ExtendWith(OutputCaptureExtension.class)
class RecordedByUrlTests {

    @TempDir
    Path reports;

    @Test
    void aRecordingUrlCatchesTheLostUpdate() {
        Throwable thrown = ExploredRun.of(ConfiguredByUrl.class, "twoNursesAtOnceWithJpa", reports).firstFailure(3);

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError failure = (IsolationViolationError) thrown;
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class,
                cycles -> assertThat(cycles.familiarName()).contains("lost update"));
        assertThat(failure.getMessage())
                .contains("update supply set on_hand=? where sku=?  [9, gloves]")
                .contains("thread nurse-1", "thread nurse-2");
    }

    @Test
    void withoutTheDriverClassNameSpringBootCannotStart(CapturedOutput output) {
        SpringApplicationBuilder application = new SpringApplicationBuilder(HospitalApplication.class)
                .properties("spring.datasource.url=" + RecordingUrl.recordingUrl());

        assertThatThrownBy(application::run)
                .rootCause().hasMessage("Failed to determine a suitable driver class");
        // What Spring Boot prints, the words a user would search for.
        assertThat(output).contains(
                "Failed to configure a DataSource: no embedded datasource could be configured.",
                "Reason: Failed to determine a suitable driver class");
    }

    /** {@code spring.datasource.url} as {@code jdbc:isocheck:postgresql://…}. */
    static final class RecordingUrl extends EmbeddedPostgresUrl {

        @Override
        String url() {
            return recordingUrl();
        }

        static String recordingUrl() {
            return EmbeddedPostgres.jdbcUrl().replaceFirst("^jdbc:", "jdbc:isocheck:");
        }
    }

    /**
     * The stockroom's test with the application configured by URL: the recording URL, and the
     * isocheck driver named, since Spring Boot infers a driver class from a URL's prefix and does not
     * know {@code jdbc:isocheck:}. The connections the driver records are held at the schedules'
     * gate as those of a recorded {@code DataSource} are. Run by the test above only.
     */
    @SpringBootTest(properties = "spring.datasource.driver-class-name=dev.isocheck.IsocheckDriver")
    @ContextConfiguration(initializers = RecordingUrl.class)
    @SerializableCheck
    static class ConfiguredByUrl {

        @Autowired
        JpaStockroom jpa;

        @BeforeEach
        void tenBoxes() {
            Ward.stockTenBoxesOfGloves();
        }

        @InterleavingTest
        void twoNursesAtOnceWithJpa() throws Exception {
            List<Throwable> outcomes = Ward.atOnce(
                    "nurse-1", () -> jpa.take(Ward.GLOVES, 1),
                    "nurse-2", () -> jpa.take(Ward.GLOVES, 1));

            assertThat(outcomes).containsOnlyNulls();
            assertThat(Ward.glovesOnHand()).isIn(8, 9);
        }
    }
}
