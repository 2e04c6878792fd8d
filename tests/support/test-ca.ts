/**
 * Throwaway PKI for tests: a self-signed CA, E-IMZO-like user certificates and CMS SignedData
 * signatures, all in memory with WebCrypto + pkijs. Never use these keys for anything real.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const subtle = globalThis.crypto.subtle;
const engine = new pkijs.CryptoEngine({ name: 'webcrypto', crypto: globalThis.crypto });

export type TestKeyAlgorithm = 'ECDSA' | 'RSA';

/** A certificate with its key pair. */
export interface TestIdentity {
  certificate: pkijs.Certificate;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** PEM of the certificate. */
  pem: string;
  /** DER of the certificate. */
  der: Uint8Array;
}

export interface TestCa extends TestIdentity {
  kind: 'ca';
  algorithm: TestKeyAlgorithm;
  /** The CA that issued this one (intermediates only). */
  parent?: TestCa;
}

export interface TestUser extends TestIdentity {
  kind: 'user';
  ca: TestCa;
}

export interface TestCaOptions {
  cn?: string;
  algorithm?: TestKeyAlgorithm;
  notBefore?: Date;
  notAfter?: Date;
  /** Issue an intermediate CA under this CA instead of a self-signed root. */
  parent?: TestCa;
}

export interface TestUserOptions {
  /** Goes under OID 1.2.860.3.16.1.1 (or UID with `layout: 'fallback'`). */
  tin?: string;
  /** Goes under OID 1.2.860.3.16.1.2 (or serialNumber 2.5.4.5 with `layout: 'fallback'`). */
  pinfl?: string;
  /** Personal TIN under UID (0.9.2342.19200300.100.1.1), as E-IMZO puts it. */
  uid?: string;
  cn: string;
  organization?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** `e-imzo` (default): TIN/PINFL under the Uzbek OIDs; `fallback`: under UID / serialNumber. */
  layout?: 'e-imzo' | 'fallback';
  algorithm?: TestKeyAlgorithm;
  /** keyUsage bits byte (default digitalSignature | nonRepudiation = 0xc0). */
  keyUsage?: number;
}

export interface SignCmsOptions {
  /** Leave the content out of the SignedData (the verifier must be given it separately). */
  detached?: boolean;
  /** Also include the issuing CA chain certificates (up to, excluding, the root). */
  includeChain?: boolean;
  /** Add signed attributes (content type, signing time, message digest); default true. */
  signedAttributes?: boolean;
  hash?: 'SHA-256' | 'SHA-384' | 'SHA-512' | 'SHA-1';
}

const OID = {
  tin: '1.2.860.3.16.1.1',
  pinfl: '1.2.860.3.16.1.2',
  uid: '0.9.2342.19200300.100.1.1',
  serialNumber: '2.5.4.5',
  cn: '2.5.4.3',
  o: '2.5.4.10',
  c: '2.5.4.6',
  data: '1.2.840.113549.1.7.1',
} as const;

const DAY = 24 * 60 * 60 * 1000;

/** Creates a throwaway self-signed CA (or an intermediate when `parent` is given). */
export async function createTestCa(options: TestCaOptions = {}): Promise<TestCa> {
  const algorithm = options.algorithm ?? options.parent?.algorithm ?? 'ECDSA';
  const keys = await generateKeys(algorithm);
  const certificate = await buildCertificate({
    subject: [
      [OID.c, 'UZ'],
      [OID.o, 'Test PKI'],
      [OID.cn, options.cn ?? 'Test E-IMZO CA'],
    ],
    publicKey: keys.publicKey,
    issuer: options.parent,
    signingKey: options.parent?.privateKey ?? keys.privateKey,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 3650 * DAY),
    ca: true,
    keyUsage: 0x06, // keyCertSign | cRLSign
  });
  return {
    kind: 'ca',
    algorithm,
    ...keys,
    ...encode(certificate),
    ...(options.parent ? { parent: options.parent } : {}),
  };
}

/** Issues an E-IMZO-like end-entity certificate (TIN, PINFL, CN in the subject) signed by `ca`. */
export async function issueUserCertificate(ca: TestCa, options: TestUserOptions): Promise<TestUser> {
  const keys = await generateKeys(options.algorithm ?? ca.algorithm);
  const fallback = options.layout === 'fallback';
  const subject: Array<[string, string]> = [[OID.c, 'UZ']];
  if (options.organization) subject.push([OID.o, options.organization]);
  subject.push([OID.cn, options.cn]);
  if (options.uid) subject.push([OID.uid, options.uid]);
  if (options.tin) subject.push([fallback ? OID.uid : OID.tin, options.tin]);
  if (options.pinfl) subject.push([fallback ? OID.serialNumber : OID.pinfl, options.pinfl]);
  const certificate = await buildCertificate({
    subject,
    publicKey: keys.publicKey,
    issuer: ca,
    signingKey: ca.privateKey,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 365 * DAY),
    ca: false,
    keyUsage: options.keyUsage ?? 0xc0, // digitalSignature | nonRepudiation
  });
  return { kind: 'user', ca, ...keys, ...encode(certificate) };
}

/** Signs `content` (UTF-8) as CMS SignedData with the user's certificate included; returns base64 DER. */
export async function signCms(user: TestUser, content: string, options: SignCmsOptions = {}): Promise<string> {
  const data = new TextEncoder().encode(content);
  const hash = options.hash ?? 'SHA-256';
  const certificates = [user.certificate];
  if (options.includeChain)
    for (let ca: TestCa | undefined = user.ca; ca?.parent; ca = ca.parent) certificates.push(ca.certificate);

  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({
      issuer: user.certificate.issuer,
      serialNumber: user.certificate.serialNumber,
    }),
  });
  if (options.signedAttributes !== false) {
    const digest = await subtle.digest(hash, data);
    signerInfo.signedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({
          type: '1.2.840.113549.1.9.3',
          values: [new asn1js.ObjectIdentifier({ value: OID.data })],
        }),
        new pkijs.Attribute({ type: '1.2.840.113549.1.9.5', values: [new asn1js.UTCTime({ valueDate: new Date() })] }),
        new pkijs.Attribute({ type: '1.2.840.113549.1.9.4', values: [new asn1js.OctetString({ valueHex: digest })] }),
      ],
    });
  }
  const signed = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID.data,
      ...(options.detached ? {} : { eContent: new asn1js.OctetString({ valueHex: data }) }),
    }),
    signerInfos: [signerInfo],
    certificates,
  });
  await signed.sign(user.privateKey, 0, hash, data, engine);
  return wrapSignedData(signed);
}

/**
 * Replaces the encapsulated content of a base64 SignedData, keeping the original signature —
 * a forgery the verifier must reject.
 */
export function tamperContent(signedData: string, content: string): string {
  const signed = unwrapSignedData(signedData);
  signed.encapContentInfo.eContent = new asn1js.OctetString({ valueHex: new TextEncoder().encode(content) });
  return wrapSignedData(signed);
}

/** Parses a base64 SignedData back into pkijs (for tests that poke at its structure). */
export function unwrapSignedData(signedData: string): pkijs.SignedData {
  const contentInfo = pkijs.ContentInfo.fromBER(Buffer.from(signedData, 'base64'));
  return new pkijs.SignedData({ schema: contentInfo.content });
}

/** Serialises SignedData inside a ContentInfo as base64 DER. */
export function wrapSignedData(signed: pkijs.SignedData): string {
  const contentInfo = new pkijs.ContentInfo({
    contentType: pkijs.ContentInfo.SIGNED_DATA,
    content: signed.toSchema(true),
  });
  return Buffer.from(contentInfo.toSchema().toBER(false)).toString('base64');
}

async function generateKeys(algorithm: TestKeyAlgorithm): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> {
  const params =
    algorithm === 'ECDSA'
      ? { name: 'ECDSA', namedCurve: 'P-256' }
      : { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
  return subtle.generateKey(params, true, ['sign', 'verify']);
}

interface BuildCertificate {
  subject: Array<[string, string]>;
  publicKey: CryptoKey;
  /** Issuer; self-signed when absent. */
  issuer: TestIdentity | undefined;
  signingKey: CryptoKey;
  notBefore: Date;
  notAfter: Date;
  ca: boolean;
  keyUsage: number;
}

async function buildCertificate(spec: BuildCertificate): Promise<pkijs.Certificate> {
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  const serial = globalThis.crypto.getRandomValues(new Uint8Array(16));
  serial[0] = (serial[0]! & 0x7f) | 0x01; // positive, no leading zero byte
  certificate.serialNumber = new asn1js.Integer({ valueHex: serial });
  for (const [type, value] of spec.subject) {
    certificate.subject.typesAndValues.push(
      new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) }),
    );
  }
  if (spec.issuer) {
    certificate.issuer = spec.issuer.certificate.subject;
  } else {
    certificate.issuer.typesAndValues = [...certificate.subject.typesAndValues];
  }
  certificate.notBefore = time(spec.notBefore);
  certificate.notAfter = time(spec.notAfter);
  await certificate.subjectPublicKeyInfo.importKey(spec.publicKey, engine);

  const basic = new pkijs.BasicConstraints({ cA: spec.ca });
  const unusedBits = spec.keyUsage === 0 ? 0 : Math.min(7, Math.log2(spec.keyUsage & -spec.keyUsage));
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([spec.keyUsage]), unusedBits });
  certificate.extensions = [
    new pkijs.Extension({
      extnID: '2.5.29.19',
      critical: true,
      extnValue: basic.toSchema().toBER(false),
      parsedValue: basic,
    }),
    new pkijs.Extension({
      extnID: '2.5.29.15',
      critical: true,
      extnValue: keyUsage.toBER(false),
      parsedValue: keyUsage,
    }),
  ];
  await certificate.sign(spec.signingKey, 'SHA-256', engine);
  // Round-trip so the object looks exactly like one parsed from the wire.
  return pkijs.Certificate.fromBER(certificate.toSchema().toBER(false));
}

function time(value: Date): pkijs.Time {
  return new pkijs.Time({
    type: value.getUTCFullYear() >= 2050 ? pkijs.TimeType.GeneralizedTime : pkijs.TimeType.UTCTime,
    value,
  });
}

function encode(certificate: pkijs.Certificate): { certificate: pkijs.Certificate; der: Uint8Array; pem: string } {
  const der = new Uint8Array(certificate.toSchema().toBER(false));
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return { certificate, der, pem: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n` };
}

/** The user's private key as PKCS#8 PEM (for openssl). */
export async function privateKeyPem(user: TestIdentity): Promise<string> {
  const der = Buffer.from(await subtle.exportKey('pkcs8', user.privateKey));
  return `-----BEGIN PRIVATE KEY-----\n${(der.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n-----END PRIVATE KEY-----\n`;
}

/**
 * The user's key and certificate as a password-protected PKCS#12 file, written by the
 * openssl command line as a person would export one: `modern` (OpenSSL 3's default —
 * PBES2/AES-256-CBC, SHA-256 MAC) or `legacy` (3DES key, RC2 or 3DES certificates, SHA-1 MAC).
 */
export async function exportPkcs12(
  user: TestUser,
  password: string,
  flavour: 'modern' | 'legacy' = 'modern',
): Promise<Buffer> {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'test-pfx-'));
  try {
    writeFileSync(path.join(dir, 'key.pem'), await privateKeyPem(user), { mode: 0o600 });
    writeFileSync(path.join(dir, 'cert.pem'), user.pem);
    writeFileSync(path.join(dir, 'ca.pem'), user.ca.pem);
    const ciphers =
      flavour === 'modern'
        ? ['-keypbe', 'AES-256-CBC', '-certpbe', 'AES-256-CBC', '-macalg', 'sha256']
        : ['-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1', '-legacy'];
    execFileSync(
      'openssl',
      [
        'pkcs12',
        '-export',
        ...ciphers,
        '-inkey',
        path.join(dir, 'key.pem'),
        '-in',
        path.join(dir, 'cert.pem'),
        '-certfile',
        path.join(dir, 'ca.pem'),
        '-passout',
        'env:PFX_PASSWORD',
        '-out',
        path.join(dir, 'key.pfx'),
      ],
      { env: { ...process.env, PFX_PASSWORD: password }, stdio: 'pipe' },
    );
    return readFileSync(path.join(dir, 'key.pfx'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Signs `content` with `openssl cms -sign` exactly as docs/security.md tells a user of an external
 * signing tool to: detached (default) or attached (`-nodetach`), PEM output.
 */
export async function opensslCmsSign(
  user: TestUser,
  content: string,
  options: { attached?: boolean } = {},
): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'test-cms-'));
  try {
    writeFileSync(path.join(dir, 'key.pem'), await privateKeyPem(user), { mode: 0o600 });
    writeFileSync(path.join(dir, 'cert.pem'), user.pem);
    writeFileSync(path.join(dir, 'challenge.txt'), content);
    execFileSync(
      'openssl',
      [
        'cms',
        '-sign',
        '-binary',
        '-md',
        'sha256',
        ...(options.attached ? ['-nodetach'] : []),
        '-in',
        path.join(dir, 'challenge.txt'),
        '-signer',
        path.join(dir, 'cert.pem'),
        '-inkey',
        path.join(dir, 'key.pem'),
        '-outform',
        'PEM',
        '-out',
        path.join(dir, 'challenge.p7s'),
      ],
      { stdio: 'pipe' },
    );
    return readFileSync(path.join(dir, 'challenge.p7s'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
