package dev.isocheck.jdbi;

import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The SqlObject DAO of the Jdbi tests: the accounts of {@link JointAccounts}. */
public interface AccountDao {

    @SqlQuery("SELECT balance FROM accounts WHERE id = :id")
    int balance(@Bind("id") int id);

    @SqlUpdate("UPDATE accounts SET balance = balance - :amount WHERE id = :id")
    void withdraw(@Bind("id") int id, @Bind("amount") int amount);

    @SqlUpdate("INSERT INTO accounts (id, owner, balance) VALUES (:id, :owner, :balance)")
    void open(@Bind("id") int id, @Bind("owner") String owner, @Bind("balance") int balance);
}
