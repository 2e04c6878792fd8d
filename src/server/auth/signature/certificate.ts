/**
 * The X.509 side of a digital-signature sign-in: the trusted CA certificates, the signer's
 * validity and chain up to one of them, and the identity its subject carries. Used by
 * `verifySignedChallenge` (./verify.ts) after the CMS signature itself has verified.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { SignatureError } from './signature-error.ts';

const OID = {
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

/** Longest chain (signer + intermediates) walked before giving up. */
const MAX_CHAIN_LENGTH = 6;
/** Bounds on BER parsing of untrusted input (depth and node count). */
export const BER_LIMITS = { maxDepth: 64, maxNodes: 20_000 };

/** pkijs' WebCrypto engine, for the CMS signature and each link of the chain. */
export const cryptoEngine = new pkijs.CryptoEngine({ name: 'webcrypto', crypto: globalThis.crypto });

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
  const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map(
    (m) => m[1] ?? '',
  );
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

/** Whether `now` lies within the certificate's validity period; `what` names it in the error. */
export function checkValidity(certificate: pkijs.Certificate, now: Date, what: string): void {
  if (now.getTime() < certificate.notBefore.value.getTime()) {
    throw new SignatureError(
      'not-yet-valid',
      `${what} is not valid before ${certificate.notBefore.value.toISOString()}`,
    );
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
export async function checkChain(
  signer: pkijs.Certificate,
  signed: pkijs.SignedData,
  anchors: pkijs.Certificate[],
  now: Date,
): Promise<void> {
  if (!mayUseKeyFor(signer, 'sign'))
    throw new SignatureError('untrusted', 'The certificate may not be used for signatures');
  const pool = (signed.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate && c !== signer,
  );
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
    return await child.verify(issuer, cryptoEngine);
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

/** Who the subject DN of a certificate names (see `VerifiedSignature` in ./verify.ts). */
export interface Identity {
  tin?: string;
  personalTin?: string;
  pinfl?: string;
  fullName?: string;
  organization?: string;
}

/** Reads the TIN, PINFL, name and organisation from a certificate's subject DN. */
export function readIdentity(certificate: pkijs.Certificate): Identity {
  const attributes = new Map<string, string>();
  for (const { type, value } of certificate.subject.typesAndValues) {
    const text = attributeText(value);
    if (text !== undefined && !attributes.has(type)) attributes.set(type, text);
  }
  const get = (oid: string) => attributes.get(oid) || undefined;
  const digits = (value: string | undefined, length: number) =>
    value && new RegExp(`^\\d{${length}}$`).test(value) ? value : undefined;

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

/** The certificate's serial number, lowercase hex without leading zeros. */
export function serialHex(certificate: pkijs.Certificate): string {
  return Buffer.from(certificate.serialNumber.valueBlock.valueHexView)
    .toString('hex')
    .replace(/^0+(?=.)/, '');
}

/** Strict base64/base64url decoding (whitespace ignored); undefined when not base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return undefined;
  const unpadded = compact.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return undefined;
  if (compact.includes('=') && compact.length % 4 !== 0) return undefined;
  return new Uint8Array(Buffer.from(unpadded, 'base64'));
}
