package dev.isocheck.internal.explain;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import java.util.Map;

/** The classic anomalies as small hand-built histories, shared by the explainer's and the renderers' tests. */
public final class ClassicHistories {

    private ClassicHistories() {
    }

    private static HistoryBuilder xy() {
        return History.builder().initialValue("x", 0).initialValue("y", 0).initialStateComplete(true);
    }

    /** Each read both keys, then wrote the key the other read: two anti-dependencies. */
    public static History writeSkew() {
        HistoryBuilder b = xy();
        b.transaction("T1").session("alice").times(100, 180).read("x", 0).read("y", 0).write("y", 1);
        b.transaction("T2").session("bob").times(110, 190).read("x", 0).read("y", 0).write("x", 1);
        return b.build();
    }

    /** Both read x = 0 and wrote x. */
    public static History lostUpdate() {
        HistoryBuilder b = xy();
        b.transaction("T1").session("alice").read("x", 0).write("x", 1);
        b.transaction("T2").session("bob").read("x", 0).write("x", 2);
        return b.build();
    }

    /** T2 saw T1's y but not its x. */
    public static History readSkew() {
        HistoryBuilder b = xy();
        b.transaction("T1").session("alice").write("x", 1).write("y", 1);
        b.transaction("T2").session("bob").read("x", 0).read("y", 1);
        return b.build();
    }

    /** Two readers saw two independent writes in opposite orders. */
    public static History longFork() {
        HistoryBuilder b = xy();
        b.transaction("T1").session("w1").write("x", 1);
        b.transaction("T2").session("w2").write("y", 1);
        b.transaction("T3").session("r1").read("x", 1).read("y", 0);
        b.transaction("T4").session("r2").read("x", 0).read("y", 1);
        return b.build();
    }

    /**
     * A write cycle a later reader reveals: T3 saw T2's x and T1's y. Whatever the version orders,
     * a cycle forms; when T1's x precedes T2's and T2's y precedes T1's, it is a G0.
     */
    public static History writeCycle() {
        HistoryBuilder b = xy();
        b.transaction("T1").session("alice").write("x", 1).write("y", 1);
        b.transaction("T2").session("bob").write("x", 2).write("y", 2);
        b.transaction("T3").session("carol").read("x", 2).read("y", 1);
        return b.build();
    }

    /** Both found no booking of room 1 and inserted one: the rows neither predicate read returned. */
    public static History phantomWriteSkew() {
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("T1").session("alice").predicate("bookings", "room = 1", Map.of())
                .write("bookings/a", Map.of("room", 1, "who", "alice"));
        b.transaction("T2").session("bob").predicate("bookings", "room = 1", Map.of())
                .write("bookings/b", Map.of("room", 1, "who", "bob"));
        return b.build();
    }

    /** T2 read a value only an aborted transaction wrote. */
    public static History abortedRead() {
        HistoryBuilder b = xy();
        b.transaction("T1").session("alice").write("x", 5).aborted();
        b.transaction("T2").session("bob").read("x", 5);
        return b.build();
    }

    /** T2 read a value T1 overwrote before committing. */
    public static History intermediateRead() {
        HistoryBuilder b = xy();
        b.transaction("T1").session("alice").write("x", 7).write("x", 8);
        b.transaction("T2").session("bob").read("x", 7);
        return b.build();
    }
}
