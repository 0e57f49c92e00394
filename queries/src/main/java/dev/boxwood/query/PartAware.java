package dev.boxwood.query;

/**
 * The part of an index that the next visited handles belong to, for the visitors of indexes made of parts that
 * number their handles each on its own (a tiled world's tiles). {@link RayCastVisitor} and {@link OverlapVisitor}
 * both extend it, so one class may implement both.
 */
public interface PartAware {

    /**
     * Called by an index made of parts ({@code TiledWorld}: its tiles) before it visits the objects of a part, with
     * the part's index: the handles visited next are that part's. An index of one part never calls it (its part is
     * 0). The library's collectors record the part with each result ({@code part()}, {@code part(i)}), so that
     * results from different parts with the same handle stay apart. A caller gathering the results of several
     * indexes in one {@code AllOverlaps} may call it before each index's query (the cast collectors set the part
     * back to 0 at the start of every cast). The default does nothing.
     *
     * @param part the part's index, {@code >= 0}
     */
    default void enterPart(int part) {
    }
}
