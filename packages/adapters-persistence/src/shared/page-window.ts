/** The rows of one page, as a LIMIT/OFFSET read in one direction of the (created, id) order. */
export interface PageWindow {
  /** Read from the far end: the rows come last first. */
  descending: boolean;
  offset: number;
  limit: number;
}

/**
 * The rows page `page` of `size` needs out of `total`, read from whichever end of the order is
 * nearer, so that no read steps over more than half of the rows; null past the last page.
 */
export function pageWindow(total: number, page: number, size: number): PageWindow | null {
  const offset = (page - 1) * size;
  if (offset >= total) return null;
  const limit = Math.min(size, total - offset);
  const fromEnd = total - offset - limit;
  return fromEnd < offset ? { descending: true, offset: fromEnd, limit } : { descending: false, offset, limit };
}
