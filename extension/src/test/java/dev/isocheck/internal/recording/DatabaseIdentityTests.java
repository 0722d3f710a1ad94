package dev.isocheck.internal.recording;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The name a connection's URL gives its database: one database, one name, however it is reached. */
class DatabaseIdentityTests {

    @ParameterizedTest(name = "{0} -> \"{1}\"")
    @CsvSource(delimiter = '|', value = {
            "jdbc:postgresql://localhost:5432/shop|shop",
            "jdbc:postgresql://127.0.0.1/shop?user=app&password=secret|shop",
            "jdbc:postgresql://app:secret@db.internal:5432/shop|shop",
            "jdbc:postgresql:shop|shop",
            "jdbc:postgresql://localhost:5432/|''",
            "jdbc:postgresql://localhost:5432|''",
            "jdbc:h2:mem:shop;DB_CLOSE_DELAY=-1|shop",
            "jdbc:h2:tcp://localhost/mem:shop|shop",
            "jdbc:h2:./target/shop|shop",
            "jdbc:h2:file:/tmp/data/shop;MODE=PostgreSQL|shop",
            "jdbc:h2:mem:|''",
            "jdbc:hsqldb:mem:shop|shop",
            "jdbc:hsqldb:file:C:\\data\\shop|shop",
            "jdbc:hsqldb:mem:ShopDB|shopdb",
            "jdbc:hsqldb:hsql://localhost/ShopDB|shopdb",
            "jdbc:postgresql://localhost/order+db|order db",
            "jdbc:postgresql://localhost/order%20db|order db",
            "jdbc:p6spy:postgresql://localhost/shop|shop",
    })
    void aUrlNamesItsDatabase(String url, String name) {
        assertThat(DatabaseIdentity.nameIn(url)).isEqualTo(name);
        assertThat(DatabaseIdentity.of(url, false).unnamed()).isEqualTo(name.isEmpty());
    }

    @Test
    void aPostgresqlDatabaseIsToldByItsPortTooNotByItsHost() {
        assertThat(DatabaseIdentity.of("jdbc:postgresql://localhost:5432/test", false))
                .isEqualTo(DatabaseIdentity.of("jdbc:postgresql://127.0.0.1/test?ssl=false", false))
                .isEqualTo(DatabaseIdentity.of("jdbc:postgresql://app:secret@db.internal:5432/test", false))
                .isEqualTo(DatabaseIdentity.of("jdbc:postgresql:test", false))
                .isNotEqualTo(DatabaseIdentity.of("jdbc:postgresql://localhost:49153/test", false));
        // Several hosts: the name alone.
        assertThat(DatabaseIdentity.of("jdbc:postgresql://h1:5432,h2:5433/test", false).key()).isEqualTo("test");
    }

    @Test
    void anUnnamedDatabaseAfterANamedOneHasAPrefixThatComesOffToo() {
        DatabaseNamespaces namespaces = new DatabaseNamespaces();
        namespaces.prefix(DatabaseIdentity.of("jdbc:postgresql://localhost/shop", false));
        String prefix = namespaces.prefix(DatabaseIdentity.of("jdbc:postgresql://localhost/", false));
        assertThat(prefix).isEqualTo("unnamed:");
        assertThat(namespaces.unprefixed(prefix + "t/1")).isEqualTo("t/1");
    }

    @Test
    void everyDatabaseOfAMariadbServerIsOne() {
        assertThat(DatabaseIdentity.of("jdbc:mariadb://localhost:3306/shop", true))
                .isEqualTo(DatabaseIdentity.of("jdbc:mariadb://localhost:3306/other", true))
                .isNotEqualTo(DatabaseIdentity.of("jdbc:postgresql://localhost/shop", false));
    }

    @Test
    void theFirstDatabaseKeepsItsKeysAndEachOtherIsPrefixed() {
        DatabaseNamespaces namespaces = new DatabaseNamespaces();
        DatabaseIdentity shop = DatabaseIdentity.of("jdbc:postgresql://localhost/shop", false);
        DatabaseIdentity other = DatabaseIdentity.of("jdbc:postgresql://localhost/other", false);
        DatabaseIdentity otherElsewhere = DatabaseIdentity.of("jdbc:h2:mem:other", false);
        assertThat(namespaces.prefix(shop)).isEmpty();
        assertThat(namespaces.prefix(other)).isEqualTo("other:");
        // A PostgreSQL database is told by its port too: an H2 database of that name is another.
        assertThat(namespaces.prefix(otherElsewhere)).isEqualTo("other-2:");
        assertThat(namespaces.prefix(DatabaseIdentity.of("jdbc:postgresql://127.0.0.1:5432/other", false))).isEqualTo("other:");
        assertThat(namespaces.unprefixed("other:accounts/1")).isEqualTo("accounts/1");
        assertThat(namespaces.unprefixed("accounts/1")).isEqualTo("accounts/1");
        assertThat(namespaces.unprefixed("unknown:accounts/1")).isEqualTo("unknown:accounts/1");
    }
}
