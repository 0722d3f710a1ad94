package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.internal.recording.RecordedHistory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link TrustedConstructs} on a database whose writes come from the statements (H2, MariaDB): the
 * constructs every such database has, over the same schema (accounts {@code acct} with an
 * {@code audit} table, {@code parent}, {@code child} and {@code grandchild} cascading on delete, and
 * a function {@code bump} that writes {@code acct}), each left out as the recorder cannot see it.
 */
abstract class StatementsTrustedConstructs extends TrustedConstructs {

    /** Creates a trigger counting each row updated in {@code acct} in {@code audit}, as the database writes one. */
    abstract void createAuditTrigger() throws Exception;

    @Test
    void aTrigger() throws Exception {
        createAuditTrigger();
        RecordedHistory recorded = serially("trigger", List.of("acct", "audit"), inTransaction(
                "UPDATE acct SET balance = 5 WHERE id = 1"));
        assertThat(String.join("; ", subjects(recorded))).contains("every table");
    }

    @Test
    void aCascadeTwoLevelsDeep() throws Exception {
        RecordedHistory recorded = serially("cascade", List.of("parent", "child", "grandchild"), inTransaction(
                "DELETE FROM parent WHERE id = 1"));
        assertThat(String.join("; ", subjects(recorded))).contains("table child", "table grandchild");
    }

    @Test
    void aTruncate() throws Exception {
        RecordedHistory recorded = seriallyAlone("truncate", List.of("acct"), autoCommitted("TRUNCATE TABLE acct"));
        assertThat(String.join("; ", subjects(recorded))).contains("table acct");
    }

    @Test
    void aFunctionThatWritesCalledFromASelect() throws Exception {
        RecordedHistory recorded = serially("function", List.of("acct"), inTransaction("SELECT bump(1)"));
        assertThat(String.join("; ", subjects(recorded))).contains("every table");
    }
}
