import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

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
export type SignatureErrorCode = 'malformed' | 'bad-signature' | 'untrusted' | 'expired' | 'not-yet-valid' | 'identity-mismatch';

/** The only error {@link verifySignedChallenge} throws for bad input. */
export class SignatureError extends Error {
  readonly code: SignatureErrorCode;

  constructor(code: SignatureErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignatureError';
    this.code = code;
  }
}

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
  tin: '1.2.860.3.16.1.1',
  pinfl: '1.2.860.3.16.1.2',
  uid: '0.9.2342.19200300.100.1.1',
  serialNumber: '2.5.4.5',
  commonName: '2.5.4.3',
  surname: '2.5.4.4',
  givenName: '2.5.4.42',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
} as const;

/** Digest algorithms accepted in SignerInfo (SHA-1 and MD5 are refused). */
const ALLOWED_DIGESTS = new Set(['2.16.840.1.101.3.4.2.1', '2.16.840.1.101.3.4.2.2', '2.16.840.1.101.3.4.2.3']);
/** Upper bound on the encoded input: a login signature with a few certificates is a few KB. */
const MAX_SIGNED_DATA_CHARS = 256 * 1024;
/** Longest chain (signer + intermediates) walked before giving up. */
const MAX_CHAIN_LENGTH = 6;
const BER_LIMITS = { maxDepth: 64, maxNodes: 20_000 };

const engine = new pkijs.CryptoEngine({ name: 'webcrypto', crypto: globalThis.crypto });

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
    throw new SignatureError('bad-signature', `Digest algorithm ${signerInfo.digestAlgorithm.algorithmId} is not accepted`);
  }
  checkContentTypeAttribute(signerInfo);

  // Signature over the content, with the signer certificate taken from the CMS.
  let signer: pkijs.Certificate;
  try {
    const result = await signed.verify(
      { signer: 0, data: toArrayBuffer(content), checkChain: false, extendedMode: true, checkDate: now },
      engine,
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

/** Parsed trusted CAs by PEM text: the configured list is the same on every sign-in. */
const trustedCaCache = new Map<string, pkijs.Certificate[]>();

/**
 * Parses trusted CA certificates given as PEM (several per string allowed) or bare base64 DER.
 * @throws {Error} when a configured certificate cannot be parsed (a configuration error).
 */
export function parseTrustedCas(pems: readonly string[]): pkijs.Certificate[] {
  return pems.flatMap((pem) => {
    let parsed = trustedCaCache.get(pem);
    if (!parsed) {
      parsed = parseCertificates(pem);
      if (trustedCaCache.size >= 64) trustedCaCache.clear();
      trustedCaCache.set(pem, parsed);
    }
    return parsed;
  });
}

function parseCertificates(pem: string): pkijs.Certificate[] {
  const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) => m[1] ?? '');
  return (blocks.length ? blocks : [pem]).map((block) => {
    const der = decodeBase64(block);
    const asn = der && der.byteLength ? asn1js.fromBER(der, BER_LIMITS) : undefined;
    if (!asn || asn.offset === -1) throw new Error('A trusted CA certificate is not valid PEM/DER');
    try {
      return new pkijs.Certificate({ schema: asn.result });
    } catch (cause) {
      throw new Error('A trusted CA certificate is not an X.509 certificate', { cause });
    }
  });
}

function parseSignedData(text: unknown): pkijs.SignedData {
  if (typeof text !== 'string' || text.length === 0) throw new SignatureError('malformed', 'signedData is empty');
  if (text.length > MAX_SIGNED_DATA_CHARS) throw new SignatureError('malformed', 'signedData is too large');
  const body = text.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '');
  const der = decodeBase64(body);
  if (!der || der.byteLength === 0) throw new SignatureError('malformed', 'signedData is not base64');
  const asn = asn1js.fromBER(der, BER_LIMITS);
  if (asn.offset === -1 || asn.offset !== der.byteLength) throw new SignatureError('malformed', 'signedData is not DER/BER');
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
  if (signed.encapContentInfo.eContentType !== OID.data) throw new SignatureError('malformed', 'The signed content type is not id-data');
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

function checkValidity(certificate: pkijs.Certificate, now: Date, what: string): void {
  if (now.getTime() < certificate.notBefore.value.getTime()) {
    throw new SignatureError('not-yet-valid', `${what} is not valid before ${certificate.notBefore.value.toISOString()}`);
  }
  if (now.getTime() > certificate.notAfter.value.getTime()) {
    throw new SignatureError('expired', `${what} expired on ${certificate.notAfter.value.toISOString()}`);
  }
}

/**
 * Walks issuer links from the signer up to a trusted anchor. Each link needs the issuer's name
 * to match and its key to verify the child's signature; intermediates come from the CMS and must
 * be CAs; every CA on the path must be within its validity period.
 */
async function checkChain(signer: pkijs.Certificate, signed: pkijs.SignedData, anchors: pkijs.Certificate[], now: Date): Promise<void> {
  if (!mayUseKeyFor(signer, 'sign')) throw new SignatureError('untrusted', 'The certificate may not be used for signatures');
  const pool = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate && c !== signer);
  const path: pkijs.Certificate[] = [signer];
  let current = signer;
  while (path.length <= MAX_CHAIN_LENGTH) {
    for (const anchor of anchors) {
      if (!anchor.subject.isEqual(current.issuer) || !(await issuedBy(current, anchor))) continue;
      if (!isCa(anchor, true)) throw new SignatureError('untrusted', 'The trusted certificate is not a CA');
      checkValidity(anchor, now, 'The CA certificate');
      return;
    }
    let next: pkijs.Certificate | undefined;
    for (const candidate of pool) {
      if (path.includes(candidate) || !candidate.subject.isEqual(current.issuer)) continue;
      if (isCa(candidate, false) && (await issuedBy(current, candidate))) {
        next = candidate;
        break;
      }
    }
    if (!next) throw new SignatureError('untrusted', 'The certificate is not issued by a trusted CA');
    checkValidity(next, now, 'An intermediate CA certificate');
    path.push(next);
    current = next;
  }
  throw new SignatureError('untrusted', 'The certificate chain is too long');
}

async function issuedBy(child: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  try {
    return await child.verify(issuer, engine);
  } catch {
    return false;
  }
}

/** A CA may sign certificates: basicConstraints cA (required unless a configured anchor without the extension) and keyCertSign if keyUsage is present. */
function isCa(certificate: pkijs.Certificate, anchor: boolean): boolean {
  const basic = certificate.extensions?.find((e) => e.extnID === OID.basicConstraints);
  if (basic) {
    if (!(basic.parsedValue instanceof pkijs.BasicConstraints) || !basic.parsedValue.cA) return false;
  } else if (!anchor) {
    return false;
  }
  return mayUseKeyFor(certificate, 'certSign');
}

/** keyUsage, when present: digitalSignature or nonRepudiation to sign; keyCertSign to issue. */
function mayUseKeyFor(certificate: pkijs.Certificate, purpose: 'sign' | 'certSign'): boolean {
  const extension = certificate.extensions?.find((e) => e.extnID === OID.keyUsage);
  if (!extension) return true;
  const bits = extension.parsedValue;
  if (!(bits instanceof asn1js.BitString)) return false;
  const view = bits.valueBlock.valueHexView;
  const first = view[0] ?? 0;
  return purpose === 'sign' ? (first & 0xc0) !== 0 : (first & 0x04) !== 0;
}

interface Identity {
  tin?: string;
  personalTin?: string;
  pinfl?: string;
  fullName?: string;
  organization?: string;
}

function readIdentity(certificate: pkijs.Certificate): Identity {
  const attributes = new Map<string, string>();
  for (const { type, value } of certificate.subject.typesAndValues) {
    const text = attributeText(value);
    if (text !== undefined && !attributes.has(type)) attributes.set(type, text);
  }
  const get = (oid: string) => attributes.get(oid) || undefined;
  const digits = (value: string | undefined, length: number) => (value && new RegExp(`^\\d{${length}}$`).test(value) ? value : undefined);

  const organizationTin = get(OID.tin);
  const personalTin = digits(get(OID.uid), 9);
  const serialPinfl = digits(get(OID.serialNumber), 14);
  const name = [get(OID.givenName), get(OID.surname)].filter(Boolean).join(' ');
  const identity: Identity = {};
  const tin = organizationTin ?? personalTin;
  if (tin) identity.tin = tin;
  if (personalTin) identity.personalTin = personalTin;
  const pinfl = get(OID.pinfl) ?? serialPinfl;
  if (pinfl) identity.pinfl = pinfl;
  const fullName = get(OID.commonName) ?? (name || undefined);
  if (fullName) identity.fullName = fullName;
  const organization = get(OID.organization);
  if (organization) identity.organization = organization;
  return identity;
}

function attributeText(value: unknown): string | undefined {
  if (value instanceof asn1js.BaseStringBlock) return value.getValue().trim();
  return undefined;
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

function serialHex(certificate: pkijs.Certificate): string {
  return Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString('hex').replace(/^0+(?=.)/, '');
}

/** Strict base64/base64url decoding (whitespace ignored); undefined when not base64. */
function decodeBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return undefined;
  const unpadded = compact.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return undefined;
  if (compact.includes('=') && compact.length % 4 !== 0) return undefined;
  return new Uint8Array(Buffer.from(unpadded, 'base64'));
}

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
