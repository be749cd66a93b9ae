import { MailDeliveryError, type Mailer, type MailFailure, type OutgoingMail } from '../mail/mailer.ts';
import type { SealedText, SecretPurpose } from '../secrets/secret.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import { sha256Hex } from '../shared/sha256.ts';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/**
 * A reversible stand-in for AES-GCM in domain tests: the plaintext is only base64-encoded, so it
 * never appears as such, and the context must match. The real box is tested in the server.
 */
export class FakeSecretBox implements SecretBox {
  async seal(purpose: SecretPurpose, plaintext: string, context: string): Promise<SealedText> {
    return {
      keyId: `fake-${purpose}`,
      ciphertext: `${context}:${btoa(String.fromCharCode(...utf8.encode(plaintext)))}`,
    };
  }
  async open(purpose: SecretPurpose, sealed: SealedText, context: string): Promise<string> {
    const prefix = `${context}:`;
    if (sealed.keyId !== `fake-${purpose}` || !sealed.ciphertext.startsWith(prefix)) throw new Error('cannot open');
    const bytes = Uint8Array.from(atob(sealed.ciphertext.slice(prefix.length)), (c) => c.charCodeAt(0));
    return fromUtf8.decode(bytes);
  }
  /** Keyed by the purpose only: a stand-in for HMAC, never the message itself. */
  async mac(purpose: SecretPurpose, message: string): Promise<string> {
    return `fake-${purpose}:${sha256Hex(message)}`;
  }
  async macs(purpose: SecretPurpose, message: string): Promise<string[]> {
    return [await this.mac(purpose, message)];
  }
}

/** A mail server in memory: keeps what it accepts, or fails as told. */
export class RecordingMailer implements Mailer {
  readonly delivered: OutgoingMail[] = [];
  /** Set to make every delivery (and check) fail this way. */
  failing: MailFailure | null = null;

  async deliver(mail: OutgoingMail): Promise<void> {
    if (this.failing) throw new MailDeliveryError(this.failing, `the server said no (${this.failing})`);
    this.delivered.push(mail);
  }
  async check(): Promise<void> {
    if (this.failing === 'unreachable') throw new MailDeliveryError('unreachable', 'connection refused');
  }
  close(): void {}
}
