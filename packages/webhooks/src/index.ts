export { computeSignature, signatureHeader, verifySignature, type VerifyOptions, type VerifyResult, type VerifyFailure } from './signature.js';
export { checkTargetUrl, guardedLookup, isBlockedAddress, type SsrfPolicy, type Resolver } from './ssrf.js';
