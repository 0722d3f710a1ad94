package dev.isocheck.examples.spring;

/** A request to go off call refused: the doctor is the last one on call for the shift. */
public final class LastDoctorOnCall extends RuntimeException {

    /**
     * @param doctor the doctor who asked
     * @param shift  the shift
     */
    public LastDoctorOnCall(String doctor, int shift) {
        super(doctor + " is the last doctor on call for shift " + shift);
    }
}
