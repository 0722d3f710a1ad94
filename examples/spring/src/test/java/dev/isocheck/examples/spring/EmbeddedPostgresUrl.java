package dev.isocheck.examples.spring;

import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Points {@code spring.datasource.url} at the tests' embedded PostgreSQL, started here on first
 * use. An initializer rather than a {@code @DynamicPropertySource}, so that every test class that
 * names it shares one cached application context.
 */
class EmbeddedPostgresUrl implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestPropertyValues.of("spring.datasource.url=" + url()).applyTo(context);
    }

    /** The URL the application is given. */
    String url() {
        return EmbeddedPostgres.jdbcUrl();
    }
}
