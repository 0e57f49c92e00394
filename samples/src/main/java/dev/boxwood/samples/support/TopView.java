package dev.boxwood.samples.support;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import javax.imageio.ImageIO;

/**
 * A map-like picture of a world seen straight from above (orthographic, x to the right, z downwards): boxes are
 * filled lowest first (painter's order) and shaded by height, then overlays are drawn in world coordinates. Only
 * for the samples' pictures.
 */
public final class TopView {

    private final BufferedImage image;
    private final Graphics2D g;
    private final double minX;
    private final double minZ;
    private final double scale;
    private final double maxHeight;

    /**
     * An empty map of the world rectangle {@code [minX, maxX] x [minZ, maxZ]}, fitted into the picture with the
     * aspect ratio kept.
     *
     * @param width picture width in pixels
     * @param height picture height in pixels
     * @param minX world min x
     * @param minZ world min z
     * @param maxX world max x
     * @param maxZ world max z
     * @param maxHeight the height that gets the lightest shade
     * @param background 0xRRGGBB
     */
    public TopView(int width, int height, double minX, double minZ, double maxX, double maxZ, double maxHeight,
                   int background) {
        image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, Math.max(11, height / 50)));
        g.setColor(new Color(background));
        g.fillRect(0, 0, width, height);
        this.scale = Math.min(width / (maxX - minX), height / (maxZ - minZ));
        // Centre the world in the picture.
        this.minX = minX - (width / scale - (maxX - minX)) / 2;
        this.minZ = minZ - (height / scale - (maxZ - minZ)) / 2;
        this.maxHeight = Math.max(1e-9, maxHeight);
    }

    /** @return the overlay graphics (pixel coordinates); use {@link #x} and {@link #y} to place things */
    public Graphics2D graphics() {
        return g;
    }

    /** @return pixels per world unit */
    public double scale() {
        return scale;
    }

    /**
     * @param worldX world x
     * @return pixel x
     */
    public double x(double worldX) {
        return (worldX - minX) * scale;
    }

    /**
     * @param worldZ world z
     * @return pixel y
     */
    public double y(double worldZ) {
        return (worldZ - minZ) * scale;
    }

    /**
     * Paints a city's ground: the pavement of each block with its sidewalks, and dashed centre lines on the
     * streets (the background is the asphalt).
     *
     * @param city the city
     */
    public void cityGround(City city) {
        double sidewalk = City.STREET / 2 - City.LANES;
        g.setColor(new Color(Palette.PAVEMENT));
        for (int bx = 0; bx < city.blocksX(); bx++) {
            for (int bz = 0; bz < city.blocksZ(); bz++) {
                double x0 = city.originX() + bx * City.PITCH + City.STREET / 2 - sidewalk;
                double z0 = city.originZ() + bz * City.PITCH + City.STREET / 2 - sidewalk;
                g.fill(rect(x0, z0, x0 + City.BLOCK + 2 * sidewalk, z0 + City.BLOCK + 2 * sidewalk));
            }
        }
        g.setColor(new Color(0xe0e0d0));
        g.setStroke(new BasicStroke(Math.max(1f, (float) (0.3 * scale)), BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
                10f, new float[]{(float) (3 * scale), (float) (3 * scale)}, 0f));
        for (int i = 0; i <= city.blocksX(); i++) {
            double x = city.originX() + i * City.PITCH;
            g.draw(new Line2D.Double(x(x), y(city.originZ()), x(x), y(city.originZ() + city.depth())));
        }
        for (int j = 0; j <= city.blocksZ(); j++) {
            double z = city.originZ() + j * City.PITCH;
            g.draw(new Line2D.Double(x(city.originX()), y(z), x(city.originX() + city.width()), y(z)));
        }
    }

    /**
     * Fills the scene's parts, lowest top first, coloured by {@code colors[object]} and lightened with height.
     *
     * @param scene the scene
     * @param colors per object 0xRRGGBB
     * @param outlines whether to draw a thin dark outline around each part
     */
    public void scene(Scene scene, int[] colors, boolean outlines) {
        int parts = scene.endPart(scene.size() - 1);
        Integer[] order = new Integer[parts];
        int[] owner = new int[parts];
        for (int i = 0; i < scene.size(); i++) {
            for (int p = scene.firstPart(i); p < scene.endPart(i); p++) {
                owner[p] = i;
            }
        }
        for (int p = 0; p < parts; p++) {
            order[p] = p;
        }
        Arrays.sort(order, (a, b) -> Double.compare(scene.partBound(a, 4), scene.partBound(b, 4)));
        g.setStroke(new BasicStroke(0.8f));
        for (int p : order) {
            double top = scene.partBound(p, 4);
            int color = PerspectivePicture.mix(PerspectivePicture.scale(colors[owner[p]], 0.75),
                    colors[owner[p]], Math.min(1, top / maxHeight));
            Rectangle2D r = rect(scene.partBound(p, 0), scene.partBound(p, 2), scene.partBound(p, 3),
                    scene.partBound(p, 5));
            g.setColor(new Color(color));
            g.fill(r);
            if (outlines) {
                g.setColor(new Color(PerspectivePicture.scale(color, 0.6)));
                g.draw(r);
            }
        }
    }

    /**
     * The pixel rectangle of a world rectangle (at least one pixel wide, so small props stay visible).
     *
     * @param x0 world min x
     * @param z0 world min z
     * @param x1 world max x
     * @param z1 world max z
     * @return the rectangle
     */
    public Rectangle2D rect(double x0, double z0, double x1, double z1) {
        double w = Math.max(1, (x1 - x0) * scale);
        double h = Math.max(1, (z1 - z0) * scale);
        return new Rectangle2D.Double(x(x0), y(z0), w, h);
    }

    /**
     * Draws a line between two world points.
     *
     * @param x0 start x
     * @param z0 start z
     * @param x1 end x
     * @param z1 end z
     * @param color 0xAARRGGBB (alpha used)
     * @param width line width in pixels
     */
    public void line(double x0, double z0, double x1, double z1, int color, float width) {
        g.setColor(new Color(color, true));
        g.setStroke(new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Line2D.Double(x(x0), y(z0), x(x1), y(z1)));
    }

    /**
     * Draws a dot at a world point.
     *
     * @param x world x
     * @param z world z
     * @param radius radius in pixels
     * @param color 0xAARRGGBB (alpha used)
     */
    public void dot(double x, double z, double radius, int color) {
        g.setColor(new Color(color, true));
        g.fill(new Ellipse2D.Double(x(x) - radius, y(z) - radius, 2 * radius, 2 * radius));
    }

    /**
     * Draws a caption box in the top-left corner.
     *
     * @param lines the caption lines
     */
    public void caption(String... lines) {
        PerspectivePicture.caption(g, lines);
    }

    /**
     * Writes the picture as PNG and releases the graphics.
     *
     * @param file the file
     * @throws IOException if writing fails
     */
    public void save(Path file) throws IOException {
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }
}
