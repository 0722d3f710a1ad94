package dev.isocheck.examples.rota;

/** Refused: the doctor is the only one on call for the shift. */
public final class LastDoctorOnCall extends RuntimeException {

    /**
     * @param doctor who asked to go off call
     * @param shift  the shift left without anyone else
     */
    public LastDoctorOnCall(String doctor, int shift) {
        super(doctor + " is the last doctor on call for shift " + shift);
    }
}
