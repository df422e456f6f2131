// An RFC 3161 timestamp of an evidence bundle's manifest (EVIDENCE_TSA_URL):
// a TimeStampReq for the SHA-256 of manifest.json's bytes, with a nonce and
// the authority's certificate asked for, POSTed as application/timestamp-query;
// the token of a granted answer is stored in the bundle as manifest.tsr. The
// token is checked to answer this request (it carries our digest and nonce);
// its signature is the verifier's to check (`npx grc-verify`, openssl ts).
// An authority that does not answer, or refuses, leaves the bundle without a
// token (logged, and the bundle's row says it is not timestamped) rather than
// without a bundle.
import crypto from 'node:crypto';
import { bool, children, int, nul, octets, oid, read, seq } from '../../core/der.js';

export const SHA256_OID = '2.16.840.1.101.3.4.2.1';
const TIMEOUT_MS = 15_000;

/** The DER TimeStampReq for a SHA-256 digest. */
export function timestampRequest(digest: Buffer, nonce: Buffer): Buffer {
  return seq(int(1), seq(seq(oid(SHA256_OID), nul()), octets(digest)), int(nonce), bool(true));
}

/** The token of a TimeStampResp, or why there is none. */
export function tokenOfResponse(body: Buffer): { token: Buffer } | { problem: string } {
  const [status, token] = children(read(body).content);
  if (!status) return { problem: 'an empty answer' };
  const code = children(status.content)[0];
  const granted = code && code.tag === 0x02 && code.content.length === 1 && (code.content[0] === 0 || code.content[0] === 1);
  if (!granted) return { problem: `status ${code ? code.content.toString('hex') : '?'} (not granted)` };
  if (!token) return { problem: 'no token in a granted answer' };
  return { token: Buffer.from(token.raw) };
}

/** Asks the authority at `url` to timestamp `digest`; the token (DER), or null when it could not be had. */
export async function requestTimestamp(url: string, digest: Buffer, log: (m: string) => void): Promise<Buffer | null> {
  const nonce = crypto.randomBytes(8);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
      body: new Uint8Array(timestampRequest(digest, nonce)),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const answer = tokenOfResponse(Buffer.from(await res.arrayBuffer()));
    if ('problem' in answer) throw new Error(answer.problem);
    // The token must be for this request: our digest and nonce inside its TSTInfo.
    const nonceDer = int(nonce).subarray(2);
    if (!answer.token.includes(digest) || !answer.token.includes(nonceDer)) throw new Error('the token is not for this request (digest or nonce missing)');
    return answer.token;
  } catch (err) {
    log(`evidence bundle: the timestamp authority ${url} gave no token (${(err as Error).message}); the bundle is written without one`);
    return null;
  }
}
