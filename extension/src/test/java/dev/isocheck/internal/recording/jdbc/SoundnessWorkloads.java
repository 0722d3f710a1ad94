package dev.isocheck.internal.recording.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;

/**
 * What the random soundness workloads share ({@link SerializableDatabaseSoundnessTests},
 * {@link MariadbSerializableSoundnessTests}): client threads, each on a connection of its own
 * with a random source seeded from the run's seed, and statements sent with their parameters
 * bound by {@code setObject}.
 */
final class SoundnessWorkloads {

    /** What one client thread does on its connection. */
    @FunctionalInterface
    interface Client {
        void run(Connection connection, Random random) throws SQLException;
    }

    private SoundnessWorkloads() {
    }

    /** Runs {@code threads} clients at once, client {@code t} seeded with {@code seed * 100 + t}; returns when all have. */
    static void run(DataSource ds, long seed, int threads, Client client) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(seed * 100 + t);
                futures.add(pool.submit(() -> {
                    try (Connection c = ds.getConnection()) {
                        client.run(c, random);
                    }
                    return null;
                }));
            }
            for (Future<Void> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /** Runs the query and reads every row's first column. */
    static void query(Connection c, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, parameters);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rs.getObject(1);
                }
            }
        }
    }

    /** Runs the write. */
    static void update(Connection c, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, parameters);
            s.executeUpdate();
        }
    }

    static void bind(PreparedStatement s, Object[] parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            s.setObject(i + 1, parameters[i]);
        }
    }
}
