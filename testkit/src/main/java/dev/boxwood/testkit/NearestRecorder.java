package dev.boxwood.testkit;

import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.NearestVisitor;

/**
 * A {@link NearestVisitor} for tests of distance browsing: records what it is handed and stops after a chosen
 * number of objects, so a browse can be compared with the {@code kNearest} answer for that number.
 */
public final class NearestRecorder implements NearestVisitor {

    private final NearestNeighbours visited = new NearestNeighbours();
    private int stopAfter;

    /**
     * Clears the record and sets when to stop.
     *
     * @param stopAfter the number of objects after which {@link #visit} returns false ({@code >= 1}), or
     *                  {@link Integer#MAX_VALUE} to browse to the end
     * @return this recorder
     */
    public NearestRecorder reset(int stopAfter) {
        this.stopAfter = stopAfter;
        visited.clear();
        return this;
    }

    @Override
    public boolean visit(int handle, long userValue, double distance) {
        visited.addResult(handle, userValue, distance);
        return visited.count() < stopAfter;
    }

    /** @return the number of objects visited */
    public int count() {
        return visited.count();
    }

    /**
     * A difference from a {@code kNearest} answer, or {@code null}: the objects visited must be that answer's
     * first objects, in its order, with its user values and distances.
     *
     * @param expected the {@code kNearest} answer for at least {@link #count()} objects
     * @param what names the query in the message
     * @return the first difference, or {@code null}
     */
    public String differenceFrom(NearestNeighbours expected, String what) {
        if (count() > expected.count()) {
            return what + ": visited " + count() + " objects, the k-nearest answer has " + expected.count();
        }
        for (int i = 0; i < count(); i++) {
            if (visited.handle(i) != expected.handle(i) || visited.userValue(i) != expected.userValue(i)
                    || visited.distance(i) != expected.distance(i)) {
                return what + " rank " + i + ": visited handle " + visited.handle(i) + " at " + visited.distance(i)
                        + ", expected " + expected.handle(i) + " at " + expected.distance(i);
            }
        }
        return null;
    }
}
