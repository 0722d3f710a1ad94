package dev.isocheck.examples.tickets;

import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The box office's SQL, as a Jdbi SqlObject. */
public interface TicketDao {

    /** How many seats the concert has. */
    @SqlQuery("SELECT capacity FROM concert WHERE id = :concert")
    int capacity(@Bind("concert") String concert);

    /** How many tickets were sold for the concert. */
    @SqlQuery("SELECT count(*) FROM ticket WHERE concert = :concert")
    int sold(@Bind("concert") String concert);

    /** Issues a ticket. */
    @SqlUpdate("INSERT INTO ticket (id, concert, holder) VALUES (:id, :concert, :holder)")
    void issue(@Bind("id") String id, @Bind("concert") String concert, @Bind("holder") String holder);
}
