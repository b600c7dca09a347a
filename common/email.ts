// The one rule for a usable e-mail address (DESIGN §4): imports, the partner API, blacklists and
// every form call these functions. The WHATWG HTML rule of `<input type=email>`, with Unicode
// letters allowed (in the local part and in domain labels), and stricter where mail servers are:
// no leading, trailing or double dot, no empty or hyphen-edged domain label (at most 63
// characters), a dot in the domain, a last label of at least two letters or an `xn--` label, and
// at most 254 characters in all.

/** The longest e-mail address taken (RFC 5321's path limit less the angle brackets). */
export const EMAIL_MAX_LENGTH = 254;

const ATEXT = "[\\p{L}\\p{M}0-9!#$%&'*+/=?^_`{|}~-]";
const LABEL_CHAR = '[\\p{L}\\p{M}0-9]';
const LABEL = `${LABEL_CHAR}(?:[\\p{L}\\p{M}0-9-]{0,61}${LABEL_CHAR})?`;
const LAST_LABEL = '(?:\\p{L}[\\p{L}\\p{M}]{1,62}|xn--[a-z0-9](?:[a-z0-9-]{0,57}[a-z0-9])?)';
// Linear in practice: dots separate the local part's atoms and the labels, so each repeat has one way to match.
const EMAIL_RE = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*@(?:${LABEL}\\.)+${LAST_LABEL}$`, 'iu');

/** Whether `email`, exactly as given (no trimming), is a usable e-mail address; any letter case. */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_RE.test(email);
}

/** The stored form of an e-mail address (DESIGN §4): trimmed and lower-cased; null when not usable. */
export function normalizeEmail(value: string | null | undefined): string | null {
  const email = value?.trim().toLowerCase();
  return email && isValidEmail(email) ? email : null;
}
