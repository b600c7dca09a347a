import type { DnsCheckCode } from '../../../common/dns-check';
import type { AppContext } from '../../context';
import type { TaskContext } from '../../tasks/worker';
import type { TaskRow } from '../tasks/task.queries';
import { deleteOtherDnsResults, listDomainsAfter, saveDnsOutcomes, seedDnsCheck } from './dns-check.queries';
import { createDnsLookup } from './dns-lookup';

const PAGE = 1000;
const FLUSH = 500;

/** The counters of a DNS check: domains checked, and per code how many. */
export type DnsCheckResult = { read: number } & Partial<Record<DnsCheckCode, number>>;

/**
 * The DNS check task (spec 001 §7 POST /dns-check, DESIGN §4): every distinct domain of the stored
 * addresses is looked up (createDnsLookup), at most `dnsConcurrency` at once, and its outcome
 * stored as it comes, so memory stays flat in the number of domains. Returns the counters.
 */
export async function runDnsCheck(
  ctx: AppContext,
  task: TaskRow,
  tctx: TaskContext,
): Promise<DnsCheckResult> {
  const { dnsServer, dnsTimeoutMs, dnsRetries, dnsConcurrency } = ctx.config;
  const lookup = createDnsLookup({ server: dnsServer, timeoutMs: dnsTimeoutMs, retries: dnsRetries });
  await tctx.progress(0, 'executing');
  const total = await seedDnsCheck(ctx.db, task.id);
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
      if (pending.length >= FLUSH) {
        await flush();
        await tctx.progress(total ? (counts.read / total) * 100 : 100);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, dnsConcurrency) }, lookups));
  await flush();
  await deleteOtherDnsResults(ctx.db, task.id);
  return counts;
}
