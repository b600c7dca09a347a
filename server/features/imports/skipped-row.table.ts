import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tasks } from '../tasks/task.table';

/**
 * The first rows an import task skipped (common/skipped-rows.ts: at most SKIPPED_ROWS_KEPT a task),
 * for the download: the row's number in the file (1 = the first row after the header), the
 * reason and the e-mail field as it was in the file. Gone with its task.
 */
export const importSkippedRows = pgTable(
  'import_skipped_rows',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    row: bigint('row', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    email: text('email'),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.row] })],
);
