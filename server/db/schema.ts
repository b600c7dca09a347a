// The one pg-core schema: every feature's tables, re-exported for Drizzle and drizzle-kit.

export * from '../features/audit/audit.table';
export * from '../features/auth/session.table';
export * from '../features/avg/avg.table';
export * from '../features/blacklists/blacklist.table';
export * from '../features/campaigns/campaign.table';
export * from '../features/counts/sel-count.table';
export * from '../features/datasets/dataset.table';
export * from '../features/dns-check/dns-check.table';
export * from '../features/enrichment/enrichment.table';
export * from '../features/export-columns/export-column.table';
export * from '../features/imports/global-attribute.table';
export * from '../features/imports/mapping.table';
export * from '../features/imports/skipped-row.table';
export * from '../features/interest-types/interest-type.table';
export * from '../features/labels/label.table';
export * from '../features/mailings/mailing.table';
export * from '../features/partners/partner.table';
export * from '../features/records/address.table';
export * from '../features/reports/report.table';
export * from '../features/selections/sel.table';
export * from '../features/selections/selection.table';
export * from '../features/selections/selection-file.table';
export * from '../features/settings/settings.table';
export * from '../features/tasks/task.table';
export * from '../features/users/user.table';
