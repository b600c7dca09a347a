import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The texts we wrote ourselves are spelled right; the spec's own spelling stays where
// the spec writes it ('Campagne met success ...', 'Label ... is successvol verwijderd', 'An error
// occured ...', spec 000 §8). Each rule is a misspelling once found in our texts, with its fix.
const MISSPELLINGS: { wrong: RegExp; right: string; spec?: RegExp }[] = [
  { wrong: /\bsuccess\b/i, right: 'succesvol', spec: /^Campagne met success (aangemaakt|opgeslagen)$/ },
  {
    wrong: /\bsuccessvol\b/i,
    right: 'succesvol',
    spec: /^Label .* is successvol verwijderd$|^ is successvol verwijderd$/,
  },
  { wrong: /\bgebouncede\b/i, right: 'gebouncete (bouncen, bouncete, gebouncet)' },
  { wrong: /\bDNS check\b/, right: 'DNS-check (the title DNS Check is the spec’s)' },
  { wrong: /\bexport kolommen\b/, right: 'exportkolommen (the title Export kolommen is the spec’s)' },
  { wrong: /\bgeupload\b/i, right: 'geüpload' },
];

const ROOT = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test(-helpers)?\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

// The string literals and JSX text of a file, comments left out (they may quote a wrong spelling).
function textsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const texts: string[] = [];
  for (const m of code.matchAll(
    /'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`|>([^<>{}\n]*[A-Za-z][^<>{}\n]*)</g,
  ))
    texts.push((m[1] ?? m[2] ?? m[3] ?? '').replace(/\$\{[^}]*\}/g, ' ').trim());
  return texts;
}

describe('spelling of our own texts', () => {
  it('has none of the misspellings found before, outside the spec’s verbatim texts', () => {
    const found: string[] = [];
    for (const dir of ['web', 'common', 'server'])
      for (const file of sourceFiles(path.join(ROOT, dir)))
        for (const text of textsOf(fs.readFileSync(file, 'utf8')))
          for (const rule of MISSPELLINGS)
            if (rule.wrong.test(text) && !rule.spec?.test(text))
              found.push(`${path.relative(ROOT, file)}: '${text}' (${rule.right})`);
    expect(found).toEqual([]);
  });
});
