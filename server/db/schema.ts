// The one pg-core schema: every feature's tables, re-exported for Drizzle and drizzle-kit.
export * from '../features/users/user.table';
export * from '../features/auth/session.table';
export * from '../features/tasks/task.table';
