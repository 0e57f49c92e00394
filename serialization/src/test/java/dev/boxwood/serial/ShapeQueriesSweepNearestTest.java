package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.ReadView;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.index.TreeSnapshots;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.ShapeQueries;
import dev.boxwood.query.SpatialQueries;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.NearestRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Swept and nearest queries asked through {@link ShapeQueries} alone, as an application written once would ask
 * them, of a dynamic tree, a read view of it and a mapped world written from the same boxes: each answers as the
 * brute-force scan, so all three answer alike. The tree is built in the world's storage order and frame, so the
 * three hold the same floats under the same handles and even ties (repeated boxes, points inside several boxes)
 * must come out in the same order; answers are compared by the objects' distinct user values.
 */
@ExtendWith(TracedReferences.class)
class ShapeQueriesSweepNearestTest {

    private static final int OBJECTS = 400;
    private static final int QUERIES = 300;
    /** Where the block of boxes starts: away from zero, so that queries are moved into each index's frame. */
    private static final double BASE_X = 1_000;
    private static final double BASE_Z = -700;
    private static final long[] MASKS = {-1L, 0xFFFF_FFFF_0000_0000L};
    private static final QueryFilter SOME = (handle, userValue) -> (userValue & 3) != 0;

    @TempDir
    Path dir;

    /** One query of each kind, all from the same place. */
    private record Query(int number, double[] box, double radius, double[] move, double[] point, int k,
                         double maxDistance, long mask, boolean filtered, boolean exact, int browsed) {
    }

    /** Each answer as text, user values and fractions or distances exactly ({@link Double#toString}). */
    private static final class Answers {
        final List<String> names = new ArrayList<>();
        final List<String> values = new ArrayList<>();

        void add(Query q, String kind, String value) {
            names.add(kind + " query " + q.number + " mask " + Long.toHexString(q.mask) + " k " + q.k + " max "
                    + q.maxDistance + (q.filtered ? " filtered" : "") + (q.exact ? " exact" : ""));
            values.add(value);
        }
    }

    @Test
    void shouldAnswerSweepsAndNearestThroughTheInterfaceAsTheScanOnTreeViewAndMappedWorld() throws IOException {
        Path file = dir.resolve("block.bxw");
        TestWorld world = block(31).writeStored(file);
        assertEquals(OBJECTS, Arrays.stream(world.userValues).distinct().count(), "distinct user values");
        List<Query> queries = queries(world, 32);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults().withOrigin(mapped.originX(),
                    mapped.originY(), mapped.originZ()), world.boxes, world.userValues, world.categories);
            TreeSnapshots snapshots = new TreeSnapshots(tree);
            snapshots.publish();
            try (ReadView view = snapshots.acquire()) {
                Answers expected = expected(world.oracle(mapped), queries);
                assertNonTrivial(expected);
                Answers first = null;
                for (ShapeQueries index : new ShapeQueries[] {tree, view, mapped}) {
                    String who = index.getClass().getSimpleName();
                    Answers actual = ask(index, queries);
                    assertEquals(expected.values.size(), actual.values.size(), who);
                    for (int i = 0; i < expected.values.size(); i++) {
                        assertEquals(expected.values.get(i), actual.values.get(i), who + " " + expected.names.get(i));
                        if (first != null) {
                            assertEquals(first.values.get(i), actual.values.get(i),
                                    who + " against the tree " + expected.names.get(i));
                        }
                    }
                    if (first == null) {
                        first = actual;
                    }
                    assertRefusesBadArguments(index, who);
                }
            }
        }
    }

    /**
     * The answers of one index through {@link ShapeQueries} alone: the sweeps, then {@code kNearest},
     * {@code nearest} and {@code browseNearest} with the same limits.
     */
    private static Answers ask(ShapeQueries index, List<Query> queries) {
        TraversalStack stack = new TraversalStack();
        Answers answers = sweeps(index, queries, (q, sphere, visitor) -> {
            double[] b = q.box;
            double[] d = q.move;
            if (sphere) {
                double[] c = centre(b);
                index.sweepSphere(c[0], c[1], c[2], q.radius, d[0], d[1], d[2], q.mask, visitor, stack);
            } else {
                index.sweepBox(b[0], b[1], b[2], b[3], b[4], b[5], d[0], d[1], d[2], q.mask, visitor, stack);
            }
        });
        NearestNeighbours dest = new NearestNeighbours();
        NearestNeighbours scratch = new NearestNeighbours();
        NearestRecorder recorder = new NearestRecorder();
        DistanceFunction exact = exactDistance(index);
        for (Query q : queries) {
            double[] p = q.point;
            QueryFilter filter = q.filtered ? SOME : null;
            DistanceFunction e = q.exact ? exact : null;
            index.kNearest(p[0], p[1], p[2], q.k, q.maxDistance, q.mask, filter, e, dest);
            answers.add(q, "kNearest", neighbours(index, dest));
            index.nearest(p[0], p[1], p[2], q.maxDistance, q.mask, filter, e, dest);
            answers.add(q, "nearest", neighbours(index, dest));
            index.browseNearest(p[0], p[1], p[2], q.maxDistance, q.mask, filter, e, recorder.reset(q.browsed),
                    scratch);
            assertNull(recorder.differenceFrom(scratch, "browsed objects listed in the scratch, query " + q.number));
            assertEquals(recorder.count(), scratch.count(), "browsed objects listed, query " + q.number);
            answers.add(q, "browseNearest", neighbours(index, scratch));
        }
        return answers;
    }

    /** What {@link #ask} must find: the scan's sweeps, and its k-nearest answer for each form's {@code k}. */
    private static Answers expected(BruteForceIndex oracle, List<Query> queries) {
        Answers answers = sweeps(oracle, queries, (q, sphere, visitor) -> {
            double[] b = q.box;
            double[] d = q.move;
            if (sphere) {
                double[] c = centre(b);
                oracle.sweepSphere(c[0], c[1], c[2], q.radius, d[0], d[1], d[2], q.mask, visitor);
            } else {
                oracle.sweepBox(b[0], b[1], b[2], b[3], b[4], b[5], d[0], d[1], d[2], q.mask, visitor);
            }
        });
        DistanceFunction exact = exactDistance(oracle);
        for (Query q : queries) {
            answers.add(q, "kNearest", scanNearest(oracle, q, q.k, exact));
            answers.add(q, "nearest", scanNearest(oracle, q, 1, exact));
            answers.add(q, "browseNearest", scanNearest(oracle, q, q.browsed, exact));
        }
        return answers;
    }

    /** A query's box sweep, or its sphere sweep, into a collector. */
    @FunctionalInterface
    private interface Sweep {
        void run(Query q, boolean sphere, RayCastVisitor visitor);
    }

    /** Every query's sweeps: all hits (sorted), and the closest hit (through the collector's clipping). */
    private static Answers sweeps(SpatialQueries index, List<Query> queries, Sweep sweep) {
        AllHits all = new AllHits();
        ClosestHit closest = new ClosestHit();
        Answers answers = new Answers();
        for (Query q : queries) {
            for (boolean sphere : new boolean[] {false, true}) {
                String kind = sphere ? "sweepSphere" : "sweepBox";
                all.reset();
                sweep.run(q, sphere, all);
                answers.add(q, kind + " all", hits(index, all));
                closest.reset();
                sweep.run(q, sphere, closest);
                answers.add(q, kind + " closest", hit(index, closest));
            }
        }
        return answers;
    }

    /** The scan's {@code k} nearest objects for the query's point, limit, mask, filter and distance. */
    private static String scanNearest(BruteForceIndex oracle, Query q, int k, DistanceFunction exact) {
        int[] handles = new int[OBJECTS + 3];
        double[] distances = new double[OBJECTS + 3];
        double[] p = q.point;
        int count = oracle.kNearest(p[0], p[1], p[2], k, q.maxDistance, q.mask, q.filtered ? SOME : null,
                q.exact ? exact : null, handles, distances);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < count; i++) {
            s.append(oracle.userValue(handles[i])).append('@').append(distances[i]).append(' ');
        }
        return s.toString();
    }

    /** The bad arguments the interface says are refused are refused by every index alike. */
    private static void assertRefusesBadArguments(ShapeQueries index, String who) {
        TraversalStack stack = new TraversalStack();
        AllHits all = new AllHits();
        NearestNeighbours dest = new NearestNeighbours();
        assertThrows(IllegalArgumentException.class,
                () -> index.sweepBox(1, 0, 0, 0, 1, 1, 1, 0, 0, -1L, all, stack), who + " inverted box");
        assertThrows(IllegalArgumentException.class,
                () -> index.sweepBox(0, 0, 0, 1, 1, 1, Double.NaN, 0, 0, -1L, all, stack), who + " displacement");
        assertThrows(IllegalArgumentException.class,
                () -> index.sweepSphere(0, 0, 0, -1, 1, 0, 0, -1L, all, stack), who + " negative radius");
        assertThrows(IllegalArgumentException.class,
                () -> index.kNearest(0, 0, 0, -1, 1, -1L, null, null, dest), who + " negative k");
        assertThrows(IllegalArgumentException.class,
                () -> index.nearest(0, 0, 0, Double.NaN, -1L, null, null, dest), who + " NaN maximum");
        assertThrows(IllegalArgumentException.class,
                () -> index.browseNearest(0, 0, 0, 1, -1L, null, null, null, dest), who + " null visitor");
    }

    /** Enough of each kind of answer, including starts inside boxes and ties, for the comparison to mean much. */
    private static void assertNonTrivial(Answers expected) {
        int sweepHits = 0;
        int startsInside = 0;
        int nearestFound = 0;
        int ties = 0;
        for (int i = 0; i < expected.values.size(); i++) {
            String name = expected.names.get(i);
            String value = expected.values.get(i);
            if (value.isEmpty()) {
                continue;
            }
            if (name.startsWith("sweep")) {
                sweepHits++;
                startsInside += value.contains("@0.0 ") ? 1 : 0;
            } else {
                nearestFound++;
                String[] results = value.split(" ");
                for (int r = 1; r < results.length; r++) {
                    String at = results[r].substring(results[r].indexOf('@'));
                    ties += at.equals(results[r - 1].substring(results[r - 1].indexOf('@'))) ? 1 : 0;
                }
            }
        }
        assertTrue(sweepHits > 2 * QUERIES, "sweeps that hit: " + sweepHits);
        assertTrue(startsInside > QUERIES / 4, "sweeps touching at the start: " + startsInside);
        assertTrue(nearestFound > 2 * QUERIES, "nearest queries that found objects: " + nearestFound);
        assertTrue(ties > 20, "equal distances in nearest answers: " + ties);
    }

    /** All hits by time, then handle, as user values and fractions; each user value is its handle's. */
    private static String hits(SpatialQueries index, AllHits all) {
        all.sort();
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < all.count(); i++) {
            assertEquals(index.userValue(all.handle(i)), all.userValue(i), "user value of a hit");
            s.append(all.userValue(i)).append('@').append(all.fraction(i)).append(' ');
        }
        return s.toString();
    }

    private static String hit(SpatialQueries index, ClosestHit closest) {
        if (!closest.hasHit()) {
            return "";
        }
        assertEquals(index.userValue(closest.handle()), closest.userValue(), "user value of the closest hit");
        return closest.userValue() + "@" + closest.fraction() + " ";
    }

    private static String neighbours(SpatialQueries index, NearestNeighbours found) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < found.count(); i++) {
            assertEquals(index.userValue(found.handle(i)), found.userValue(i), "user value of a neighbour");
            s.append(found.userValue(i)).append('@').append(found.distance(i)).append(' ');
        }
        return s.toString();
    }

    /**
     * A stand-in for exact geometry: the distance to the stored box (read back through the index, so the same on
     * all) plus a margin that grows with the user value, which reorders objects against their box distances; a
     * sixteenth of the objects are dropped. The margin keeps the distance above the box distance in the index's
     * frame, which differs from this one in world coordinates by rounding.
     */
    private static DistanceFunction exactDistance(SpatialQueries index) {
        double[] box = new double[6];
        return (handle, userValue, x, y, z) -> {
            if ((userValue & 15) == 0) {
                return -1;
            }
            index.getTightBox(handle, box);
            double dx = Math.max(0, Math.max(box[0] - x, x - box[3]));
            double dy = Math.max(0, Math.max(box[1] - y, y - box[4]));
            double dz = Math.max(0, Math.max(box[2] - z, z - box[5]));
            return Math.sqrt(dx * dx + dy * dy + dz * dz) + 0.5 + (userValue >>> 61);
        };
    }

    /**
     * {@value #OBJECTS} boxes of 0.2 to 8 m (a few flat or zero-size) in a 120 m x 30 m x 120 m block, one in
     * twenty a repeat of an earlier box, so that times and distances tie and the handle must decide.
     */
    private static TestWorld block(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] boxes = new double[6 * OBJECTS];
        for (int i = 0; i < OBJECTS; i++) {
            if (i > 0 && r.nextInt(20) == 0) {
                System.arraycopy(boxes, 6 * r.nextInt(i), boxes, 6 * i, 6);
                continue;
            }
            double x = BASE_X + r.nextDouble(0, 120);
            double y = r.nextDouble(0, 30);
            double z = BASE_Z + r.nextDouble(0, 120);
            boolean flat = r.nextInt(25) == 0;
            double ex = flat ? 0 : r.nextDouble(0.2, 8);
            double ey = r.nextDouble(0.2, 8);
            double ez = flat && r.nextBoolean() ? 0 : r.nextDouble(0.2, 8);
            boxes[6 * i] = x;
            boxes[6 * i + 1] = y;
            boxes[6 * i + 2] = z;
            boxes[6 * i + 3] = x + ex;
            boxes[6 * i + 4] = y + ey;
            boxes[6 * i + 5] = z + ez;
        }
        return new TestWorld("block", boxes, seed, false);
    }

    /**
     * {@value #QUERIES} queries: sweeps from a random place, or (one in three) from inside an object's box, towards
     * another object's centre, a few not moving at all; nearest queries from a random point, or (one in four) an
     * object's centre.
     */
    private static List<Query> queries(TestWorld world, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Query> queries = new ArrayList<>();
        for (int q = 0; q < QUERIES; q++) {
            double h = q % 3 == 0 ? r.nextDouble(0.05, 1) : r.nextDouble(0.2, 4);
            double[] start = q % 3 == 0 ? objectCentre(world, r) : randomPoint(r);
            double[] box = {start[0] - h, start[1] - h, start[2] - h, start[0] + h, start[1] + h, start[2] + h};
            double[] target = objectCentre(world, r);
            double scale = q % 10 == 5 ? 0 : r.nextDouble(0.3, 1.5);
            double[] move = {(target[0] - start[0]) * scale, (target[1] - start[1]) * scale,
                    (target[2] - start[2]) * scale};
            double[] point = q % 4 == 0 ? objectCentre(world, r) : randomPoint(r);
            int k = r.nextInt(4) == 0 ? OBJECTS + 3 : 1 + r.nextInt(20);
            double maxDistance = r.nextBoolean() ? Double.POSITIVE_INFINITY : r.nextDouble(0, 40);
            queries.add(new Query(q, box, h, move, point, k, maxDistance, MASKS[q % MASKS.length], r.nextBoolean(),
                    r.nextBoolean(), 1 + r.nextInt(12)));
        }
        return queries;
    }

    private static double[] objectCentre(TestWorld world, SplittableRandom r) {
        int i = r.nextInt(OBJECTS);
        return centre(Arrays.copyOfRange(world.boxes, 6 * i, 6 * i + 6));
    }

    private static double[] randomPoint(SplittableRandom r) {
        return new double[] {BASE_X + r.nextDouble(-20, 140), r.nextDouble(-10, 40), BASE_Z + r.nextDouble(-20, 140)};
    }

    private static double[] centre(double[] box) {
        return new double[] {0.5 * (box[0] + box[3]), 0.5 * (box[1] + box[4]), 0.5 * (box[2] + box[5])};
    }
}
