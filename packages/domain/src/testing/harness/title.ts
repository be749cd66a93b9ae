/** Names a table row the way vitest's `each` does: `%s`-style placeholders, or `$key.path` for an object row. */
export function titleOf(template: string, row: unknown, index: number): string {
  if (row !== null && typeof row === 'object' && !Array.isArray(row)) {
    return template.replace(/\$([\w.]+)/g, (_match, path: string) =>
      String(
        path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], row),
      ),
    );
  }
  const values: unknown[] = Array.isArray(row) ? [...row] : [row];
  return template.replace(/%#/g, String(index)).replace(/%[sdifjo]/g, (placeholder) => {
    const value = values.shift();
    return placeholder === '%j' || placeholder === '%o' ? JSON.stringify(value) : String(value);
  });
}
