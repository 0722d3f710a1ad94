package dev.isocheck.examples.spring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A hospital's back office, written three times over as Spring teams write it: with Spring Data JPA
 * ({@code jpa}), with {@code JdbcTemplate} ({@code jdbc}) and with MyBatis ({@code mybatis}). Each
 * has a stockroom (nurses take boxes of supplies: a read-modify-write of the count, which two
 * requests at once can turn into a lost update) and an on-call rota (a doctor may go off call only
 * while another stays on: two doctors at once can both leave, a write skew). All three run in one
 * transaction manager, Spring Boot's {@code JpaTransactionManager}, as they would in one
 * application.
 */
@SpringBootApplication
public class HospitalApplication {

    private static final Logger LOG = LoggerFactory.getLogger(HospitalApplication.class);

    /** Starts the application. */
    public static void main(String[] args) {
        SpringApplication.run(HospitalApplication.class, args);
    }

    /** The porters, told of every box taken; here they read the log. */
    @Bean
    Porter porter() {
        return (sku, quantity) -> LOG.info("porter: bring {} of {} to the ward", quantity, sku);
    }

    /** The pager, which tells the doctors who stay on call; here the log. */
    @Bean
    Pager pager() {
        return (doctors, message) -> LOG.info("paging {}: {}", doctors, message);
    }
}
