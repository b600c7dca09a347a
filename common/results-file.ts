import { z } from 'zod';
import { createDateParser } from './date-format';
import { RESULT_EVENTS } from './mailings';
import { BUSINESS_TIME_ZONE } from './pressure-date';

// DESIGN §6 results files, as the server reads them and the upload screen explains them: the
// columns (found by name, any letter case) and the forms of a date. A date form is a format of the
// import's date rule (common/date-format.ts: the tokens a mapping's date option takes), read as a
// wall-clock time in the business time zone. The server parses the same forms in SQL
// (server/features/mailings/results.sql.ts, generated from RESULT_DATE_FORMATS); a property test
// holds it to parseResultDate.

/** The columns of a results file: name, whether the file must have it, and what it holds (Dutch). */
export const RESULTS_COLUMNS = [
  { name: 'email', required: true, description: 'E-mailadres van de ontvanger' },
  {
    name: 'event',
    required: true,
    description: `${RESULT_EVENTS.slice(0, -1).join(', ')} of ${RESULT_EVENTS.at(-1)} (hoofdletters maken niet uit)`,
  },
  { name: 'date', required: true, description: 'Datum en tijd van het event, Nederlandse tijd' },
  { name: 'os', required: false, description: 'Besturingssysteem (mag ontbreken of leeg zijn)' },
] as const;

/**
 * The forms a results date may take (moment-style, as a mapping's date option): ISO with a space
 * or a T, and day-month-year with '-' or '/', each with the time to the second, to the minute or
 * none (midnight). Day, month, hour, minute and second may have one digit (Excel writes 1-2-2026 9:05).
 */
export const RESULT_DATE_FORMATS = [
  'YYYY-MM-DD HH:mm:ss',
  'YYYY-MM-DD HH:mm',
  'YYYY-MM-DD',
  'YYYY-MM-DDTHH:mm:ss',
  'YYYY-MM-DDTHH:mm',
  'DD-MM-YYYY HH:mm:ss',
  'DD-MM-YYYY HH:mm',
  'DD-MM-YYYY',
  'DD/MM/YYYY HH:mm:ss',
  'DD/MM/YYYY HH:mm',
  'DD/MM/YYYY',
] as const;

/** The time zone a results date is read in: a time without a zone is Dutch wall-clock time. */
export const RESULT_DATE_TIME_ZONE = BUSINESS_TIME_ZONE;

const PARSERS = RESULT_DATE_FORMATS.map((format) => createDateParser(format));

/**
 * A results date as the wall-clock text 'YYYY-MM-DD HH:mm:ss' (in RESULT_DATE_TIME_ZONE), or null
 * when it has none of the RESULT_DATE_FORMATS or is no real date and time. The forms never overlap
 * (a four-digit year leads or ends), so at most one reads a value.
 */
export function parseResultDate(value: string): string | null {
  for (const parse of PARSERS) {
    const parsed = parse(value);
    if (parsed !== null) return parsed;
  }
  return null;
}

const EXAMPLE_PARTS: Record<string, string> = {
  YYYY: '2026',
  MM: '11',
  DD: '28',
  HH: '11',
  mm: '24',
  ss: '05',
};

/** A date form written out for the upload screen: 'DD-MM-YYYY HH:mm' gives '28-11-2026 11:24'. */
export function resultDateExample(format: string): string {
  return format.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => EXAMPLE_PARTS[token]);
}

/** The counts of a results task's result, with their Dutch names, in the order they are shown. */
export const RESULTS_COUNTERS = [
  ['read', 'Gelezen regels'],
  ['saved', 'Nieuw opgeslagen'],
  ['unchanged', 'Al opgeslagen of dubbel'],
  ['skipped', 'Overgeslagen'],
] as const;

/** The counts of a results task's result (absent ones as 0). */
export const ResultsCountsSchema = z.object({
  read: z.number().default(0),
  saved: z.number().default(0),
  unchanged: z.number().default(0),
  skipped: z.number().default(0),
});
/** The counts of a results task's result, as ResultsCountsSchema parses them. */
export type ResultsCounts = z.infer<typeof ResultsCountsSchema>;

/** A task's result as results counts; all 0 when it holds none. */
export function resultsCountsOf(result: unknown): ResultsCounts {
  const parsed = ResultsCountsSchema.safeParse(result ?? {});
  return parsed.success ? parsed.data : ResultsCountsSchema.parse({});
}

/** The Dutch texts of the results upload screen of a mailing. */
export const ResultsFileMessages = {
  title: (mailing: string) => `Resultaten uploaden: ${mailing}`,
  intro:
    'Een CSV-bestand met een kopregel; het scheidingsteken (komma, puntkomma, tab of |) wordt herkend. Kolommen:',
  columnsLabel: 'Kolommen van een resultatenbestand',
  datesTitle: 'Datumvormen',
  dates:
    'Een datum zonder tijd telt als middernacht; dag, maand, uur, minuut en seconde mogen één cijfer hebben. Tijden zijn Nederlandse tijd.',
  datesLabel: 'Datumvormen van een resultatenbestand',
  required: 'verplicht',
  optional: 'optioneel',
  upload: 'Uploaden',
  done: 'Resultaten verwerkt',
  resultLabel: 'Resultaat van de upload',
} as const;
