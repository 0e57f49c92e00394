package dev.boxwood.bench.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.SpatialQueries;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.serial.StaticWorldWriter;
import dev.boxwood.testkit.scenes.BoxSet;

/**
 * Boxwood's {@link DynamicAabbTree}: 3D, boxes stored as floats relative to an origin placed at the centre of
 * the world, default margins. Built by the binned-SAH bulk build with handles in input order ({@code boxwood}), or
 * in the hierarchy's depth-first order ({@code boxwood-ordered}: the build for a static world, whose queries then
 * find their objects side by side; a world updated in input order moves slower with it), or by one insert per box
 * ({@code boxwood-insert}, the path of a world filled at run time), or by one add per box with
 * {@link TreeConfig#withDeferredAdds deferred adds} and then {@link DynamicAabbTree#flushAdds()}
 * ({@code boxwood-deferred}: the same calls, the objects taken in together). Also Boxwood's static world
 * ({@code boxwood-static}, {@link MappedWorld}): the boxes written once to a temporary file (format 2: leaves of up to
 * 8 objects, quantized nodes, no margins) and queried in place from the memory mapping; static, so it takes part in
 * queries and builds only. Region queries and segment casts (with clipping at the best exact hit, and stopping at
 * the first hit for any-hit casts) report through the same visitors; the user value of each object is its box
 * index.
 */
final class BoxwoodContender extends AbstractContender implements OverlapVisitor, RayCastVisitor {

    private static final int BULK = 0;
    private static final int INSERT = 1;
    private static final int MAPPED = 2;
    private static final int BULK_ORDERED = 3;
    private static final int DEFERRED = 4;

    private DynamicAabbTree tree = new DynamicAabbTree();
    /** What queries run on: the tree, or the mapped world. */
    private SpatialQueries index = tree;
    private MappedWorld world;
    private int[] handles = new int[0];
    private final TraversalStack stack = new TraversalStack();
    private final int kind;

    private BoxwoodContender(String name, int kind) {
        super(name, kind != MAPPED);
        this.kind = kind;
    }

    static BoxwoodContender bulkBuilt() {
        return new BoxwoodContender("boxwood", BULK);
    }

    static BoxwoodContender bulkBuiltInTreeOrder() {
        return new BoxwoodContender("boxwood-ordered", BULK_ORDERED);
    }

    static BoxwoodContender insertBuilt() {
        return new BoxwoodContender("boxwood-insert", INSERT);
    }

    static BoxwoodContender deferredInsertBuilt() {
        return new BoxwoodContender("boxwood-deferred", DEFERRED);
    }

    static BoxwoodContender staticWorld() {
        return new BoxwoodContender("boxwood-static", MAPPED);
    }

    @Override
    protected void buildIndex() {
        if (kind == MAPPED) {
            buildStaticWorld();
            return;
        }
        int n = scene.size();
        handles = new int[n];
        if (kind == BULK || kind == BULK_ORDERED) {
            tree = bulkTree(scene, kind == BULK_ORDERED ? handles : null);
            if (kind == BULK) {
                for (int i = 0; i < n; i++) {
                    // the input-order build gives box i the handle i
                    handles[i] = i;
                }
            }
            index = tree;
            return;
        }
        tree = new DynamicAabbTree(config(sceneBounds(), n).withDeferredAdds(kind == DEFERRED));
        for (int i = 0; i < n; i++) {
            handles[i] = tree.add(scene.minX[i], scene.minY[i], scene.minZ[i],
                    scene.maxX[i], scene.maxY[i], scene.maxZ[i], i, 1L);
        }
        // Deferred: the build's time includes taking the pending objects in, which the first query would do.
        tree.flushAdds();
        index = tree;
    }

    /**
     * The tree of the {@code boxwood} and {@code boxwood-ordered} contenders: the boxes bulk-built with default
     * margins, the origin at the centre of their bounds, the user value of box {@code i} being {@code i}; handles
     * in input order (box {@code i} has handle {@code i}), or given out in the hierarchy's depth-first order and
     * written to {@code handles} (so that the objects one query reaches lie side by side).
     *
     * @param boxes the boxes
     * @param handles null for handles in input order, else receives the handle of each box
     * @return the tree
     */
    static DynamicAabbTree bulkTree(BoxSet boxes, int[] handles) {
        int n = boxes.size();
        long[] userValues = new long[n];
        for (int i = 0; i < n; i++) {
            userValues[i] = i;
        }
        double[] bounds = n == 0 ? new double[6] : boxes.bounds();
        return handles == null ? DynamicAabbTree.build(config(bounds, n), boxes.toInterleaved(), userValues, null)
                : DynamicAabbTree.build(config(bounds, n), boxes.toInterleaved(), userValues, null, handles);
    }

    /** Default settings with the origin at the centre of {@code b} and room for {@code n} objects. */
    private static TreeConfig config(double[] b, int n) {
        return TreeConfig.defaults()
                .withOrigin(0.5 * (b[0] + b[3]), 0.5 * (b[1] + b[4]), 0.5 * (b[2] + b[5]))
                .withInitialCapacity(Math.max(16, n));
    }

    /**
     * Writes the scene to a temporary world file (user values default to the box index) and maps it; the file
     * is deleted at once (the mapping keeps it readable) and the previous world is closed.
     */
    private void buildStaticWorld() {
        try {
            if (world != null) {
                world.close();
            }
            Path file = Files.createTempFile("boxwood-peer-world", ".bxw");
            try {
                StaticWorldWriter.write(file, scene.toInterleaved(), null, null, null);
                world = MappedWorld.open(file);
            } finally {
                Files.deleteIfExists(file);
            }
            index = world;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        index.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, -1L, this, stack);
    }

    @Override
    public boolean visit(int handle, long userValue) {
        return accept((int) userValue);
    }

    @Override
    protected void cast(boolean any) {
        index.rayCast(ox, oy, oz, tx, ty, tz, 1.0, -1L, this, stack);
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
