package dev.boxwood.geom2d;

import dev.boxwood.geom.Geom;

/**
 * Result of a segment cast through a solid shape: the part of the segment {@code origin + t * translation},
 * {@code t} in {@code [0, maxFraction]}, that lies inside the (closed) shape is {@code [entryFraction,
 * exitFraction]}. A start inside gives {@code entryFraction = 0} and the entry point is the origin; a segment that
 * ends inside gives {@code exitFraction = maxFraction}, and so does a zero-length segment inside the shape. A
 * segment that only touches has equal entry and exit.
 * Caller-supplied and reusable; the kernels overwrite every field on each call.
 */
public final class SegmentHit2 {

    /** Whether the segment touches the shape. */
    public boolean hit;

    /** The fraction where the segment enters the shape (0 for a start inside), or {@link Geom#NO_HIT}. */
    public double entryFraction = Geom.NO_HIT;

    /** The x coordinate of the entry point (0 on a miss). */
    public double entryX;

    /** The y coordinate of the entry point (0 on a miss). */
    public double entryY;

    /**
     * The fraction where the segment leaves the shape, at most {@code maxFraction}, or {@link Geom#NO_HIT}.
     * Never less than {@link #entryFraction} on a hit.
     */
    public double exitFraction = Geom.NO_HIT;

    /** The x coordinate of the exit point (0 on a miss). */
    public double exitX;

    /** The y coordinate of the exit point (0 on a miss). */
    public double exitY;

    /** Creates an empty result (a miss). */
    public SegmentHit2() {
    }

    void setEntry(double fraction, double x, double y) {
        this.hit = true;
        this.entryFraction = fraction;
        this.entryX = x;
        this.entryY = y;
    }

    void setExit(double fraction, double x, double y) {
        this.exitFraction = fraction;
        this.exitX = x;
        this.exitY = y;
    }

    void setMiss() {
        this.hit = false;
        this.entryFraction = Geom.NO_HIT;
        this.exitFraction = Geom.NO_HIT;
        this.entryX = 0;
        this.entryY = 0;
        this.exitX = 0;
        this.exitY = 0;
    }

    @Override
    public String toString() {
        return hit ? "SegmentHit2[entry t=" + entryFraction + " at (" + entryX + ", " + entryY + "), exit t="
                + exitFraction + " at (" + exitX + ", " + exitY + ")]" : "SegmentHit2[miss]";
    }
}
