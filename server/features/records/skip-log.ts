import {
  SKIP_REASONS,
  SKIPPED_ROWS_KEPT,
  type SkippedBy,
  type SkipReason,
} from '../../../common/skipped-rows';
import { ownString } from '../../lib/own-string';

// Why an import skipped rows (docs/decisions.md 'Skipped rows'). The row mappers
// note the rows they leave out (an invalid e-mail, an exclude filter, a repeat of an e-mail the
// first import's SQL found first) per block in a SkipLog; the pass gathers the blocks' notes in a
// SkippedRows; the import adds the repeats only its SQL knows and stores the first rows.

/** One skipped row: its number in the file (the staging table's ln), why, and its e-mail field as read. */
export type SkippedRow = [row: number, reason: SkipReason, email: string | null];

/** What a block of rows skipped: the count per reason and the rows. Plain data (it crosses threads). */
export interface SkippedBlock {
  counts: SkippedBy;
  rows: SkippedRow[];
}

/** A row mapper's notes of the rows it skips, taken per block. */
export class SkipLog {
  private counts: SkippedBy = { invalid: 0, repeated: 0, excluded: 0, erased: 0 };
  private rows: SkippedRow[] = [];

  /** Notes a skipped row (`ln` as the row's COPY text field). */
  add(reason: SkipReason, ln: string | null, email: string | null | undefined): void {
    this.counts[reason]++;
    // A block holds far fewer rows than the download keeps: SkippedRows keeps the first. The
    // e-mail is copied: a field cut from its block would keep the whole block alive (a file's
    // worth of text when every block skips a row: +60 MB at 200,000 rows).
    this.rows.push([Number(ln), reason, email == null ? null : ownString(email)]);
  }

  /** The notes since the last call; null when no row was skipped. */
  take(): SkippedBlock | null {
    if (this.rows.length === 0) return null;
    const block = { counts: this.counts, rows: this.rows };
    this.counts = { invalid: 0, repeated: 0, excluded: 0, erased: 0 };
    this.rows = [];
    return block;
  }
}

/**
 * The skipped rows of a pass (and what the import adds): every row counted by reason, the
 * SKIPPED_ROWS_KEPT with the lowest row numbers kept, whatever order they come in (memory stays
 * under twice that).
 */
export class SkippedRows {
  readonly counts: SkippedBy = { invalid: 0, repeated: 0, excluded: 0, erased: 0 };
  private rows: SkippedRow[] = [];

  /** Adds a block's notes. */
  addBlock(block: SkippedBlock | null | undefined): void {
    if (!block) return;
    for (const reason of SKIP_REASONS) this.counts[reason] += block.counts[reason];
    this.keep(block.rows);
  }

  /** Adds rows to keep that were counted elsewhere (the import's own count of repeats). */
  keep(rows: SkippedRow[]): void {
    for (const row of rows) this.rows.push(row);
    if (this.rows.length > 2 * SKIPPED_ROWS_KEPT) this.trim();
  }

  /** The kept rows, by row number. */
  first(): SkippedRow[] {
    this.trim();
    return this.rows;
  }

  private trim(): void {
    this.rows.sort((a, b) => a[0] - b[0]);
    if (this.rows.length > SKIPPED_ROWS_KEPT) this.rows.length = SKIPPED_ROWS_KEPT;
  }
}
