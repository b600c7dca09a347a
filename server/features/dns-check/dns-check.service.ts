import { DNS_RESOLVER_DOWN, type DnsCheckCode } from '../../../common/dns-check';
import type { AppContext } from '../../context';
import type { TaskContext } from '../../tasks/worker';
import type { TaskRow } from '../tasks/task.queries';
import {
  deleteOtherDnsResults,
  failPendingDnsResults,
  listDomainsAfter,
  saveDnsOutcomes,
  seedDnsCheck,
} from './dns-check.queries';
import { checkResolver, createDnsLookup } from './dns-lookup';

const PAGE = 1000;
const FLUSH = 500;

/**
 * The counters of a DNS check: domains checked, per code how many, and when the resolver failed
 * the root-zone check, its code.
 */
export type DnsCheckResult = { read: number; resolverError?: string } & Partial<Record<DnsCheckCode, number>>;

/**
 * The DNS check task (spec 001 §7 POST /dns-check, DESIGN §4): every distinct domain of the stored
 * addresses is looked up (createDnsLookup), at most `dnsConcurrency` at once, and its outcome
 * stored as it comes, so memory stays flat in the number of domains. A resolver that fails the
 * root-zone check (checkResolver) is not asked at all: every domain is ERROR 'RESOLVER_DOWN'.
 * Returns the counters.
 */
export async function runDnsCheck(
  ctx: AppContext,
  task: TaskRow,
  tctx: TaskContext,
): Promise<DnsCheckResult> {
  const { dnsServer, dnsTimeoutMs, dnsRetries, dnsConcurrency } = ctx.config;
  const options = { server: dnsServer, timeoutMs: dnsTimeoutMs, retries: dnsRetries };
  await tctx.progress(0, 'executing');
  const total = await seedDnsCheck(ctx.db, task.id);
  await tctx.count(0, total, { unit: 'domains' });
  // A resolver cut off from the internet answers NXDOMAIN for every name, gmail.com included, and
  // a dead one only times out; neither says anything about the domains.
  const resolverError = await checkResolver(options);
  if (resolverError) {
    await failPendingDnsResults(ctx.db, task.id, DNS_RESOLVER_DOWN);
    await deleteOtherDnsResults(ctx.db, task.id);
    return { read: total, ERROR: total, resolverError };
  }
  const lookup = createDnsLookup(options);
  const counts: DnsCheckResult = { read: 0 };

  // Domains come by pages in domain order; an async generator hands them out one at a time to
  // the lookups in flight (its next() calls queue), so a slow domain holds up only itself.
  async function* domains() {
    let after = '';
    while (true) {
      const page = await listDomainsAfter(ctx.db, task.id, after, PAGE);
      if (page.length === 0) return;
      yield* page;
      after = page[page.length - 1];
    }
  }
  const source = domains();
  let pending: { domain: string; check: DnsCheckCode; error: string | null }[] = [];
  let writes = Promise.resolve();
  const flush = () => {
    const batch = pending;
    pending = [];
    writes = writes.then(() => saveDnsOutcomes(ctx.db, task.id, batch));
    return writes;
  };

  async function lookups() {
    while (true) {
      const next = await source.next();
      if (next.done) return;
      const outcome = await lookup(next.value);
      pending.push({ domain: next.value, ...outcome });
      counts.read++;
      counts[outcome.check] = (counts[outcome.check] ?? 0) + 1;
      // Domains checked of all; the reporter writes a few times a second at most.
      void tctx.count(counts.read, total, { unit: 'domains' });
      if (pending.length >= FLUSH) await flush();
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, dnsConcurrency) }, lookups));
  await flush();
  await deleteOtherDnsResults(ctx.db, task.id);
  return counts;
}
