/**
 * Verification of a signed login challenge (E-IMZO style CMS/PKCS#7 SignedData): the CMS
 * structure, the signature over the challenge and the identity the user claims. The signer's
 * certificate chain and identity are read in ./certificate.ts.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import {
  BER_LIMITS,
  checkChain,
  checkValidity,
  cryptoEngine,
  decodeBase64,
  parseTrustedCas,
  readIdentity,
  serialHex,
  type Identity,
} from './certificate.ts';
import { SignatureError } from './signature-error.ts';

/** Input of {@link verifySignedChallenge}. */
export interface VerifySignedChallengeInput {
  /** Base64 (or base64url, or PEM-armoured) DER of a CMS ContentInfo holding SignedData. */
  signedData: string;
  /**
   * The challenge the server issued. Required when the SignedData is detached (no encapsulated
   * content); when the content is attached and this is given, the two must be identical.
   */
  challenge?: string | undefined;
  /** Trusted CA certificates, PEM (one string may hold several) or bare base64 DER. */
  trustedCas: readonly string[];
  /** Instant the certificates are checked against; defaults to the current time. */
  now?: Date | undefined;
  /** Identity the user claims; each given value must match the certificate. */
  expected?: { tin?: string | null | undefined; pinfl?: string | null | undefined } | undefined;
}

/** What a verified signature proves. */
export interface VerifiedSignature {
  /** The signed content (UTF-8) — the challenge to consume. */
  challenge: string;
  /**
   * TIN (STIR/INN): the organisation TIN (OID 1.2.860.3.16.1.1) when present, otherwise the
   * holder's personal TIN (UID).
   */
  tin?: string;
  /** The holder's personal TIN (UID, 0.9.2342.19200300.100.1.1) when the certificate carries one. */
  personalTin?: string;
  /** PINFL (JShShIR), OID 1.2.860.3.16.1.2, falling back to serialNumber (2.5.4.5) when 14 digits. */
  pinfl?: string;
  /** Common name (2.5.4.3), or given name + surname. */
  fullName?: string;
  /** Organisation (2.5.4.10), for legal-entity certificates. */
  organization?: string;
  /** Signer certificate serial number, lowercase hex without leading zeros. */
  serialNumber: string;
  /** Signer certificate validity, ISO 8601. */
  notBefore: string;
  notAfter: string;
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentTypeAttr: '1.2.840.113549.1.9.3',
} as const;

/** Digest algorithms accepted in SignerInfo (SHA-1 and MD5 are refused). */
const ALLOWED_DIGESTS = new Set(['2.16.840.1.101.3.4.2.1', '2.16.840.1.101.3.4.2.2', '2.16.840.1.101.3.4.2.3']);
/** Upper bound on the encoded input: a login signature with a few certificates is a few KB. */
const MAX_SIGNED_DATA_CHARS = 256 * 1024;

/**
 * Verifies a CMS/PKCS#7 signature over a login challenge (E-IMZO style) and returns who signed.
 *
 * Checks, in order: the input parses as CMS SignedData with exactly one signer and `id-data`
 * content (attached, or detached with `challenge` given); the signature verifies with the signer
 * certificate carried in the CMS (SHA-2 digests only); the signer certificate is within its
 * validity period at `now`; it chains — through intermediates carried in the CMS if needed — to
 * one of `trustedCas`, each issuer's signature verified and each CA within its validity period
 * and allowed to sign certificates; the TIN/PINFL in the subject DN match `expected`.
 *
 * Revocation (CRL/OCSP) is not checked here. The caller must still consume the returned
 * `challenge` in the challenge store (one-time use, expiry).
 *
 * @throws {SignatureError} for every rejection; anything else is a programming or configuration
 *   error (e.g. an unparsable trusted CA).
 */
export async function verifySignedChallenge(input: VerifySignedChallengeInput): Promise<VerifiedSignature> {
  const now = input.now ?? new Date();
  const anchors = parseTrustedCas(input.trustedCas);
  const signed = parseSignedData(input.signedData);

  // Content: attached, or detached with the challenge supplied by the caller.
  const eContent = signed.encapContentInfo.eContent;
  let content: Uint8Array;
  if (eContent) {
    content = new Uint8Array(eContent.getValue());
    if (input.challenge !== undefined && !bytesEqual(content, utf8(input.challenge))) {
      throw new SignatureError('bad-signature', 'The signed content is not the issued challenge');
    }
  } else if (input.challenge !== undefined) {
    content = utf8(input.challenge);
  } else {
    throw new SignatureError('malformed', 'Detached signature without the challenge it signs');
  }
  if (content.byteLength === 0) throw new SignatureError('malformed', 'The signed content is empty');
  const challenge = decodeUtf8(content);

  const signerInfo = signed.signerInfos[0]!;
  if (!ALLOWED_DIGESTS.has(signerInfo.digestAlgorithm.algorithmId)) {
    throw new SignatureError(
      'bad-signature',
      `Digest algorithm ${signerInfo.digestAlgorithm.algorithmId} is not accepted`,
    );
  }
  checkContentTypeAttribute(signerInfo);

  // Signature over the content, with the signer certificate taken from the CMS.
  let signer: pkijs.Certificate;
  try {
    const result = await signed.verify(
      { signer: 0, data: toArrayBuffer(content), checkChain: false, extendedMode: true, checkDate: now },
      cryptoEngine,
    );
    if (!result.signatureVerified || !(result.signerCertificate instanceof pkijs.Certificate)) {
      throw new SignatureError('bad-signature', 'The signature does not verify');
    }
    signer = result.signerCertificate;
  } catch (error) {
    throw toSignatureError(error);
  }

  checkValidity(signer, now, 'The signing certificate');
  await checkChain(signer, signed, anchors, now);

  const identity = readIdentity(signer);
  checkExpected(identity, input.expected);

  return {
    challenge,
    ...identity,
    serialNumber: serialHex(signer),
    notBefore: signer.notBefore.value.toISOString(),
    notAfter: signer.notAfter.value.toISOString(),
  };
}

function parseSignedData(text: unknown): pkijs.SignedData {
  if (typeof text !== 'string' || text.length === 0) throw new SignatureError('malformed', 'signedData is empty');
  if (text.length > MAX_SIGNED_DATA_CHARS) throw new SignatureError('malformed', 'signedData is too large');
  const body = text.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '');
  const der = decodeBase64(body);
  if (!der || der.byteLength === 0) throw new SignatureError('malformed', 'signedData is not base64');
  const asn = asn1js.fromBER(der, BER_LIMITS);
  if (asn.offset === -1 || asn.offset !== der.byteLength)
    throw new SignatureError('malformed', 'signedData is not DER/BER');
  let signed: pkijs.SignedData;
  try {
    const contentInfo = new pkijs.ContentInfo({ schema: asn.result });
    if (contentInfo.contentType !== OID.signedData) throw new SignatureError('malformed', 'Not a CMS SignedData');
    signed = new pkijs.SignedData({ schema: contentInfo.content });
  } catch (error) {
    if (error instanceof SignatureError) throw error;
    throw new SignatureError('malformed', 'signedData is not a CMS SignedData', { cause: error });
  }
  if (signed.signerInfos.length !== 1) throw new SignatureError('malformed', 'Exactly one signer is expected');
  if (signed.encapContentInfo.eContentType !== OID.data)
    throw new SignatureError('malformed', 'The signed content type is not id-data');
  if (!signed.certificates?.some((c) => c instanceof pkijs.Certificate)) {
    throw new SignatureError('malformed', 'The signing certificate is not included');
  }
  return signed;
}

/** pkijs checks the content-type attribute is present but not its value. */
function checkContentTypeAttribute(signerInfo: pkijs.SignerInfo): void {
  const attribute = signerInfo.signedAttrs?.attributes.find((a) => a.type === OID.contentTypeAttr);
  if (!attribute) return; // absent signedAttrs: signature directly over the content; absent attr: pkijs reports it
  const value: unknown = attribute.values[0];
  if (!(value instanceof asn1js.ObjectIdentifier) || value.valueBlock.toString() !== OID.data) {
    throw new SignatureError('bad-signature', 'The signed content-type attribute is not id-data');
  }
}

/** pkijs SignedDataVerifyError codes that mean "the message is incomplete" rather than "forged". */
const MALFORMED_VERIFY_CODES = new Set([1, 2, 3, 4, 8, 9, 10]);

function toSignatureError(error: unknown): SignatureError {
  if (error instanceof SignatureError) return error;
  if (error instanceof pkijs.SignedDataVerifyError) {
    if (MALFORMED_VERIFY_CODES.has(error.code)) return new SignatureError('malformed', error.message, { cause: error });
    return new SignatureError('bad-signature', error.message, { cause: error });
  }
  return new SignatureError('bad-signature', 'The signature could not be verified', { cause: error });
}

function checkExpected(identity: Identity, expected: VerifySignedChallengeInput['expected']): void {
  const tin = normalizeId(expected?.tin);
  const pinfl = normalizeId(expected?.pinfl);
  if (tin && tin !== identity.tin && tin !== identity.personalTin) {
    throw new SignatureError('identity-mismatch', 'The certificate does not belong to this TIN');
  }
  if (pinfl && pinfl !== identity.pinfl) {
    throw new SignatureError('identity-mismatch', 'The certificate does not belong to this PINFL');
  }
}

const normalizeId = (value: string | null | undefined): string | undefined => value?.replace(/\s+/g, '') || undefined;

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (cause) {
    throw new SignatureError('malformed', 'The signed content is not UTF-8 text', { cause });
  }
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}
