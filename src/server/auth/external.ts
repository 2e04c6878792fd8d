import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { createChallengeStore, SignatureError, verifySignedChallenge } from './signature/index.ts';
import { logAttempt } from './throttle.ts';

/** Someone proven by a digital signature or by OneID. */
export interface ExternalIdentity {
  provider: 'signature' | 'oneid';
  pinfl?: string | undefined;
  tin?: string | undefined;
  fullName?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  middleName?: string | undefined;
}

/**
 * The trusted CA certificates for signature sign-in: the PEM texts given to buildApp, or the
 * bundle file named by SIGNATURE_TRUSTED_CAS. None → signature sign-in is switched off.
 */
export function trustedCas(app: FastifyInstance): string[] {
  if (app.config.signatureTrustedCas?.length) return app.config.signatureTrustedCas;
  const file = process.env.SIGNATURE_TRUSTED_CAS;
  if (!file) return [];
  return readFileSync(file, 'utf8')
    .split(/(?=-----BEGIN CERTIFICATE-----)/)
    .filter((p) => p.includes('BEGIN CERTIFICATE'));
}

type SignatureBody = {
  signedData: string;
  challenge?: string;
  TIN?: string;
  tin?: string;
  INN?: string;
  PNFL?: string;
  rememberMe?: boolean;
};

/**
 * Sign-in by a CMS signature over a one-time challenge (GET /api/key-for-login-sign): the
 * signature and the certificate chain are checked against the trusted CAs, the challenge is
 * used up, and the certificate's TIN/PINFL must match what the caller claims.
 */
export function createSignatureSignIn(
  app: FastifyInstance,
  provision: (identity: ExternalIdentity) => Promise<string | undefined>,
  payloadFor: (userId: string, remember: boolean) => Promise<unknown>,
) {
  const challenges = createChallengeStore(app.db);
  return async (request: FastifyRequest<{ Body: SignatureBody }>) => {
    const cas = trustedCas(app);
    if (!cas.length) throw new ApiError(400, 'errors.signatureNotConfigured');
    const body = request.body;
    const tin = body.TIN ?? body.tin ?? body.INN;
    const pinfl = body.PNFL;
    const who = pinfl ?? tin ?? 'signature';
    try {
      // A detached signature (made by an external signing tool) comes with the challenge it signs.
      const verified = await verifySignedChallenge({
        signedData: body.signedData,
        challenge: body.challenge,
        trustedCas: cas,
        expected: { ...(tin ? { tin } : {}), ...(pinfl ? { pinfl } : {}) },
      });
      const challenge = await challenges.consume(verified.challenge);
      if (!challenge) throw new SignatureError('malformed', 'unknown, used or expired challenge');
      if (
        (challenge.tin && challenge.tin !== verified.tin && challenge.tin !== verified.personalTin) ||
        (challenge.pinfl && challenge.pinfl !== verified.pinfl)
      ) {
        throw new SignatureError('identity-mismatch', 'the challenge was issued for someone else');
      }
      const userId = await provision({
        provider: 'signature',
        pinfl: verified.pinfl,
        tin: verified.personalTin ?? verified.tin,
        fullName: verified.fullName,
      });
      if (!userId) throw new SignatureError('identity-mismatch', 'no account may sign in with this certificate');
      await logAttempt(
        app.db,
        { username: who, ip: request.ip, outcome: 'ok', method: 'signature' },
        app.config.clock(),
      );
      return payloadFor(userId, body.rememberMe === true);
    } catch (error) {
      if (!(error instanceof SignatureError)) throw error;
      await logAttempt(
        app.db,
        { username: who, ip: request.ip, outcome: 'bad-credentials', method: 'signature' },
        app.config.clock(),
      );
      // The reason is worth telling: an expired certificate or a wrong key file is the user's to fix.
      throw new ApiError(401, `errors.signatureReasons.${error.code}`, { details: { code: error.code } });
    }
  };
}
