package dev.bookstore.ordering.domain.shared;

import java.time.Instant;
import java.util.UUID;

/** Reads back what {@link UuidV7#at} encodes, for the tests that check it. */
public final class UuidV7Timestamps {

    private UuidV7Timestamps() {
    }

    /** The millisecond timestamp encoded in a version 7 UUID. */
    public static Instant timestampOf(UUID uuid) {
        if (uuid.version() != 7) {
            throw new IllegalArgumentException("not a version 7 UUID: " + uuid);
        }
        return Instant.ofEpochMilli(uuid.getMostSignificantBits() >>> 16);
    }
}
