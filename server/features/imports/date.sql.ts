import { type SQL, sql } from 'drizzle-orm';
import { compileDateFormat, DATE_TRIM_CHARS, sqlSpec } from '../../../common/date-format';

/**
 * The SQL expression that parses the text column `columnSql` with a moment-style `format`
 * (spec 000 §5): 'YYYY-MM-DD HH:mm:ss' text, or NULL when the value is no valid date. The regular
 * expression and the capture indexes go in as parameters. Throws for an invalid format.
 */
export function dateExpression(columnSql: SQL, format: string): SQL {
  const compiled = compileDateFormat(format);
  const spec = `{${sqlSpec(compiled).join(',')}}`;
  return sql`lw_date(regexp_match(btrim(${columnSql}, ${DATE_TRIM_CHARS}::text), ${compiled.source}::text), ${spec}::int[])`;
}
