import { z } from 'zod';
import { AvgLookupQuerySchema } from './avg';

// The AVG (GDPR) art. 17 erasure: one address from the look-up screen, or a file of addresses as a
// task. What goes and what stays (DESIGN §7 Erasure, docs/decisions.md, AVG erasure):
// - goes: the address's records in every dataset, its enrichment values, its rows in selections'
//   line files and in import skipped-row files, and its place in every mailing not yet offered
//   (draft or final: it will not be sent); the test persons with its e-mail (a dataset's, and the
//   settings' one is emptied): entered by staff, but the request is the person's;
// - stays, pseudonymised: its place in mailings already offered or cancelled, with their results,
//   so those mailings keep their counts and history; the address row keeps only its id and what
//   the pressure rule reads (sent count, last sent), its e-mail replaced and its behaviour cleared;
// - stays: blacklist entries (they keep the address out as well);
// - is added: a suppression entry, only a keyed hash of the e-mail, by which every way in skips
//   the address under the reason 'AVG-verwijderd'.

/** The Dutch texts of the erasure. */
export const AvgErasureMessages = {
  erase: 'Verwijderen',
  confirmTitle: 'Adres definitief verwijderen',
  confirmIntro: (email: string) => `Alles wat we over ${email} bewaren wordt definitief verwijderd:`,
  confirmRecords: (records: number, datasets: number) =>
    `${records} ${records === 1 ? 'record' : 'records'} in ${datasets} ${datasets === 1 ? 'bestand' : 'bestanden'}`,
  confirmEnrichment: (files: number) =>
    `verrijkingswaarden uit ${files} ${files === 1 ? 'verrijkingsbestand' : 'verrijkingsbestanden'}`,
  confirmOpenMailings: (mailings: number) =>
    `de plaats in ${mailings} ${mailings === 1 ? 'mailing' : 'mailings'} die nog niet ${mailings === 1 ? 'is' : 'zijn'} aangeboden`,
  confirmSentMailings: (mailings: number) =>
    `${mailings} aangeboden of geannuleerde ${mailings === 1 ? 'mailing houdt' : 'mailings houden'} ${mailings === 1 ? 'haar' : 'hun'} aantallen en resultaten; het adres wordt daarin onherkenbaar gemaakt`,
  confirmMentions: (records: number) =>
    `het adres in een versleutelde e-mailkolom van ${records} ${records === 1 ? 'record' : 'records'} van andere adressen (de rest van ${records === 1 ? 'dat record blijft' : 'die records blijven'})`,
  confirmTestPersons: (where: string[]) =>
    `het adres als testpersoon (${where.join(', ')}): de testpersoon wordt verwijderd`,
  confirmNothingHeld: 'We bewaren niets over dit adres.',
  confirmBlacklists: 'Vermeldingen op een blacklist blijven staan.',
  confirmSuppression:
    'Het adres komt daarna niet meer binnen via uploads, de partner-API, verrijking of regelbestanden (reden: AVG-verwijderd).',
  confirmButton: 'Definitief verwijderen',
  erased: (email: string) => `${email} is verwijderd en wordt voortaan geweerd.`,
  erasedTestPersons: (n: number) =>
    `Ook ${n === 1 ? '1 testpersoon' : `${n} testpersonen`} met dit adres verwijderd.`,
  alreadyErased: (date: string) => `Dit adres is op ${date} verwijderd (AVG) en wordt geweerd.`,
  busy: 'Er loopt nu een upload of import; verwijderen kan zodra die klaar is. Probeer het zo opnieuw.',
  failed: 'Kon het adres niet verwijderen',
  bulkTitle: 'Adressen uit een bestand verwijderen',
  bulkHelp:
    'Een bestand met één e-mailadres per regel, of een CSV-bestand met een kolom email. Elk adres wordt verwijderd zoals hierboven en voortaan geweerd.',
  bulkStarted: 'Verwijderen begonnen',
  bulkDone: 'Verwijderen klaar',
  bulkNoColumn: 'Het bestand bevat geen kolom email en de eerste kolom bevat geen e-mailadressen',
} as const;

/** POST /api/avg/erase: the address to erase, normalised as every address is. */
export const AvgEraseBodySchema = AvgLookupQuerySchema;
/** The body of POST /api/avg/erase, after normalisation. */
export type AvgEraseBody = z.infer<typeof AvgEraseBodySchema>;

/** What one erasure removed and changed. */
export const AvgErasureSchema = z.object({
  /** When the address was erased (now, or the earlier erasure when it was already erased). */
  erasedAt: z.string(),
  /** False when the address had been erased before: nothing was held, nothing changed. */
  newlyErased: z.boolean(),
  records: z.number(),
  datasets: z.number(),
  enrichmentFiles: z.number(),
  /** Mailings not yet offered the address was taken out of. */
  openMailings: z.number(),
  /** Mailings offered or cancelled in which the address stays pseudonymised. */
  sentMailings: z.number(),
  lineFileRows: z.number(),
  skippedRows: z.number(),
  /** Test persons with the e-mail deleted (a dataset's), or emptied (the settings' one). */
  testPersons: z.number(),
});
/** The answer of POST /api/avg/erase. */
export type AvgErasure = z.infer<typeof AvgErasureSchema>;

/** The result of a bulk erasure task (`avg-erase`), per line of the file. */
export const AvgBulkErasureResultSchema = z.object({
  /** The lines read (a header aside). */
  read: z.number(),
  /** Held addresses erased now. */
  erased: z.number(),
  /** Addresses not held: only their suppression was added. */
  suppressed: z.number(),
  /** Addresses erased before. */
  alreadyErased: z.number(),
  /** Lines without a valid e-mail address. */
  invalid: z.number(),
  /** Lines repeating an address of an earlier line. */
  repeated: z.number(),
  records: z.number(),
  /** Test persons with one of the e-mails deleted (a dataset's) or emptied (the settings' one). */
  testPersons: z.number().default(0),
});
/** The result of an `avg-erase` task. */
export type AvgBulkErasureResult = z.infer<typeof AvgBulkErasureResultSchema>;
