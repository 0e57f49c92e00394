package dev.boxwood.bench.world;

import dev.boxwood.query.OverlapVisitor;

/** Counts the objects a box query reports, and nothing else: the cheapest visitor, allocation-free. */
public final class CountingVisitor implements OverlapVisitor {

    /** Objects reported since the caller last set it to 0. */
    public int count;

    @Override
    public boolean visit(int handle, long userValue) {
        count++;
        return true;
    }
}
