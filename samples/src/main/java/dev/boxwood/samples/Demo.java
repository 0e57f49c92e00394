package dev.boxwood.samples;

/** Runs the short demo of the three users' stories. */
public final class Demo {
    private Demo() {
    }

    /**
     * Entry point.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.println("Boxwood demo");
    }
}
