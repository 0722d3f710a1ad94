package dev.isocheck.examples.hotel;

/** A booking refused: the room is booked that night. */
public final class RoomTaken extends RuntimeException {

    /**
     * @param room  the room
     * @param night the night
     */
    public RoomTaken(int room, int night) {
        super("room " + room + " is booked for night " + night);
    }
}
