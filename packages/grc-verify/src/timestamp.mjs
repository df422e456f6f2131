// @ts-check
// The RFC 3161 timestamp of the manifest: a TSA signed, at a time, that it
// saw manifest.json's hash. Checked here: the token's message imprint is the
// hash of manifest.json's bytes; its CMS signature (RFC 5652) verifies under
// the certificate the token carries, over signed attributes whose
// messageDigest is the hash of the TSTInfo and whose signing-certificate
// attribute, when present, names that certificate; the certificate is meant
// for timestamping and was valid at the token's time. Whether that TSA is
// one to trust is the auditor's call: its subject and fingerprint are shown.
import crypto from 'node:crypto';
import { TAG, DerError, parseDer, children, expect, oidOf, smallInt, generalizedTime } from './der.mjs';
import { VerifyFailure } from './failure.mjs';

const OID = Object.freeze({
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  subjectKeyIdentifier: '2.5.29.14',
  timeStamping: '1.3.6.1.5.5.7.3.8',
});

/** Digest algorithms by OID, as node:crypto names them. */
const DIGESTS = /** @type {Record<string, string>} */ ({
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
});

/** Signature algorithms by OID: the digest they sign with (null: the SignerInfo's digest algorithm; '' none, Ed25519). */
const SIGNATURES = /** @type {Record<string, string | null>} */ ({
  '1.2.840.113549.1.1.1': null, // rsaEncryption
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.2.1': null, // id-ecPublicKey, as some signers name ECDSA
  '1.2.840.10045.4.3.2': 'sha256', // ecdsa-with-SHA256
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': '', // Ed25519
});

/**
 * @typedef {{ genTime: string, imprintAlgorithm: string, tsa: string, certificateSha256: string, serialNumber: string }} TimestampFacts
 */

/**
 * @param {string} file
 * @param {string} message
 * @param {import('./failure.mjs').FailureAt} [at]
 */
const fail = (file, message, at = {}) => new VerifyFailure('timestamp', message, { file, ...at });

/**
 * The digest named by an AlgorithmIdentifier.
 * @param {import('./der.mjs').DerNode | undefined} algId
 */
function digestOf(algId) {
  const oid = oidOf(/** @type {import('./der.mjs').DerNode} */ (children(expect(algId, TAG.SEQUENCE, 'algorithm'))[0]));
  const name = DIGESTS[oid];
  if (!name) throw new DerError(`unsupported digest algorithm ${oid}`);
  return name;
}

/**
 * The token (ContentInfo) inside the file: a TimeStampResp as the TSA sent it, or the token itself.
 * @param {Buffer} bytes
 */
function tokenOf(bytes) {
  const root = expect(parseDer(bytes), TAG.SEQUENCE, 'timestamp file');
  const [first, second] = children(root);
  if (first?.tag === TAG.OID) return root;
  const status = smallInt(/** @type {import('./der.mjs').DerNode} */ (children(expect(first, TAG.SEQUENCE, 'PKIStatusInfo'))[0]));
  if (status !== 0 && status !== 1) throw new DerError(`the TSA refused the request (status ${status})`);
  return expect(second, TAG.SEQUENCE, 'timeStampToken');
}

/**
 * SignedData's parts: the TSTInfo bytes, the certificates, the one SignerInfo.
 * @param {import('./der.mjs').DerNode} token
 */
function signedDataOf(token) {
  const [type, content] = children(token);
  if (oidOf(expect(type, TAG.OID, 'contentType')) !== OID.signedData) throw new DerError('the token is not CMS SignedData');
  const sd = children(expect(children(expect(content, TAG.CTX0, 'content'))[0], TAG.SEQUENCE, 'SignedData'));
  const encap = children(expect(sd[2], TAG.SEQUENCE, 'encapContentInfo'));
  if (oidOf(expect(encap[0], TAG.OID, 'eContentType')) !== OID.tstInfo) throw new DerError('the token does not hold a TSTInfo');
  const eContent = expect(children(expect(encap[1], TAG.CTX0, 'eContent'))[0], TAG.OCTET_STRING, 'eContent').content;
  const rest = sd.slice(3);
  const certs = rest[0]?.tag === TAG.CTX0 ? children(rest[0]).filter((c) => c.tag === TAG.SEQUENCE) : [];
  const signerInfos = children(expect(rest[rest.length - 1], TAG.SET, 'signerInfos'));
  if (signerInfos.length !== 1) throw new DerError(`the token has ${signerInfos.length} signers, not one`);
  return { eContent, certs, signerInfo: /** @type {import('./der.mjs').DerNode} */ (signerInfos[0]) };
}

/**
 * The TSTInfo's facts: the imprint's algorithm and hash, the time, the serial number.
 * @param {Buffer} eContent
 */
function tstInfoOf(eContent) {
  const t = children(expect(parseDer(eContent), TAG.SEQUENCE, 'TSTInfo'));
  const imprint = children(expect(t[2], TAG.SEQUENCE, 'messageImprint'));
  return {
    algorithm: digestOf(imprint[0]),
    hashed: expect(imprint[1], TAG.OCTET_STRING, 'hashedMessage').content,
    serialNumber: expect(t[3], TAG.INTEGER, 'serialNumber').content.toString('hex'),
    genTime: generalizedTime(/** @type {import('./der.mjs').DerNode} */ (t[4])),
  };
}

/**
 * Does this certificate (DER) match the SignerInfo's sid: issuer and serial number, or subject key identifier?
 * @param {import('./der.mjs').DerNode} cert
 * @param {import('./der.mjs').DerNode} sid
 */
function isSigner(cert, sid) {
  const tbs = children(expect(children(cert)[0], TAG.SEQUENCE, 'tbsCertificate'));
  const fields = tbs[0]?.tag === TAG.CTX0 ? tbs.slice(1) : tbs; // [0] version
  if (sid.tag === TAG.SEQUENCE) {
    const [issuer, serial] = children(sid);
    return (
      !!issuer && !!serial && issuer.bytes.equals(/** @type {Buffer} */ (fields[2]?.bytes)) && serial.bytes.equals(/** @type {Buffer} */ (fields[0]?.bytes))
    );
  }
  if (sid.tag !== TAG.CTX0_PRIMITIVE) throw new DerError('unknown signer identifier');
  const extensions = fields.find((f) => f.tag === 0xa3);
  if (!extensions) return false;
  for (const ext of children(expect(children(extensions)[0], TAG.SEQUENCE, 'extensions'))) {
    const parts = children(ext);
    if (parts[0] && oidOf(parts[0]) === OID.subjectKeyIdentifier) {
      const ski = parseDer(expect(parts[parts.length - 1], TAG.OCTET_STRING, 'extnValue').content);
      return ski.content.equals(sid.content);
    }
  }
  return false;
}

/**
 * The signed attributes' values by OID (the first value of each).
 * @param {import('./der.mjs').DerNode} signedAttrs
 */
function attributesOf(signedAttrs) {
  /** @type {Map<string, import('./der.mjs').DerNode>} */
  const out = new Map();
  for (const attr of children(signedAttrs)) {
    const [type, values] = children(expect(attr, TAG.SEQUENCE, 'attribute'));
    const oid = oidOf(expect(type, TAG.OID, 'attribute type'));
    if (out.has(oid)) throw new DerError(`attribute ${oid} appears twice`);
    const first = children(expect(values, TAG.SET, 'attribute values'))[0];
    if (first) out.set(oid, first);
  }
  return out;
}

/**
 * The hash a signing-certificate attribute gives its first certificate: [digest, hash], or undefined without one.
 * @param {Map<string, import('./der.mjs').DerNode>} attrs
 * @returns {[string, Buffer] | undefined}
 */
function signingCertHash(attrs) {
  const v2 = attrs.get(OID.signingCertificateV2);
  const v1 = attrs.get(OID.signingCertificate);
  const attr = v2 ?? v1;
  if (!attr) return undefined;
  const certId = children(expect(children(expect(attr, TAG.SEQUENCE, 'SigningCertificate'))[0], TAG.SEQUENCE, 'certs'))[0];
  const parts = children(expect(certId, TAG.SEQUENCE, 'ESSCertID'));
  if (!v2) return ['sha1', expect(parts[0], TAG.OCTET_STRING, 'certHash').content];
  // ESSCertIDv2: hashAlgorithm DEFAULT sha256, then certHash.
  if (parts[0]?.tag === TAG.SEQUENCE) return [digestOf(parts[0]), expect(parts[1], TAG.OCTET_STRING, 'certHash').content];
  return ['sha256', expect(parts[0], TAG.OCTET_STRING, 'certHash').content];
}

/**
 * Checks the SignerInfo against the TSTInfo and the token's certificates; the signer's certificate.
 * @param {string} file
 * @param {{ eContent: Buffer, certs: import('./der.mjs').DerNode[], signerInfo: import('./der.mjs').DerNode }} sd
 */
function checkSigner(file, sd) {
  const si = children(sd.signerInfo);
  const sid = /** @type {import('./der.mjs').DerNode} */ (si[1]);
  const digest = digestOf(si[2]);
  const signedAttrs = expect(si[3], TAG.CTX0, 'signedAttrs');
  const sigAlg = oidOf(/** @type {import('./der.mjs').DerNode} */ (children(expect(si[4], TAG.SEQUENCE, 'signatureAlgorithm'))[0]));
  const signature = expect(si[5], TAG.OCTET_STRING, 'signature').content;
  const attrs = attributesOf(signedAttrs);
  const contentType = attrs.get(OID.contentType);
  if (!contentType || oidOf(contentType) !== OID.tstInfo) throw fail(file, "the token's signed content type is not TSTInfo");
  const messageDigest = expect(attrs.get(OID.messageDigest), TAG.OCTET_STRING, 'messageDigest').content;
  const tstDigest = crypto.createHash(digest).update(sd.eContent).digest();
  if (!messageDigest.equals(tstDigest)) {
    throw fail(file, "the token's signed attributes do not match its TSTInfo (messageDigest)", {
      expected: tstDigest.toString('hex'),
      found: messageDigest.toString('hex'),
    });
  }
  const certNode = sd.certs.find((c) => isSigner(c, sid));
  if (!certNode) throw fail(file, 'the token does not carry the certificate of its signer');
  const cert = new crypto.X509Certificate(certNode.bytes);
  const named = signingCertHash(attrs);
  if (named) {
    const actual = crypto.createHash(named[0]).update(certNode.bytes).digest();
    if (!actual.equals(named[1]))
      throw fail(file, "the token's certificate is not the one its signature names", { expected: named[1].toString('hex'), found: actual.toString('hex') });
  }
  if (!(sigAlg in SIGNATURES)) throw fail(file, `unsupported signature algorithm ${sigAlg}`);
  const sigDigest = SIGNATURES[sigAlg] === null ? digest : SIGNATURES[sigAlg] || null;
  // The signature covers the signed attributes' DER with the SET OF tag, not the [0] they are stored under.
  const signed = Buffer.concat([Buffer.from([TAG.SET]), signedAttrs.bytes.subarray(1)]);
  if (!crypto.verify(sigDigest, signed, { key: cert.publicKey, dsaEncoding: 'der' }, signature)) {
    throw fail(file, "the token's signature does not verify under its certificate", { found: cert.fingerprint256 });
  }
  return cert;
}

/**
 * Checks the timestamp file against manifest.json's bytes.
 * @param {string} file the token's name in the ZIP
 * @param {Buffer} tokenBytes
 * @param {Buffer} manifestBytes
 * @returns {TimestampFacts}
 */
export function checkTimestamp(file, tokenBytes, manifestBytes) {
  try {
    return checkToken(file, tokenBytes, manifestBytes);
  } catch (e) {
    // A token that cannot be read (bad DER, a certificate Node cannot parse, a key unfit for its algorithm) fails as such.
    if (e instanceof VerifyFailure) throw e;
    throw fail(file, `${file} is not a readable RFC 3161 token: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * @param {string} file
 * @param {Buffer} tokenBytes
 * @param {Buffer} manifestBytes
 * @returns {TimestampFacts}
 */
function checkToken(file, tokenBytes, manifestBytes) {
  const sd = signedDataOf(tokenOf(tokenBytes));
  const tst = tstInfoOf(sd.eContent);
  const expected = crypto.createHash(tst.algorithm).update(manifestBytes).digest();
  if (!expected.equals(tst.hashed)) {
    throw fail(file, `the token timestamps another ${tst.algorithm.toUpperCase()} than manifest.json's`, {
      expected: expected.toString('hex'),
      found: tst.hashed.toString('hex'),
    });
  }
  const cert = checkSigner(file, sd);
  const at = Date.parse(tst.genTime);
  if (at < Date.parse(cert.validFrom) || at > Date.parse(cert.validTo)) {
    throw fail(file, "the TSA's certificate was not valid at the token's time", { expected: `${cert.validFrom} – ${cert.validTo}`, found: tst.genTime });
  }
  // RFC 3161 2.3: a TSA's certificate carries the one extended key usage id-kp-timeStamping (Node 20 calls the list keyUsage).
  const usages = /** @type {{ extKeyUsage?: string[], keyUsage?: string[] }} */ (cert).extKeyUsage ?? cert.keyUsage;
  if (!Array.isArray(usages) || !usages.includes(OID.timeStamping))
    throw fail(file, "the token's certificate is not meant for timestamping (extended key usage)");
  return {
    genTime: tst.genTime,
    imprintAlgorithm: tst.algorithm,
    tsa: cert.subject.split('\n').join(', '),
    certificateSha256: cert.fingerprint256.replaceAll(':', '').toLowerCase(),
    serialNumber: tst.serialNumber,
  };
}
