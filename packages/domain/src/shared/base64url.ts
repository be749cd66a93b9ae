/** The unpadded base64url of `bytes` (RFC 4648 §5): what goes in URLs, headers and JSON as it is. */
export const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
