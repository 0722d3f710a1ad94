package dev.isocheck.examples.spring.jdbc;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The stockroom's supplies, with {@link JdbcTemplate}. */
@Repository
public class JdbcSupplyDao {

    private final JdbcTemplate jdbc;

    /** Supplies in {@code jdbc}'s database. */
    public JdbcSupplyDao(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** How many boxes of {@code sku} are on hand. */
    public int onHand(String sku) {
        return jdbc.queryForObject("SELECT on_hand FROM supply WHERE sku = ?", Integer.class, sku);
    }

    /**
     * How many boxes of {@code sku} are on hand, the row locked until the transaction ends: a
     * second request waits here for the first to commit, then reads its count.
     */
    public int onHandForUpdate(String sku) {
        return jdbc.queryForObject("SELECT on_hand FROM supply WHERE sku = ? FOR UPDATE", Integer.class, sku);
    }

    /** Sets the count of {@code sku}. */
    public void setOnHand(String sku, int onHand) {
        jdbc.update("UPDATE supply SET on_hand = ? WHERE sku = ?", onHand, sku);
    }
}
