import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { from as copyFrom } from 'pg-copy-streams';
import type { ExternalParty } from '../../../common/campaigns';
import { MailingMessages, type ResultEvent } from '../../../common/mailings';
import { type Database, withClientTransaction } from '../../db/client';
import { conflict, notFound } from '../../lib/http-errors';
import { copyInCsvLine } from '../uploads/csv-output';
import { applyResults, type ResultsOutcome } from './results.service';

// DESIGN §6: results will also come from the mail providers (tripolis, webpower) by the mailing's
// external ids. Each provider is an adapter behind this one interface; the results go the same way
// as a results file (staged by COPY, applied by applyResults). The adapters that talk to the
// providers' APIs need their credentials and API documents (docs/decisions.md, Mailings); tests
// use a fake, and nothing here opens a network connection.

/** One result event as a provider reports it. */
export interface ProviderEvent {
  email: string;
  event: ResultEvent;
  at: Date;
  os?: string;
}

/** A mail provider's results for its mailings, by the id the mailing holds for it. */
export interface ResultsProvider {
  readonly party: ExternalParty;
  /**
   * The events of the provider's mailing `externalId` (webpower: 'campaign:mailing', tripolis: a
   * mailing id), in any order; repeated events are harmless.
   */
  fetchResults(externalId: string): AsyncIterable<ProviderEvent>;
}

/** The adapters by provider; a provider without one cannot be asked. */
export type ResultsProviders = Partial<Record<ExternalParty, ResultsProvider>>;

/** The message when a mailing's provider has no adapter (or the mailing no external id). */
export const ProviderMessages = {
  noAdapter: (party: string) => `Voor ${party} is geen koppeling ingesteld`,
  noExternalId: 'De mailing heeft geen extern id',
} as const;

async function* csvOf(events: AsyncIterable<ProviderEvent>): AsyncGenerator<string> {
  for await (const e of events) yield copyInCsvLine([e.email, e.event, e.at.toISOString(), e.os ?? '']);
}

/**
 * Imports a mailing's results from its provider: the events of each of its external ids are
 * streamed by COPY into a temporary table and applied as a results file is, in one transaction
 * (idempotent too). Returns the counts; throws 404 for an unknown mailing and 409 when the
 * provider has no adapter or the mailing no external id.
 */
export async function importProviderResults(
  database: Database,
  mailingId: string,
  providers: ResultsProviders,
): Promise<ResultsOutcome> {
  return withClientTransaction(database, async (tx, client) => {
    const found = await tx.execute<{ external_party: ExternalParty; external_ids: string[] }>(
      sql`SELECT external_party, external_ids FROM mailings WHERE id = ${mailingId} FOR SHARE`,
    );
    const mailing = found.rows[0];
    if (!mailing) throw notFound(MailingMessages.notFound);
    const provider = providers[mailing.external_party];
    if (!provider) throw conflict(ProviderMessages.noAdapter(mailing.external_party));
    if (mailing.external_ids.length === 0) throw conflict(ProviderMessages.noExternalId);
    await client.query(
      'CREATE TEMP TABLE provider_results (ln bigint GENERATED ALWAYS AS IDENTITY, c1 text, c2 text, c3 text, c4 text) ON COMMIT DROP',
    );
    for (const id of mailing.external_ids) {
      await pipeline(
        Readable.from(csvOf(provider.fetchResults(id))),
        client.query(copyFrom('COPY provider_results (c1, c2, c3, c4) FROM STDIN WITH (FORMAT csv)')),
      );
    }
    const rows = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM provider_results');
    return applyResults(tx, {
      mailingId,
      staging: 'provider_results',
      rows: rows.rows[0].n,
      emailIndex: 0,
      eventIndex: 1,
      dateIndex: 2,
      osIndex: 3,
      instants: true,
    });
  });
}
