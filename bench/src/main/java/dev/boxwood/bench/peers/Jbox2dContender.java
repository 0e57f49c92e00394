package dev.boxwood.bench.peers;

import org.jbox2d.callbacks.TreeCallback;
import org.jbox2d.callbacks.TreeRayCastCallback;
import org.jbox2d.collision.AABB;
import org.jbox2d.collision.RayCastInput;
import org.jbox2d.collision.broadphase.DynamicTree;
import org.jbox2d.common.Vec2;

/**
 * jbox2d 2.2.1.1 {@code DynamicTree} (Box2D's b2DynamicTree): 2D, float, one insert per box, fixed 0.1 m fat
 * margin. Its {@code moveProxy} re-inserts every move (its test of the new box against the fat box is the wrong
 * way round, so it never sees the box inside), so a move first checks containment itself, as Box2D's own
 * {@code MoveProxy} does, and calls {@code moveProxy} only for a box that left its fat box. Native segment cast with clipping: the callback returns the exact hit fraction (rounded up to
 * float) to clip, 0 to stop an any-hit cast, -1 to skip a candidate.
 */
final class Jbox2dContender extends AbstractContender implements TreeCallback, TreeRayCastCallback {

    private DynamicTree tree = new DynamicTree();
    private int[] proxyOfBox = new int[0];
    private int[] boxOfProxy = new int[0];
    private final AABB scratch = new AABB();
    private final Vec2 displacement = new Vec2();
    private final RayCastInput input = new RayCastInput();

    Jbox2dContender() {
        super("jbox2d", true);
    }

    @Override
    protected void buildIndex() {
        tree = new DynamicTree();
        int n = scene.size();
        proxyOfBox = new int[n];
        boxOfProxy = new int[Math.max(16, n)];
        for (int i = 0; i < n; i++) {
            setScratch(i);
            int proxy = tree.createProxy(scratch, null);
            proxyOfBox[i] = proxy;
            mapProxy(proxy, i);
        }
    }

    private void mapProxy(int proxy, int box) {
        if (proxy >= boxOfProxy.length) {
            boxOfProxy = java.util.Arrays.copyOf(boxOfProxy, Math.max(proxy + 1, 2 * boxOfProxy.length));
        }
        boxOfProxy[proxy] = box;
    }

    private void setScratch(int i) {
        scratch.lowerBound.set(floatDown(scene.minX[i]), floatDown(scene.minY[i]));
        scratch.upperBound.set(floatUp(scene.maxX[i]), floatUp(scene.maxY[i]));
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        scratch.lowerBound.set(floatDown(minX), floatDown(minY));
        scratch.upperBound.set(floatUp(maxX), floatUp(maxY));
        tree.query(this, scratch);
    }

    @Override
    public boolean treeCallback(int proxyId) {
        return accept(boxOfProxy[proxyId]);
    }

    @Override
    protected void cast(boolean any) {
        input.p1.set((float) ox, (float) oy);
        input.p2.set((float) (ox + tx), (float) (oy + ty));
        input.maxFraction = 1;
        tree.raycast(this, input);
    }

    @Override
    public float raycastCallback(RayCastInput in, int proxyId) {
        if (!accept(boxOfProxy[proxyId])) {
            return 0;
        }
        // clip at the best exact fraction so far, rounded up so that float clipping never drops a box entered
        // at the same fraction; -1 (ignore) while there is none
        double best = bestFraction();
        return best >= 0 ? floatUp(best) : -1;
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        moveInScene(index, minX, minY, minZ, maxX, maxY, maxZ);
        setScratch(index);
        AABB fat = tree.getFatAABB(proxyOfBox[index]);
        if (fat.lowerBound.x <= scratch.lowerBound.x && fat.lowerBound.y <= scratch.lowerBound.y
                && scratch.upperBound.x <= fat.upperBound.x && scratch.upperBound.y <= fat.upperBound.y) {
            return;
        }
        displacement.set((float) dx, (float) dy);
        tree.moveProxy(proxyOfBox[index], scratch, displacement);
    }
}
