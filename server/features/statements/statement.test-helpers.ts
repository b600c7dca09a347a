import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

const require = createRequire(import.meta.url);

// A statements world written straight into the tables (partners, datasets with commission entries,
// campaigns, mailings in their states, addresses allocated per dataset), for the route, property
// and issue tests.

/** A partner of a test world; vatPercent as the partner form takes it (21 for 21 %). */
export interface WorldPartner {
  id: string;
  name?: string;
  country?: string;
  vatNumber?: string;
  vatPercent?: number | null;
}

/** A dataset with its commission entries (amount as a decimal string in euros). */
export interface WorldDataset {
  id: string;
  partnerId: string;
  name?: string;
  separateInvoice?: boolean;
  commissions: { start: string; end: string; amount: string }[];
}

/** A mailing: its state and planned send (an ISO instant), and its addresses per dataset. */
export interface WorldMailing {
  id: string;
  name?: string;
  state: 'draft' | 'final' | 'offered' | 'cancelled';
  plannedSend: string;
  addresses: { datasetId: string; count: number }[];
}

/** A whole world. */
export interface World {
  partners: WorldPartner[];
  datasets: WorldDataset[];
  mailings: WorldMailing[];
}

/** A fresh id with a prefix. */
export function worldId(prefix: string): string {
  return `${prefix}${crypto.randomBytes(5).toString('hex')}`;
}

/** Writes the world into the database (one campaign for its mailings); returns the campaign id. */
export async function insertWorld(db: Db, world: World): Promise<string> {
  for (const p of world.partners) {
    await db.execute(sql`INSERT INTO partners (id, name, country, vat_number, vat_percentage, iban, debitor_number,
        ledger, vat_code, address, postal_code, city)
      VALUES (${p.id}, ${p.name ?? `Partner ${p.id}`}, ${p.country ?? 'NL'}, ${p.vatNumber ?? ''},
        ${p.vatPercent === undefined ? 21 / 100 : p.vatPercent === null ? null : p.vatPercent / 100},
        'NL91ABNA0417164300', ${`D-${p.id}`}, '8000', 'V21', 'Straat 1', '1234 AB', 'Ede')`);
  }
  for (const d of world.datasets) {
    await db.execute(sql`INSERT INTO datasets (id, partner_id, name, separate_invoice)
      VALUES (${d.id}, ${d.partnerId}, ${d.name ?? `Bestand ${d.id}`}, ${d.separateInvoice ?? false})`);
    for (const c of d.commissions) {
      await db.execute(sql`INSERT INTO dataset_commissions (id, dataset_id, start, "end", amount)
        VALUES (${worldId('c')}, ${d.id}, ${c.start}, ${c.end}, ${c.amount}::numeric)`);
    }
  }
  const campaignId = worldId('camp');
  await db.execute(sql`INSERT INTO campaigns (id, name) VALUES (${campaignId}, ${`Campagne ${campaignId}`})`);
  const most = Math.max(0, ...world.mailings.map((m) => m.addresses.reduce((s, a) => s + a.count, 0)));
  const tag = worldId('');
  await db.execute(sql`INSERT INTO addresses (email, domain)
    SELECT ${tag} || '-' || i || '@w.nl', 'w.nl' FROM generate_series(1, ${most}) i`);
  const { rows } = await db.execute<{ id: string }>(
    sql`SELECT id FROM addresses WHERE email LIKE ${`${tag}-%`} ORDER BY id`,
  );
  const ids = rows.map((r) => Number(r.id));
  for (const m of world.mailings) {
    await db.execute(sql`INSERT INTO mailings (id, campaign_id, name, state, planned_send)
      VALUES (${m.id}, ${campaignId}, ${m.name ?? `Mailing ${m.id}`}, ${m.state}, ${m.plannedSend}::timestamptz)`);
    let next = 0;
    for (const a of m.addresses) {
      const slice = ids.slice(next, next + a.count);
      next += a.count;
      if (slice.length === 0) continue;
      await db.execute(sql`INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
        SELECT ${m.id}, a, ${a.datasetId}, 'sel', 'new' FROM unnest(${`{${slice.join(',')}}`}::bigint[]) a`);
    }
  }
  return campaignId;
}

/** The text of each page of a PDF, as pdfjs reads it. */
export async function pdfPages(data: Buffer): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // The fonts of the standard 14 (Helvetica) from the package, so pdfjs reads them without warnings.
  const standardFontDataUrl = `${path.dirname(require.resolve('pdfjs-dist/package.json'))}/standard_fonts/`;
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), standardFontDataUrl }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages;
}
