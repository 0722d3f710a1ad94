package dev.isocheck.internal.cli;

import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.internal.warmup.TrainingWorkload;
import dev.isocheck.internal.warmup.TrainingWorkload.Op;
import dev.isocheck.internal.warmup.TrainingWorkload.Transaction;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A {@link TrainingWorkload} written in each format the {@code check} command reads, so that a
 * training run ({@link Training}) goes through every reader: JSON Lines ({@code .jsonl}), dbcop's
 * {@code history.bincode} and a Cobra directory of {@code *.log}, as
 * {@code docs/history-format.md} describes them and the readers read them.
 */
final class TrainingFiles {

    /** Cobra's transaction and write id of the initial state ({@code CobraHistoryReader.INIT}). */
    private static final long COBRA_INIT = 0xbebeebeeL;

    private TrainingFiles() {
    }

    /** Writes {@code workload} as {@code NAME.jsonl}, {@code NAME.bincode} and the directory {@code NAME-cobra}. */
    static List<Path> write(TrainingWorkload workload, Path directory, String name) throws IOException {
        Path jsonl = directory.resolve(name + ".jsonl");
        new JsonlHistoryWriter().write(workload.asKeys(), jsonl);
        Path dbcop = Files.write(directory.resolve(name + ".bincode"), dbcop(workload));
        Path cobra = Files.createDirectories(directory.resolve(name + "-cobra"));
        for (List<Transaction> session : workload.sessions()) {
            if (!session.isEmpty()) {
                Files.write(cobra.resolve("T" + session.get(0).session() + ".log"), cobra(session));
            }
        }
        return List.of(jsonl, dbcop, cobra);
    }

    /** bincode 1, little-endian: the header, then sessions of transactions of events. */
    private static byte[] dbcop(TrainingWorkload workload) {
        List<List<Transaction>> sessions = workload.sessions();
        int events = sessions.stream().flatMap(List::stream).mapToInt(t -> t.ops().size()).sum();
        int transactions = sessions.stream().mapToInt(List::size).sum();
        ByteBuffer out = ByteBuffer.allocate(1024 + 16 * transactions + 18 * events).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(0).putLong(sessions.size()).putLong(workload.keys()).putLong(transactions).putLong(events);
        for (String header : new String[] {"isocheck training", "", ""}) {
            byte[] bytes = header.getBytes(StandardCharsets.UTF_8);
            out.putLong(bytes.length).put(bytes);
        }
        out.putLong(sessions.size());
        for (List<Transaction> session : sessions) {
            out.putLong(session.size());
            for (Transaction t : session) {
                out.putLong(t.ops().size());
                for (Op op : t.ops()) {
                    out.put((byte) (op.write() ? 1 : 0)).putLong(op.key()).putLong(op.value()).put((byte) 1);
                }
                out.put((byte) 1);
            }
        }
        byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return bytes;
    }

    /** One session's log: S, then W and R records, then C per transaction; big-endian fields. */
    private static byte[] cobra(List<Transaction> session) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (Transaction t : session) {
            out.writeByte('S');
            out.writeLong(t.id());
            for (Op op : t.ops()) {
                if (op.write()) {
                    out.writeByte('W');
                } else {
                    out.writeByte('R');
                    out.writeLong(op.writer() == 0 ? COBRA_INIT : op.writer());
                }
                // A write is known by its value, which is new for every write; the initial one by init.
                out.writeLong(op.writer() == 0 ? COBRA_INIT : op.value());
                out.writeLong(op.key());
                out.writeLong(op.value());
            }
            out.writeByte('C');
            out.writeLong(t.id());
        }
        out.flush();
        return bytes.toByteArray();
    }
}
