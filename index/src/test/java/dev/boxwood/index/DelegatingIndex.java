package dev.boxwood.index;

import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.SpatialQueries;
import dev.boxwood.query.TraversalStack;

/** An index that answers as the one it wraps; tests override {@code rayCast} to block, fail or re-enter. */
class DelegatingIndex implements SpatialQueries {
    final SpatialQueries tree;

    DelegatingIndex(SpatialQueries tree) {
        this.tree = tree;
    }

    @Override
    public int size() {
        return tree.size();
    }

    @Override
    public boolean contains(int handle) {
        return tree.contains(handle);
    }

    @Override
    public long userValue(int handle) {
        return tree.userValue(handle);
    }

    @Override
    public long categoryBits(int handle) {
        return tree.categoryBits(handle);
    }

    @Override
    public void getTightBox(int handle, double[] dest) {
        tree.getTightBox(handle, dest);
    }

    @Override
    public void queryAabb(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                          long categoryMask, OverlapVisitor visitor, TraversalStack stack) {
        tree.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, categoryMask, visitor, stack);
    }

    @Override
    public void rayCast(double originX, double originY, double originZ, double translationX,
                        double translationY, double translationZ, double maxFraction, long categoryMask,
                        RayCastVisitor visitor, TraversalStack stack) {
        tree.rayCast(originX, originY, originZ, translationX, translationY, translationZ, maxFraction,
                categoryMask, visitor, stack);
    }
}
