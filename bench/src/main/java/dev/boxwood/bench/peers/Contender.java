package dev.boxwood.bench.peers;

import dev.boxwood.geom.Geom;
import dev.boxwood.testkit.scenes.BoxSet;

/**
 * One spatial index under test, driven through the same 3D questions as every other: box queries that count
 * overlapping boxes, closest-hit and any-hit segment casts, and (for dynamic indexes) moving boxes. Box
 * {@code i} of the built {@link BoxSet} is identified by {@code i} everywhere.
 *
 * <p>Conventions, the library's: boxes are closed (touching counts); a segment is
 * {@code origin + t * translation} for {@code t} in {@code [0, 1]} and a fraction is that {@code t}; a start
 * inside a box hits it at fraction 0. Indexes that work in 2D or in {@code float} answer the same 3D question
 * by re-checking every candidate exactly, in {@code double}, against their own copy of the boxes.
 *
 * <p>Implementations are single-threaded and reuse their scratch state between calls.
 */
public interface Contender {

    /** Returned by {@link #castClosest} on a miss. */
    double NO_HIT = Geom.NO_HIT;

    /**
     * Short stable name, as used by the benchmarks' {@code contender} parameter.
     *
     * @return the name
     */
    String name();

    /**
     * Whether {@link #move} is supported.
     *
     * @return true for dynamic indexes
     */
    boolean dynamic();

    /**
     * Indexes {@code boxes} (replacing anything indexed before), in the way the index builds best (bulk load
     * where it has one, else one insert per box in index order). The set is copied, not kept.
     *
     * @param boxes the boxes
     */
    void build(BoxSet boxes);

    /**
     * Counts the boxes overlapping the closed query box, in 3D.
     *
     * @param minX query lower x
     * @param minY query lower y
     * @param minZ query lower z
     * @param maxX query upper x
     * @param maxY query upper y
     * @param maxZ query upper z
     * @return the number of overlapping boxes
     */
    int countOverlaps(double minX, double minY, double minZ, double maxX, double maxY, double maxZ);

    /**
     * The boxes overlapping the closed query box, in 3D, as the index reports them (a box reported twice is listed
     * twice), sorted: what {@link #countOverlaps} counts, for the answer checks, which must tell a duplicate and a
     * missed box from the right answer. Not timed; allocates.
     *
     * @param minX query lower x
     * @param minY query lower y
     * @param minZ query lower z
     * @param maxX query upper x
     * @param maxY query upper y
     * @param maxZ query upper z
     * @return the indices of the overlapping boxes, sorted
     */
    int[] listOverlaps(double minX, double minY, double minZ, double maxX, double maxY, double maxZ);

    /**
     * The first box along the segment: its entry fraction is returned and its index is then given by
     * {@link #closestIndex()}. Equal fractions may name either box.
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param tx translation x
     * @param ty translation y
     * @param tz translation z
     * @return the entry fraction in {@code [0, 1]}, or {@link #NO_HIT}
     */
    double castClosest(double ox, double oy, double oz, double tx, double ty, double tz);

    /**
     * The box of the last {@link #castClosest} hit.
     *
     * @return its index, or -1 after a miss
     */
    int closestIndex();

    /**
     * Some box the segment hits, found as cheaply as the index allows.
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param tx translation x
     * @param ty translation y
     * @param tz translation z
     * @return the index of a box hit by the segment, or -1 if it hits none
     */
    int castAny(double ox, double oy, double oz, double tx, double ty, double tz);

    /**
     * Moves box {@code index} to a new place (dynamic indexes only).
     *
     * @param index the box
     * @param minX new lower x
     * @param minY new lower y
     * @param minZ new lower z
     * @param maxX new upper x
     * @param maxY new upper y
     * @param maxZ new upper z
     * @param dx displacement of this step along x (a hint for predictive fattening)
     * @param dy displacement along y
     * @param dz displacement along z
     * @throws UnsupportedOperationException if the index is static
     */
    void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz);
}
