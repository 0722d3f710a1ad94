package dev.isocheck.examples.spring;

import dev.isocheck.Isocheck;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Records the application's {@code DataSource}: the bean Spring Boot configured (a HikariCP pool)
 * is replaced by the same pool wrapped by {@link Isocheck#record}, so that JPA, {@code JdbcTemplate}
 * and MyBatis all get their connections through it. Outside a {@code @SerializableCheck} test it
 * records nothing.
 */
@TestConfiguration(proxyBeanMethods = false)
class RecordTheDataSource {

    /** Static: a post-processor is created before the other beans, and needs none of them. */
    @Bean
    static BeanPostProcessor recordingDataSource() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                return bean instanceof DataSource dataSource ? Isocheck.record(dataSource) : bean;
            }
        };
    }
}
