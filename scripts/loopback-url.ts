/** `url` (a PostgreSQL URL) with its host and port changed to 127.0.0.1:`port`: what a local pooler or relay serves. */
export function onLoopbackPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}
