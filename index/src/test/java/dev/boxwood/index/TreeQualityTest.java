package dev.boxwood.index;

import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.MovingWorkload;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tree quality ({@link DynamicAabbTree#areaRatio()}) against a fresh binned-SAH build of the same boxes, on the
 * clustered synthetic world: after one-by-one insertion, and after many ticks of the moving workload. The goal is
 * to stay within {@value #GOAL}x of the fresh build. The default suite runs smaller versions of the long profiles.
 */
class TreeQualityTest {

    /** Largest accepted area ratio relative to a fresh build of the same boxes. */
    static final double GOAL = 1.10;
    /** Re-insertions per add in the insertion profile (one optimize call after each add). */
    static final int INSERT_BUDGET = 1;
    /** Re-insertions per tick in the moving profile, per 100k objects. */
    static final int TICK_BUDGET_PER_100K = 100;

    @Test
    void shouldStayNearAFreshBuildAfterOneByOneInsertionOf100kObjects() {
        insertOneByOne(100_000);
    }

    @Test
    @Tag("long")
    void shouldStayNearAFreshBuildAfterOneByOneInsertionOf1mObjects() {
        insertOneByOne(1_000_000);
    }

    @Test
    void shouldStayNearAFreshBuildWhenFilledInBatchesOf100kObjects() {
        addInBatches(100_000, 1_000);
    }

    @Test
    @Tag("long")
    void shouldStayNearAFreshBuildWhenFilledInBatchesOf1mObjects() {
        addInBatches(1_000_000, 10_000);
    }

    @Test
    void shouldStayNearAFreshBuildThrough200TicksOf10kMovingObjects() {
        moveAround(10_000, 200, TICK_BUDGET_PER_100K);
    }

    @Test
    void shouldStayNearAFreshBuildThrough200TicksOf10kMovingObjectsWithoutOptimizing() {
        moveAround(10_000, 200, 0);
    }

    @Test
    @Tag("long")
    void shouldStayNearAFreshBuildThrough1000TicksOf100kMovingObjectsWithoutOptimizing() {
        moveAround(100_000, 1000, 0);
    }

    @Test
    @Tag("long")
    void shouldStayNearAFreshBuildThrough1000TicksOf100kMovingObjects() {
        moveAround(100_000, 1000, TICK_BUDGET_PER_100K);
    }

    private static double freshRatio(BoxSet boxes) {
        DynamicAabbTree fresh = DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null);
        fresh.validate();
        return fresh.areaRatio();
    }

    /**
     * Insertion alone (rotations, no optimisation), with the default settings (one optimisation step every
     * {@link TreeConfig#addsPerOptimization()} adds), and with {@code optimize(INSERT_BUDGET)} after each add; the
     * default settings must meet the goal.
     */
    private static void insertOneByOne(int n) {
        BoxSet boxes = SyntheticWorld.clustered(n, 41).boxes();
        double fresh = freshRatio(boxes);
        DynamicAabbTree plain = new DynamicAabbTree(TreeConfig.defaults().withAddOptimization(0));
        DynamicAabbTree defaults = new DynamicAabbTree();
        DynamicAabbTree optimized = new DynamicAabbTree(TreeConfig.defaults().withAddOptimization(0));
        for (int i = 0; i < n; i++) {
            plain.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i],
                    i, -1L);
            defaults.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i],
                    i, -1L);
            optimized.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i],
                    i, -1L);
            optimized.optimize(INSERT_BUDGET);
        }
        plain.validate();
        defaults.validate();
        optimized.validate();
        double plainRatio = plain.areaRatio() / fresh;
        double defaultRatio = defaults.areaRatio() / fresh;
        double optimizedRatio = optimized.areaRatio() / fresh;
        String report = String.format("%d one-by-one insertions: fresh build %.4f; insertion + rotations %.4f (%.4fx);"
                        + " default settings (one optimize step per %d adds) %.4f (%.4fx);"
                        + " with optimize(%d) per add %.4f (%.4fx)", n, fresh, plain.areaRatio(), plainRatio,
                TreeConfig.defaults().addsPerOptimization(), defaults.areaRatio(), defaultRatio,
                INSERT_BUDGET, optimized.areaRatio(), optimizedRatio);
        System.out.println(report);
        assertTrue(defaultRatio <= GOAL, report);
        assertTrue(optimizedRatio <= defaultRatio && defaultRatio < plainRatio, report);
    }

    /**
     * The world added in batches of {@code batch} consecutive boxes ({@link DynamicAabbTree#addAll}; each batch is
     * spread over the world like the whole, and goes in split, mostly object by object, without the optimisation
     * steps of {@code add}): the tree must meet the goal all the same.
     */
    private static void addInBatches(int n, int batch) {
        BoxSet boxes = SyntheticWorld.clustered(n, 43).boxes();
        double fresh = freshRatio(boxes);
        double[] all = boxes.toInterleaved();
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int from = 0; from < n; from += batch) {
            tree.addAll(java.util.Arrays.copyOfRange(all, 6 * from, 6 * Math.min(n, from + batch)), null, null);
        }
        tree.validate();
        double ratio = tree.areaRatio() / fresh;
        String report = String.format("%d objects in batches of %d: fresh build %.4f; batches %.4f (%.4fx)", n, batch,
                fresh, tree.areaRatio(), ratio);
        System.out.println(report);
        assertTrue(ratio <= GOAL, report);
    }

    /**
     * Bulk build, then {@code ticks} ticks of the moving workload: every object moves (with its displacement as
     * the prediction), then one {@code optimize} call with {@code budgetPer100k} re-insertions per 100k objects (none
     * when 0). Checked five times along the way against a fresh build.
     */
    private static void moveAround(int n, int ticks, int budgetPer100k) {
        SyntheticWorld world = SyntheticWorld.clustered(n, 42);
        MovingWorkload moving = world.moving(43);
        BoxSet b = moving.boxes();
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults(), b.toInterleaved(), null, null);
        int budget = budgetPer100k == 0 ? 0 : Math.max(1, (int) ((long) budgetPer100k * n / 100_000));
        double worst = 0;
        StringBuilder report = new StringBuilder(String.format("%d objects moving, optimize(%d) per tick:", n,
                budget));
        for (int tick = 1; tick <= ticks; tick++) {
            moving.tick();
            for (int i = 0; i < n; i++) {
                tree.move(i, b.minX[i], b.minY[i], b.minZ[i], b.maxX[i], b.maxY[i], b.maxZ[i],
                        moving.displacementX[i], moving.displacementY[i], moving.displacementZ[i]);
            }
            tree.optimize(budget);
            if (tick % (ticks / 5) == 0) {
                tree.validate();
                double fresh = freshRatio(b);
                double ratio = tree.areaRatio() / fresh;
                worst = Math.max(worst, ratio);
                report.append(String.format(" tick %d: %.4f vs fresh %.4f (%.4fx);", tick, tree.areaRatio(), fresh,
                        ratio));
            }
        }
        System.out.println(report);
        assertTrue(worst <= GOAL, report.toString());
    }
}
