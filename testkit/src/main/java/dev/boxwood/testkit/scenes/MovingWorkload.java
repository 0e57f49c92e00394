package dev.boxwood.testkit.scenes;

import java.util.SplittableRandom;

/**
 * Every box moves every tick. Each box has a velocity (world units per tick) doing a small random walk:
 * each tick every velocity component changes by a uniform step in
 * [-{@value #ACCELERATION}, {@value #ACCELERATION}] m and is clamped to
 * [-{@value #MAX_COMPONENT_SPEED}, {@value #MAX_COMPONENT_SPEED}] m, so a box never moves more than
 * 0.5 m per tick (all values scaled by the frame). A component that would carry the box centre out of the
 * canonical world ({@link SyntheticWorld}) is reversed and the box does not move along that axis that tick.
 * Velocities start at zero.
 *
 * <p>{@link #tick()} updates {@link #boxes()} in place and records each box's displacement of that tick
 * (for predictive fattening); an index learns the new boxes from {@link #boxes()}. Not thread-safe.
 * Deterministic given the starting boxes, frame and seed.
 */
public final class MovingWorkload {

    /** Largest change of a velocity component per tick, metres per tick. */
    public static final double ACCELERATION = 0.05;
    /** Largest velocity component, metres per tick: {@code 0.5 / sqrt(3)}, so the speed stays at most 0.5. */
    public static final double MAX_COMPONENT_SPEED = 0.5 / 1.7320508075688772;

    private final BoxSet boxes;
    private final SplittableRandom random;
    private final double acceleration;
    private final double maxComponent;
    private final double lowX;
    private final double lowY;
    private final double lowZ;
    private final double highX;
    private final double highY;
    private final double highZ;
    private final double[] velocityX;
    private final double[] velocityY;
    private final double[] velocityZ;

    /** Displacement along x of each box in the last tick. */
    public final double[] displacementX;
    /** Displacement along y of each box in the last tick. */
    public final double[] displacementY;
    /** Displacement along z of each box in the last tick. */
    public final double[] displacementZ;

    private long ticks;

    /**
     * A workload that moves {@code boxes} (in place) inside the canonical world placed by {@code frame}.
     *
     * @param boxes the boxes to move; their arrays are updated by {@link #tick()}
     * @param frame the frame of the world, which sets the bounds and the unit of speed
     * @param seed the seed of the walk
     */
    public MovingWorkload(BoxSet boxes, WorldFrame frame, long seed) {
        this.boxes = boxes;
        this.random = new SplittableRandom(seed);
        acceleration = frame.length(ACCELERATION);
        maxComponent = frame.length(MAX_COMPONENT_SPEED);
        lowX = frame.x(0);
        lowY = frame.y(0);
        lowZ = frame.z(0);
        highX = frame.x(SyntheticWorld.WIDTH);
        highY = frame.y(SyntheticWorld.DEPTH);
        highZ = frame.z(SyntheticWorld.HEIGHT);
        int n = boxes.size();
        velocityX = new double[n];
        velocityY = new double[n];
        velocityZ = new double[n];
        displacementX = new double[n];
        displacementY = new double[n];
        displacementZ = new double[n];
    }

    /**
     * The moving boxes (this workload's own set).
     *
     * @return the boxes
     */
    public BoxSet boxes() {
        return boxes;
    }

    /**
     * Number of ticks done so far.
     *
     * @return the tick count
     */
    public long ticks() {
        return ticks;
    }

    /** Moves every box once. Allocates nothing. */
    public void tick() {
        double[] minX = boxes.minX;
        double[] maxX = boxes.maxX;
        double[] minY = boxes.minY;
        double[] maxY = boxes.maxY;
        double[] minZ = boxes.minZ;
        double[] maxZ = boxes.maxZ;
        for (int i = 0, n = boxes.size(); i < n; i++) {
            double dx = step(velocityX, i, 0.5 * (minX[i] + maxX[i]), lowX, highX);
            double dy = step(velocityY, i, 0.5 * (minY[i] + maxY[i]), lowY, highY);
            double dz = step(velocityZ, i, 0.5 * (minZ[i] + maxZ[i]), lowZ, highZ);
            minX[i] += dx;
            maxX[i] += dx;
            minY[i] += dy;
            maxY[i] += dy;
            minZ[i] += dz;
            maxZ[i] += dz;
            displacementX[i] = dx;
            displacementY[i] = dy;
            displacementZ[i] = dz;
        }
        ticks++;
    }

    /** Walks one velocity component and returns the displacement, reflecting off the world's bounds. */
    private double step(double[] velocity, int i, double centre, double low, double high) {
        double v = velocity[i] + acceleration * (2 * random.nextDouble() - 1);
        v = Math.max(-maxComponent, Math.min(maxComponent, v));
        double next = centre + v;
        if (next < low || next > high) {
            velocity[i] = -v;
            return 0;
        }
        velocity[i] = v;
        return v;
    }
}
