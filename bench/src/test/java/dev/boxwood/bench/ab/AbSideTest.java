package dev.boxwood.bench.ab;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The side of an interleaved comparison runs every kind on a small world and consumes its answers. */
class AbSideTest {

    private static final int N = 5_000;

    @Test
    void shouldTimeQueriesAndConsumeTheirAnswers() {
        AbSide side = new AbSide("boxwood", N, "box");
        for (String kind : new String[] {"box", "closest", "any"}) {
            long before = side.sink();
            assertTrue(side.round(kind, 2_000) > 0, kind);
            assertNotEquals(before, side.sink(), kind + " answers consumed");
        }
    }

    @Test
    void shouldTimeBuildsAndMovesOfAnyContender() {
        assertTrue(new AbSide("jbox2d", N, "build").round("build", 0) > 0);
        AbSide moving = new AbSide("boxwood", N, "move");
        assertTrue(moving.round("move", 2) > 0);
        AbSide peer = new AbSide("jbullet-dbvt", N, "move");
        assertTrue(peer.round("move", 2) > 0);
    }

    @Test
    void shouldRejectAnUnknownKind() {
        AbSide side = new AbSide("boxwood", N, "box");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> side.round("walk", 1));
        assertTrue(e.getMessage().contains("walk"), e.getMessage());
    }
}
