// A real RFC 3161 timestamp authority on loopback for the tests: it answers a
// TimeStampReq (POST, application/timestamp-query) with a granted
// TimeStampResp whose token is a CMS SignedData over a TSTInfo (our policy, the
// request's message imprint and nonce, a serial, the time), signed with ECDSA
// P-256 / SHA-256 by a self-signed certificate it generates at start
// (extended key usage timeStamping, critical, as RFC 3161 asks), carried in
// the token with a signingCertificateV2 attribute. `openssl ts -verify
// -digest <hex> -in token -token_in -CAfile <certificatePem>` accepts its
// tokens. `readToken` takes a token apart for the tests' own checks.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bitString, bool, children, explicit, generalizedTime, implicit, int, nul, octets, oid, read, seq, set, utcTime, utf8 } from '../../../src/core/der.js';

const OID = {
  sha256: '2.16.840.1.101.3.4.2.1',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  /** A policy of the tests' own (the private enterprise arc for documentation). */
  policy: '1.3.6.1.4.1.32473.1.1',
};

export interface TestTsa {
  url: string;
  /** The authority's certificate (PEM), to verify its tokens. */
  certificatePem: string;
  publicKey: crypto.KeyObject;
  /** Requests answered so far. */
  answered: number;
  close(): Promise<void>;
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest();

function certificate(key: crypto.KeyObject, pub: crypto.KeyObject, serial: Buffer): { der: Buffer; name: Buffer } {
  const name = seq(set(seq(oid(OID.commonName), utf8('GRC test timestamp authority'))));
  const now = Date.now();
  const tbs = seq(
    explicit(0, int(2)),
    int(serial),
    seq(oid(OID.ecdsaSha256)),
    name,
    seq(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 365 * 86400_000))),
    name,
    pub.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(seq(oid(OID.extKeyUsage), bool(true), octets(seq(oid(OID.timeStamping)))))),
  );
  return { der: seq(tbs, seq(oid(OID.ecdsaSha256)), bitString(crypto.sign('sha256', tbs, key))), name };
}

/** The TimeStampResp for a DER TimeStampReq. */
function answer(req: Buffer, key: crypto.KeyObject, cert: { der: Buffer; name: Buffer }, certSerial: Buffer): Buffer {
  const fields = children(read(req).content);
  const imprint = fields[1]!;
  const nonce = fields.slice(2).find((f) => f.tag === 0x02);
  const tstInfo = seq(int(1), oid(OID.policy), imprint.raw, int(crypto.randomBytes(8)), generalizedTime(new Date()), ...(nonce ? [nonce.raw] : []));
  const attrs = set(
    seq(oid(OID.contentType), set(oid(OID.tstInfo))),
    seq(oid(OID.messageDigest), set(octets(sha256(tstInfo)))),
    seq(oid(OID.signingCertificateV2), set(seq(seq(seq(octets(sha256(cert.der))))))),
  );
  const signerInfo = seq(
    int(1),
    seq(cert.name, int(certSerial)),
    seq(oid(OID.sha256), nul()),
    implicit(0, attrs),
    seq(oid(OID.ecdsaSha256)),
    octets(crypto.sign('sha256', attrs, key)),
  );
  const signedData = seq(
    int(3),
    set(seq(oid(OID.sha256), nul())),
    seq(oid(OID.tstInfo), explicit(0, octets(tstInfo))),
    implicit(0, set(cert.der)),
    set(signerInfo),
  );
  return seq(seq(int(0)), seq(oid(OID.signedData), explicit(0, signedData)));
}

export async function startTsa(): Promise<TestTsa> {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const certSerial = crypto.randomBytes(8);
  const cert = certificate(privateKey, publicKey, certSerial);
  const tsa = { answered: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') throw new Error('not a timestamp query');
        const body = answer(Buffer.concat(chunks), privateKey, cert, certSerial);
        tsa.answered++;
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body);
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end((err as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const b64 = cert.der.toString('base64').replace(/(.{64})/g, '$1\n');
  return Object.assign(tsa, {
    url: `http://127.0.0.1:${port}/tsa`,
    certificatePem: `-----BEGIN CERTIFICATE-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`,
    publicKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A token's parts: the TSTInfo's message imprint digest, the signed attributes (as signed: a SET) and the signature. */
export function readToken(token: Buffer): { digest: Buffer; tstInfo: Buffer; signedAttrs: Buffer; signature: Buffer; messageDigest: Buffer } {
  const [, signedDataWrap] = children(read(token).content);
  const signedData = children(read(signedDataWrap!.content).content);
  const encap = children(signedData[2]!.content);
  const tstInfo = read(encap[1]!.content).content;
  const imprint = children(children(read(tstInfo).content)[2]!.content);
  const signerInfos = children(signedData[signedData.length - 1]!.content);
  const si = children(signerInfos[0]!.content);
  const attrsImplicit = si.find((e) => e.tag === 0xa0)!;
  const signedAttrs = Buffer.concat([Buffer.from([0x31]), attrsImplicit.raw.subarray(1)]);
  const md = children(attrsImplicit.content)
    .map((a) => children(a.content))
    .find(([o]) => o!.raw.equals(oid(OID.messageDigest)))!;
  return {
    digest: Buffer.from(imprint[1]!.content),
    tstInfo: Buffer.from(tstInfo),
    signedAttrs,
    signature: Buffer.from(si[si.length - 1]!.content),
    messageDigest: Buffer.from(children(md[1]!.content)[0]!.content),
  };
}
