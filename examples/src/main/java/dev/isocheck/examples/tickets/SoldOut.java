package dev.isocheck.examples.tickets;

/** A purchase refused: every seat of the concert is sold. */
public final class SoldOut extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The concert {@code concert} has no seat left. */
    public SoldOut(String concert) {
        super(concert + " is sold out");
    }
}
