package dev.boxwood.samples.support;

import java.util.SplittableRandom;

/**
 * A seeded generator of city-like scenes: a grid of blocks separated by streets, each block split into lots
 * with plain or stepped buildings (or a courtyard full of crates and containers), sidewalks lined with lamp posts,
 * trees, benches and bins, and cars parked along the curbs.
 *
 * <p>Streets run along x and z; their centre lines are at {@code originX + i * PITCH} ({@code i = 0..blocksX}) and
 * {@code originZ + j * PITCH} ({@code j = 0..blocksZ}), so moving agents can walk them without a navigation mesh.
 * Y is up and the ground is at y = 0. The same arguments always give the same scene.
 *
 * @param originX x of the first street's centre line
 * @param originZ z of the first street's centre line
 * @param blocksX blocks along x
 * @param blocksZ blocks along z
 */
public record City(double originX, double originZ, int blocksX, int blocksZ) {

    /** Street width, curb to curb plus sidewalks, in metres. */
    public static final double STREET = 18;
    /** Distance between the centre lines of neighbouring streets. */
    public static final double PITCH = 84;
    /** Side of a block (between the sidewalks). */
    public static final double BLOCK = PITCH - STREET;
    /** Half the width of the driving lanes; the sidewalks lie between this and {@code STREET / 2}. */
    public static final double LANES = 6;

    /**
     * Validates the arguments.
     *
     * @param originX see the record component
     * @param originZ see the record component
     * @param blocksX see the record component, {@code >= 1}
     * @param blocksZ see the record component, {@code >= 1}
     */
    public City {
        if (blocksX < 1 || blocksZ < 1) {
            throw new IllegalArgumentException("a city needs at least one block: " + blocksX + " x " + blocksZ);
        }
    }

    /** @return the x extent of the city, street centre to street centre */
    public double width() {
        return blocksX * PITCH;
    }

    /** @return the z extent of the city, street centre to street centre */
    public double depth() {
        return blocksZ * PITCH;
    }

    /**
     * Generates the scene.
     *
     * @param seed the seed
     * @return a new scene
     */
    public Scene generate(long seed) {
        Scene scene = new Scene();
        generateInto(scene, seed);
        return scene;
    }

    /**
     * Generates the scene into an existing one (the streaming sample builds a tile plus its neighbours' edges).
     *
     * @param scene the scene to add to
     * @param seed the seed
     */
    public void generateInto(Scene scene, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double centreX = originX + width() / 2;
        double centreZ = originZ + depth() / 2;
        double radius = Math.max(width(), depth()) / 2;
        for (int bx = 0; bx < blocksX; bx++) {
            for (int bz = 0; bz < blocksZ; bz++) {
                double x0 = originX + bx * PITCH + STREET / 2;
                double z0 = originZ + bz * PITCH + STREET / 2;
                // Downtown: buildings grow taller towards the middle, which gives the skyline (and the line of
                // sight sample its long blocked views).
                double distance = Math.hypot(x0 + BLOCK / 2 - centreX, z0 + BLOCK / 2 - centreZ) / Math.max(1, radius);
                double heightScale = 0.35 + 0.9 * Math.max(0, 1 - distance);
                block(scene, random.split(), x0, z0, heightScale);
                sidewalks(scene, random.split(), x0, z0);
            }
        }
    }

    /** One block: a grid of 1 to 3 lots per side, each a building or a courtyard. */
    private static void block(Scene scene, SplittableRandom random, double x0, double z0, double heightScale) {
        int lotsX = 1 + random.nextInt(3);
        int lotsZ = 1 + random.nextInt(3);
        double lotX = BLOCK / lotsX;
        double lotZ = BLOCK / lotsZ;
        for (int i = 0; i < lotsX; i++) {
            for (int j = 0; j < lotsZ; j++) {
                double lx = x0 + i * lotX;
                double lz = z0 + j * lotZ;
                if (random.nextDouble() < 0.12) {
                    courtyard(scene, random, lx, lz, lotX, lotZ);
                } else {
                    building(scene, random, lx, lz, lotX, lotZ, heightScale);
                }
            }
        }
    }

    private static void building(Scene scene, SplittableRandom random, double lx, double lz, double lotX,
                                 double lotZ, double heightScale) {
        double inset = 1 + random.nextDouble() * 2.5;
        double x0 = lx + inset;
        double z0 = lz + inset;
        double x1 = lx + lotX - inset;
        double z1 = lz + lotZ - inset;
        // Log-normal-ish heights: many low houses, a few towers.
        double height = heightScale * (8 + 14 * Math.exp(random.nextGaussian() * 0.6));
        scene.begin(Scene.BUILDING);
        if (random.nextDouble() < 0.45 && x1 - x0 > 14 && z1 - z0 > 14) {
            // Stepped building: a podium and a narrower tower. Its bounding box is mostly air above the podium,
            // which is why picking runs an exact test on the parts.
            double podium = 5 + random.nextDouble() * 6;
            double sx = (x1 - x0) * (0.15 + random.nextDouble() * 0.15);
            double sz = (z1 - z0) * (0.15 + random.nextDouble() * 0.15);
            scene.part(x0, 0, z0, x1, podium, z1);
            scene.part(x0 + sx, podium, z0 + sz, x1 - sx, podium + height * 1.4, z1 - sz);
        } else {
            scene.part(x0, 0, z0, x1, height, z1);
        }
        scene.end();
    }

    /** An open lot with crates and shipping containers. */
    private static void courtyard(Scene scene, SplittableRandom random, double lx, double lz, double lotX,
                                  double lotZ) {
        int containers = 1 + random.nextInt(3);
        for (int c = 0; c < containers; c++) {
            boolean alongX = random.nextBoolean();
            double sx = alongX ? 6.1 : 2.4;
            double sz = alongX ? 2.4 : 6.1;
            double x = lx + 2 + random.nextDouble() * Math.max(0, lotX - 4 - sx);
            double z = lz + 2 + random.nextDouble() * Math.max(0, lotZ - 4 - sz);
            scene.begin(Scene.PROP);
            scene.part(x, 0, z, x + sx, 2.6, z + sz);
            scene.end();
        }
        int crates = 3 + random.nextInt(8);
        for (int c = 0; c < crates; c++) {
            double s = 0.8 + random.nextDouble() * 0.6;
            double x = lx + 1 + random.nextDouble() * (lotX - 2 - s);
            double z = lz + 1 + random.nextDouble() * (lotZ - 2 - s);
            scene.begin(Scene.PROP);
            scene.part(x, 0, z, x + s, s, z + s);
            if (random.nextDouble() < 0.3) {
                // A second crate stacked on top.
                double t = s * 0.8;
                scene.part(x + 0.1, s, z + 0.1, x + 0.1 + t, s + t, z + 0.1 + t);
            }
            scene.end();
        }
    }

    /**
     * Street furniture on the four sidewalks of a block and cars parked along its curbs. Every block furnishes its
     * own four sides, so streets between blocks get furniture on both sides.
     */
    private static void sidewalks(Scene scene, SplittableRandom random, double x0, double z0) {
        double walk = (STREET / 2 - LANES) / 2; // distance of the furniture line from the block edge
        for (int side = 0; side < 4; side++) {
            boolean alongX = side < 2;
            // The furniture line, just outside the block edge, and the outward direction towards the street.
            double fixed = switch (side) {
                case 0 -> z0 - walk;
                case 1 -> z0 + BLOCK + walk;
                case 2 -> x0 - walk;
                default -> x0 + BLOCK + walk;
            };
            double outward = side == 0 || side == 2 ? -1 : 1;
            double start = alongX ? x0 : z0;
            for (double s = start + 4 + random.nextDouble() * 4; s < start + BLOCK - 2; s += 6 + random.nextDouble() * 6) {
                double roll = random.nextDouble();
                if (roll < 0.3) {
                    lampPost(scene, alongX, s, fixed, outward);
                } else if (roll < 0.55) {
                    tree(scene, alongX, s, fixed, random);
                } else if (roll < 0.75) {
                    furniture(scene, alongX, s, fixed, 0.9, 0.5, 0.3); // bench: long along the street
                } else if (roll < 0.85) {
                    furniture(scene, alongX, s, fixed, 0.3, 1.0, 0.3); // bin
                }
            }
            // Parked cars just inside the lanes.
            double lane = fixed + outward * (walk + 1.2);
            for (double s = start + 3 + random.nextDouble() * 8; s < start + BLOCK - 5; s += 5.5 + random.nextDouble() * 14) {
                car(scene, alongX, s, lane, random);
            }
        }
    }

    private static void lampPost(Scene scene, boolean alongX, double s, double fixed, double outward) {
        scene.begin(Scene.FURNITURE);
        place(scene, alongX, s - 0.15, s + 0.15, fixed - 0.15, fixed + 0.15, 0, 6);
        // The arm reaches over the street: an L-shaped object whose box is mostly empty.
        double a = fixed + outward * 1.8;
        place(scene, alongX, s - 0.1, s + 0.1, Math.min(fixed, a), Math.max(fixed, a), 5.8, 6);
        scene.end();
    }

    private static void tree(Scene scene, boolean alongX, double s, double fixed, SplittableRandom random) {
        double crown = 1.2 + random.nextDouble() * 0.8;
        double trunk = 2.2 + random.nextDouble();
        scene.begin(Scene.FURNITURE);
        place(scene, alongX, s - 0.2, s + 0.2, fixed - 0.2, fixed + 0.2, 0, trunk);
        place(scene, alongX, s - crown, s + crown, fixed - crown, fixed + crown, trunk, trunk + 2 * crown);
        scene.end();
    }

    private static void furniture(Scene scene, boolean alongX, double s, double fixed, double halfAlong,
                                  double height, double halfAcross) {
        scene.begin(Scene.FURNITURE);
        place(scene, alongX, s - halfAlong, s + halfAlong, fixed - halfAcross, fixed + halfAcross, 0, height);
        scene.end();
    }

    private static void car(Scene scene, boolean alongX, double s, double lane, SplittableRandom random) {
        double length = 4 + random.nextDouble() * 0.8;
        scene.begin(Scene.PROP);
        place(scene, alongX, s, s + length, lane - 0.9, lane + 0.9, 0.2, 1.0);
        place(scene, alongX, s + length * 0.25, s + length * 0.75, lane - 0.8, lane + 0.8, 1.0, 1.5);
        scene.end();
    }

    /** Adds a part given along/across the street instead of x/z. */
    private static void place(Scene scene, boolean alongX, double s0, double s1, double c0, double c1,
                              double y0, double y1) {
        if (alongX) {
            scene.part(s0, y0, c0, s1, y1, c1);
        } else {
            scene.part(c0, y0, s0, c1, y1, s1);
        }
    }
}
