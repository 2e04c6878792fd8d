// @vitest-environment node
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database, type Queryable } from '../../src/server/db/database.ts';
import { CHALLENGE_TTL_MS, SIGNATURE_DDL, createChallengeStore } from '../../src/server/auth/signature/challenge.ts';
import {
  SignatureError,
  verifySignedChallenge,
  type SignatureErrorCode,
} from '../../src/server/auth/signature/index.ts';
import {
  createTestCa,
  issueUserCertificate,
  signCms,
  tamperContent,
  unwrapSignedData,
  wrapSignedData,
  type TestCa,
  type TestUser,
} from '../support/test-ca.ts';
import { backends, createTestDatabase } from '../support/databases.ts';

const TIN = '301234567';
const PINFL = '31234567890123';
const CHALLENGE = 'q2VhR1f0cXxq5Tq3Hq3v3bq2nXnKkYyq0mO9m2b3xYw';
const DAY = 24 * 60 * 60 * 1000;

async function rejection(promise: Promise<unknown>): Promise<SignatureError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SignatureError);
    return error as SignatureError;
  }
  throw new Error('expected a SignatureError, but the signature was accepted');
}

async function expectCode(promise: Promise<unknown>, code: SignatureErrorCode): Promise<void> {
  const error = await rejection(promise);
  expect(error.code, error.message).toBe(code);
}

describe('verifySignedChallenge', () => {
  let ca: TestCa;
  let user: TestUser;
  let trustedCas: string[];

  beforeAll(async () => {
    ca = await createTestCa({ cn: 'Test E-IMZO CA' });
    user = await issueUserCertificate(ca, { tin: TIN, pinfl: PINFL, cn: 'ALIYEV VALI G‘ANIYEVICH', uid: '412345678' });
    trustedCas = [ca.pem];
  });

  it('accepts a good signature from a user of the trusted CA and reads the identity', async () => {
    const signedData = await signCms(user, CHALLENGE);
    const result = await verifySignedChallenge({ signedData, trustedCas, expected: { tin: TIN } });
    expect(result).toMatchObject({
      challenge: CHALLENGE,
      tin: TIN,
      personalTin: '412345678',
      pinfl: PINFL,
      fullName: 'ALIYEV VALI G‘ANIYEVICH',
      notAfter: user.certificate.notAfter.value.toISOString(),
    });
    expect(result.serialNumber).toMatch(/^[0-9a-f]+$/);
    expect(BigInt(`0x${result.serialNumber}`)).toBe(
      BigInt(`0x${Buffer.from(user.certificate.serialNumber.valueBlock.valueHexView).toString('hex')}`),
    );
    // PINFL as the claimed identity, and the personal TIN (UID) also identifies the holder.
    await expect(verifySignedChallenge({ signedData, trustedCas, expected: { pinfl: PINFL } })).resolves.toMatchObject({
      pinfl: PINFL,
    });
    await expect(
      verifySignedChallenge({ signedData, trustedCas, expected: { tin: '412345678' } }),
    ).resolves.toBeTruthy();
  });

  it('accepts a detached signature when given the challenge, and refuses it over another challenge', async () => {
    const signedData = await signCms(user, CHALLENGE, { detached: true });
    await expect(verifySignedChallenge({ signedData, challenge: CHALLENGE, trustedCas })).resolves.toMatchObject({
      challenge: CHALLENGE,
      tin: TIN,
    });
    await expectCode(
      verifySignedChallenge({ signedData, challenge: `${CHALLENGE.slice(0, -1)}A`, trustedCas }),
      'bad-signature',
    );
    await expectCode(verifySignedChallenge({ signedData, trustedCas }), 'malformed');
  });

  it('refuses attached content that is not the issued challenge', async () => {
    const signedData = await signCms(user, 'some other text');
    await expectCode(verifySignedChallenge({ signedData, challenge: CHALLENGE, trustedCas }), 'bad-signature');
  });

  it('refuses a signature whose encapsulated content was replaced (bad-signature)', async () => {
    const signedData = tamperContent(await signCms(user, CHALLENGE), 'another-challenge');
    await expectCode(verifySignedChallenge({ signedData, trustedCas }), 'bad-signature');
    // Also without signed attributes: the signature is then directly over the content.
    const plain = tamperContent(await signCms(user, CHALLENGE, { signedAttributes: false }), 'another-challenge');
    await expectCode(verifySignedChallenge({ signedData: plain, trustedCas }), 'bad-signature');
  });

  it('refuses a corrupted signature value (bad-signature)', async () => {
    const signed = unwrapSignedData(await signCms(user, CHALLENGE, { signedAttributes: false }));
    const signature = new Uint8Array(signed.signerInfos[0]!.signature.valueBlock.valueHexView);
    signature[signature.length - 5] = signature[signature.length - 5]! ^ 0xff;
    signed.signerInfos[0]!.signature.valueBlock.valueHexView = signature;
    await expectCode(verifySignedChallenge({ signedData: wrapSignedData(signed), trustedCas }), 'bad-signature');
  });

  it('refuses SHA-1 digests', async () => {
    await expectCode(
      verifySignedChallenge({ signedData: await signCms(user, CHALLENGE, { hash: 'SHA-1' }), trustedCas }),
      'bad-signature',
    );
  });

  it('refuses a certificate from another CA, even one with the same name (untrusted)', async () => {
    const other = await createTestCa({ cn: 'Other CA' });
    const outsider = await issueUserCertificate(other, { tin: TIN, pinfl: PINFL, cn: 'OUTSIDER' });
    await expectCode(
      verifySignedChallenge({ signedData: await signCms(outsider, CHALLENGE), trustedCas }),
      'untrusted',
    );

    const impostorCa = await createTestCa({ cn: 'Test E-IMZO CA' });
    const impostor = await issueUserCertificate(impostorCa, { tin: TIN, pinfl: PINFL, cn: 'IMPOSTOR' });
    await expectCode(
      verifySignedChallenge({ signedData: await signCms(impostor, CHALLENGE), trustedCas }),
      'untrusted',
    );
    // ...and trusting nothing trusts nobody.
    await expectCode(
      verifySignedChallenge({ signedData: await signCms(user, CHALLENGE), trustedCas: [] }),
      'untrusted',
    );
  });

  it('refuses a certificate whose key usage does not allow signing (untrusted)', async () => {
    const encipherOnly = await issueUserCertificate(ca, {
      tin: TIN,
      pinfl: PINFL,
      cn: 'KEY ENCIPHERMENT ONLY',
      keyUsage: 0x20,
    });
    await expectCode(
      verifySignedChallenge({ signedData: await signCms(encipherOnly, CHALLENGE), trustedCas }),
      'untrusted',
    );
  });

  it('follows an intermediate CA carried in the CMS to the trusted root', async () => {
    const intermediate = await createTestCa({ cn: 'Test Intermediate CA', parent: ca });
    const leaf = await issueUserCertificate(intermediate, { tin: TIN, pinfl: PINFL, cn: 'VIA INTERMEDIATE' });
    await expect(
      verifySignedChallenge({ signedData: await signCms(leaf, CHALLENGE, { includeChain: true }), trustedCas }),
    ).resolves.toMatchObject({ fullName: 'VIA INTERMEDIATE' });
    await expectCode(verifySignedChallenge({ signedData: await signCms(leaf, CHALLENGE), trustedCas }), 'untrusted');
  });

  it('refuses an expired certificate and one not valid yet', async () => {
    const expired = await issueUserCertificate(ca, {
      tin: TIN,
      pinfl: PINFL,
      cn: 'EXPIRED',
      notBefore: new Date(Date.now() - 400 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    await expectCode(verifySignedChallenge({ signedData: await signCms(expired, CHALLENGE), trustedCas }), 'expired');

    const future = await issueUserCertificate(ca, {
      tin: TIN,
      pinfl: PINFL,
      cn: 'FUTURE',
      notBefore: new Date(Date.now() + DAY),
      notAfter: new Date(Date.now() + 400 * DAY),
    });
    await expectCode(
      verifySignedChallenge({ signedData: await signCms(future, CHALLENGE), trustedCas }),
      'not-yet-valid',
    );

    // `now` decides: the good certificate is expired two years from now.
    await expectCode(
      verifySignedChallenge({
        signedData: await signCms(user, CHALLENGE),
        trustedCas,
        now: new Date(Date.now() + 730 * DAY),
      }),
      'expired',
    );
  });

  it('refuses a certificate whose CA has expired', async () => {
    const oldCa = await createTestCa({
      cn: 'Old CA',
      notBefore: new Date(Date.now() - 800 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const holder = await issueUserCertificate(oldCa, { tin: TIN, pinfl: PINFL, cn: 'HOLDER' });
    await expectCode(
      verifySignedChallenge({ signedData: await signCms(holder, CHALLENGE), trustedCas: [oldCa.pem] }),
      'expired',
    );
  });

  it('refuses a TIN or PINFL the certificate does not carry (identity-mismatch)', async () => {
    const signedData = await signCms(user, CHALLENGE);
    await expectCode(
      verifySignedChallenge({ signedData, trustedCas, expected: { tin: '309999999' } }),
      'identity-mismatch',
    );
    await expectCode(
      verifySignedChallenge({ signedData, trustedCas, expected: { pinfl: '39999999999999' } }),
      'identity-mismatch',
    );
    await expectCode(
      verifySignedChallenge({ signedData, trustedCas, expected: { tin: TIN, pinfl: '39999999999999' } }),
      'identity-mismatch',
    );
    const noTin = await issueUserCertificate(ca, { pinfl: PINFL, cn: 'NO TIN' });
    await expectCode(
      verifySignedChallenge({ signedData: await signCms(noTin, CHALLENGE), trustedCas, expected: { tin: TIN } }),
      'identity-mismatch',
    );
  });

  it('reads TIN from UID and PINFL from serialNumber when the Uzbek OIDs are absent', async () => {
    const legacy = await issueUserCertificate(ca, { tin: TIN, pinfl: PINFL, cn: 'LEGACY LAYOUT', layout: 'fallback' });
    await expect(
      verifySignedChallenge({
        signedData: await signCms(legacy, CHALLENGE),
        trustedCas,
        expected: { tin: TIN, pinfl: PINFL },
      }),
    ).resolves.toMatchObject({ tin: TIN, pinfl: PINFL, fullName: 'LEGACY LAYOUT' });
  });

  it('verifies RSA signatures too', async () => {
    const rsaCa = await createTestCa({ cn: 'RSA CA', algorithm: 'RSA' });
    const rsaUser = await issueUserCertificate(rsaCa, { tin: TIN, pinfl: PINFL, cn: 'RSA USER' });
    await expect(
      verifySignedChallenge({ signedData: await signCms(rsaUser, CHALLENGE), trustedCas: [rsaCa.pem, ca.pem] }),
    ).resolves.toMatchObject({ tin: TIN, challenge: CHALLENGE });
  });

  it('calls garbage malformed', async () => {
    const cases = [
      '',
      'not base64 at all!!',
      Buffer.from('hello world').toString('base64'),
      Buffer.from([0x30, 0x82, 0xff, 0xff, 0x01]).toString('base64'),
      user.pem, // a certificate, not a SignedData
      'A'.repeat(300_000),
    ];
    for (const signedData of cases) await expectCode(verifySignedChallenge({ signedData, trustedCas }), 'malformed');
    await expectCode(verifySignedChallenge({ signedData: undefined as unknown as string, trustedCas }), 'malformed');
    // Truncated DER of a real signature.
    const good = Buffer.from(await signCms(user, CHALLENGE), 'base64');
    await expectCode(
      verifySignedChallenge({ signedData: good.subarray(0, good.length - 20).toString('base64'), trustedCas }),
      'malformed',
    );
    // No certificate included.
    const bare = unwrapSignedData(await signCms(user, CHALLENGE));
    delete bare.certificates;
    await expectCode(verifySignedChallenge({ signedData: wrapSignedData(bare), trustedCas }), 'malformed');
  });

  it('takes a PEM bundle of several CAs, and treats an unparsable trusted CA as a configuration error', async () => {
    const other = await createTestCa({ cn: 'Bundle neighbour CA' });
    const signedData = await signCms(user, CHALLENGE);
    await expect(verifySignedChallenge({ signedData, trustedCas: [other.pem + ca.pem] })).resolves.toMatchObject({
      tin: TIN,
    });
    const misconfigured = verifySignedChallenge({
      signedData,
      trustedCas: ['-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----'],
    });
    await expect(misconfigured).rejects.toThrow(/trusted CA/);
    await expect(misconfigured).rejects.not.toBeInstanceOf(SignatureError);
  });

  it('accepts base64url and PEM-armoured input', async () => {
    const signedData = await signCms(user, CHALLENGE);
    const der = Buffer.from(signedData, 'base64');
    await expect(verifySignedChallenge({ signedData: der.toString('base64url'), trustedCas })).resolves.toMatchObject({
      tin: TIN,
    });
    const pem = `-----BEGIN PKCS7-----\n${signedData.match(/.{1,64}/g)!.join('\n')}\n-----END PKCS7-----\n`;
    await expect(verifySignedChallenge({ signedData: pem, trustedCas })).resolves.toMatchObject({ tin: TIN });
  });
});

for (const { name, available } of backends())
  describe.skipIf(!available)(`challenge store on ${name}`, () => {
    let db: Queryable;
    let close: () => Promise<void> = async () => undefined;

    beforeAll(async () => {
      if (name === 'pglite') {
        // A bare in-memory PGlite behind a tiny Queryable adapter.
        const pg = new PGlite();
        db = {
          async query<T>(sql: string, params?: unknown[]) {
            const result = await pg.query<T>(sql, params);
            return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
          },
        };
        close = () => pg.close();
      } else {
        const target = await createTestDatabase();
        const database: Database = await createDatabase({ url: target.url, poolSize: 4 });
        db = database;
        close = async () => {
          await database.close();
          await target.drop();
        };
      }
      for (const statement of SIGNATURE_DDL) await db.query(statement);
      for (const statement of SIGNATURE_DDL) await db.query(statement); // idempotent
    });
    afterAll(async () => close());

    it('issues a 32-byte base64url challenge valid for 5 minutes', async () => {
      const store = createChallengeStore(db);
      const before = Date.now();
      const issued = await store.issue({ tin: TIN });
      expect(issued.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(issued.challenge, 'base64url')).toHaveLength(32);
      const ttl = Date.parse(issued.expiresAt) - before;
      expect(ttl).toBeGreaterThanOrEqual(CHALLENGE_TTL_MS - 1000);
      expect(ttl).toBeLessThanOrEqual(CHALLENGE_TTL_MS + 1000);
      expect((await store.issue()).challenge).not.toBe(issued.challenge);
    });

    it('consumes a challenge once and refuses reuse', async () => {
      const store = createChallengeStore(db);
      const { challenge, expiresAt } = await store.issue({ tin: TIN, pinfl: ' ' });
      const row = await store.consume(challenge);
      expect(row).toMatchObject({ challenge, tin: TIN, pinfl: null, expiresAt });
      expect(Date.parse(row!.usedAt)).not.toBeNaN();
      expect(await store.consume(challenge)).toBeUndefined();
    });

    it('lets only one of two concurrent consumers win', async () => {
      const store = createChallengeStore(db);
      const { challenge } = await store.issue({ pinfl: PINFL });
      const results = await Promise.all([store.consume(challenge), store.consume(challenge), store.consume(challenge)]);
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('refuses an expired challenge, and unknown or malformed ones', async () => {
      const store = createChallengeStore(db);
      const { challenge, expiresAt } = await store.issue();
      expect(await store.consume(challenge, new Date(Date.parse(expiresAt) + 1))).toBeUndefined();
      expect(await store.consume(challenge, new Date(Date.parse(expiresAt)))).toBeUndefined(); // expiry is exclusive
      expect(await store.consume('x'.repeat(43))).toBeUndefined();
      expect(await store.consume("'; DROP TABLE login_challenge; --")).toBeUndefined();

      const clock = { now: new Date('2030-01-01T00:00:00Z') };
      const clocked = createChallengeStore(db, { now: () => clock.now });
      const late = await clocked.issue();
      expect(late.expiresAt).toBe('2030-01-01T00:05:00.000Z');
      clock.now = new Date('2030-01-01T00:06:00Z');
      expect(await clocked.consume(late.challenge)).toBeUndefined();
      expect(await clocked.purgeExpired()).toBeGreaterThanOrEqual(1);
    });

    it('works end to end with a signature over an issued challenge', async () => {
      const ca = await createTestCa();
      const user = await issueUserCertificate(ca, { tin: TIN, pinfl: PINFL, cn: 'E2E USER' });
      const store = createChallengeStore(db);
      const { challenge } = await store.issue({ tin: TIN });
      const verified = await verifySignedChallenge({
        signedData: await signCms(user, challenge),
        trustedCas: [ca.pem],
        expected: { tin: TIN },
      });
      const row = await store.consume(verified.challenge);
      expect(row?.tin).toBe(verified.tin);
      expect(await store.consume(verified.challenge)).toBeUndefined();
    });
  });
