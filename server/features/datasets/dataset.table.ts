import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { partners } from '../partners/partner.table';

/** Dataset settings kept as JSON (spec 000 §3: emailColumnName is held as config.emailColumnName). */
export interface DatasetConfig {
  emailColumnName?: string;
}

/** A partner's file of e-mail records; `sort` decides priority between datasets (lower first). */
export const datasets = pgTable(
  'datasets',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    apiKey: text('api_key'),
    types: text('types').array().notNull().default([]),
    config: jsonb('config').$type<DatasetConfig>().notNull().default({}),
    active: boolean('active').notNull().default(true),
    separateInvoice: boolean('separate_invoice').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    recordCount: bigint('record_count', { mode: 'number' }).notNull().default(0),
    /** The dataset's small number, by which the selection engine's tables name it (migration 0025). */
    num: integer('num').generatedAlwaysAsIdentity(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('datasets_partner_name_key').on(t.partnerId, t.name),
    uniqueIndex('datasets_api_key_key').on(t.apiKey),
    index('datasets_sort_idx').on(t.sort, t.id),
    uniqueIndex('datasets_num_key').on(t.num),
  ],
);

/** Commission per address of a dataset, valid from start to end (inclusive dates). */
export const datasetCommissions = pgTable(
  'dataset_commissions',
  {
    id: text('id').primaryKey(),
    datasetId: text('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    start: date('start', { mode: 'string' }).notNull(),
    end: date('end', { mode: 'string' }).notNull(),
    amount: numeric('amount', { precision: 14, scale: 4, mode: 'number' }).notNull(),
  },
  (t) => [index('dataset_commissions_dataset_idx').on(t.datasetId, t.start)],
);

/** Extra effort (participation) factor of a dataset, valid from start to end (inclusive dates). */
export const datasetParticipations = pgTable(
  'dataset_participations',
  {
    id: text('id').primaryKey(),
    datasetId: text('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    start: date('start', { mode: 'string' }).notNull(),
    end: date('end', { mode: 'string' }).notNull(),
    factor: numeric('factor', { precision: 10, scale: 4, mode: 'number' }).notNull(),
  },
  (t) => [index('dataset_participations_dataset_idx').on(t.datasetId, t.start)],
);

/** Test persons of a dataset: they receive the test list of a mailing. */
export const datasetTestPersons = pgTable(
  'dataset_test_persons',
  {
    id: text('id').primaryKey(),
    datasetId: text('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull().default(''),
    preposition: text('preposition').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    gender: text('gender').notNull().default('M'),
    email: text('email').notNull(),
  },
  (t) => [index('dataset_test_persons_dataset_idx').on(t.datasetId)],
);
