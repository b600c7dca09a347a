// Exclude filters on RE2 (common/user-regex.ts) against JavaScript's own RegExp, per value, on
// typical filters and partner values: ns per test for each engine and their ratio. A figure to
// read, not a test: run with `npx tsx bench/user-regex.ts`.
import { compileUserRegex } from '../common/user-regex';

const FILTERS: [string, boolean][] = [
  ['^test', true],
  ['@example\\.(com|nl)$', false],
  ['^(onbekend|n\\.v\\.t\\.?|-)$', true],
  ['\\d{4}\\s?[a-z]{2}', true],
  ['^\\s*$', false],
];
const VALUES = Array.from(
  { length: 10_000 },
  (_, i) =>
    [`jan.jansen${i}@voorbeeld.nl`, `Straatweg ${i}`, `${1000 + (i % 9000)} AB`, 'onbekend', `Test ${i}`][
      i % 5
    ],
);

function nsPerTest(test: (v: string) => boolean): number {
  let hits = 0;
  for (const v of VALUES) if (test(v)) hits++; // warm-up
  const rounds = 50;
  const start = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (const v of VALUES) if (test(v)) hits++;
  const ns = Number(process.hrtime.bigint() - start) / (rounds * VALUES.length);
  return hits < 0 ? 0 : ns;
}

for (const [pattern, insensitive] of FILTERS) {
  const js = new RegExp(pattern, insensitive ? 'i' : '');
  const nsJs = nsPerTest((v) => js.test(v));
  const nsRe2 = nsPerTest(compileUserRegex(pattern, insensitive));
  console.log(
    `/${pattern}/${insensitive ? 'i' : ''}`.padEnd(34),
    `RegExp ${nsJs.toFixed(0).padStart(5)} ns`,
    `RE2 ${nsRe2.toFixed(0).padStart(6)} ns`,
    `×${(nsRe2 / nsJs).toFixed(1)}`,
  );
}
const evil = compileUserRegex('^(a+)+$');
const start = performance.now();
const matched = evil(`${'a'.repeat(100_000)}b`);
console.log(`/^(a+)+$/ on 100,000 a's and a b: ${matched} in ${(performance.now() - start).toFixed(1)} ms`);
