/**
 * Why a signed login challenge was refused.
 * - `malformed` — not base64 / not a CMS SignedData / missing pieces (signer, certificate, content).
 * - `bad-signature` — the signature does not verify over the content, the signed content is not
 *   the expected challenge, or an algorithm outside the allow-list was used.
 * - `untrusted` — the signer certificate does not chain to one of the trusted CA certificates
 *   (or is not allowed to sign).
 * - `expired` / `not-yet-valid` — the signer (or a CA on its chain) is outside its validity period.
 * - `identity-mismatch` — the certificate's TIN/PINFL differs from the one the user gave.
 */
export type SignatureErrorCode =
  | 'malformed'
  | 'bad-signature'
  | 'untrusted'
  | 'expired'
  | 'not-yet-valid'
  | 'identity-mismatch';

/** The only error `verifySignedChallenge` (./verify.ts) throws for bad input. */
export class SignatureError extends Error {
  readonly code: SignatureErrorCode;

  constructor(code: SignatureErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignatureError';
    this.code = code;
  }
}
