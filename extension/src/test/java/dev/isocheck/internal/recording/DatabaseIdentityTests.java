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
    })
    void aUrlNamesItsDatabase(String url, String name) {
        assertThat(DatabaseIdentity.nameIn(url)).isEqualTo(name);
        assertThat(DatabaseIdentity.of(url, false).unnamed()).isEqualTo(name.isEmpty());
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
        // One name, one database: an H2 database of that name too (two servers' databases of one name stay one).
        assertThat(namespaces.prefix(otherElsewhere)).isEqualTo("other:");
        assertThat(namespaces.unprefixed("other:accounts/1")).isEqualTo("accounts/1");
        assertThat(namespaces.unprefixed("accounts/1")).isEqualTo("accounts/1");
        assertThat(namespaces.unprefixed("unknown:accounts/1")).isEqualTo("unknown:accounts/1");
    }
}
