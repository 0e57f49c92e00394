package dev.boxwood.serial;

import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The child process of {@link CrashSafetyTest}: writes worlds of the given size to one file, over and over, until
 * it is killed. Prints "writing k" before and "wrote k" after the k-th write; world k carries the payload byte k.
 */
public final class WriterProcess {

    private WriterProcess() {
    }

    /**
     * @param args target file, object count, seed
     * @throws Exception on any failure (the parent sees the exit)
     */
    public static void main(String[] args) throws Exception {
        Path target = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[2]));
        for (int k = 0; ; k++) {
            double[] boxes = new double[6 * n];
            for (int i = 0; i < boxes.length; i += 6) {
                for (int a = 0; a < 3; a++) {
                    double c = random.nextDouble(-5000, 5000);
                    double h = random.nextDouble(0.1, 3);
                    boxes[i + a] = c - h;
                    boxes[i + 3 + a] = c + h;
                }
            }
            System.out.println("writing " + k);
            System.out.flush();
            StaticWorldWriter.write(target, boxes, null, null, new byte[] {(byte) k});
            System.out.println("wrote " + k);
            System.out.flush();
        }
    }
}
