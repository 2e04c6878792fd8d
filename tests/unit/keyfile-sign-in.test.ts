/**
 * The browser's key-file sign-in on real PKCS#12 files written by the openssl command line,
 * its signature checked by the server's verifier.
 */
import { describe, expect, it } from 'vitest';
import { createTestCa, exportPkcs12, issueUserCertificate } from '../support/test-ca.ts';
import { verifySignedChallenge } from '../../src/server/auth/signature/index.ts';
import { assertValid, openKeyFile, signChallenge } from '../../src/engine/signin/keyfile.ts';

const bytes = (b: Buffer): ArrayBuffer => new Uint8Array(b).buffer;

describe('sign-in by key file', () => {
  for (const algorithm of ['ECDSA', 'RSA'] as const) {
    it(`opens a modern ${algorithm} .pfx and signs what the server accepts`, async () => {
      const ca = await createTestCa({ algorithm });
      const user = await issueUserCertificate(ca, { cn: 'Karimov Anvar', pinfl: '31234567890123', tin: '512345678' });
      const key = await openKeyFile(bytes(await exportPkcs12(user, 'key password 1')), 'key password 1');
      expect(key).toMatchObject({ pinfl: '31234567890123', tin: '512345678', commonName: 'Karimov Anvar' });
      assertValid(key);
      const signedData = await signChallenge(key, 'the-one-time-challenge');
      const verified = await verifySignedChallenge({
        signedData,
        trustedCas: [ca.pem],
        expected: { pinfl: '31234567890123' },
      });
      expect(verified.challenge).toBe('the-one-time-challenge');
    });
  }

  it('tells a wrong password, a legacy-encrypted file, a non-PKCS#12 file and an expired certificate apart', async () => {
    const ca = await createTestCa();
    const user = await issueUserCertificate(ca, { cn: 'A', pinfl: '31234567890123' });
    const pfx = await exportPkcs12(user, 'right password');
    await expect(openKeyFile(bytes(pfx), 'wrong password')).rejects.toMatchObject({ code: 'wrong-password' });
    await expect(
      openKeyFile(bytes(await exportPkcs12(user, 'right password', 'legacy')), 'right password'),
    ).rejects.toMatchObject({ code: 'legacy-encryption' });
    await expect(openKeyFile(new TextEncoder().encode('not a key file').buffer, 'x')).rejects.toMatchObject({
      code: 'not-pkcs12',
    });
    const old = await issueUserCertificate(ca, {
      cn: 'B',
      pinfl: '31234567890123',
      notBefore: new Date(Date.now() - 400 * 864e5),
      notAfter: new Date(Date.now() - 864e5),
    });
    const expired = await openKeyFile(bytes(await exportPkcs12(old, 'right password')), 'right password');
    expect(() => assertValid(expired)).toThrow(expect.objectContaining({ code: 'expired' }));
  });
});
