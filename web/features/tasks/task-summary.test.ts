import { describe, expect, it } from 'vitest';
import { taskSummary } from './task-summary';

describe('taskSummary', () => {
  it("lists an upload's counters in Dutch, only those present", () => {
    expect(taskSummary({ type: 'import', result: { read: 1500, saved: 1400, skipped: 100 } })).toBe(
      'Gevonden: 1.500, Opgeslagen: 1.400, Overgeslagen: 100',
    );
  });

  it("lists a bulk AVG erasure's own counts", () => {
    const result = {
      read: 6,
      erased: 2,
      suppressed: 1,
      alreadyErased: 1,
      invalid: 1,
      repeated: 1,
      records: 3,
    };
    expect(taskSummary({ type: 'avg-erase', result })).toBe(
      'Gelezen regels: 6, Verwijderd: 2, Alleen geweerd (niet gevonden): 1, Al eerder verwijderd: 1, Ongeldig e-mailadres: 1, Dubbel in het bestand: 1, Verwijderde records: 3',
    );
  });

  it('lists the rows of erased addresses an enrichment or line file left out', () => {
    const result = { read: 5, saved: 2, erased: 3 };
    for (const type of ['enrichment', 'selection-file'] as const)
      expect(taskSummary({ type, result })).toBe('Gevonden: 5, Opgeslagen: 2, AVG-verwijderd: 3');
    // An import counts them among its skipped rows (skippedBy), not as a counter of its own.
    expect(taskSummary({ type: 'import', result })).toBe('Gevonden: 5, Opgeslagen: 2');
  });

  it('says nothing for a task without a read count', () => {
    expect(taskSummary({ type: 'selection-query', result: { count: 5 } })).toBeNull();
  });
});
