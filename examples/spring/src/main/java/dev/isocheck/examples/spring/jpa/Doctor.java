package dev.isocheck.examples.spring.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A doctor of the rota, on call for a shift or not. */
@Entity
@Table(name = "doctor")
public class Doctor {

    @Id
    private String name;

    @Column(nullable = false)
    private int shift;

    @Column(name = "on_call", nullable = false)
    private boolean onCall;

    /** For JPA. */
    protected Doctor() {
    }

    /** {@code name}, on call for {@code shift}. */
    public Doctor(String name, int shift) {
        this.name = name;
        this.shift = shift;
        this.onCall = true;
    }

    /** The doctor's name, the key. */
    public String getName() {
        return name;
    }

    /** The shift. */
    public int getShift() {
        return shift;
    }

    /** Whether the doctor is on call. */
    public boolean isOnCall() {
        return onCall;
    }

    /** Takes the doctor off call; Hibernate writes it when the transaction commits. */
    public void goOffCall() {
        onCall = false;
    }
}
