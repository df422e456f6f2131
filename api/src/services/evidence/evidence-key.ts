// The installation's evidence signing key: an Ed25519 key pair generated once
// (the first bundle, or the first ask for the public key), its private half
// kept in admin_settings sealed like the other secrets (core/secret-box.ts
// under APP_SECRET or DATA_DIR/app-secret), never returned; the public half is
// published at /.well-known/grc-evidence-key and in every bundle. Instances
// starting together create it once: the first insert wins, the others read it.
// No administrator can set or replace it through the settings (it is not one
// of the settings the page may write).
import crypto from 'node:crypto';
import type { Config } from '../../config.js';
import { open, seal } from '../../core/secret-box.js';
import type { DbClient } from '../../core/types.js';
import { secretKey } from '../identity/settings.js';

export const EVIDENCE_SIGNING_KEY = 'evidence.signing_key';

export interface EvidenceKey {
  privateKey: crypto.KeyObject;
  /** The public key as PEM (SPKI). */
  publicKeyPem: string;
  /** SHA-256 (hex) of the public key's DER (SPKI): how a bundle names the key that signed it. */
  fingerprint: string;
}

const cache = new WeakMap<object, EvidenceKey>();

function keyOf(privatePem: string): EvidenceKey {
  const privateKey = crypto.createPrivateKey(privatePem);
  const publicKey = crypto.createPublicKey(privateKey);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    privateKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: crypto.createHash('sha256').update(der).digest('hex'),
  };
}

/** The installation's key, generated and stored on first use. */
export async function evidenceKey(db: DbClient, config: Config): Promise<EvidenceKey> {
  const cached = cache.get(db);
  if (cached) return cached;
  const box = secretKey(config);
  const existing = await db.adminSetting.findUnique({ where: { settingKey: EVIDENCE_SIGNING_KEY } });
  if (!existing) {
    const { privateKey } = crypto.generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await db.adminSetting.createMany({
      data: [
        {
          settingKey: EVIDENCE_SIGNING_KEY,
          settingValue: seal(box, pem, EVIDENCE_SIGNING_KEY),
          isEncrypted: true,
          description: 'The Ed25519 key that signs evidence bundles (generated once)',
        },
      ],
      skipDuplicates: true,
    });
  }
  const row = await db.adminSetting.findUniqueOrThrow({ where: { settingKey: EVIDENCE_SIGNING_KEY } });
  const pem = open(box, row.settingValue, EVIDENCE_SIGNING_KEY);
  if (!pem) throw new Error('The evidence signing key cannot be read: it was sealed under another APP_SECRET. Restore that secret to sign bundles.');
  const key = keyOf(pem);
  cache.set(db, key);
  return key;
}
