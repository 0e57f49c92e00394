package dev.boxwood.bench.peers;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.LevelScenes;
import dev.boxwood.testkit.scenes.MovingWorkload;
import dev.boxwood.testkit.scenes.SegmentSet;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every contender must give the brute-force answers before anyone times it. */
class ContenderAgreementTest {

    private static final int N = 20_000;
    /** Fewer boxes for the moving check: three ticks of every box cost most for the slow updaters. */
    private static final int MOVING_N = 8_000;
    private static final int QUERIES = 200;

    private static PeerWorkload workload;
    private static PeerWorkload movingWorkload;
    private static Contender reference;

    @BeforeAll
    static void buildReference() {
        workload = PeerWorkload.of(N, QUERIES);
        movingWorkload = PeerWorkload.of(MOVING_N, QUERIES);
        reference = Contenders.create("brute");
        reference.build(workload.boxes());
    }

    /**
     * The workload's segments (which mostly miss at this size), then as many from the same origins aimed at the
     * centre of a random box, so that every one of those hits and closest-hit order is exercised.
     */
    private static SegmentSet withAimedCopies(SegmentSet s, BoxSet boxes) {
        int n = s.size();
        SegmentSet all = new SegmentSet(2 * n);
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < n; i++) {
            all.set(i, s.originX[i], s.originY[i], s.originZ[i], s.translationX[i], s.translationY[i], s.translationZ[i]);
            int j = random.nextInt(boxes.size());
            all.set(n + i, s.originX[i], s.originY[i], s.originZ[i],
                    0.5 * (boxes.minX[j] + boxes.maxX[j]) - s.originX[i],
                    0.5 * (boxes.minY[j] + boxes.maxY[j]) - s.originY[i],
                    0.5 * (boxes.minZ[j] + boxes.maxZ[j]) - s.originZ[i]);
        }
        return all;
    }

    static Stream<String> contenders() {
        return Contenders.NAMES.stream().filter(name -> !name.equals("brute"));
    }

    @ParameterizedTest
    @MethodSource("contenders")
    void shouldGiveTheBruteForceAnswers(String name) {
        Contender contender = Contenders.create(name);
        contender.build(workload.boxes());
        assertAgreement(contender, reference, workload.boxes(), workload.boxQueries(),
                withAimedCopies(workload.segments(), workload.boxes()), name);
    }

    /** The answer table scans the first time a question is asked and replays its answer afterwards: both checked. */
    @Test
    void answerTableShouldReplayTheBruteForceAnswers() {
        Contender table = Contenders.create("answer-table");
        table.build(workload.boxes());
        ((AnswerTableContender) table).learnBoxQueries(workload.boxQueries());
        SegmentSet segments = withAimedCopies(workload.segments(), workload.boxes());
        for (int pass = 0; pass < 2; pass++) {
            assertAgreement(table, reference, workload.boxes(), workload.boxQueries(), segments,
                    "answer-table, pass " + pass);
        }
    }

    static Stream<Arguments> contendersOnLevels() {
        return contenders().flatMap(name -> Stream.of(LevelScenes.Level.values()).map(level -> Arguments.of(name, level)));
    }

    /** The real levels: touching, nested and flat boxes that the synthetic world rarely makes. */
    @ParameterizedTest
    @MethodSource("contendersOnLevels")
    void shouldGiveTheBruteForceAnswersOnTheLevels(String name, LevelScenes.Level level) {
        BoxSet boxes = LevelScenes.load(level);
        Contender ref = Contenders.create("brute");
        ref.build(boxes);
        Contender contender = Contenders.create(name);
        contender.build(boxes);
        assertAgreement(contender, ref, boxes, LevelScenes.randomBoxQueries(boxes, QUERIES, 31),
                withAimedCopies(LevelScenes.randomSegments(boxes, QUERIES, 37), boxes), name + " on " + level);
    }

    @ParameterizedTest
    @MethodSource("contenders")
    void shouldGiveTheBruteForceAnswersAfterMoves(String name) {
        Contender contender = Contenders.create(name);
        if (!contender.dynamic()) {
            return;
        }
        contender.build(movingWorkload.boxes());
        Contender moved = Contenders.create("brute");
        moved.build(movingWorkload.boxes());
        MovingWorkload moving = movingWorkload.world().moving(PeerWorkload.MOVE_SEED);
        BoxSet b = moving.boxes();
        for (int t = 0; t < 3; t++) {
            moving.tick();
            for (int i = 0; i < b.size(); i++) {
                contender.move(i, b.minX[i], b.minY[i], b.minZ[i], b.maxX[i], b.maxY[i], b.maxZ[i],
                        moving.displacementX[i], moving.displacementY[i], moving.displacementZ[i]);
                moved.move(i, b.minX[i], b.minY[i], b.minZ[i], b.maxX[i], b.maxY[i], b.maxZ[i],
                        moving.displacementX[i], moving.displacementY[i], moving.displacementZ[i]);
            }
        }
        assertAgreement(contender, moved, b, movingWorkload.boxQueries(), withAimedCopies(movingWorkload.segments(), b),
                name + " after moves");
    }

    /** The check itself must fail for an index that answers one query wrongly, in each way it checks. */
    @Test
    void answerCheckShouldCatchAWrongAnswer() {
        BoxSet boxes = workload.boxes();
        BoxSet q = workload.boxQueries();
        SegmentSet s = withAimedCopies(workload.segments(), boxes);
        for (int wrong = 0; wrong < 5; wrong++) {
            Contender liar = new Liar(reference, wrong);
            IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> AnswerCheck.compare(liar, reference, boxes, q, s, Integer.MAX_VALUE, "liar"));
            assertTrue(e.getMessage().startsWith("liar disagrees with the brute-force answers"), e.getMessage());
        }
        assertTrue(AnswerCheck.compare(reference, reference, boxes, q, s, Integer.MAX_VALUE, "itself") > 0);
    }

    /**
     * The reference, wrong in one way: a count, a fraction, the box it names, an any-hit miss, or a box reported
     * twice in place of another (the right count).
     */
    private static final class Liar implements Contender {
        private final Contender truth;
        private final int wrong;

        Liar(Contender truth, int wrong) {
            this.truth = truth;
            this.wrong = wrong;
        }

        @Override
        public String name() {
            return "liar";
        }

        @Override
        public boolean dynamic() {
            return false;
        }

        @Override
        public void build(BoxSet boxes) {
        }

        @Override
        public int countOverlaps(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
            int n = truth.countOverlaps(minX, minY, minZ, maxX, maxY, maxZ);
            return wrong == 0 && n > 0 ? n - 1 : n;
        }

        @Override
        public int[] listOverlaps(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
            int[] boxes = truth.listOverlaps(minX, minY, minZ, maxX, maxY, maxZ);
            if (wrong == 4 && boxes.length > 1) {
                boxes[1] = boxes[0];
            }
            return boxes;
        }

        @Override
        public double castClosest(double ox, double oy, double oz, double tx, double ty, double tz) {
            double f = truth.castClosest(ox, oy, oz, tx, ty, tz);
            return wrong == 1 && f > 0 ? Math.nextUp(f) : f;
        }

        @Override
        public int closestIndex() {
            int i = truth.closestIndex();
            return wrong == 2 && i >= 0 ? (i + 1) % workload.boxes().size() : i;
        }

        @Override
        public int castAny(double ox, double oy, double oz, double tx, double ty, double tz) {
            return wrong == 3 ? -1 : truth.castAny(ox, oy, oz, tx, ty, tz);
        }

        @Override
        public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                double dx, double dy, double dz) {
            throw new UnsupportedOperationException();
        }
    }

    private static void assertAgreement(Contender c, Contender ref, BoxSet boxes, BoxSet q, SegmentSet s,
            String what) {
        int hits = AnswerCheck.compare(c, ref, boxes, q, s, Integer.MAX_VALUE, what);
        // the check must exercise hits as well as misses
        assertTrue(hits >= s.size() / 2 && hits < s.size(), what + ": segment hits " + hits);
    }
}
