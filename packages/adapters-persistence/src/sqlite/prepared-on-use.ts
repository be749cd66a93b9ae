/**
 * A statement prepared on its first use (once the migrations have made its tables) and reused
 * after: building and compiling the SQL of a look-up on every call cost as much as running it.
 */
export function preparedOnUse<Statement>(prepare: () => Statement): () => Statement {
  let statement: Statement | undefined;
  return () => (statement ??= prepare());
}
