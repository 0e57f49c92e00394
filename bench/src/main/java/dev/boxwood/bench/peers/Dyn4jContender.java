package dev.boxwood.bench.peers;

import java.util.Iterator;
import org.dyn4j.collision.broadphase.AABBProducer;
import org.dyn4j.collision.broadphase.BroadphaseFilter;
import org.dyn4j.collision.broadphase.DynamicAABBTree;
import org.dyn4j.collision.broadphase.StaticValueAABBExpansionMethod;
import org.dyn4j.geometry.AABB;
import org.dyn4j.geometry.Ray;
import org.dyn4j.geometry.Vector2;

/**
 * dyn4j 6.0.0 {@code DynamicAABBTree}: 2D, double, one insert per box, items are objects (one per box, the
 * API's requirement) mapped to leaves by a hash map inside the tree. Fat margin 0.1 per side like jbox2d.
 * Native cast: every item whose fat box the 2D segment crosses, in tree order, without clipping.
 */
final class Dyn4jContender extends AbstractContender implements AABBProducer<Dyn4jContender.Item> {

    /** The object dyn4j indexes for box {@link #index}. */
    static final class Item {
        final int index;

        Item(int index) {
            this.index = index;
        }
    }

    private DynamicAABBTree<Item> tree;
    private Item[] items = new Item[0];
    private final AABB query = new AABB(0, 0, 0, 0);
    private final Ray ray = new Ray(new Vector2(0, 0), new Vector2(1, 0));
    private final Vector2 start = new Vector2();
    private final Vector2 direction = new Vector2();

    Dyn4jContender() {
        super("dyn4j", true);
    }

    @Override
    protected void buildIndex() {
        int n = scene.size();
        BroadphaseFilter<Item> all = (a, b) -> true;
        tree = new DynamicAABBTree<>(all, this, new StaticValueAABBExpansionMethod<>(2 * FAT_MARGIN), Math.max(16, n));
        items = new Item[n];
        for (int i = 0; i < n; i++) {
            items[i] = new Item(i);
            tree.add(items[i]);
        }
    }

    @Override
    public AABB compute(Item item) {
        AABB out = new AABB(0, 0, 0, 0);
        compute(item, out);
        return out;
    }

    @Override
    public void compute(Item item, AABB out) {
        int i = item.index;
        AABB.setFromPoints(scene.minX[i], scene.minY[i], scene.maxX[i], scene.maxY[i], out);
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        AABB.setFromPoints(minX, minY, maxX, maxY, query);
        Iterator<Item> it = tree.detectIterator(query);
        while (it.hasNext()) {
            if (!accept(it.next().index)) {
                return;
            }
        }
    }

    @Override
    protected void cast(boolean any) {
        start.set(ox, oy);
        direction.set(tx, ty);
        ray.setStart(start);
        ray.setDirection(direction);
        Iterator<Item> it = tree.raycastIterator(ray, Math.sqrt(tx * tx + ty * ty));
        while (it.hasNext() && accept(it.next().index)) {
            // a cast stops once accept says the answer is known (any-hit)
        }
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        moveInScene(index, minX, minY, minZ, maxX, maxY, maxZ);
        tree.update(items[index]);
    }
}
