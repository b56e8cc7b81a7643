package dev.bookstore.ordering.domain.shared;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;

/**
 * RFC 9562 version 7 UUIDs: 48 bits of Unix milliseconds, then random bits. They sort by creation time,
 * which keeps B-tree inserts of ids at the right edge of the index.
 */
public final class UuidV7 {

    private static final SecureRandom RANDOM = new SecureRandom();

    private UuidV7() {
    }

    public static UUID at(Instant instant) {
        long millis = instant.toEpochMilli();
        long randA = RANDOM.nextInt(1 << 12);
        long msb = (millis << 16) | (0x7L << 12) | randA;
        long lsb = (RANDOM.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
