package dev.boxwood.bench.peers;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.TraversalStack;

/**
 * Boxwood's {@link DynamicAabbTree}: 3D, boxes stored as floats relative to an origin placed at the centre of
 * the world, default margins. Built by the binned-SAH bulk build ({@code boxwood}) or by one insert per box
 * ({@code boxwood-insert}, the path of a world filled at run time). Region queries and segment casts (with
 * clipping at the best exact hit, and stopping at the first hit for any-hit casts) report through the tree's
 * visitors; the user value of each object is its box index.
 */
final class BoxwoodContender extends AbstractContender implements OverlapVisitor, RayCastVisitor {

    private DynamicAabbTree tree = new DynamicAabbTree();
    private int[] handles = new int[0];
    private final TraversalStack stack = new TraversalStack();
    private final boolean bulk;

    private BoxwoodContender(String name, boolean bulk) {
        super(name, true);
        this.bulk = bulk;
    }

    static BoxwoodContender bulkBuilt() {
        return new BoxwoodContender("boxwood", true);
    }

    static BoxwoodContender insertBuilt() {
        return new BoxwoodContender("boxwood-insert", false);
    }

    @Override
    protected void buildIndex() {
        int n = scene.size();
        double[] b = sceneBounds();
        TreeConfig config = TreeConfig.defaults()
                .withOrigin(0.5 * (b[0] + b[3]), 0.5 * (b[1] + b[4]), 0.5 * (b[2] + b[5]))
                .withInitialCapacity(Math.max(16, n));
        handles = new int[n];
        if (bulk) {
            long[] userValues = new long[n];
            for (int i = 0; i < n; i++) {
                userValues[i] = i;
                // the bulk build gives box i the handle i
                handles[i] = i;
            }
            tree = DynamicAabbTree.build(config, scene.toInterleaved(), userValues, null);
            return;
        }
        tree = new DynamicAabbTree(config);
        for (int i = 0; i < n; i++) {
            handles[i] = tree.add(scene.minX[i], scene.minY[i], scene.minZ[i],
                    scene.maxX[i], scene.maxY[i], scene.maxZ[i], i, 1L);
        }
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        tree.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, -1L, this, stack);
    }

    @Override
    public boolean visit(int handle, long userValue) {
        return accept((int) userValue);
    }

    @Override
    protected void cast(boolean any) {
        tree.rayCast(ox, oy, oz, tx, ty, tz, 1.0, -1L, this, stack);
    }

    @Override
    public double visit(int handle, long userValue, double fraction) {
        if (!accept((int) userValue)) {
            return 0;
        }
        // clip at the best exact fraction so far (0 stops: nothing precedes a start inside); -1 ignores
        double best = bestFraction();
        return best >= 0 ? best : -1;
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        moveInScene(index, minX, minY, minZ, maxX, maxY, maxZ);
        tree.move(handles[index], minX, minY, minZ, maxX, maxY, maxZ, dx, dy, dz);
    }
}
