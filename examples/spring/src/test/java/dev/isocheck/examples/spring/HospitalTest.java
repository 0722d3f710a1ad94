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
 * ({@link RecordTheDataSource}) and its porter and pager held by the test ({@link HeldRequests}).
 * Every class annotated so shares one application context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest
@Import({RecordTheDataSource.class, HeldRequests.class})
@ContextConfiguration(initializers = EmbeddedPostgresUrl.class)
@interface HospitalTest {
}
