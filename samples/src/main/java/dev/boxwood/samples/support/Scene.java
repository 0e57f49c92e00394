package dev.boxwood.samples.support;

import java.util.Arrays;

import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.geom.SurfaceHit;
import dev.boxwood.testkit.scenes.BoxSet;

/**
 * The objects of a sample world, as a game would keep them in its own tables: each object is made of one or more
 * axis-aligned parts (a stepped building is a base and a tower, a lamp post a pole and an arm) and has a kind.
 * The spatial index only ever sees an object's bounding box; the parts are the "exact geometry" that the samples'
 * exact-test hooks check, standing in for the triangle meshes of a real game.
 *
 * <p>Coordinates are metres, y up, the ground at y = 0. Object {@code i} is also the user value the samples store
 * in the index, so a query answer leads straight back to this table.
 */
public final class Scene {

    /** Kind of an object: a building. */
    public static final byte BUILDING = 0;
    /** Kind of an object: a prop (crates, containers, parked cars). */
    public static final byte PROP = 1;
    /** Kind of an object: street furniture (lamp posts, benches, bins, trees). */
    public static final byte FURNITURE = 2;
    /** Kind of an object: a box of a real level loaded from the test kit. */
    public static final byte LEVEL = 3;

    private double[] parts = new double[6 * 64];
    private int partCount;
    private int[] firstPart = new int[65];
    private byte[] kinds = new byte[64];
    private double[] bounds = new double[6 * 64];
    private int size;
    private boolean open;

    /** An empty scene; add objects with {@link #begin}, {@link #part} and {@link #end}. */
    public Scene() {
    }

    /**
     * A scene with one single-part object per box of a box set (a real level, which comes as plain boxes).
     *
     * @param boxes the boxes
     * @param kind the kind of every object
     * @return the scene
     */
    public static Scene ofBoxes(BoxSet boxes, byte kind) {
        Scene scene = new Scene();
        for (int i = 0; i < boxes.size(); i++) {
            scene.begin(kind);
            scene.part(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i]);
            scene.end();
        }
        return scene;
    }

    /**
     * Starts a new object.
     *
     * @param kind its kind ({@link #BUILDING}, {@link #PROP}, {@link #FURNITURE}, {@link #LEVEL})
     * @return the index of the new object
     */
    public int begin(byte kind) {
        if (open) {
            throw new IllegalStateException("object " + size + " is not finished");
        }
        if (size == kinds.length) {
            kinds = Arrays.copyOf(kinds, size * 2);
            bounds = Arrays.copyOf(bounds, size * 12);
            firstPart = Arrays.copyOf(firstPart, size * 2 + 1);
        }
        kinds[size] = kind;
        firstPart[size] = partCount;
        open = true;
        return size;
    }

    /**
     * Adds a part to the object started last.
     *
     * @param minX min x
     * @param minY min y
     * @param minZ min z
     * @param maxX max x
     * @param maxY max y
     * @param maxZ max z
     */
    public void part(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        if (!open) {
            throw new IllegalStateException("no object started");
        }
        if (6 * partCount == parts.length) {
            parts = Arrays.copyOf(parts, parts.length * 2);
        }
        int o = 6 * partCount++;
        parts[o] = minX;
        parts[o + 1] = minY;
        parts[o + 2] = minZ;
        parts[o + 3] = maxX;
        parts[o + 4] = maxY;
        parts[o + 5] = maxZ;
    }

    /** Finishes the object started last: its bounding box becomes the union of its parts. */
    public void end() {
        if (!open || firstPart[size] == partCount) {
            throw new IllegalStateException("an object needs at least one part");
        }
        int b = 6 * size;
        Arrays.fill(bounds, b, b + 3, Double.POSITIVE_INFINITY);
        Arrays.fill(bounds, b + 3, b + 6, Double.NEGATIVE_INFINITY);
        for (int p = firstPart[size]; p < partCount; p++) {
            for (int a = 0; a < 3; a++) {
                bounds[b + a] = Math.min(bounds[b + a], parts[6 * p + a]);
                bounds[b + 3 + a] = Math.max(bounds[b + 3 + a], parts[6 * p + 3 + a]);
            }
        }
        size++;
        firstPart[size] = partCount;
        open = false;
    }

    /** @return the number of objects */
    public int size() {
        return size;
    }

    /**
     * @param object an object index
     * @return its kind
     */
    public byte kind(int object) {
        return kinds[object];
    }

    /**
     * The bounding box of an object, the box the index holds.
     *
     * @param object an object index
     * @param axis 0..5: minX, minY, minZ, maxX, maxY, maxZ
     * @return the coordinate
     */
    public double bound(int object, int axis) {
        return bounds[6 * object + axis];
    }

    /** @return the bounding boxes of all objects, stride 6, a copy (what a static world file is written from) */
    public double[] boundingBoxes() {
        return Arrays.copyOf(bounds, 6 * size);
    }

    /**
     * @param object an object index
     * @return the index of its first part
     */
    public int firstPart(int object) {
        return firstPart[object];
    }

    /**
     * @param object an object index
     * @return one past the index of its last part
     */
    public int endPart(int object) {
        return firstPart[object + 1];
    }

    /**
     * @param part a part index
     * @param axis 0..5: minX, minY, minZ, maxX, maxY, maxZ
     * @return the coordinate
     */
    public double partBound(int part, int axis) {
        return parts[6 * part + axis];
    }

    /** @return the bounds of the whole scene: minX, minY, minZ, maxX, maxY, maxZ */
    public double[] extent() {
        double[] e = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int i = 0; i < size; i++) {
            for (int a = 0; a < 3; a++) {
                e[a] = Math.min(e[a], bounds[6 * i + a]);
                e[3 + a] = Math.max(e[3 + a], bounds[6 * i + 3 + a]);
            }
        }
        return e;
    }

    /**
     * The exact test of a segment against an object's parts: the smallest entry fraction over its parts, in the
     * library's convention (0 for a start inside a part, {@link Geom#NO_HIT} on a miss). This is what the samples
     * plug into the collectors' exact-test hook, and what the checks recompute by brute force.
     *
     * @param object an object index
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction the largest fraction
     * @return the entry fraction or {@link Geom#NO_HIT}
     */
    public double intersectSegment(int object, double ox, double oy, double oz, double dx, double dy, double dz,
                                   double maxFraction) {
        double best = Geom.NO_HIT;
        for (int p = firstPart[object], end = firstPart[object + 1]; p < end; p++) {
            int o = 6 * p;
            double t = SegmentAabb.intersect(ox, oy, oz, dx, dy, dz, maxFraction,
                    parts[o], parts[o + 1], parts[o + 2], parts[o + 3], parts[o + 4], parts[o + 5]);
            if (t >= 0 && (best < 0 || t < best)) {
                best = t;
            }
        }
        return best;
    }

    /**
     * Where a hit found by {@link #intersectSegment} lies and which way the surface faces there: the part the
     * segment enters first (the lowest part on ties), described by {@link SegmentAabb#surface}.
     *
     * @param object the object
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction the largest fraction given to {@link #intersectSegment}
     * @param fraction the hit fraction {@link #intersectSegment} gave
     * @param dest receives the point and normal
     * @return whether a part is entered at that fraction
     */
    public boolean surface(int object, double ox, double oy, double oz, double dx, double dy, double dz,
                           double maxFraction, double fraction, SurfaceHit dest) {
        for (int p = firstPart[object], end = firstPart[object + 1]; p < end; p++) {
            int o = 6 * p;
            // the cast's own maxFraction: clamped to the hit's fraction, a part entered an ulp later would tie
            double t = SegmentAabb.intersect(ox, oy, oz, dx, dy, dz, maxFraction,
                    parts[o], parts[o + 1], parts[o + 2], parts[o + 3], parts[o + 4], parts[o + 5]);
            if (t >= 0 && t == fraction) {
                return SegmentAabb.surface(ox, oy, oz, dx, dy, dz, t,
                        parts[o], parts[o + 1], parts[o + 2], parts[o + 3], parts[o + 4], parts[o + 5], dest);
            }
        }
        dest.reset();
        return false;
    }
}
