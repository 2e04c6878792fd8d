/**
 * Digital-signature (E-IMZO style CMS/PKCS#7) sign-in: one-time challenges and their
 * signature verification. See `challenge.ts` and `verify.ts`.
 */
export {
  CHALLENGE_TTL_MS, SIGNATURE_DDL, SIGNATURE_TABLES, createChallengeStore,
  type ChallengeRecord, type ChallengeStore, type ChallengeStoreOptions, type IssuedChallenge,
} from './challenge.ts';
export {
  SignatureError, parseTrustedCas, verifySignedChallenge,
  type SignatureErrorCode, type VerifiedSignature, type VerifySignedChallengeInput,
} from './verify.ts';
