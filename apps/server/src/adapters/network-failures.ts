import { ForbiddenAddressError } from './address-guard';

/** Generic reasons for the network errors seen: a log names no resolved address or port. */
const NETWORK_FAILURES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'name not resolved',
  EAI_AGAIN: 'name not resolved',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'host unreachable',
};

/**
 * What a log says of a request that got no answer, as a generic reason, never node's message (it
 * names addresses); null when the error is none of the known ones (the caller names its own).
 */
export function networkFailureReason(error: Error & { code?: string }, timeoutMs: number): string | null {
  if (error instanceof ForbiddenAddressError) return error.message;
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR') {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  if (error.code !== undefined && /CERT|SSL|TLS/.test(error.code)) return 'TLS handshake failed';
  return NETWORK_FAILURES[error.code ?? ''] ?? null;
}
