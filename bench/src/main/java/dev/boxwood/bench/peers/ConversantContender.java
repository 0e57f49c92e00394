package dev.boxwood.bench.peers;

import com.conversantmedia.util.collection.geometry.Rect3d;
import com.conversantmedia.util.collection.spatial.HyperPoint;
import com.conversantmedia.util.collection.spatial.HyperRect;
import com.conversantmedia.util.collection.spatial.RectBuilder;
import com.conversantmedia.util.collection.spatial.SpatialSearch;
import com.conversantmedia.util.collection.spatial.SpatialSearches;
import java.util.function.Consumer;

/**
 * Conversant RTree 1.0.5: 3D ({@code Rect3d}), double, dynamic, one insert per box, defaults (2 / 8, AXIAL
 * split). Elements are objects holding their rectangle; a move replaces the element ({@code update(old,
 * new)}). The consumer cannot stop a query. Casts use the {@code RayByBoxes} emulation.
 */
final class ConversantContender extends AbstractContender implements Consumer<ConversantContender.Item> {

    /** The element Conversant indexes for box {@link #index}. */
    static final class Item {
        final int index;
        final Rect3d rect;

        Item(int index, Rect3d rect) {
            this.index = index;
            this.rect = rect;
        }
    }

    /** Rectangles of the elements, and of the tree's own nodes. */
    private static final class Builder implements RectBuilder<Item> {
        @Override
        public HyperRect getBBox(Item item) {
            return item.rect;
        }

        @Override
        public HyperRect getMbr(HyperPoint p1, HyperPoint p2) {
            return new Rect3d(coord(p1, 0), coord(p1, 1), coord(p1, 2), coord(p2, 0), coord(p2, 1), coord(p2, 2));
        }

        private static double coord(HyperPoint p, int axis) {
            return p.<Double>getCoord(axis);
        }
    }

    private SpatialSearch<Item> tree;
    private Item[] items = new Item[0];

    ConversantContender() {
        super("conversant-rtree", true);
    }

    @Override
    protected void buildIndex() {
        int n = scene.size();
        tree = SpatialSearches.rTree(new Builder());
        items = new Item[n];
        for (int i = 0; i < n; i++) {
            items[i] = item(i);
            tree.add(items[i]);
        }
    }

    private Item item(int i) {
        return new Item(i, new Rect3d(scene.minX[i], scene.minY[i], scene.minZ[i],
                scene.maxX[i], scene.maxY[i], scene.maxZ[i]));
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        tree.intersects(new Rect3d(minX, minY, minZ, maxX, maxY, maxZ), this);
    }

    @Override
    public void accept(Item item) {
        accept(item.index);
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        moveInScene(index, minX, minY, minZ, maxX, maxY, maxZ);
        Item next = item(index);
        tree.update(items[index], next);
        items[index] = next;
    }
}
