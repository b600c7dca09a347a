/**
 * Failed logins counted per client IP across usernames, in fixed windows, against password
 * spraying (one password tried on many usernames, which the IP-plus-username limit never sees).
 * Only failures count, so colleagues behind one office address who log in correctly are never
 * blocked. In memory, like the other rate limit: a restart starts the count again.
 */
export class FailedLoginLimit {
  private readonly counts = new Map<string, { failures: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `ip` has used up its failures of the current window. */
  isBlocked(ip: string): boolean {
    const entry = this.counts.get(ip);
    return entry !== undefined && entry.resetAt > this.now() && entry.failures >= this.max;
  }

  /** Counts one failed login of `ip`. */
  recordFailure(ip: string): void {
    const now = this.now();
    const entry = this.counts.get(ip);
    if (entry && entry.resetAt > now) entry.failures++;
    else this.counts.set(ip, { failures: 1, resetAt: now + this.windowMs });
    // Bounded memory under a flood of addresses: drop the windows that are over.
    if (this.counts.size > 10_000) {
      for (const [key, e] of this.counts) if (e.resetAt <= now) this.counts.delete(key);
    }
  }
}
