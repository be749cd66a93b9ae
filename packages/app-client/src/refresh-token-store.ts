/**
 * Where a session keeps its refresh token between refreshes. The app chooses: memory (the
 * default: a reload signs the user out, and no script finds the token later), or a storage
 * that outlives the page, at the cost that any script running on the page can read it there.
 */
export interface RefreshTokenStore {
  get(): string | null | Promise<string | null>;
  /** `null` forgets the token. */
  set(token: string | null): void | Promise<void>;
}

/** The refresh token in this object's memory only. */
export function memoryStore(): RefreshTokenStore {
  let token: string | null = null;
  return {
    get: () => token,
    set: (next) => {
      token = next;
    },
  };
}

/** The refresh token in a Web Storage (`sessionStorage`, `localStorage`) under `key`. */
export function webStorageStore(storage: Storage, key: string): RefreshTokenStore {
  return {
    get: () => storage.getItem(key),
    set: (token) => (token === null ? storage.removeItem(key) : storage.setItem(key, token)),
  };
}
