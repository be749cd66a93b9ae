import { describe, expect, it } from 'vitest';
import { pageWindow } from './page-window';

describe('pageWindow', () => {
  it('reads the first half of the pages from the start', () => {
    expect(pageWindow(100, 1, 20)).toEqual({ descending: false, offset: 0, limit: 20 });
    expect(pageWindow(100, 3, 20)).toEqual({ descending: false, offset: 40, limit: 20 });
  });

  it('reads the pages past the middle from the end, skipping as many rows as lie after the page', () => {
    expect(pageWindow(100, 4, 20)).toEqual({ descending: true, offset: 20, limit: 20 });
    expect(pageWindow(100, 5, 20)).toEqual({ descending: true, offset: 0, limit: 20 });
  });

  it('reads only the rows a short last page has', () => {
    expect(pageWindow(45, 3, 20)).toEqual({ descending: true, offset: 0, limit: 5 });
    expect(pageWindow(5, 1, 20)).toEqual({ descending: false, offset: 0, limit: 5 });
  });

  it('has nothing to read past the last page or in an empty table', () => {
    expect(pageWindow(40, 3, 20)).toBeNull();
    expect(pageWindow(0, 1, 20)).toBeNull();
  });
});
