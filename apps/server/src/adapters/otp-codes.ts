import { randomInt } from 'node:crypto';
import { type OneTimeCodes, SECOND_FACTOR_RULES } from '@uas/domain';
import { generateSecret, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';

const { totp, recoveryCodes } = SECOND_FACTOR_RULES;
const CODE = new RegExp(`^\\d{${totp.digits}}$`);
/** RFC 4648 base32, lower case: no 0/1/8/9, so a code read aloud or written down stays unambiguous. */
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const RECOVERY_GROUP = 4;

/**
 * TOTP with otplib (RFC 6238: SHA-1, 6 digits, 30 s steps, one step either side), QR codes with
 * `qrcode`, and the random recovery codes. otplib answers which period a code matched, so the
 * store can refuse a step that was used already (RFC 6238 §5.2).
 */
export class OtplibCodes implements OneTimeCodes {
  newSecret(): string {
    return generateSecret({ length: totp.secretBytes });
  }

  uri(secret: string, accountName: string, issuer: string): string {
    return generateURI({
      issuer,
      label: accountName,
      secret,
      algorithm: 'sha1',
      digits: totp.digits,
      period: totp.periodSeconds,
    });
  }

  qrSvg(uri: string): Promise<string> {
    return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  }

  stepOf(secret: string, code: string, now: Date): number | null {
    if (!CODE.test(code)) return null;
    const epoch = Math.floor(now.getTime() / 1000);
    const result = verifySync({
      secret,
      token: code,
      algorithm: 'sha1',
      digits: totp.digits,
      period: totp.periodSeconds,
      epoch,
      // Seconds either side of now: the periods it overlaps are this one and one either side.
      epochTolerance: totp.windowSteps * totp.periodSeconds,
    });
    // `delta`: the matching step's offset from now's (-1, 0 or +1).
    return result.valid ? Math.floor(epoch / totp.periodSeconds) + result.delta : null;
  }

  newRecoveryCode(): string {
    const characters = Array.from({ length: recoveryCodes.length }, () => RECOVERY_ALPHABET[randomInt(32)]);
    const groups: string[] = [];
    for (let at = 0; at < characters.length; at += RECOVERY_GROUP) {
      groups.push(characters.slice(at, at + RECOVERY_GROUP).join(''));
    }
    return groups.join('-');
  }
}
