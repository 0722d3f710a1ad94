package dev.isocheck.examples.spring;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

/**
 * The hospital application against the embedded PostgreSQL, its {@code DataSource} recorded
 * ({@link RecordTheDataSource}), the application otherwise as it is. Every class annotated so
 * shares one application context, which the runs of an {@code @InterleavingTest} share too: each
 * run's {@code @BeforeEach} sets the rows it starts from ({@link Ward}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest
@Import(RecordTheDataSource.class)
@ContextConfiguration(initializers = EmbeddedPostgresUrl.class)
@interface HospitalTest {
}
