package dev.boxwood.index;

import dev.boxwood.query.Arguments;
import dev.boxwood.query.Handles;

/**
 * Immutable settings of a {@link DynamicAabbTree}. Start from {@link #defaults()} and change what you need:
 * {@code TreeConfig.defaults().withOrigin(5e6, 0, 5e6).withMargin(0.2, 0.125)}.
 *
 * <ul>
 *   <li><b>Origin</b>: the tree stores boxes as floats relative to this double point. Put it near the middle of
 *       the objects: float resolution is about {@code 6e-8} times the distance from the origin, so a world 1000 km
 *       across centred on its origin keeps about 3 cm resolution, and one 10 km from an origin 1e7 away only about
 *       1 m. Unless {@link #withOrigin} sets it, {@link DynamicAabbTree#build} takes the centre of the boxes' bounds
 *       (snapped to a power-of-two grid, {@link dev.boxwood.index.build.BinnedSahBuilder#originOf}, as the static
 *       world writer does), and a tree created empty uses 0, 0, 0: a tree filled by {@code add} far from zero needs
 *       {@code withOrigin}, or {@link DynamicAabbTree#moveOrigin} once its objects are known (also for a tree whose
 *       objects drift far from where it started).</li>
 *   <li><b>Margin</b> (default cap 0.1, fraction 0.125): each leaf's fat box is its tight box grown on every side
 *       by {@code min(cap, fraction * longest edge of the tight box)}, so a small object may wander that far
 *       before it is re-inserted, and a large one a fixed distance (Box2D: {@code b2_aabbMargin} and the 1/8 of
 *       extent cap). A point box gets no margin. The cap is in world units (0.1: 10 cm in a metre world).</li>
 *   <li><b>Prediction</b> (default 4): an object moved with a displacement ({@code move(handle, box, dx, dy, dz)})
 *       that leaves its fat box gets a new fat box reaching this many displacements ahead, on the side the
 *       displacement points to (Box2D v2.4's {@code b2_aabbMultiplier}), so an object keeping its speed and
 *       heading is re-inserted about once every this many moves instead of every other one.</li>
 *   <li><b>Rotations</b> (default on): tree rotations after each insertion (Kopta et al. 2012).</li>
 *   <li><b>Initial capacity</b> (default 16): objects the arrays hold before they first grow.</li>
 *   <li><b>Add renumbering</b> (default on): adds renumber the nodes in depth-first memory order once 4,096 are in
 *       use and whenever that number has grown by half since ({@link DynamicAabbTree#compact}).</li>
 *   <li><b>Deferred adds</b> (default off): adds wait, pending, until the next query or
 *       {@link DynamicAabbTree#flushAdds()} takes them into the hierarchy, many of them at once by a bulk
 *       build ({@link #withDeferredAdds}).</li>
 * </ul>
 */
public final class TreeConfig {

    private static final TreeConfig DEFAULTS = new TreeConfig(0, 0, 0, 0.1, 0.125, 4.0, true, 64, 16, true,
            false, false);

    final double originX;
    final double originY;
    final double originZ;
    final double marginCap;
    final double marginFraction;
    final double prediction;
    final boolean rotations;
    final int addsPerOptimization;
    final int initialCapacity;
    final boolean addRenumbering;
    final boolean deferredAdds;
    /** Whether {@link #withOrigin} set the origin: else {@link DynamicAabbTree#build} chooses one from the boxes. */
    final boolean originSet;

    @SuppressWarnings("checkstyle:ParameterNumber")
    private TreeConfig(double originX, double originY, double originZ, double marginCap, double marginFraction,
                       double prediction, boolean rotations, int addsPerOptimization, int initialCapacity,
                       boolean addRenumbering, boolean deferredAdds, boolean originSet) {
        this.originX = originX;
        this.originY = originY;
        this.originZ = originZ;
        this.marginCap = marginCap;
        this.marginFraction = marginFraction;
        this.prediction = prediction;
        this.rotations = rotations;
        this.addsPerOptimization = addsPerOptimization;
        this.initialCapacity = initialCapacity;
        this.addRenumbering = addRenumbering;
        this.deferredAdds = deferredAdds;
        this.originSet = originSet;
    }

    /** @return the default settings described in the class comment */
    public static TreeConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Sets the origin, for an empty tree and for {@link DynamicAabbTree#build} alike (which otherwise chooses the
     * centre of its boxes).
     *
     * @param x origin x
     * @param y origin y
     * @param z origin z
     * @return a copy with this origin
     * @throws IllegalArgumentException if a coordinate is not finite or beyond
     *     {@link dev.boxwood.query.OutwardFloat#MAX_ORIGIN} (1e300) in magnitude
     */
    public TreeConfig withOrigin(double x, double y, double z) {
        Arguments.requireOrigin("x", x);
        Arguments.requireOrigin("y", y);
        Arguments.requireOrigin("z", z);
        return new TreeConfig(x, y, z, marginCap, marginFraction, prediction, rotations, addsPerOptimization,
                initialCapacity, addRenumbering, deferredAdds, true);
    }

    /**
     * @param cap largest margin in world units, finite and {@code >= 0} (0: no margin)
     * @param fraction margin as a fraction of the tight box's longest edge, finite and {@code >= 0}
     * @return a copy with this margin rule
     * @throws IllegalArgumentException if an argument is negative or not finite
     */
    public TreeConfig withMargin(double cap, double fraction) {
        Arguments.requireFiniteNonNegative("cap", cap);
        Arguments.requireFiniteNonNegative("fraction", fraction);
        return new TreeConfig(originX, originY, originZ, cap, fraction, prediction, rotations, addsPerOptimization,
                initialCapacity, addRenumbering, deferredAdds, originSet);
    }

    /**
     * @param ticks how many times the displacement passed to {@link DynamicAabbTree#move(int, double, double,
     *              double, double, double, double, double, double, double) move} the fat box of a re-inserted
     *              object reaches ahead, on the side the displacement points to; finite and {@code >= 0} (0: the
     *              displacement is ignored)
     * @return a copy with this prediction
     * @throws IllegalArgumentException if {@code ticks} is negative or not finite
     */
    public TreeConfig withPrediction(double ticks) {
        Arguments.requireFiniteNonNegative("ticks", ticks);
        return new TreeConfig(originX, originY, originZ, marginCap, marginFraction, ticks, rotations,
                addsPerOptimization, initialCapacity, addRenumbering, deferredAdds, originSet);
    }

    /**
     * @param enabled whether insertions and re-insertions rotate the nodes on the way up
     * @return a copy with this setting
     */
    public TreeConfig withRotations(boolean enabled) {
        return new TreeConfig(originX, originY, originZ, marginCap, marginFraction, prediction, enabled,
                addsPerOptimization, initialCapacity, addRenumbering, deferredAdds, originSet);
    }

    /**
     * @param adds after every this many {@link DynamicAabbTree#add adds}, the add also runs one step of
     *             {@link DynamicAabbTree#optimize(int) optimize(1)}; {@code >= 0} (0: never)
     * @return a copy with this setting
     * @throws IllegalArgumentException if {@code adds} is negative
     */
    public TreeConfig withAddOptimization(int adds) {
        if (adds < 0) {
            throw new IllegalArgumentException("adds must be >= 0: " + adds);
        }
        return new TreeConfig(originX, originY, originZ, marginCap, marginFraction, prediction, rotations, adds,
                initialCapacity, addRenumbering, deferredAdds, originSet);
    }

    /**
     * @param objects objects the arrays hold before they first grow, {@code 1 ..} {@link Handles#MAX_SLOTS}
     *                {@code - 1} (the most a tree holds)
     * @return a copy with this capacity
     * @throws IllegalArgumentException if {@code objects} is outside that range
     */
    public TreeConfig withInitialCapacity(int objects) {
        if (objects < 1 || objects > Handles.MAX_SLOTS - 1) {
            throw new IllegalArgumentException("objects must be in 1 .. " + (Handles.MAX_SLOTS - 1) + ": " + objects);
        }
        return new TreeConfig(originX, originY, originZ, marginCap, marginFraction, prediction, rotations,
                addsPerOptimization, objects, addRenumbering, deferredAdds, originSet);
    }

    /**
     * @param enabled whether adds renumber the nodes depth first from time to time ({@link DynamicAabbTree#compact}
     *                without the trimming): amortised O(1) per add, but the add that does it takes O(n), about
     *                0.1 to 0.2 s around a million objects on a 2-core machine (0.37 s at 1.8 million). Turn it
     *                off where no single add may take that long, and call
     *                {@link DynamicAabbTree#compact} at a moment of your choosing instead.
     * @return a copy with this setting
     */
    public TreeConfig withAddRenumbering(boolean enabled) {
        return new TreeConfig(originX, originY, originZ, marginCap, marginFraction, prediction, rotations,
                addsPerOptimization, initialCapacity, enabled, deferredAdds, originSet);
    }

    /**
     * @param enabled whether {@link DynamicAabbTree#add} only stores an object and leaves it pending, to be taken
     *                into the hierarchy together with the other pending objects at the next query or structural
     *                change, or at {@link DynamicAabbTree#flushAdds()} (see the tree's class comment, Deferred
     *                adds). For code that adds many objects one at a time, such as a level load where every entity
     *                registers itself: many pending objects go in by one binned-SAH build, faster than inserting
     *                them one by one and a better tree.
     * @return a copy with this setting
     */
    public TreeConfig withDeferredAdds(boolean enabled) {
        return new TreeConfig(originX, originY, originZ, marginCap, marginFraction, prediction, rotations,
                addsPerOptimization, initialCapacity, addRenumbering, enabled, originSet);
    }

    /** @return whether adds are deferred ({@link #withDeferredAdds}) */
    public boolean deferredAdds() {
        return deferredAdds;
    }

    /** @return origin x */
    public double originX() {
        return originX;
    }

    /** @return origin y */
    public double originY() {
        return originY;
    }

    /** @return origin z */
    public double originZ() {
        return originZ;
    }

    /** @return how many displacements ahead a re-inserted object's fat box reaches */
    public double prediction() {
        return prediction;
    }

    /** @return the margin cap in world units */
    public double marginCap() {
        return marginCap;
    }

    /** @return the margin as a fraction of the longest edge */
    public double marginFraction() {
        return marginFraction;
    }

    /** @return whether rotations are on */
    public boolean rotations() {
        return rotations;
    }

    /** @return after how many adds an add runs one optimisation step (0: never) */
    public int addsPerOptimization() {
        return addsPerOptimization;
    }

    /** @return whether adds renumber the nodes depth first from time to time */
    public boolean addRenumbering() {
        return addRenumbering;
    }

    /** @return the initial object capacity */
    public int initialCapacity() {
        return initialCapacity;
    }
}
