// Test-only: the English words staff must not see and the English the spec writes
// itself, which stays. Used by the label-table test (common/ui-language.test.ts) and by the journey
// that walks every screen (e2e/dutch-ui.spec.ts).

/**
 * English UI words, matched as whole words and case-sensitively: 'Type', 'Partner', 'Status',
 * 'Label', 'Upload', 'Download', 'Mapping', 'Blacklist' and 'Query' are Dutch as well, so they
 * are not here; the English phrases around them ('Upload complete') are.
 */
export const ENGLISH_UI_WORDS: readonly string[] = [
  'Add',
  'Apply',
  'Back',
  'Cancel',
  'Choose',
  'Clear',
  'Clicks',
  'Close',
  'Column',
  'Columns',
  'Complete',
  'Confirm',
  'Copy',
  'Could',
  'Create',
  'Created',
  'Date',
  'Delete',
  'Deleted',
  'Done',
  'Edit',
  'Error',
  'Failed',
  'File',
  'Files',
  'Hide',
  'Invalid',
  'Loading',
  'Login',
  'Logout',
  'Name',
  'Next',
  'None',
  'Number',
  'Opens',
  'Password',
  'Previous',
  'Refresh',
  'Remapped',
  'Remove',
  'Rows',
  'Save',
  'Saved',
  'Saving',
  'Search',
  'Select',
  'Settings',
  'Show',
  'Skipped',
  'Something',
  'String',
  'Submit',
  'Success',
  'Total',
  'Unable',
  'Unchanged',
  'Update',
  'Updated',
  'Uploading',
  'User',
  'Users',
  'Value',
  'Values',
  'Warning',
  'Yes',
  // Lower-case words that are labels in their own right (a type, a status, a counter).
  'busy',
  'clicks',
  'complete',
  'date',
  'deleted',
  'error',
  'failed',
  'idle',
  'loading',
  'number',
  'opens',
  'please',
  'required',
  'rows',
  'saved',
  'skipped',
  'string',
  'unchanged',
];

/**
 * English the spec writes itself (kept verbatim: spec 000 §8, spec 001 §2, §4, §8) and proper names.
 * The texts that are Dutch even though the spec wrote them in English
 * ('Upload complete' with its counters, 'Saved', 'Remapped', 'Failed to save', the Submit button,
 * the DNS 'Error'); those are not here.
 */
export const ALLOWED_ENGLISH: readonly string[] = [
  // spec 000 §5, §8
  'Partner id must be present',
  'Partner id may not be changed',
  'Unable to fetch partners',
  'Unable to fetch datasets',
  'Error while fetching partners',
  'An error occured while',
  'Could not save partner',
  'Could not save dataset',
  'Could not fetch types',
  'Error while uploading',
  'Failed to save mappings',
  'Mapping is encrypted',
  'An encrypted mapping cannot be edited',
  'No mapping for this field',
  'Failed to get value mappings',
  // spec 001 §2 (settings' test person, value-mapped: 'Loading...'; versions: 'Unknown'), §4, §8
  'Loading...',
  'Saving...',
  'Done!',
  'Unknown',
  'Unable to fetch attributes',
  'Unable to fetch predefined queries',
  'Unable to fetch campaigns',
  'Unable to fetch campaign',
  'Unable to fetch mailing',
  'Something went wrong, please try again later.',
  'Failed to parse CSV',
  // Proper names.
  'Partner API',
];

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Longest first, so 'Unable to fetch campaigns' goes before 'Unable to fetch campaign' leaves an 's'.
const ALLOWED = new RegExp(
  [...ALLOWED_ENGLISH]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegex)
    .join('|'),
  'gu',
);
const WORDS = new RegExp(
  `(?<![\\p{L}\\p{N}_])(?:${ENGLISH_UI_WORDS.map(escapeRegex).join('|')})(?![\\p{L}\\p{N}_])`,
  'gu',
);

/** One English word found in a text, with the text around it. */
export interface EnglishHit {
  word: string;
  context: string;
}

/** The English UI words in `text` after the allowed phrases are taken out; [] when there are none. */
export function englishWordsIn(text: string): EnglishHit[] {
  const cleaned = text.replace(ALLOWED, ' ');
  return [...cleaned.matchAll(WORDS)].map((m) => ({
    word: m[0],
    context: cleaned
      .slice(Math.max(0, m.index - 40), m.index + m[0].length + 40)
      .replace(/\s+/g, ' ')
      .trim(),
  }));
}
