/**
 * A browser's cookies for the service, each kept by name as the service set it, and dropped when
 * the service clears it (an empty value, Max-Age=0, or an expiry at the epoch).
 */
export class CookieJar {
  constructor(private readonly cookies = new Map<string, string>()) {}

  /** Another jar holding the same cookies from now on apart: a second tab's view of them. */
  copy(): CookieJar {
    return new CookieJar(new Map(this.cookies));
  }

  /** The Cookie header a request sends; empty when there is none. */
  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get size(): number {
    return this.cookies.size;
  }

  /** The value of the cookie `name`, if held. */
  value(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Keeps what `response` sets and forgets what it clears. */
  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some(
        (each) => /^\s*max-age=0\s*$/i.test(each) || /^\s*expires=Thu, 01 Jan 1970/i.test(each),
      );
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
