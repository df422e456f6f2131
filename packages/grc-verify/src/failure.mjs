// @ts-check
// A check that does not hold: which check, what was wrong, and where (the
// file, the audit event, what the bundle says against what was found), so
// that an auditor can point at it.

/**
 * @typedef {{ file?: string, eventId?: string, line?: number, expected?: string, found?: string }} FailureAt
 */

export class VerifyFailure extends Error {
  /**
   * @param {string} check the check that failed ('files', 'signature', …)
   * @param {string} message what was wrong, in a sentence
   * @param {FailureAt} [at]
   */
  constructor(check, message, at = {}) {
    super(message);
    this.name = 'VerifyFailure';
    this.check = check;
    this.at = at;
  }
}
