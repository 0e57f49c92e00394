package dev.boxwood.bench.peers;

import dev.boxwood.testkit.scenes.BoxSet;
import java.util.Arrays;

/**
 * Not an index: a yardstick for the harness. It remembers the answer of every question it has been asked (found
 * the first time by scanning every box) and afterwards only hands the remembered boxes to {@link #accept(int)},
 * exactly the true hits of a box query and the one hit of a cast, looked up in an open-addressing table keyed
 * by the question's six coordinates. Once the benchmark's questions have all been asked, its time per query is
 * the harness's own cost (the exact re-check of every reported box, one cache line each) plus one table lookup:
 * a ceiling on how fast any index can answer in this harness. Every real index reports at least these boxes.
 * Meant for box queries ({@link #learnBoxQueries}); its casts are learned by a scan the first time each is asked.
 */
final class AnswerTableContender extends AbstractContender {

    private static final int BOX_QUERY = 0;
    private static final int CLOSEST = 1;
    private static final int ANY = 2;
    private static final int KEY = 7;

    /** Per slot: the question kind (or -1 for a free slot) and its six coordinates. */
    private double[] keys = new double[0];
    /** Per slot: start of its answer in {@link #answers}, and its length. */
    private int[] starts = new int[0];
    private int[] lengths = new int[0];
    private int used;
    private int[] answers = new int[1024];
    private int answerEnd;

    AnswerTableContender() {
        super("answer-table", false);
    }

    @Override
    protected void buildIndex() {
        int capacity = 1 << 14;
        keys = new double[capacity * KEY];
        for (int s = 0; s < capacity; s++) {
            keys[s * KEY] = -1;
        }
        starts = new int[capacity];
        lengths = new int[capacity];
        used = 0;
        answerEnd = 0;
    }

    /**
     * Asks every box query once, so that timing starts with every answer known (a scan of every box per query
     * takes seconds at 1M, longer than a benchmark's warm-up). Casts are learned when first asked.
     *
     * @param queries the box queries to come
     */
    void learnBoxQueries(BoxSet queries) {
        for (int k = 0; k < queries.size(); k++) {
            countOverlaps(queries.minX[k], queries.minY[k], queries.minZ[k],
                    queries.maxX[k], queries.maxY[k], queries.maxZ[k]);
        }
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        replay(BOX_QUERY, minX, minY, minZ, maxX, maxY, maxZ);
    }

    @Override
    protected void cast(boolean any) {
        replay(any ? ANY : CLOSEST, ox, oy, oz, tx, ty, tz);
    }

    private void replay(int kind, double a, double b, double c, double d, double e, double f) {
        int slot = find(kind, a, b, c, d, e, f);
        if (keys[slot * KEY] < 0) {
            slot = remember(slot, kind, a, b, c, d, e, f);
        }
        for (int i = starts[slot], end = i + lengths[slot]; i < end; i++) {
            if (!accept(answers[i])) {
                return;
            }
        }
    }

    /** The slot holding the question, or the free slot where it belongs. */
    private int find(int kind, double a, double b, double c, double d, double e, double f) {
        long h = kind;
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(a);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(b);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(c);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(d);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(e);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(f);
        h ^= h >>> 29;
        int mask = starts.length - 1;
        for (int s = (int) h & mask; ; s = (s + 1) & mask) {
            int k = s * KEY;
            if (keys[k] < 0 || keys[k] == kind && keys[k + 1] == a && keys[k + 2] == b && keys[k + 3] == c
                    && keys[k + 4] == d && keys[k + 5] == e && keys[k + 6] == f) {
                return s;
            }
        }
    }

    /** Finds the answer by scanning every box and stores it in the free slot {@code slot}. */
    private int remember(int slot, int kind, double a, double b, double c, double d, double e, double f) {
        if (2 * (used + 1) > starts.length) {
            grow();
            slot = find(kind, a, b, c, d, e, f);
        }
        int start = answerEnd;
        if (kind == BOX_QUERY) {
            for (int i = 0, n = scene.size(); i < n; i++) {
                if (scene.testOverlap(i, a, b, c, d, e, f)) {
                    append(i);
                }
            }
        } else {
            int best = -1;
            double bestFraction = NO_HIT;
            for (int i = 0, n = scene.size(); i < n; i++) {
                double t = fraction(i, 1);
                if (t >= 0 && (best < 0 || t < bestFraction)) {
                    best = i;
                    bestFraction = t;
                    if (kind == ANY) {
                        break;
                    }
                }
            }
            if (best >= 0) {
                append(best);
            }
        }
        int k = slot * KEY;
        keys[k] = kind;
        keys[k + 1] = a;
        keys[k + 2] = b;
        keys[k + 3] = c;
        keys[k + 4] = d;
        keys[k + 5] = e;
        keys[k + 6] = f;
        starts[slot] = start;
        lengths[slot] = answerEnd - start;
        used++;
        return slot;
    }

    private void append(int i) {
        if (answerEnd == answers.length) {
            answers = Arrays.copyOf(answers, 2 * answers.length);
        }
        answers[answerEnd++] = i;
    }

    private void grow() {
        double[] oldKeys = keys;
        int[] oldStarts = starts;
        int[] oldLengths = lengths;
        int capacity = 2 * oldStarts.length;
        keys = new double[capacity * KEY];
        for (int s = 0; s < capacity; s++) {
            keys[s * KEY] = -1;
        }
        starts = new int[capacity];
        lengths = new int[capacity];
        for (int s = 0; s < oldStarts.length; s++) {
            int k = s * KEY;
            if (oldKeys[k] >= 0) {
                int to = find((int) oldKeys[k], oldKeys[k + 1], oldKeys[k + 2], oldKeys[k + 3], oldKeys[k + 4],
                        oldKeys[k + 5], oldKeys[k + 6]);
                System.arraycopy(oldKeys, k, keys, to * KEY, KEY);
                starts[to] = oldStarts[s];
                lengths[to] = oldLengths[s];
            }
        }
    }
}
