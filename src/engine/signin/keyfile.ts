/**
 * Sign-in by key file, all in the browser: opens a password-protected PKCS#12 file
 * (.pfx/.p12) with pkijs, imports its private key into WebCrypto (never leaves the page) and
 * signs the server's one-time challenge as CMS SignedData. Loaded only when someone uses the
 * method — pkijs and asn1js are a chunk of their own, not part of the first visit.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * Why a key file cannot be used; each code has a message under `auth.keyErrors.*`.
 * `legacy-encryption`: the file is encrypted with the old PKCS#12 ciphers (3DES/RC2), which
 * browsers do not implement.
 */
export type KeyFileErrorCode =
  | 'not-pkcs12'
  | 'wrong-password'
  | 'legacy-encryption'
  | 'no-key'
  | 'unsupported-key'
  | 'expired'
  | 'not-yet-valid';

export class KeyFileError extends Error {
  readonly code: KeyFileErrorCode;
  constructor(code: KeyFileErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeyFileError';
    this.code = code;
  }
}

/** An opened key: the signing key and what its certificate says about the holder. */
export interface KeyFile {
  privateKey: CryptoKey;
  certificate: pkijs.Certificate;
  commonName?: string;
  /** The holder's PINFL (OID 1.2.860.3.16.1.2, or a 14-digit serialNumber). */
  pinfl?: string;
  /** The organisation TIN (OID 1.2.860.3.16.1.1), else the personal TIN (UID). */
  tin?: string;
  notBefore: Date;
  notAfter: Date;
}

const OID = {
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  encryptedData: '1.2.840.113549.1.7.6',
  data: '1.2.840.113549.1.7.1',
  /** pbeWithSHAAnd… (3DES, RC2, RC4): the pre-PBES2 PKCS#12 ciphers. */
  legacyPbePrefix: '1.2.840.113549.1.12.1.',
  rsa: '1.2.840.113549.1.1.1',
  ec: '1.2.840.10045.2.1',
  tin: '1.2.860.3.16.1.1',
  pinfl: '1.2.860.3.16.1.2',
  uid: '0.9.2342.19200300.100.1.1',
  serialNumber: '2.5.4.5',
  commonName: '2.5.4.3',
} as const;

const CURVES: Record<string, string> = {
  '1.2.840.10045.3.1.7': 'P-256',
  '1.3.132.0.34': 'P-384',
  '1.3.132.0.35': 'P-521',
};

const engine = (): pkijs.CryptoEngine => new pkijs.CryptoEngine({ name: 'webcrypto', crypto: globalThis.crypto });

/** Opens a PKCS#12 file with its password; the first private key and the certificate that goes with it. */
export async function openKeyFile(bytes: ArrayBuffer, password: string): Promise<KeyFile> {
  const crypto = engine();
  const pass = new TextEncoder().encode(password).buffer as ArrayBuffer;
  let pfx: pkijs.PFX;
  try {
    pfx = pkijs.PFX.fromBER(bytes);
  } catch (cause) {
    throw new KeyFileError('not-pkcs12', 'not a PKCS#12 file', { cause });
  }
  try {
    await pfx.parseInternalValues({ password: pass, checkIntegrity: true }, crypto);
  } catch (cause) {
    // The MAC over the contents is keyed by the password: a failure is (almost always) a wrong one.
    throw new KeyFileError('wrong-password', 'the integrity check failed', { cause });
  }
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (!safe) throw new KeyFileError('not-pkcs12', 'no authenticated safe');
  for (const info of safe.safeContents) {
    if (info.contentType === OID.encryptedData) {
      // A copy: pkijs marks the ASN.1 it parses, and parses this content again below.
      const copy = asn1js.fromBER((info.content as asn1js.BaseBlock).toBER(false)).result;
      const algorithm = new pkijs.EncryptedData({ schema: copy }).encryptedContentInfo.contentEncryptionAlgorithm
        .algorithmId;
      if (algorithm.startsWith(OID.legacyPbePrefix))
        throw new KeyFileError('legacy-encryption', `legacy cipher ${algorithm}`);
    }
  }
  try {
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password: pass })) }, crypto);
  } catch (cause) {
    throw new KeyFileError('wrong-password', 'the contents do not decrypt', { cause });
  }
  let keyInfo: pkijs.PrivateKeyInfo | undefined;
  const certificates: pkijs.Certificate[] = [];
  for (const contents of safe.parsedValue?.safeContents ?? []) {
    for (const bag of contents.value.safeBags) {
      if (bag.bagId === OID.keyBag) keyInfo ??= bag.bagValue as pkijs.PrivateKeyInfo;
      if (bag.bagId === OID.shroudedKeyBag) {
        const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
        if (shrouded.encryptionAlgorithm.algorithmId.startsWith(OID.legacyPbePrefix))
          throw new KeyFileError('legacy-encryption', 'legacy key cipher');
        try {
          // Declared protected in pkijs' types, but it is how a shrouded key bag is opened.
          await (
            shrouded as unknown as {
              parseInternalValues(p: { password: ArrayBuffer }, c: pkijs.CryptoEngine): Promise<void>;
            }
          ).parseInternalValues({ password: pass }, crypto);
        } catch (cause) {
          throw new KeyFileError('wrong-password', 'the key does not decrypt', { cause });
        }
        keyInfo ??= shrouded.parsedValue;
      }
      if (bag.bagId === OID.certBag) {
        const parsed = (bag.bagValue as pkijs.CertBag).parsedValue;
        if (parsed instanceof pkijs.Certificate) certificates.push(parsed);
      }
    }
  }
  if (!keyInfo) throw new KeyFileError('no-key', 'no private key in the file');
  const keyAlgorithm = keyInfo.privateKeyAlgorithm;
  // The certificate whose public key has the key's algorithm and is not a CA: the holder's.
  const certificate =
    certificates.find((c) => c.subjectPublicKeyInfo.algorithm.algorithmId === keyAlgorithm.algorithmId && !isCa(c)) ??
    certificates[0];
  if (!certificate) throw new KeyFileError('no-key', 'no certificate in the file');
  const privateKey = await importKey(keyInfo, certificate);
  const names = subjectValues(certificate);
  const serial = names.get(OID.serialNumber);
  const pinfl = names.get(OID.pinfl) ?? (serial && /^\d{14}$/.test(serial) ? serial : undefined);
  const tin = names.get(OID.tin) ?? names.get(OID.uid);
  const commonName = names.get(OID.commonName);
  return {
    privateKey,
    certificate,
    notBefore: certificate.notBefore.value,
    notAfter: certificate.notAfter.value,
    ...(commonName ? { commonName } : {}),
    ...(pinfl ? { pinfl } : {}),
    ...(tin && /^\d{9}$/.test(tin) ? { tin } : {}),
  };
}

/** Refuses a key whose certificate is outside its validity period at `now`. */
export function assertValid(key: KeyFile, now = new Date()): void {
  if (now > key.notAfter) throw new KeyFileError('expired', 'the certificate has expired');
  if (now < key.notBefore) throw new KeyFileError('not-yet-valid', 'the certificate is not valid yet');
}

/** Signs `content` (its UTF-8 bytes) as attached CMS SignedData with the certificate; base64 DER. */
export async function signChallenge(key: KeyFile, content: string): Promise<string> {
  const crypto = engine();
  const data = new TextEncoder().encode(content);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', data);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({
      issuer: key.certificate.issuer,
      serialNumber: key.certificate.serialNumber,
    }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({
          type: '1.2.840.113549.1.9.3',
          values: [new asn1js.ObjectIdentifier({ value: OID.data })],
        }),
        new pkijs.Attribute({ type: '1.2.840.113549.1.9.5', values: [new asn1js.UTCTime({ valueDate: new Date() })] }),
        new pkijs.Attribute({ type: '1.2.840.113549.1.9.4', values: [new asn1js.OctetString({ valueHex: digest })] }),
      ],
    }),
  });
  const signed = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID.data,
      eContent: new asn1js.OctetString({ valueHex: data }),
    }),
    signerInfos: [signerInfo],
    certificates: [key.certificate],
  });
  await signed.sign(key.privateKey, 0, 'SHA-256', data, crypto);
  const wrapped = new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: signed.toSchema(true) });
  return toBase64(new Uint8Array(wrapped.toSchema().toBER(false)));
}

async function importKey(keyInfo: pkijs.PrivateKeyInfo, certificate: pkijs.Certificate): Promise<CryptoKey> {
  const der = keyInfo.toSchema().toBER(false);
  const spki = certificate.subjectPublicKeyInfo.algorithm;
  try {
    if (spki.algorithmId === OID.rsa)
      return await globalThis.crypto.subtle.importKey(
        'pkcs8',
        der,
        { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
        false,
        ['sign'],
      );
    if (spki.algorithmId === OID.ec) {
      const curveOid =
        spki.algorithmParams instanceof asn1js.ObjectIdentifier ? spki.algorithmParams.valueBlock.toString() : '';
      const namedCurve = CURVES[curveOid];
      if (namedCurve)
        return await globalThis.crypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve }, false, ['sign']);
    }
  } catch (cause) {
    throw new KeyFileError('unsupported-key', 'the key cannot be imported', { cause });
  }
  // E.g. the national GOST-like algorithms of hardware tokens: not in WebCrypto.
  throw new KeyFileError('unsupported-key', `key algorithm ${spki.algorithmId} is not supported`);
}

function isCa(certificate: pkijs.Certificate): boolean {
  const ext = certificate.extensions?.find((e) => e.extnID === '2.5.29.19');
  return Boolean(ext && (ext.parsedValue as pkijs.BasicConstraints | undefined)?.cA);
}

function subjectValues(certificate: pkijs.Certificate): Map<string, string> {
  const values = new Map<string, string>();
  for (const tv of certificate.subject.typesAndValues) {
    const value = (tv.value as { valueBlock?: { value?: unknown } }).valueBlock?.value;
    if (typeof value === 'string' && !values.has(tv.type)) values.set(tv.type, value.trim());
  }
  return values;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
