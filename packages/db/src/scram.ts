import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

/**
 * The SCRAM-SHA-256 verifier of a password, as PostgreSQL stores it (`pg_authid.rolpassword`).
 * `ALTER ROLE … PASSWORD '<verifier>'` sets the password without the plaintext ever reaching the
 * server (or its logs). The password must be ASCII (SASLprep leaves it as it is): ours are base64url.
 */
export function scramSha256Verifier(password: string, iterations = 4096): string {
  if (!/^[\x20-\x7e]*$/.test(password)) throw new Error('scramSha256Verifier: the password must be printable ASCII');
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
