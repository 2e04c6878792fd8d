/**
 * Digital-signature (E-IMZO style CMS/PKCS#7) sign-in: one-time challenges and their
 * signature verification. See `challenge.ts`, `verify.ts` (the CMS signature) and
 * `certificate.ts` (the signer's chain and identity).
 */
export {
  CHALLENGE_TTL_MS,
  SIGNATURE_DDL,
  SIGNATURE_TABLES,
  createChallengeStore,
  type ChallengeRecord,
  type ChallengeStore,
  type ChallengeStoreOptions,
  type IssuedChallenge,
} from './challenge.ts';
export { parseTrustedCas } from './certificate.ts';
export { SignatureError, type SignatureErrorCode } from './signature-error.ts';
export { verifySignedChallenge, type VerifiedSignature, type VerifySignedChallengeInput } from './verify.ts';
