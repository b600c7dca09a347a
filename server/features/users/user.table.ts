import { sql } from 'drizzle-orm';
import { bigint, boolean, check, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Staff accounts that log in to the back office. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    /**
     * 'admin' manages users; 'staff' changes only its own password and 2fa (docs/decisions.md,
     * Users and roles).
     */
    role: text('role', { enum: ['admin', 'staff'] })
      .notNull()
      .default('staff'),
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    totpSecret: text('totp_secret'),
    /** A secret being enrolled: it becomes totp_secret (and 2fa turns on) once its first code is confirmed. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The 30 s time step of the last TOTP code accepted, so a code logs in only once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    check('users_role_check', sql`${t.role} IN ('admin', 'staff')`),
  ],
);
