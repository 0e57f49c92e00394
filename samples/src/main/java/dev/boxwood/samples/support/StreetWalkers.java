package dev.boxwood.samples.support;

import java.util.SplittableRandom;

/**
 * People walking the streets of a {@link City}: positions and velocities in flat arrays (x and z; y is the
 * ground). They walk along a street and, at a crossing, may turn; they turn back at the city's edge. Movement is
 * seeded, so a run is reproducible; it is deliberately simple (no collisions), since the samples are about the
 * queries.
 */
public final class StreetWalkers {

    /** Chance to turn at a crossing. */
    private static final double TURN = 0.35;

    private final City city;
    private final SplittableRandom random;
    /** Positions x. */
    public final double[] x;
    /** Positions z. */
    public final double[] z;
    /** Velocities x, metres per tick. */
    public final double[] velocityX;
    /** Velocities z, metres per tick. */
    public final double[] velocityZ;
    private final double[] box = new double[6];

    /**
     * Walkers spread over every street of the city.
     *
     * @param city the city whose streets they walk
     * @param count how many
     * @param random the random source (used for placement and for every later turn)
     */
    public StreetWalkers(City city, int count, SplittableRandom random) {
        this.city = city;
        this.random = random;
        x = new double[count];
        z = new double[count];
        velocityX = new double[count];
        velocityZ = new double[count];
        for (int i = 0; i < count; i++) {
            place(i, city.originX(), city.originZ(), city.originX() + city.width(), city.originZ() + city.depth());
        }
    }

    /** @return how many walkers there are */
    public int size() {
        return x.length;
    }

    /**
     * Puts walker {@code i} on a random street inside a rectangle (which should contain at least one street
     * centre line on each axis, such as a tile of the city), walking along it at 0.6 to 1.8 metres per tick.
     *
     * @param i the walker
     * @param minX rectangle min x
     * @param minZ rectangle min z
     * @param maxX rectangle max x
     * @param maxZ rectangle max z
     */
    public void place(int i, double minX, double minZ, double maxX, double maxZ) {
        double speed = 0.6 + random.nextDouble() * 1.2;
        double across = (random.nextDouble() * 2 - 1) * (City.STREET / 2 - 1);
        if (random.nextBoolean()) {
            x[i] = minX + random.nextDouble() * (maxX - minX);
            z[i] = streetIn(minZ, maxZ, city.originZ()) + across;
            velocityX[i] = random.nextBoolean() ? speed : -speed;
            velocityZ[i] = 0;
        } else {
            x[i] = streetIn(minX, maxX, city.originX()) + across;
            z[i] = minZ + random.nextDouble() * (maxZ - minZ);
            velocityX[i] = 0;
            velocityZ[i] = random.nextBoolean() ? speed : -speed;
        }
    }

    /** A random street centre line in [min, max] (the nearest one to min if there is none). */
    private double streetIn(double min, double max, double origin) {
        double first = origin + Math.ceil((min - origin) / City.PITCH) * City.PITCH;
        int count = (int) Math.floor((max - first) / City.PITCH) + 1;
        return first + random.nextInt(Math.max(1, count)) * City.PITCH;
    }

    /** One tick of walking for everybody. */
    public void step() {
        for (int i = 0; i < x.length; i++) {
            step(i);
        }
    }

    /**
     * One tick of walking for walker {@code i}.
     *
     * @param i the walker
     */
    public void step(int i) {
        double nx = x[i] + velocityX[i];
        double nz = z[i] + velocityZ[i];
        // A walk that passes a cross street's centre line is at a crossing.
        boolean crossedX = velocityX[i] != 0 && cell(nx - city.originX()) != cell(x[i] - city.originX());
        boolean crossedZ = velocityZ[i] != 0 && cell(nz - city.originZ()) != cell(z[i] - city.originZ());
        if ((crossedX || crossedZ) && random.nextDouble() < TURN) {
            double speed = Math.abs(velocityX[i]) + Math.abs(velocityZ[i]);
            double signed = random.nextBoolean() ? speed : -speed;
            velocityX[i] = crossedZ ? signed : 0;
            velocityZ[i] = crossedX ? signed : 0;
        }
        x[i] = nx;
        z[i] = nz;
        double edge = City.STREET / 2 - 1;
        if (x[i] < city.originX() - edge || x[i] > city.originX() + city.width() + edge) {
            velocityX[i] = -velocityX[i];
        }
        if (z[i] < city.originZ() - edge || z[i] > city.originZ() + city.depth() + edge) {
            velocityZ[i] = -velocityZ[i];
        }
    }

    private static double cell(double v) {
        return Math.floor(v / City.PITCH);
    }

    /**
     * The body of walker {@code i} standing on the ground.
     *
     * @param i the walker
     * @param halfWidth half its width on x and z
     * @param height its height
     * @return minX, minY, minZ, maxX, maxY, maxZ in an array shared by every call (copy it to keep it)
     */
    public double[] box(int i, double halfWidth, double height) {
        box[0] = x[i] - halfWidth;
        box[1] = 0;
        box[2] = z[i] - halfWidth;
        box[3] = x[i] + halfWidth;
        box[4] = height;
        box[5] = z[i] + halfWidth;
        return box;
    }
}
