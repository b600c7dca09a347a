import { z } from 'zod';
import { MAX_NAME, nameMessage, nameProblem } from './names';
import { SKIP_REASON_LABELS } from './skipped-rows';

// Enrichment files (Verrijking; spec 001 §2, §3, §5, §7; DESIGN §6): a file's Match columns find
// addresses, its Verrijk columns become attributes of them. The contract of the screens and the API.

/** The Dutch alert titles and validation messages of the enrichment screens and routes. */
export const EnrichmentMessages = {
  nameRequired: 'Vul een bestandsnaam in',
  nameTooLong: 'De bestandsnaam mag maximaal 200 tekens lang zijn',
  nameTaken: (name: string) => `Er bestaat al een verrijkingsbestand met de naam ${name}`,
  mappingRequired: 'Koppel minstens één kolom aan een kenmerk',
  matchRequired: 'Zet minstens één gekoppelde kolom op Match',
  attributeTwice: (attr: string) => `Het kenmerk ${attr} is aan twee kolommen gekoppeld`,
  columnUnknown: (field: string) => `Het bestand heeft geen kolom ${field}`,
  mappingsInvalid: 'De mappings zijn geen geldige JSON',
  encrypted: (attr: string) =>
    `Kenmerk ${attr} is versleuteld: daarop kan een verrijkingsbestand niet matchen`,
  emailEnriched: 'Het kenmerk email kan niet worden verrijkt, alleen gematcht',
  notFound: 'Dit verrijkingsbestand bestaat niet',
  deleted: 'Het verrijkingsbestand is verwijderd',
  uploadingTitle: 'Aan het uploaden',
  uploading: 'Het verrijkingsbestand wordt verwerkt.',
  uploadedTitle: 'Upload geslaagd',
  /** The upload's outcome: the addresses found and, when there were, the rows of erased addresses left out. */
  uploaded: (n: number, erased = 0) =>
    `Het verrijkingsbestand is verwerkt: ${n} adressen gevonden.${
      erased > 0
        ? ` ${erased} ${erased === 1 ? 'regel' : 'regels'} overgeslagen: ${SKIP_REASON_LABELS.erased}.`
        : ''
    }`,
  failedTitle: (file: string) => `Error while uploading ${file}`,
  listFailed: 'Kon de verrijkingsbestanden niet ophalen',
  empty: 'Er zijn nog geen verrijkingsbestanden.',
  deleteTitle: 'Verrijkingsbestand verwijderen?',
  deleteConfirm: (name: string) =>
    `Weet je zeker dat je ${name} wilt verwijderen? De kenmerken die het toevoegde verdwijnen.`,
  deleteFailed: 'Kon het verrijkingsbestand niet verwijderen',
} as const;

/** The attribute a Match column maps onto to find addresses by their own e-mail address. */
export const ENRICHMENT_EMAIL = 'email';

/**
 * The file name of an enrichment file (spec 001 §2: required, placeholder 'Bestandsnaam'), by the
 * name rule of file names (common/names.ts: no control character, not '.' or '..', no / or \).
 */
export const EnrichmentNameSchema = z
  .string()
  .trim()
  .min(1, EnrichmentMessages.nameRequired)
  .max(MAX_NAME.file, EnrichmentMessages.nameTooLong)
  .superRefine((name, ctx) => {
    const problem = nameProblem(name, 'file');
    if (problem && problem !== 'empty' && problem !== 'tooLong')
      ctx.addIssue({ code: 'custom', message: nameMessage('file', name, problem) });
  });

/** One column of an enrichment file (spec 001 §3 enrichment CSV mapping): match false means Verrijk. */
export const EnrichmentColumnSchema = z.object({
  field: z.string().trim().min(1).max(500),
  mapped: z.string().trim().max(200),
  match: z.boolean(),
});
/** One column of an enrichment file after EnrichmentColumnSchema: its field, attribute, and Match or not. */
export type EnrichmentColumnInput = z.output<typeof EnrichmentColumnSchema>;

/**
 * The `mappings` field of POST /api/enrichment/files: the columns (unmapped ones are left out);
 * spec 001 §5: at least one mapped column and at least one of them set to Match; an attribute once,
 * named by the attribute rule of common/names.ts.
 */
export const EnrichmentMappingsSchema = z
  .array(EnrichmentColumnSchema)
  .max(1000)
  .transform((ms) => ms.filter((m) => m.mapped !== ''))
  .superRefine((ms, ctx) => {
    if (ms.length === 0) ctx.addIssue({ code: 'custom', message: EnrichmentMessages.mappingRequired });
    else if (!ms.some((m) => m.match))
      ctx.addIssue({ code: 'custom', message: EnrichmentMessages.matchRequired });
    const seen = new Set<string>();
    for (const m of ms) {
      // The attribute names a mapping makes follow one rule (common/names.ts).
      const problem = nameProblem(m.mapped, 'attribute');
      if (problem) ctx.addIssue({ code: 'custom', message: nameMessage('attribute', m.mapped, problem) });
      const key = m.mapped.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', message: EnrichmentMessages.attributeTwice(m.mapped) });
      seen.add(key);
      if (!m.match && key === ENRICHMENT_EMAIL)
        ctx.addIssue({ code: 'custom', message: EnrichmentMessages.emailEnriched });
    }
  });

/** Whether the upload form may be sent (spec 001 §2/§5): a mapped column, and a mapped one on Match. */
export function canUploadEnrichment(columns: { mapped: string; match: boolean }[]): boolean {
  const mapped = columns.filter((c) => c.mapped.trim() !== '');
  return mapped.length > 0 && mapped.some((c) => c.match);
}

/** An enrichment file as the API presents it (spec 001 §3 Enrichment file). */
export const EnrichmentFileSchema = z.object({
  _id: z.string(),
  name: z.string(),
  date: z.string(),
  recordCount: z.number(),
});
/** An enrichment file, as EnrichmentFileSchema parses it. */
export type EnrichmentFile = z.infer<typeof EnrichmentFileSchema>;

/** The counters of an enrichment task's result the upload screen shows (older results lack `erased`). */
export const EnrichmentResultSchema = z.object({
  saved: z.number().default(0),
  erased: z.number().default(0),
});

/** Reads an enrichment task's result: addresses found and rows of erased addresses left out. */
export function enrichmentResultOf(result: unknown): z.infer<typeof EnrichmentResultSchema> {
  const parsed = EnrichmentResultSchema.safeParse(result ?? {});
  return parsed.success ? parsed.data : { saved: 0, erased: 0 };
}

/** spec 001 §9: an enrichment upload's task is polled every second. */
export const ENRICHMENT_TASK_POLL_MS = 1000;
