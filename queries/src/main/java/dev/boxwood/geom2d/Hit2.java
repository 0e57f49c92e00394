package dev.boxwood.geom2d;

import dev.boxwood.geom.Geom;

/**
 * Result of a segment cast that reports one point: where the segment {@code origin + t * translation} first
 * touches the target (see {@link Intersect2#intersectSegmentSegment}). Caller-supplied and reusable; the kernel
 * overwrites every field on each call.
 */
public final class Hit2 {

    /** Whether the segment touches the target. */
    public boolean hit;

    /** The fraction {@code t} of the first contact, or {@link Geom#NO_HIT} on a miss. */
    public double fraction = Geom.NO_HIT;

    /** The x coordinate of the first contact point (0 on a miss). */
    public double x;

    /** The y coordinate of the first contact point (0 on a miss). */
    public double y;

    /** Creates an empty result (a miss). */
    public Hit2() {
    }

    void set(double fraction, double x, double y) {
        this.hit = true;
        this.fraction = fraction;
        this.x = x;
        this.y = y;
    }

    void setMiss() {
        this.hit = false;
        this.fraction = Geom.NO_HIT;
        this.x = 0;
        this.y = 0;
    }

    @Override
    public String toString() {
        return hit ? "Hit2[t=" + fraction + " at (" + x + ", " + y + ")]" : "Hit2[miss]";
    }
}
