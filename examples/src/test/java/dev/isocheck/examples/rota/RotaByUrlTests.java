package dev.isocheck.examples.rota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.Concurrently;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.examples.Rendezvous;
import dev.isocheck.examples.Transactions;
import dev.isocheck.examples.UrlDataSource;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;

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
        Throwable thrown = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(ConfiguredByUrl.class, "atRepeatableRead"))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.started(1).failed(1))
                .failed().list().get(0)
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        assertThat(thrown.getMessage()).contains("(write skew) at serializable").contains("thread alice", "thread bob");
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

        @Test
        void atRepeatableRead() throws Exception {
            Rota.createSchema(EmbeddedPostgres.dataSource());
            Rota setUp = new Rota(new Transactions(EmbeddedPostgres.dataSource(), IsolationSetting.REPEATABLE_READ), Pager.NONE);
            setUp.addOnCall("alice", 1);
            setUp.addOnCall("bob", 1);
            Rendezvous bothCounted = new Rendezvous(2);
            Rota rota = new Rota(new Transactions(new UrlDataSource(recordingUrl()), IsolationSetting.REPEATABLE_READ),
                    (doctors, message) -> bothCounted.arrive());

            List<Throwable> outcomes = Concurrently.run(List.of(
                    new Concurrently.Task("alice", () -> {
                        rota.goOffCall("alice", 1);
                        return null;
                    }),
                    new Concurrently.Task("bob", () -> {
                        rota.goOffCall("bob", 1);
                        return null;
                    })));

            assertThat(outcomes).containsOnlyNulls();
            assertThat(setUp.onCall(1)).isEmpty();
        }
    }
}
