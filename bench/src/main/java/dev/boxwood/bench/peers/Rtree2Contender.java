package dev.boxwood.bench.peers;

import com.github.davidmoten.rtree2.Entries;
import com.github.davidmoten.rtree2.Entry;
import com.github.davidmoten.rtree2.RTree;
import com.github.davidmoten.rtree2.geometry.Geometries;
import com.github.davidmoten.rtree2.geometry.Rectangle;
import java.util.ArrayList;
import java.util.List;

/**
 * davidmoten rtree2 0.9.3: 2D, double, immutable (every change returns a new tree), STR bulk load with the
 * defaults (max children 4). A move deletes the old entry and adds a new one. Casts use the
 * {@code RayByBoxes} emulation.
 */
final class Rtree2Contender extends AbstractContender {

    private RTree<Integer, Rectangle> tree = RTree.create();
    private Entry<Integer, Rectangle>[] entries;

    Rtree2Contender() {
        super("rtree2", true);
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void buildIndex() {
        int n = scene.size();
        entries = new Entry[n];
        List<Entry<Integer, Rectangle>> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            entries[i] = entry(i);
            list.add(entries[i]);
        }
        tree = RTree.create(list);
    }

    private Entry<Integer, Rectangle> entry(int i) {
        return Entries.entry(i, Geometries.rectangle(scene.minX[i], scene.minY[i], scene.maxX[i], scene.maxY[i]));
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        for (Entry<Integer, Rectangle> e : tree.search(Geometries.rectangle(minX, minY, maxX, maxY))) {
            if (!accept(e.value())) {
                return;
            }
        }
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        moveInScene(index, minX, minY, minZ, maxX, maxY, maxZ);
        Entry<Integer, Rectangle> next = entry(index);
        tree = tree.delete(entries[index]).add(next);
        entries[index] = next;
    }
}
