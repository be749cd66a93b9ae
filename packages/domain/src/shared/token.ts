/**
 * A dependency-injection key for a port: a global symbol typed with the port it stands for.
 * The domain defines keys without depending on any container; `apps/server` registers them.
 */
export type Token<T> = symbol & { readonly __port?: T };

export function token<T>(name: string): Token<T> {
  return Symbol.for(`uas.${name}`) as Token<T>;
}
