package dev.isocheck.format;

import static dev.isocheck.history.Rows.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.UnknownInitialValues;
import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlHistoryWriterTests {

    @TempDir
    Path dir;

    private final JsonlHistoryWriter writer = new JsonlHistoryWriter();

    /** Every feature of the format in one history. */
    private static History everything(boolean complete) {
        HistoryBuilder b = History.builder()
                .initialValue("x", 0)
                .initialValue("accounts/1", Map.of("id", 1, "balance", 100))
                .initialValue("gone", null)
                .initialStateComplete(complete);
        b.transaction("T7").session("worker-3").times(1200, 3400)
                .read("x", 1).write("x", 2).read("accounts/9", null)
                .write("accounts/1", Map.of("id", 1, "balance", 90)).write("accounts/2", null)
                .predicate("doctors", "on_call = TRUE AND shift = 1",
                        rows("doctors/4", Map.of("id", 4, "on_call", true, "shift", 1), "doctors/1", Map.of("id", 1)));
        b.transaction(8L).aborted().start(5).write("y", List.of(1, "two", new BigDecimal("3.25"), false));
        b.transaction(-3).session("worker-3").end(7).read("z", new BigInteger("123456789012345678901234567890"))
                .read("line\nbreak \"quoted\" ünïcode", "tab\there");
        b.transaction("empty").session("7");
        b.transaction("p").predicate("t", "a IS NULL", new LinkedHashMap<>());
        return b.build();
    }

    private String text(History h) throws Exception {
        StringWriter out = new StringWriter();
        writer.write(h, out);
        return out.toString();
    }

    private History reread(String text) throws Exception {
        Path f = dir.resolve("round.jsonl");
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return new JsonlHistoryReader().read(f);
    }

    private void roundTrips(History original) throws Exception {
        String first = text(original);
        History back = reread(first);
        assertThat(HistoryDescription.describe(back)).isEqualTo(HistoryDescription.describe(original));
        assertThat(text(back)).isEqualTo(first);
    }

    @Test
    void everyFeatureRoundTrips() throws Exception {
        roundTrips(everything(true));
        roundTrips(everything(false));
    }

    @Test
    void theTextIsTheFormatItself() throws Exception {
        String text = text(everything(true));
        String[] lines = text.split("\n", -1);
        assertThat(lines).hasSize(7);
        assertThat(lines[6]).isEmpty();
        // Known initial values are listed; "gone" starts absent, which "complete" already says.
        assertThat(lines[0]).isEqualTo("{\"init\":{\"x\":0,\"accounts/1\":{\"balance\":100,\"id\":1}},\"complete\":true}");
        assertThat(lines[1]).isEqualTo("{\"id\":\"T7\",\"session\":\"worker-3\",\"start\":1200,\"end\":3400,\"ops\":["
                + "{\"op\":\"read\",\"key\":\"x\",\"value\":1},{\"op\":\"write\",\"key\":\"x\",\"value\":2},"
                + "{\"op\":\"read\",\"key\":\"accounts/9\",\"value\":null},"
                + "{\"op\":\"write\",\"key\":\"accounts/1\",\"value\":{\"balance\":90,\"id\":1}},"
                + "{\"op\":\"write\",\"key\":\"accounts/2\",\"value\":null},"
                + "{\"op\":\"predicate\",\"table\":\"doctors\",\"where\":\"on_call = TRUE AND shift = 1\",\"rows\":["
                + "{\"key\":\"doctors/4\",\"value\":{\"id\":4,\"on_call\":true,\"shift\":1}},"
                + "{\"key\":\"doctors/1\",\"value\":{\"id\":1}}]}]}");
        assertThat(lines[2]).isEqualTo("{\"id\":8,\"status\":\"aborted\",\"start\":5,\"ops\":["
                + "{\"op\":\"write\",\"key\":\"y\",\"value\":[1,\"two\",3.25,false]}]}");
        assertThat(lines[3]).startsWith("{\"id\":-3,\"session\":\"worker-3\",\"end\":7,\"ops\":[");
        assertThat(lines[4]).isEqualTo("{\"id\":\"empty\",\"session\":\"7\",\"ops\":[]}");
        assertThat(lines[5]).isEqualTo("{\"id\":\"p\",\"ops\":[{\"op\":\"predicate\",\"table\":\"t\",\"where\":\"a IS NULL\",\"rows\":[]}]}");

        // Not complete: the absent "gone" must be listed, or it would read back as unknown.
        assertThat(text(everything(false))).startsWith("{\"init\":{\"x\":0,\"accounts/1\":{\"balance\":100,\"id\":1},\"gone\":null}}\n");
    }

    @Test
    void provenanceRoundTripsAndIsWrittenOnlyWhenRecorded() throws Exception {
        HistoryBuilder b = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        b.transaction("T1").session("connection-3").thread("worker-1").read("x", 0)
                .statement(SqlStatement.of("SELECT on_call FROM doctors WHERE name = ?", List.of("bob")))
                .read("doctors/bob", true)
                .statement(new SqlStatement("UPDATE doctors SET on_call = ? WHERE name = ?", List.of("false", "alice"),
                        Optional.of("DoctorDao.goOffCall")))
                .write("doctors/alice", false)
                .statement(SqlStatement.of("COMMIT", List.of()));
        b.transaction("T2").thread("worker-2").read("x", 0);
        b.transaction("T3").read("x", 0);
        History h = b.build();

        String text = text(h);
        assertThat(text.split("\n")[1]).isEqualTo("{\"id\":\"T1\",\"session\":\"connection-3\",\"thread\":\"worker-1\","
                + "\"statements\":[{\"sql\":\"SELECT on_call FROM doctors WHERE name = ?\",\"parameters\":[\"bob\"]},"
                + "{\"sql\":\"UPDATE doctors SET on_call = ? WHERE name = ?\",\"parameters\":[\"false\",\"alice\"],"
                + "\"name\":\"DoctorDao.goOffCall\"},{\"sql\":\"COMMIT\",\"parameters\":[]}],"
                + "\"ops\":[{\"op\":\"read\",\"key\":\"x\",\"value\":0},"
                + "{\"op\":\"read\",\"key\":\"doctors/bob\",\"value\":true,\"statement\":0},"
                + "{\"op\":\"write\",\"key\":\"doctors/alice\",\"value\":false,\"statement\":1}]}");
        assertThat(text.split("\n")[2]).isEqualTo("{\"id\":\"T2\",\"thread\":\"worker-2\",\"ops\":[{\"op\":\"read\",\"key\":\"x\",\"value\":0}]}");
        assertThat(text.split("\n")[3]).isEqualTo("{\"id\":\"T3\",\"ops\":[{\"op\":\"read\",\"key\":\"x\",\"value\":0}]}");
        roundTrips(h);
        Transaction back = reread(text).transaction(0);
        assertThat(back.thread()).contains("worker-1");
        assertThat(back.statements()).isEqualTo(h.transaction(0).statements());
        assertThat(back.statementOf(0)).isEmpty();
        assertThat(back.statementOf(1)).hasValue(0);
        assertThat(back.statementOf(2)).hasValue(1);
    }

    @Test
    void noInitLineWithoutAnythingKnown() throws Exception {
        HistoryBuilder b = History.builder();
        b.transaction(1).read("x", 1);
        assertThat(text(b.build())).isEqualTo("{\"id\":1,\"ops\":[{\"op\":\"read\",\"key\":\"x\",\"value\":1}]}\n");
        assertThat(text(History.builder().build())).isEmpty();
        assertThat(text(History.builder().initialStateComplete(true).build())).isEqualTo("{\"init\":{},\"complete\":true}\n");
    }

    @Test
    void unknownIsWrittenOnlyWhenItIsNotTheDefault() throws Exception {
        HistoryBuilder any = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        any.transaction(1).read("flag", false).write("flag", true);
        History anyHistory = any.build();
        String text = text(anyHistory);
        assertThat(text).isEqualTo("{\"init\":{},\"unknown\":\"any\"}\n"
                + "{\"id\":1,\"ops\":[{\"op\":\"read\",\"key\":\"flag\",\"value\":false},"
                + "{\"op\":\"write\",\"key\":\"flag\",\"value\":true}]}\n");
        roundTrips(anyHistory);
        assertThat(reread(text).initialState().unknownValues()).isEqualTo(UnknownInitialValues.ANY);

        HistoryBuilder listed = History.builder().initialValue("x", 0).unknownInitialValues(UnknownInitialValues.ANY);
        listed.transaction(1).read("y", 1);
        History listedHistory = listed.build();
        assertThat(text(listedHistory)).startsWith("{\"init\":{\"x\":0},\"unknown\":\"any\"}\n");
        roundTrips(listedHistory);

        HistoryBuilder unwritten = History.builder().initialValue("x", 0).unknownInitialValues(UnknownInitialValues.UNWRITTEN);
        unwritten.transaction(1).read("y", 1);
        History unwrittenHistory = unwritten.build();
        assertThat(text(unwrittenHistory)).startsWith("{\"init\":{\"x\":0}}\n");
        assertThat(reread(text(unwrittenHistory)).initialState().unknownValues()).isEqualTo(UnknownInitialValues.UNWRITTEN);
    }

    @Test
    void streamsAndFilesGetTheSameUtf8Text() throws Exception {
        History h = everything(false);
        String expected = text(h);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        writer.write(h, bytes);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(expected);
        Path f = dir.resolve("out.jsonl");
        writer.write(h, f);
        assertThat(Files.readAllBytes(f)).isEqualTo(expected.getBytes(StandardCharsets.UTF_8));
        assertThat(Arrays.equals(Files.readAllBytes(f), bytes.toByteArray())).isTrue();
    }

    @Test
    void theDbcopSamplesRoundTrip() throws Exception {
        for (String sample : List.of("fig10/20_100_15_5000_0.5_r_0.5_0.5_100/hist-00000/history.bincode",
                "fig11/si/dbcop/1000/history.bincode")) {
            roundTrips(new DbcopHistoryReader().read(SampleHistories.veristrong(sample)));
        }
    }

    @Test
    void theCobraSamplesRoundTrip() throws Exception {
        roundTrips(new CobraHistoryReader(CobraHistoryReader.Values.UNIQUE).read(SampleHistories.veristrong("fig11/ser/cobra/chengRW-1000")));
        roundTrips(new CobraHistoryReader(CobraHistoryReader.Values.DUPLICATE).read(SampleHistories.veristrong("fig5/twitter-1k")));
    }
}
