package dev.isocheck.examples.spring;

import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/** Points the application at the tests' MariaDB ({@link EmbeddedMariadb}), as {@link EmbeddedPostgresUrl} does at PostgreSQL. */
class EmbeddedMariadbUrl implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestPropertyValues.of("spring.datasource.url=" + EmbeddedMariadb.jdbcUrl(), "spring.datasource.username=root",
                "spring.datasource.password=").applyTo(context);
    }
}
