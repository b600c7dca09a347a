// The relative dates of a date line in words: staff type 'vandaag', '30 dagen geleden' or 'over 2
// maanden' where the query keeps the engine's relative bound (NOW, NOW-30DAYS, NOW+2MONTHS;
// common/date-math.ts). A date (DD-MM-JJJJ) and any other text stay as typed.

const UNIT_WORDS: Record<string, 'DAYS' | 'MONTHS' | 'YEARS' | 'WEEKS'> = {
  dag: 'DAYS',
  dagen: 'DAYS',
  week: 'WEEKS',
  weken: 'WEEKS',
  maand: 'MONTHS',
  maanden: 'MONTHS',
  jaar: 'YEARS',
  jaren: 'YEARS',
};
const NAMES: Record<string, [string, string]> = {
  DAY: ['dag', 'dagen'],
  MONTH: ['maand', 'maanden'],
  YEAR: ['jaar', 'jaar'],
};

const AGO = /^(\d{1,6})\s*([a-z]+)\s+geleden$/;
const AHEAD = /^over\s+(\d{1,6})\s*([a-z]+)$/;

/**
 * A date bound as the query keeps it, from what staff typed: 'vandaag' → NOW, '30 dagen geleden' →
 * NOW-30DAYS, 'over 2 weken' → NOW+14DAYS, '1 jaar geleden' → NOW-1YEARS; other text trimmed, as typed.
 */
export function dateBoundOfWords(text: string): string {
  const typed = text.trim();
  const words = typed.toLowerCase().replace(/\s+/g, ' ');
  if (words === 'vandaag') return 'NOW';
  const ago = AGO.exec(words);
  const found = ago ?? AHEAD.exec(words);
  const unit = found ? UNIT_WORDS[found[2]] : undefined;
  if (!found || !unit) return typed;
  const sign = ago ? '-' : '+';
  const n = Number(found[1]);
  return unit === 'WEEKS' ? `NOW${sign}${n * 7}DAYS` : `NOW${sign}${n}${unit}`;
}

/**
 * A date bound in the words dateBoundOfWords reads: NOW → 'vandaag', NOW-30DAYS → '30 dagen
 * geleden', NOW+1YEAR → 'over 1 jaar'; a bound with another unit or a rounding stays as it is.
 */
export function dateBoundInWords(bound: string): string {
  const text = bound.trim().toUpperCase();
  if (text === 'NOW') return 'vandaag';
  const step = /^NOW([+-])(\d{1,6})(DAY|MONTH|YEAR)S?$/.exec(text);
  if (!step) return bound;
  const n = Number(step[2]);
  const [one, many] = NAMES[step[3]];
  const amount = `${n} ${n === 1 ? one : many}`;
  return step[1] === '-' ? `${amount} geleden` : `over ${amount}`;
}
