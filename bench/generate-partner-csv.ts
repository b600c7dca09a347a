import fs from 'node:fs';
import iconv from 'iconv-lite';
import { DUTCH_MONTH_NAMES } from '../common/date-format';

const FIRST = [
  'Anna',
  'Bram',
  'Chloë',
  'Daan',
  'Eva',
  'Finn',
  'Iñes',
  'Jesse',
  'Lotte',
  'Noël',
  'Sanne',
  'Thijs',
  'Zoë',
];
const PREP = ['', '', '', 'van', 'de', 'van der', 'ter'];
const LAST = [
  'Jansen',
  'de Vries',
  'Bakker',
  'Visser',
  'Smit',
  'Meijer',
  'Mulder',
  'Bos',
  'Vos',
  'Peters',
  'Hendriks',
];
const CITY = [
  'Amsterdam',
  'Rotterdam',
  'Den Haag',
  'Utrecht',
  'Zwolle',
  'Leeuwarden',
  '’s-Hertogenbosch',
  'Sint-Oedenrode',
  'Hengelo',
];
const GENDER = ['Man', 'Vrouw', 'man', 'VROUW', 'M', 'V', 'onbekend'];

/** The columns of the generated partner file, in order. */
export const BENCH_HEADERS = [
  'E-mail',
  'Voornaam',
  'Tussenvoegsel',
  'Achternaam',
  'Geslacht',
  'Geboortedatum',
  'Postcode',
  'Plaats',
  'Straat',
  'Huisnummer',
  'Telefoon',
  'Aangemeld',
];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * Writes a partner-like CSV of `rows` data rows to `file` in Windows-1252 with semicolons: 12
 * columns (postcode, dates as 'D MMMM YYYY' and 'YYYY/MM/DD HH:mm', genders to value-map), about
 * 0.5% invalid and 0.5% repeated e-mail addresses. `seed` varies the values (not the e-mails).
 * With `shuffled` the e-mail numbers are a permutation of the line numbers, so the file's order
 * is unrelated to its e-mails' order (as in most partner files); otherwise they follow it.
 */
export async function generatePartnerCsv(
  file: string,
  rows: number,
  seed = 1,
  shuffled = false,
): Promise<void> {
  // 7,919 is prime: i -> i * 7919 mod m is a permutation of 0..m-1 whenever 7919 does not divide m.
  const m = rows % 7919 === 0 ? rows + 1 : rows;
  const person = (i: number) => (shuffled ? Number((BigInt(i) * 7919n) % BigInt(m)) : i);
  const out = fs.createWriteStream(file);
  const write = (text: string) =>
    new Promise<void>((resolve) =>
      out.write(iconv.encode(text, 'win1252')) ? resolve() : out.once('drain', resolve),
    );
  await write(`${BENCH_HEADERS.join(';')}\r\n`);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const r = (Math.imul(i, 2654435761) + seed * 97) >>> 0;
    let email = `persoon${person(i)}@voorbeeld${i % 50}.nl`;
    if (i % 200 === 7) email = `geen-email-${i}`;
    if (i % 200 === 13) email = `PERSOON${person(i - 13)}@voorbeeld${(i - 13) % 50}.nl`;
    const born = `${1 + (r % 28)} ${DUTCH_MONTH_NAMES[r % 12]} ${1940 + (r % 65)}`;
    const optin = `${2015 + (r % 10)}/${pad(1 + (r % 12))}/${pad(1 + (r % 28))} ${pad(r % 24)}:${pad(r % 60)}`;
    const pc = `${1000 + (r % 9000)} ${String.fromCharCode(65 + (r % 26))}${String.fromCharCode(65 + ((r >>> 5) % 26))}`;
    chunk += `${email};${FIRST[r % FIRST.length]};${PREP[r % PREP.length]};${LAST[(r >>> 3) % LAST.length]};${GENDER[r % GENDER.length]};${born};${pc};"${CITY[(r >>> 7) % CITY.length]}";Dorpsstraat;${1 + (r % 200)};06${pad(r % 100000000, 8)};${optin}\r\n`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  await new Promise<void>((resolve) => out.end(resolve));
}
