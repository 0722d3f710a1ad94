package dev.isocheck;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;

/** Small histories the assertion tests share. */
public final class SampleHistories {

    private SampleHistories() {
    }

    /** Two doctors each read both, each takes one off call: snapshot isolation allows it, serializability not. */
    public static History writeSkew() {
        HistoryBuilder b = History.builder();
        b.transaction("T0").write("doctors/alice", true).write("doctors/bob", true);
        b.transaction("T1").session("alice").read("doctors/alice", true).read("doctors/bob", true).write("doctors/alice", false);
        b.transaction("T2").session("bob").read("doctors/alice", true).read("doctors/bob", true).write("doctors/bob", false);
        return b.build();
    }

    /** One write, then a read of it and a write over it. */
    public static History serial() {
        HistoryBuilder b = History.builder();
        b.transaction("T0").write("x", 1);
        b.transaction("T1").read("x", 1).write("x", 2);
        return b.build();
    }
}
