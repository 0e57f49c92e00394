package dev.boxwood.samples.support;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import javax.imageio.ImageIO;

import dev.boxwood.query.PerspectiveCamera;

/**
 * A small software renderer for the samples' pictures: box faces rasterized with a z-buffer and flat shading,
 * dark outlines where one face meets another, distance fog, and overlays (3D lines with hidden parts drawn
 * faint, screen-space marks and labels). It exists only to make the samples' results visible; nothing in it is
 * part of the library.
 *
 * <p>The view is the library's {@link PerspectiveCamera}, the same one the samples pick and select with: every
 * point drawn goes through {@link PerspectiveCamera#project}, and faces are clipped at the camera's near plane.
 * Pixel {@code (px, py)} is viewport point {@code u = px / width, v = 1 - py / height}; its centre is at
 * {@code (px + 0.5, py + 0.5)}; y grows downwards.
 */
public final class PerspectivePicture {

    private static final double[] LIGHT = normalize(0.45, 0.85, 0.3);

    private final int width;
    private final int height;
    private final BufferedImage image;
    private final int[] rgb;
    /** 1 / view depth per pixel (0 = sky); larger is nearer, and it interpolates linearly on screen. */
    private final float[] inverseDepth;
    /** Face id per pixel, for the outline pass. */
    private final int[] faceIds;
    private final PerspectiveCamera camera;
    private final double near;
    private final double eyeX;
    private final double eyeY;
    private final double eyeZ;
    private final double fogDistance;
    private int nextFaceId = 1;

    /**
     * An empty picture (sky and ground) seen through a camera.
     *
     * @param width picture width in pixels
     * @param height picture height in pixels
     * @param camera the camera; its aspect should be {@code width / height}
     * @param eye the camera's position (faces turned away from it are not drawn)
     * @param fogDistance distance at which the fog has taken about two thirds of the colour
     */
    public PerspectivePicture(int width, int height, PerspectiveCamera camera, double[] eye, double fogDistance) {
        this.width = width;
        this.height = height;
        this.camera = camera;
        this.near = camera.near();
        this.eyeX = eye[0];
        this.eyeY = eye[1];
        this.eyeZ = eye[2];
        this.fogDistance = fogDistance;
        image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        rgb = new int[width * height];
        inverseDepth = new float[width * height];
        faceIds = new int[width * height];
        for (int y = 0; y < height; y++) {
            // Sky gradient: pale at the horizon, deeper blue above.
            double k = Math.min(1, Math.max(0, (double) y / height));
            int sky = mix(0x4a78b0, 0xc9dcec, k);
            Arrays.fill(rgb, y * width, (y + 1) * width, sky);
        }
    }

    /** @return the picture width in pixels */
    public int width() {
        return width;
    }

    /** @return the picture height in pixels */
    public int height() {
        return height;
    }

    /**
     * Draws a horizontal ground plane over a rectangle (a flat quad; it is not an object of the index).
     *
     * @param y height of the ground
     * @param minX min x
     * @param minZ min z
     * @param maxX max x
     * @param maxZ max z
     * @param color 0xRRGGBB
     */
    public void ground(double y, double minX, double minZ, double maxX, double maxZ, int color) {
        // Split into tiles so the near-plane clipping of one huge quad does not lose precision.
        int n = 16;
        int id = nextFaceId++;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double x0 = minX + (maxX - minX) * i / n;
                double x1 = minX + (maxX - minX) * (i + 1) / n;
                double z0 = minZ + (maxZ - minZ) * j / n;
                double z1 = minZ + (maxZ - minZ) * (j + 1) / n;
                quad(new double[]{x0, y, z0, x1, y, z0, x1, y, z1, x0, y, z1}, shade(color, 0, 1, 0), id);
            }
        }
    }

    /**
     * Draws a city's ground: asphalt everywhere around, and a low pavement slab under each block and its
     * sidewalks (picture decoration, not objects of the index).
     *
     * @param city the city
     * @param margin how far the asphalt reaches beyond the city
     */
    public void cityGround(City city, double margin) {
        ground(0, city.originX() - margin, city.originZ() - margin, city.originX() + city.width() + margin,
                city.originZ() + city.depth() + margin, Palette.STREET);
        double sidewalk = City.STREET / 2 - City.LANES;
        for (int bx = 0; bx < city.blocksX(); bx++) {
            for (int bz = 0; bz < city.blocksZ(); bz++) {
                double x0 = city.originX() + bx * City.PITCH + City.STREET / 2 - sidewalk;
                double z0 = city.originZ() + bz * City.PITCH + City.STREET / 2 - sidewalk;
                box(x0, 0, z0, x0 + City.BLOCK + 2 * sidewalk, 0.15, z0 + City.BLOCK + 2 * sidewalk, Palette.PAVEMENT);
            }
        }
    }

    /**
     * Draws a solid box: its six faces, shaded by their orientation.
     *
     * @param minX min x
     * @param minY min y
     * @param minZ min z
     * @param maxX max x
     * @param maxY max y
     * @param maxZ max z
     * @param color base colour 0xRRGGBB
     */
    public void box(double minX, double minY, double minZ, double maxX, double maxY, double maxZ, int color) {
        double[] c = {minX, minY, minZ, maxX, maxY, maxZ};
        // Only faces that look towards the eye can be seen (back-face culling of a closed box).
        if (eyeX < minX) {
            face(c, 0, color, -1, 0, 0);
        }
        if (eyeX > maxX) {
            face(c, 3, color, 1, 0, 0);
        }
        if (eyeY < minY) {
            face(c, 1, color, 0, -1, 0);
        }
        if (eyeY > maxY) {
            face(c, 4, color, 0, 1, 0);
        }
        if (eyeZ < minZ) {
            face(c, 2, color, 0, 0, -1);
        }
        if (eyeZ > maxZ) {
            face(c, 5, color, 0, 0, 1);
        }
    }

    /**
     * One face of a box: the plane where coordinate {@code fixed} (an index 0..5 into {@code c}: min x, y, z, then
     * max x, y, z) is constant, spanned by the two other axes.
     */
    private void face(double[] c, int fixed, int color, double nx, double ny, double nz) {
        int axisFixed = fixed % 3;
        int axisA = (axisFixed + 1) % 3;
        int axisB = (axisFixed + 2) % 3;
        double[] q = new double[12];
        double[][] corners = {{c[axisA], c[axisB]}, {c[axisA + 3], c[axisB]}, {c[axisA + 3], c[axisB + 3]},
                {c[axisA], c[axisB + 3]}};
        for (int k = 0; k < 4; k++) {
            q[3 * k + axisFixed] = c[fixed];
            q[3 * k + axisA] = corners[k][0];
            q[3 * k + axisB] = corners[k][1];
        }
        quad(q, shade(color, nx, ny, nz), nextFaceId++);
    }

    private static int shade(int color, double nx, double ny, double nz) {
        double light = 0.5 + 0.5 * Math.max(0, nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]);
        return scale(color, light);
    }

    /** Clips a quad (4 world points, flat) against the near plane, projects it and fills it. */
    private void quad(double[] q, int color, int id) {
        double[] depth = new double[4];
        double[] screen = new double[3];
        for (int k = 0; k < 4; k++) {
            camera.project(q[3 * k], q[3 * k + 1], q[3 * k + 2], screen);
            depth[k] = screen[2];
        }
        // Sutherland-Hodgman against depth >= near, in world space (depth is affine in the point): a convex quad
        // becomes a polygon of at most 5 vertices.
        double[] clipped = new double[18];
        int n = 0;
        for (int k = 0; k < 4; k++) {
            int a = 3 * k;
            int b = 3 * ((k + 1) % 4);
            boolean inA = depth[k] >= near;
            boolean inB = depth[(k + 1) % 4] >= near;
            if (inA) {
                System.arraycopy(q, a, clipped, 3 * n++, 3);
            }
            if (inA != inB) {
                double t = (near - depth[k]) / (depth[(k + 1) % 4] - depth[k]);
                for (int i = 0; i < 3; i++) {
                    clipped[3 * n + i] = q[a + i] + t * (q[b + i] - q[a + i]);
                }
                n++;
            }
        }
        if (n < 3) {
            return;
        }
        double[] sx = new double[n];
        double[] sy = new double[n];
        double[] w = new double[n];
        for (int k = 0; k < n; k++) {
            project(clipped[3 * k], clipped[3 * k + 1], clipped[3 * k + 2], screen);
            sx[k] = screen[0];
            sy[k] = screen[1];
            w[k] = 1 / Math.max(near, screen[2]);
        }
        for (int k = 1; k + 1 < n; k++) {
            triangle(sx[0], sy[0], w[0], sx[k], sy[k], w[k], sx[k + 1], sy[k + 1], w[k + 1], color, id);
        }
    }

    /** Fills a screen triangle with a depth test on the interpolated 1 / depth (edge functions, pixel centres). */
    private void triangle(double x0, double y0, double w0, double x1, double y1, double w1,
                          double x2, double y2, double w2, int color, int id) {
        double area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
        if (area == 0 || !Double.isFinite(area)) {
            return;
        }
        int minPx = Math.max(0, (int) Math.floor(Math.min(x0, Math.min(x1, x2))));
        int maxPx = Math.min(width - 1, (int) Math.ceil(Math.max(x0, Math.max(x1, x2))));
        int minPy = Math.max(0, (int) Math.floor(Math.min(y0, Math.min(y1, y2))));
        int maxPy = Math.min(height - 1, (int) Math.ceil(Math.max(y0, Math.max(y1, y2))));
        double inv = 1 / area;
        for (int py = minPy; py <= maxPy; py++) {
            double cy = py + 0.5;
            for (int px = minPx; px <= maxPx; px++) {
                double cx = px + 0.5;
                double b0 = ((x1 - cx) * (y2 - cy) - (x2 - cx) * (y1 - cy)) * inv;
                double b1 = ((x2 - cx) * (y0 - cy) - (x0 - cx) * (y2 - cy)) * inv;
                double b2 = 1 - b0 - b1;
                if (b0 < 0 || b1 < 0 || b2 < 0) {
                    continue;
                }
                float w = (float) (b0 * w0 + b1 * w1 + b2 * w2);
                int p = py * width + px;
                if (w > inverseDepth[p]) {
                    inverseDepth[p] = w;
                    faceIds[p] = id;
                    rgb[p] = fog(color, 1 / w);
                }
            }
        }
    }

    private int fog(int color, double depth) {
        double k = 1 - Math.exp(-depth / fogDistance);
        return mix(color, 0xc9dcec, Math.min(0.85, k));
    }

    /**
     * Darkens pixels where two faces meet, which outlines every box. Call once, after the boxes and before the
     * overlays.
     */
    public void outline() {
        int[] out = rgb.clone();
        for (int y = 1; y < height - 1; y++) {
            for (int x = 1; x < width - 1; x++) {
                int p = y * width + x;
                int id = faceIds[p];
                if (id != faceIds[p - 1] || id != faceIds[p - width] || id != faceIds[p + 1]
                        || id != faceIds[p + width]) {
                    // The nearer of the two faces draws the line, so silhouettes are not doubled.
                    float w = inverseDepth[p];
                    if (w >= inverseDepth[p - 1] && w >= inverseDepth[p - width] && w >= inverseDepth[p + 1]
                            && w >= inverseDepth[p + width]) {
                        out[p] = scale(rgb[p], 0.55);
                    }
                }
            }
        }
        System.arraycopy(out, 0, rgb, 0, rgb.length);
    }

    /**
     * Projects a world point to the screen.
     *
     * @param x world x
     * @param y world y
     * @param z world z
     * @param dest receives the pixel x, pixel y and view depth (depth {@code <= 0}: behind the eye, no pixel)
     */
    public void project(double x, double y, double z, double[] dest) {
        camera.project(x, y, z, dest);
        dest[0] = dest[0] * width;
        dest[1] = (1 - dest[1]) * height;
    }

    /**
     * Draws a 3D line: solid where it is in front of the boxes drawn so far, faint where they hide it.
     *
     * @param x0 start x
     * @param y0 start y
     * @param z0 start z
     * @param x1 end x
     * @param y1 end y
     * @param z1 end z
     * @param color 0xRRGGBB
     * @param thickness line width in pixels
     */
    public void line(double x0, double y0, double z0, double x1, double y1, double z1, int color, int thickness) {
        double[] a = {x0, y0, z0};
        double[] b = {x1, y1, z1};
        double[] screen = new double[3];
        camera.project(x0, y0, z0, screen);
        double depthA = screen[2];
        camera.project(x1, y1, z1, screen);
        double depthB = screen[2];
        if (depthA < near && depthB < near) {
            return;
        }
        if (depthA < near || depthB < near) {
            // clip the hidden end to the near plane, in world space
            double[] outside = depthA >= near ? b : a;
            double[] inside = depthA >= near ? a : b;
            double t = (near - Math.max(depthA, depthB)) / (Math.min(depthA, depthB) - Math.max(depthA, depthB));
            for (int i = 0; i < 3; i++) {
                outside[i] = inside[i] + t * (outside[i] - inside[i]);
            }
        }
        project(a[0], a[1], a[2], a);
        project(b[0], b[1], b[2], b);
        double ax = a[0];
        double ay = a[1];
        double bx = b[0];
        double by = b[1];
        int steps = (int) Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay))) + 1;
        if (steps > 20000) {
            return;
        }
        int faint = mix(color, 0xffffff, 0.55);
        int r = thickness / 2;
        for (int s = 0; s <= steps; s++) {
            double t = (double) s / steps;
            double px = ax + t * (bx - ax);
            double py = ay + t * (by - ay);
            // 1/depth interpolates linearly on screen.
            double w = (1 / a[2]) + t * (1 / b[2] - 1 / a[2]);
            int cx = (int) Math.floor(px);
            int cy = (int) Math.floor(py);
            for (int dy = -r; dy <= r; dy++) {
                for (int dx = -r; dx <= r; dx++) {
                    int x = cx + dx;
                    int y = cy + dy;
                    if (x < 0 || y < 0 || x >= width || y >= height) {
                        continue;
                    }
                    int p = y * width + x;
                    boolean hidden = w < inverseDepth[p] * 0.995;
                    if (hidden) {
                        if (((s / 4) & 1) == 0) {
                            rgb[p] = mix(rgb[p], faint, 0.6);
                        }
                    } else {
                        rgb[p] = color;
                    }
                }
            }
        }
    }

    /**
     * Finishes the raster and returns a graphics context for screen-space overlays (marks, rectangles, labels),
     * antialiased. Dispose it before {@link #save}.
     *
     * @return the graphics
     */
    public Graphics2D overlay() {
        image.setRGB(0, 0, width, height, rgb, 0, width);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, Math.max(11, height / 50)));
        g.setStroke(new BasicStroke(2f));
        return g;
    }

    /**
     * Writes the picture as PNG (after {@link #overlay()}).
     *
     * @param file the file
     * @throws IOException if writing fails
     */
    public void save(Path file) throws IOException {
        ImageIO.write(image, "png", file.toFile());
    }

    /**
     * Draws a caption box in the top-left corner.
     *
     * @param g the overlay graphics
     * @param lines the caption lines
     */
    public static void caption(Graphics2D g, String... lines) {
        int lineHeight = g.getFontMetrics().getHeight();
        int w = 0;
        for (String line : lines) {
            w = Math.max(w, g.getFontMetrics().stringWidth(line));
        }
        g.setColor(new Color(0, 0, 0, 150));
        g.fillRoundRect(8, 8, w + 16, lineHeight * lines.length + 10, 10, 10);
        g.setColor(Color.WHITE);
        for (int i = 0; i < lines.length; i++) {
            g.drawString(lines[i], 16, 10 + lineHeight * (i + 1) - 3);
        }
    }

    /**
     * Mixes two colours.
     *
     * @param a 0xRRGGBB
     * @param b 0xRRGGBB
     * @param k weight of {@code b}, 0..1
     * @return the mix
     */
    public static int mix(int a, int b, double k) {
        int r = (int) Math.round(((a >> 16) & 255) * (1 - k) + ((b >> 16) & 255) * k);
        int g = (int) Math.round(((a >> 8) & 255) * (1 - k) + ((b >> 8) & 255) * k);
        int bl = (int) Math.round((a & 255) * (1 - k) + (b & 255) * k);
        return (r << 16) | (g << 8) | bl;
    }

    /**
     * Scales a colour's brightness.
     *
     * @param color 0xRRGGBB
     * @param k factor, 0..1
     * @return the scaled colour
     */
    public static int scale(int color, double k) {
        int r = (int) Math.min(255, ((color >> 16) & 255) * k);
        int g = (int) Math.min(255, ((color >> 8) & 255) * k);
        int b = (int) Math.min(255, (color & 255) * k);
        return (r << 16) | (g << 8) | b;
    }

    private static double[] normalize(double x, double y, double z) {
        double l = Math.sqrt(x * x + y * y + z * z);
        return new double[]{x / l, y / l, z / l};
    }
}
