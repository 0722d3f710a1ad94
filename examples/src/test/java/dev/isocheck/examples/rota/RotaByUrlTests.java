package dev.isocheck.examples.rota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.ExploredRuns;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.examples.UrlDataSource;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rota configured the way many services are, by a JDBC URL: the test puts {@code isocheck:}
 * after {@code jdbc:} and changes nothing else. The write skew at REPEATABLE READ fails the test
 * just as with a recorded {@code DataSource}.
 */
class RotaByUrlTests {

    @TempDir
    Path reports;

    @Test
    void aRecordingUrlCatchesTheWriteSkew() {
        IsolationViolationError failure = ExploredRuns.of(ConfiguredByUrl.class, "atRepeatableRead", reports)
                .assertViolationFoundWithin(ExploredRuns.FIRST_FEW);

        assertThat(failure.getMessage()).contains("(write skew) at serializable").contains("thread alice", "thread bob");
    }

    @Test
    void theUrlToRecordIsTheRealOneWithIsocheckAfterJdbc() {
        assertThat(recordingUrl()).startsWith("jdbc:isocheck:postgresql://");
    }

    /** {@code jdbc:postgresql://…} as {@code jdbc:isocheck:postgresql://…}. */
    static String recordingUrl() {
        return EmbeddedPostgres.jdbcUrl().replaceFirst("^jdbc:", "jdbc:isocheck:");
    }

    /** The rota's test with the service configured by URL; run by the test above only. */
    @SerializableCheck
    static class ConfiguredByUrl {

        @InterleavingTest
        void atRepeatableRead() throws Exception {
            AliceAndBobGoOffCall requests = new AliceAndBobGoOffCall(IsolationSetting.REPEATABLE_READ,
                    new UrlDataSource(recordingUrl()));

            requests.assertTheRotaAddsUp(requests.goOffCall());
        }
    }
}
