package dev.boxwood.samples.support;

/** The colours of the samples' pictures, so all of them look alike. */
public final class Palette {

    /** Asphalt of the streets. */
    public static final int STREET = 0x6b6e72;
    /** Sidewalks and block pads. */
    public static final int PAVEMENT = 0xa9a79f;
    /** Picked objects. */
    public static final int PICKED = 0xff2fb4;
    /** Selected objects. */
    public static final int SELECTED = 0xffb000;
    /** Visible lines of sight. */
    public static final int VISIBLE = 0x2fd35a;
    /** Blocked lines of sight. */
    public static final int BLOCKED = 0xe8392e;

    private static final int[] FACADES = {0xd9cdb4, 0xc9c4bb, 0xb9a58c, 0xa8b4bf, 0xcfb59a, 0xbfc7c9, 0xd6d0c4};

    private Palette() {
    }

    /**
     * The colour of an object of a scene: buildings get one of a few facade tones (varied per object so
     * neighbours differ), props are rust, furniture green, real-level boxes stone.
     *
     * @param scene the scene
     * @param object the object
     * @return 0xRRGGBB
     */
    public static int of(Scene scene, int object) {
        return switch (scene.kind(object)) {
            case Scene.BUILDING -> FACADES[Math.floorMod(object * 0x9E3779B1, FACADES.length)];
            case Scene.PROP -> object % 3 == 0 ? 0x3f6fa8 : 0xb5652f;
            case Scene.FURNITURE -> 0x5f8f46;
            default -> 0xc4bcae;
        };
    }

    /**
     * The colours of every object of a scene ({@link #of}).
     *
     * @param scene the scene
     * @return one colour per object
     */
    public static int[] of(Scene scene) {
        int[] colors = new int[scene.size()];
        for (int i = 0; i < colors.length; i++) {
            colors[i] = of(scene, i);
        }
        return colors;
    }
}
