package dev.boxwood.bench.peers;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.testkit.scenes.BoxSet;

import java.util.List;

/** The contenders by name: the values of the benchmarks' {@code contender} parameter. */
public final class Contenders {

    /** Every contender name, the brute-force reference first. */
    public static final List<String> NAMES = List.of("brute", "jbox2d", "dyn4j", "jbullet-dbvt", "jts-strtree",
            "jts-hprtree", "tinspin-rtree", "tinspin-phtree", "rtree2", "conversant-rtree", "jolt", "boxwood", "boxwood-ordered",
            "boxwood-insert", "boxwood-deferred", "boxwood-static", "answer-table");

    private Contenders() {
    }

    /**
     * A new, empty contender.
     *
     * @param name one of {@link #NAMES}
     * @return the contender
     * @throws IllegalArgumentException for an unknown name
     */
    public static Contender create(String name) {
        switch (name) {
            case "brute":
                return new BruteForceContender();
            case "jbox2d":
                return new Jbox2dContender();
            case "dyn4j":
                return new Dyn4jContender();
            case "jbullet-dbvt":
                return new JBulletContender();
            case "jts-strtree":
                return JtsContender.strTree();
            case "jts-hprtree":
                return JtsContender.hprTree();
            case "tinspin-rtree":
                return TinspinContender.rStarTree();
            case "tinspin-phtree":
                return TinspinContender.phTree();
            case "rtree2":
                return new Rtree2Contender();
            case "conversant-rtree":
                return new ConversantContender();
            case "jolt":
                return new JoltContender();
            case "boxwood":
                return BoxwoodContender.bulkBuilt();
            case "boxwood-ordered":
                return BoxwoodContender.bulkBuiltInTreeOrder();
            case "boxwood-insert":
                return BoxwoodContender.insertBuilt();
            case "boxwood-deferred":
                return BoxwoodContender.deferredInsertBuilt();
            case "boxwood-static":
                return BoxwoodContender.staticWorld();
            case "answer-table":
                return new AnswerTableContender();
            default:
                throw new IllegalArgumentException("unknown contender: " + name);
        }
    }

    /**
     * The tree the {@code boxwood} contender queries, for harnesses that call the tree directly (query kinds the
     * {@link Contender} interface does not have): bulk-built, origin at the centre of the boxes' bounds, user value
     * of box {@code i} = {@code i}.
     *
     * @param boxes the boxes
     * @return the tree
     */
    public static DynamicAabbTree boxwoodTree(BoxSet boxes) {
        return BoxwoodContender.bulkTree(boxes, null);
    }
}
